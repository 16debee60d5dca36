/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "vclos-fuzz-support.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <new>
#include <stdexcept>
#include <unistd.h>

namespace
{

/// The file VclosFuzzInputFile wrote last.
std::string g_lastInput;

/**
 * Report a finding. Normally the process aborts (the driver saves the input). With
 * VCLOS_FUZZ_CONTINUE set (triage: see README.md), the first input of each kind of finding
 * is copied to ./finding-<n><suffix> and the run goes on.
 */
void
Finding(const std::string& kind, const std::string& detail)
{
    std::cerr << "vclos fuzz: FINDING: " << kind << ": " << detail << std::endl;
    if (std::getenv("VCLOS_FUZZ_CONTINUE") == nullptr)
    {
        std::abort();
    }
    static std::map<std::string, int> seen;
    static int count = 0;
    if (count++ == 0)
    {
        // The run still fails, at its end.
        std::atexit([] {
            std::cerr << "vclos fuzz: " << count << " inputs gave findings" << std::endl;
            _exit(1);
        });
    }
    if (seen.count(kind) != 0)
    {
        return;
    }
    int n = static_cast<int>(seen.size());
    seen[kind] = n;
    std::string suffix = g_lastInput.substr(std::min(g_lastInput.rfind('.'), g_lastInput.size()));
    std::string copy = "finding-" + std::to_string(n) + suffix;
    std::ifstream in(g_lastInput, std::ios::binary);
    std::ofstream(copy, std::ios::binary) << in.rdbuf();
    std::cerr << "vclos fuzz: (continuing) the input is in " << copy << std::endl;
}

/// A temporary file, created on first use and removed when the process exits normally.
struct TempFile
{
    explicit TempFile(const std::string& suffix)
    {
        const char* dir = std::getenv("TMPDIR");
        path = std::string(dir && *dir ? dir : "/tmp") + "/vclos-fuzz-XXXXXX" + suffix;
        fd = mkstemps(path.data(), static_cast<int>(suffix.size()));
        if (fd < 0)
        {
            std::perror("vclos fuzz: cannot create a temporary file");
            std::abort();
        }
    }

    ~TempFile()
    {
        close(fd);
        unlink(path.c_str());
    }

    std::string path;
    int fd;
};

} // namespace

std::string
VclosFuzzInputFile(const uint8_t* data, std::size_t size, const std::string& suffix)
{
    static std::map<std::string, TempFile> files;
    TempFile& file = files.try_emplace(suffix, suffix).first->second;
    std::size_t done = 0;
    if (ftruncate(file.fd, 0) != 0)
    {
        std::perror("vclos fuzz: ftruncate");
        std::abort();
    }
    while (done < size)
    {
        ssize_t n = pwrite(file.fd, data + done, size - done, static_cast<off_t>(done));
        if (n <= 0)
        {
            std::perror("vclos fuzz: cannot write the temporary file");
            std::abort();
        }
        done += static_cast<std::size_t>(n);
    }
    g_lastInput = file.path;
    return file.path;
}

void
VclosFuzzCheckRefusal(const std::exception& error, const std::string& mustName)
{
    std::string what = error.what();
    const char* problem = nullptr;
    if (dynamic_cast<const std::bad_alloc*>(&error) != nullptr)
    {
        problem = "std::bad_alloc: an allocation sized by the input was not refused first";
    }
    else if (what.empty())
    {
        problem = "an empty error message";
    }
    else if (what.find('\n') != std::string::npos)
    {
        problem = "an error message of more than one line";
    }
    else if (!mustName.empty() && what.find(mustName) == std::string::npos)
    {
        problem = "an error message that does not name the file";
    }
    if (problem != nullptr)
    {
        Finding(problem, what);
    }
}

void
VclosFuzzRequire(bool holds, const std::string& property)
{
    if (!holds)
    {
        Finding("an accepted input breaks: " + property, "");
    }
}

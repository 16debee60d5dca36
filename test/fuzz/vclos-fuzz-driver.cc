/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// A standalone driver for the fuzz targets, for builds without libFuzzer (g++, the default).
// It takes libFuzzer's command-line form, so runs are written the same way for both:
//
//   <target> [-runs=N] [-seed=S] [-max_len=L] [-timeout=S] [-max_total_time=S]
//            [-report_slow_units=S] [-artifact_prefix=P] <file or directory>...
//
// It replays every file given (directories: their files, in name order), then, unless only
// files were given and no -runs, feeds N deterministic mutations of them (VclosFuzzMutator):
// the same seed and files give the same inputs. An input that crashes, aborts, trips a
// sanitizer or runs longer than -timeout seconds is written to <P>crash-<hash> (or
// timeout-<hash>) before the process dies; replay that file to reproduce it. Inputs slower
// than -report_slow_units seconds (default 10) are saved as slow-unit-<hash>.
#include "vclos-fuzz-mutator.h"

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <unistd.h>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size);
// Present only in sanitizer builds: called when a sanitizer report ends the process.
extern "C" void __sanitizer_set_death_callback(void (*callback)()) __attribute__((weak));

// Sanitizer builds: UBSan aborts on its first report (so that the input is saved, as for
// any abort) and prints the stack. UBSAN_OPTIONS overrides this.
extern "C" const char*
__ubsan_default_options()
{
    return "halt_on_error=1:abort_on_error=1:print_stacktrace=1";
}

namespace
{

/// The input being run, for the handlers below (which must only use async-signal-safe calls).
const std::string* g_current = nullptr;
/// "<artifact prefix>" as a C string, set once.
std::string g_prefix;

/// Write the current input to <prefix><kind>-<FNV-1a hash> and say so on stderr.
void
SaveCurrent(const char* kind)
{
    if (g_current == nullptr)
    {
        return;
    }
    uint64_t hash = 1469598103934665603ull;
    for (char c : *g_current)
    {
        hash = (hash ^ static_cast<unsigned char>(c)) * 1099511628211ull;
    }
    char name[4096];
    std::size_t n = 0;
    auto append = [&](const char* text) {
        for (; *text != '\0' && n + 1 < sizeof(name); ++text)
        {
            name[n++] = *text;
        }
    };
    append(g_prefix.c_str());
    append(kind);
    append("-");
    for (int shift = 60; shift >= 0; shift -= 4)
    {
        char digit[2] = {"0123456789abcdef"[(hash >> shift) & 0xf], '\0'};
        append(digit);
    }
    name[n] = '\0';
    int fd = open(name, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0)
    {
        ssize_t ignored = write(fd, g_current->data(), g_current->size());
        (void)ignored;
        close(fd);
    }
    const char* say = "\nvclos fuzz: the failing input is in ";
    ssize_t ignored = write(STDERR_FILENO, say, std::strlen(say));
    ignored = write(STDERR_FILENO, name, n);
    ignored = write(STDERR_FILENO, "\n", 1);
    (void)ignored;
    g_current = nullptr;
}

void
OnDeath()
{
    SaveCurrent("crash");
}

void
OnSignal(int signal)
{
    if (signal == SIGALRM)
    {
        const char* say = "\nvclos fuzz: an input ran past -timeout (a hang)";
        ssize_t ignored = write(STDERR_FILENO, say, std::strlen(say));
        (void)ignored;
        SaveCurrent("timeout");
        _exit(70);
    }
    SaveCurrent("crash");
    std::signal(signal, SIG_DFL);
    raise(signal);
}

/// Read every file named (directories: their regular files, sorted by name).
std::vector<std::string>
ReadInputs(const std::vector<std::string>& paths, bool& onlyFiles)
{
    namespace fs = std::filesystem;
    std::vector<std::string> files;
    onlyFiles = true;
    for (const std::string& path : paths)
    {
        if (fs::is_directory(path))
        {
            onlyFiles = false;
            std::vector<std::string> inside;
            for (const auto& entry : fs::directory_iterator(path))
            {
                if (entry.is_regular_file())
                {
                    inside.push_back(entry.path().string());
                }
            }
            std::sort(inside.begin(), inside.end());
            files.insert(files.end(), inside.begin(), inside.end());
        }
        else
        {
            files.push_back(path);
        }
    }
    std::vector<std::string> inputs;
    for (const std::string& file : files)
    {
        std::ifstream in(file, std::ios::binary);
        if (!in)
        {
            std::cerr << "vclos fuzz: cannot read " << file << std::endl;
            std::exit(2);
        }
        std::ostringstream text;
        text << in.rdbuf();
        inputs.push_back(text.str());
    }
    return inputs;
}

/// Run one input under the per-input time limit; an input slower than slowSeconds is saved
/// as slow-unit-<hash> (not a failure: a hint where a bound is missing).
double
Run(const std::string& input, unsigned timeout, double slowSeconds)
{
    g_current = &input;
    auto start = std::chrono::steady_clock::now();
    alarm(timeout);
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(input.data()), input.size());
    alarm(0);
    std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
    if (took.count() > slowSeconds)
    {
        std::cerr << "vclos fuzz: slow input: " << took.count() << " s, " << input.size()
                  << " bytes";
        SaveCurrent("slow-unit");
    }
    g_current = nullptr;
    return took.count();
}

} // namespace

int
main(int argc, char** argv)
{
    long runs = -1; // -1: 0 if only files were given, else the default below
    uint64_t seed = 1;
    std::size_t maxLength = 1 << 20;
    unsigned timeout = 60;
    double maxTotalTime = 0;
    double slowSeconds = 10;
    std::vector<std::string> paths;
    for (int i = 1; i < argc; ++i)
    {
        std::string arg = argv[i];
        auto value = [&](const char* flag) -> const char* {
            std::size_t n = std::strlen(flag);
            return arg.compare(0, n, flag) == 0 ? arg.c_str() + n : nullptr;
        };
        if (const char* v = value("-runs="))
        {
            runs = std::strtol(v, nullptr, 10);
        }
        else if (const char* v = value("-seed="))
        {
            seed = std::strtoull(v, nullptr, 10);
        }
        else if (const char* v = value("-max_len="))
        {
            maxLength = std::strtoull(v, nullptr, 10);
        }
        else if (const char* v = value("-timeout="))
        {
            timeout = static_cast<unsigned>(std::strtoul(v, nullptr, 10));
        }
        else if (const char* v = value("-max_total_time="))
        {
            maxTotalTime = std::strtod(v, nullptr);
        }
        else if (const char* v = value("-report_slow_units="))
        {
            slowSeconds = std::strtod(v, nullptr);
        }
        else if (const char* v = value("-artifact_prefix="))
        {
            g_prefix = v;
        }
        else if (value("-rss_limit_mb="))
        {
            // libFuzzer's memory limit: this driver has none (ASan could not run under one).
        }
        else if (!arg.empty() && arg[0] == '-')
        {
            std::cerr << "vclos fuzz: ignoring " << arg << " (a libFuzzer flag this driver lacks)"
                      << std::endl;
        }
        else
        {
            paths.push_back(arg);
        }
    }
    if (__sanitizer_set_death_callback != nullptr)
    {
        __sanitizer_set_death_callback(OnDeath); // the sanitizer handles SIGSEGV and friends
    }
    else
    {
        // On an alternate stack, so that a stack overflow (deep nesting) is reported too.
        static std::vector<char> altStack(1 << 16);
        stack_t stack{};
        stack.ss_sp = altStack.data();
        stack.ss_size = altStack.size();
        sigaltstack(&stack, nullptr);

        struct sigaction action
        {
        };

        action.sa_handler = OnSignal;
        action.sa_flags = SA_ONSTACK;
        for (int signal : {SIGSEGV, SIGBUS, SIGFPE, SIGILL})
        {
            sigaction(signal, &action, nullptr);
        }
    }
    std::signal(SIGABRT, OnSignal);
    std::signal(SIGALRM, OnSignal);

    bool onlyFiles = true;
    std::vector<std::string> corpus = ReadInputs(paths, onlyFiles);
    if (runs < 0)
    {
        runs = onlyFiles && !paths.empty() ? 0 : 10000;
    }
    auto start = std::chrono::steady_clock::now();
    double slowest = 0;
    for (const std::string& input : corpus)
    {
        slowest = std::max(slowest, Run(input, timeout, slowSeconds));
    }
    VclosFuzzMutator mutator(corpus, seed, maxLength);
    long done = 0;
    for (; done < runs; ++done)
    {
        std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
        if (maxTotalTime > 0 && elapsed.count() >= maxTotalTime)
        {
            break;
        }
        slowest = std::max(slowest, Run(mutator.Next(), timeout, slowSeconds));
    }
    std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
    std::cout << "vclos fuzz: replayed " << corpus.size() << " inputs and " << done
              << " mutations (seed " << seed << ") in " << elapsed.count() << " s (slowest input "
              << slowest << " s): no findings" << std::endl;
    return 0;
}

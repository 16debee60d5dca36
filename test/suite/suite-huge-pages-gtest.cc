/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// SuiteUseHugePages: when a program runs itself again with glibc's huge-page tunable, and
// that it does (the exec, the environment it passes on).
// Tests: suite-huge-pages
#include "ns3/suite-module.h"

#include <cstdlib>
#include <fstream>
#include <gtest/gtest.h>
#include <iterator>
#include <string>
#include <sys/wait.h>
#include <tuple>
#include <unistd.h>

using namespace ns3;

namespace
{

const std::string MADVISE = "always [madvise] never\n";
const std::string TUNABLE = "glibc.malloc.hugetlb=1";

} // namespace

TEST(SuiteHugePages, AsksForTheTunableWhereTheKernelGivesHugePages)
{
    EXPECT_EQ(SuiteHugePagesTunables(nullptr, nullptr, nullptr, MADVISE), TUNABLE);
    EXPECT_EQ(SuiteHugePagesTunables(nullptr, nullptr, nullptr, "[always] madvise never\n"),
              TUNABLE);
    EXPECT_EQ(SuiteHugePagesTunables("", "1", "", MADVISE), TUNABLE);
    // Other tunables are kept, in front.
    EXPECT_EQ(SuiteHugePagesTunables("glibc.malloc.arena_max=2", nullptr, nullptr, MADVISE),
              "glibc.malloc.arena_max=2:" + TUNABLE);
    // A name that only starts like it is another tunable.
    EXPECT_EQ(SuiteHugePagesTunables("glibc.malloc.hugetlbx=0", nullptr, nullptr, MADVISE),
              "glibc.malloc.hugetlbx=0:" + TUNABLE);
    // An empty LD_PRELOAD preloads nothing.
    EXPECT_EQ(SuiteHugePagesTunables(nullptr, nullptr, "", MADVISE), TUNABLE);
}

TEST(SuiteHugePages, LeavesTheProcessAloneWhereItShould)
{
    // The user's own choice stands, either way.
    EXPECT_EQ(SuiteHugePagesTunables("glibc.malloc.hugetlb=0", nullptr, nullptr, MADVISE), "");
    EXPECT_EQ(SuiteHugePagesTunables("a=1:glibc.malloc.hugetlb=1", nullptr, nullptr, MADVISE), "");
    EXPECT_EQ(SuiteHugePagesTunables(nullptr, "0", nullptr, MADVISE), "");
    // Named with no value is named too (it was taken as absent: the program ran itself again
    // and again, each time adding the tunable behind the empty one).
    EXPECT_EQ(SuiteHugePagesTunables("glibc.malloc.hugetlb=", nullptr, nullptr, MADVISE), "");
    EXPECT_EQ(SuiteHugePagesTunables("a=1:glibc.malloc.hugetlb=:b=2", nullptr, nullptr, MADVISE),
              "");
    // A preloaded tool may not follow the exec (valgrind's do not); a preloaded allocator
    // keeps its own page policy.
    EXPECT_EQ(SuiteHugePagesTunables(nullptr,
                                     nullptr,
                                     "/usr/libexec/valgrind/vgpreload_core-amd64-linux.so",
                                     MADVISE),
              "");
    EXPECT_EQ(SuiteHugePagesTunables(nullptr,
                                     nullptr,
                                     "/usr/lib/x86_64-linux-gnu/libjemalloc.so.2",
                                     MADVISE),
              "");
    // The kernel gives none, or says nothing.
    EXPECT_EQ(SuiteHugePagesTunables(nullptr, nullptr, nullptr, "always madvise [never]\n"), "");
    EXPECT_EQ(SuiteHugePagesTunables(nullptr, nullptr, nullptr, ""), "");
}

namespace
{

/// Sets or (nullptr) unsets an environment variable.
void
SetOrUnset(const char* name, const char* value)
{
    if (value)
    {
        setenv(name, value, 1);
    }
    else
    {
        unsetenv(name);
    }
}

/**
 * Fork; the child sets \p optOut, GLIBC_TUNABLES (\p tunables) and SUITE_HUGE_PAGES_RERUN
 * (\p rerun), calls SuiteUseHugePages with a shell that writes the GLIBC_TUNABLES and
 * SUITE_HUGE_PAGES_RERUN it received to a file, and exits 99 if no exec happened.
 * \return the child's exit status and the file's text ("" if none)
 */
std::pair<int, std::string>
RunAgain(const char* optOut, const char* tunables = nullptr, const char* rerun = nullptr)
{
    char path[] = "/tmp/suite-huge-pages-XXXXXX";
    const int fd = mkstemp(path);
    EXPECT_GE(fd, 0);
    close(fd);
    std::remove(path);
    const pid_t pid = fork();
    if (pid == 0)
    {
        unsetenv("LD_PRELOAD");
        SetOrUnset("GLIBC_TUNABLES", tunables);
        SetOrUnset(SUITE_HUGE_PAGES_ENV, optOut);
        SetOrUnset("SUITE_HUGE_PAGES_RERUN", rerun);
        std::string script =
            "printf %s \"$GLIBC_TUNABLES;$SUITE_HUGE_PAGES_RERUN\" > " + std::string(path);
        char* argv[] = {const_cast<char*>("sh"), const_cast<char*>("-c"), script.data(), nullptr};
        SuiteUseHugePages(argv, "/bin/sh");
        _exit(99);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    std::ifstream in(path);
    const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    std::remove(path);
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, text};
}

/// \return whether this machine's kernel gives transparent huge pages to madvise
bool
KernelGivesHugePages()
{
    std::ifstream mode("/sys/kernel/mm/transparent_hugepage/enabled");
    const std::string text{std::istreambuf_iterator<char>(mode), std::istreambuf_iterator<char>()};
    return !text.empty() && text.find("[never]") == std::string::npos;
}

} // namespace

TEST(SuiteHugePages, RunsTheProgramAgainWithTheTunable)
{
    const auto [status, tunables] = RunAgain(nullptr);
    if (!KernelGivesHugePages())
    {
        GTEST_SKIP() << "this kernel gives no transparent huge pages";
    }
    EXPECT_EQ(status, 0);
    EXPECT_EQ(tunables, TUNABLE + ";1");
}

TEST(SuiteHugePages, RunsAgainAtMostOnce)
{
    // The rerun itself never runs again, whatever became of its tunables.
    auto [status, tunables] = RunAgain(nullptr, nullptr, "1");
    EXPECT_EQ(status, 99);
    EXPECT_EQ(tunables, "");
    // Nor does a process whose tunable is named with an empty value.
    std::tie(status, tunables) = RunAgain(nullptr, "glibc.malloc.hugetlb=");
    EXPECT_EQ(status, 99);
    EXPECT_EQ(tunables, "");
}

TEST(SuiteHugePages, OptedOutTheProgramGoesOnAsItIs)
{
    const auto [status, tunables] = RunAgain("0");
    EXPECT_EQ(status, 99);
    EXPECT_EQ(tunables, "");
}

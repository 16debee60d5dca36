/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// SuiteUseHugePages: when a program runs itself again with glibc's huge-page tunable, and
// that it does (the exec, the environment it passes on).
#include "ns3/suite-module.h"

#include <cstdlib>
#include <fstream>
#include <gtest/gtest.h>
#include <iterator>
#include <string>
#include <sys/wait.h>
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

/**
 * Fork; the child sets \p optOut, calls SuiteUseHugePages with a shell that writes the
 * GLIBC_TUNABLES it received to a file, and exits 99 if no exec happened.
 * \return the child's exit status and the file's text ("" if none)
 */
std::pair<int, std::string>
RunAgain(const char* optOut)
{
    char path[] = "/tmp/suite-huge-pages-XXXXXX";
    const int fd = mkstemp(path);
    EXPECT_GE(fd, 0);
    close(fd);
    std::remove(path);
    const pid_t pid = fork();
    if (pid == 0)
    {
        unsetenv("GLIBC_TUNABLES");
        unsetenv("LD_PRELOAD");
        if (optOut)
        {
            setenv(SUITE_HUGE_PAGES_ENV, optOut, 1);
        }
        else
        {
            unsetenv(SUITE_HUGE_PAGES_ENV);
        }
        std::string script = "printf %s \"$GLIBC_TUNABLES\" > " + std::string(path);
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
    EXPECT_EQ(tunables, TUNABLE);
}

TEST(SuiteHugePages, OptedOutTheProgramGoesOnAsItIs)
{
    const auto [status, tunables] = RunAgain("0");
    EXPECT_EQ(status, 99);
    EXPECT_EQ(tunables, "");
}

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "suite-huge-pages.h"

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <optional>
#include <unistd.h>

namespace ns3
{

namespace
{

/// glibc's tunable: malloc madvises the memory it gets from the kernel for huge pages.
constexpr const char* HUGETLB_TUNABLE = "glibc.malloc.hugetlb";

/// Set in the environment of the process SuiteUseHugePages runs again: that one never does.
constexpr const char* RERUN_ENV = "SUITE_HUGE_PAGES_RERUN";

/// \return the tunable's value in a GLIBC_TUNABLES text ("a=1:b=2"), or nullopt if it is
///         absent ("" when it is named with no value)
std::optional<std::string>
TunableValue(const std::string& tunables, const std::string& name)
{
    std::size_t begin = 0;
    while (begin <= tunables.size())
    {
        std::size_t end = tunables.find(':', begin);
        end = end == std::string::npos ? tunables.size() : end;
        const std::string item = tunables.substr(begin, end - begin);
        if (item.compare(0, name.size() + 1, name + "=") == 0)
        {
            return item.substr(name.size() + 1);
        }
        begin = end + 1;
    }
    return std::nullopt;
}

} // namespace

std::string
SuiteHugePagesTunables(const char* glibcTunables,
                       const char* optOut,
                       const char* ldPreload,
                       const std::string& thpMode)
{
    const std::string tunables = glibcTunables ? glibcTunables : "";
    if (TunableValue(tunables, HUGETLB_TUNABLE).has_value() ||
        (optOut && std::strcmp(optOut, "0") == 0) || (ldPreload && *ldPreload) ||
        thpMode.find("[never]") != std::string::npos || thpMode.empty())
    {
        return "";
    }
    return (tunables.empty() ? "" : tunables + ":") + HUGETLB_TUNABLE + "=1";
}

void
SuiteUseHugePages(char* argv[], const char* program)
{
    std::ifstream mode("/sys/kernel/mm/transparent_hugepage/enabled");
    const std::string thpMode{std::istreambuf_iterator<char>(mode),
                              std::istreambuf_iterator<char>()};
    const char* before = std::getenv("GLIBC_TUNABLES");
    const std::string original = before ? before : "";
    const std::string tunables = SuiteHugePagesTunables(before,
                                                        std::getenv(SUITE_HUGE_PAGES_ENV),
                                                        std::getenv("LD_PRELOAD"),
                                                        thpMode);
    if (tunables.empty() || std::getenv(RERUN_ENV) != nullptr)
    {
        return;
    }
    if (setenv(RERUN_ENV, "1", 1) == 0 && setenv("GLIBC_TUNABLES", tunables.c_str(), 1) == 0)
    {
        execv(program, argv);
    }
    // The exec failed: go on as before, without the tunable.
    unsetenv(RERUN_ENV);
    if (original.empty())
    {
        unsetenv("GLIBC_TUNABLES");
    }
    else
    {
        setenv("GLIBC_TUNABLES", original.c_str(), 1);
    }
}

bool
SuiteHugePagesRequested()
{
    const char* tunables = std::getenv("GLIBC_TUNABLES");
    return TunableValue(tunables ? tunables : "", HUGETLB_TUNABLE) ==
           std::optional<std::string>("1");
}

} // namespace ns3

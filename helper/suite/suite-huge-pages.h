/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef SUITE_HUGE_PAGES_H
#define SUITE_HUGE_PAGES_H

#include <string>

namespace ns3
{

/// Environment variable that turns SuiteUseHugePages off: SUITE_HUGE_PAGES=0.
constexpr const char* SUITE_HUGE_PAGES_ENV = "SUITE_HUGE_PAGES";

/**
 * \ingroup suite
 * \brief What SuiteUseHugePages decides for a process, from its environment and the kernel's
 *        transparent-huge-page mode. Pure, so that it can be tested.
 * \param glibcTunables the value of GLIBC_TUNABLES (nullptr: unset)
 * \param optOut the value of SUITE_HUGE_PAGES (nullptr: unset; "0" turns it off)
 * \param ldPreload the value of LD_PRELOAD (nullptr or empty: unset; anything else, such as
 *        valgrind's core or another allocator, turns it off)
 * \param thpMode the text of /sys/kernel/mm/transparent_hugepage/enabled ("" if unreadable)
 * \return the GLIBC_TUNABLES value to run again with, or "" to go on as the process is
 */
std::string SuiteHugePagesTunables(const char* glibcTunables,
                                   const char* optOut,
                                   const char* ldPreload,
                                   const std::string& thpMode);

/**
 * \ingroup suite
 * \brief Have glibc's malloc back the heap with transparent huge pages (glibc's tunable
 *        glibc.malloc.hugetlb=1: madvise(MADV_HUGEPAGE) on the memory malloc takes from the
 *        kernel), for programs whose run time is cache and TLB misses over a large fabric.
 *
 * glibc reads its tunables once, at start-up, so this runs the program again (execv of
 * /proc/self/exe with the same arguments) with GLIBC_TUNABLES extended. Call it first in main,
 * before anything is printed or built. It does nothing when the tunable is already named
 * (with any value, even none: the user's choice stands), when SUITE_HUGE_PAGES=0, when the
 * process is itself such a rerun (SUITE_HUGE_PAGES_RERUN is set: at most one exec, whatever
 * the C library made of the tunables), when the kernel's mode is
 * "never", or when LD_PRELOAD is set: a preloaded tool may not follow an exec (valgrind's
 * tools do not by default), and a preloaded allocator has its own page policy. heaptrack
 * removes its LD_PRELOAD before main and records only the first image: run it with
 * SUITE_HUGE_PAGES=0. If the exec
 * fails, the program goes on as it is. Results do not change, only the page size behind the
 * heap (doc/suite/suite.rst, "Huge pages").
 * \param argv the program's arguments, as main received them
 * \param program the file to run again (tests run another)
 */
void SuiteUseHugePages(char* argv[], const char* program = "/proc/self/exe");

/// \return whether this process's malloc was started with glibc.malloc.hugetlb=1
bool SuiteHugePagesRequested();

} // namespace ns3

#endif /* SUITE_HUGE_PAGES_H */

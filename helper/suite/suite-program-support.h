/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef SUITE_PROGRAM_SUPPORT_H
#define SUITE_PROGRAM_SUPPORT_H

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup suite
 * \param values numbers
 * \return their mean (0 for none)
 */
double SuiteMean(const std::vector<double>& values);

/**
 * \ingroup suite
 * \param values numbers, in any order
 * \param q the quantile, 0 to 1
 * \return the q-quantile by nearest rank (0 for none)
 */
double SuitePercentile(std::vector<double> values, double q);

/// The event scheduler programs use unless told otherwise (doc/performance.rst).
constexpr const char* SUITE_DEFAULT_EVENT_SCHEDULER = "priority-queue";

/**
 * \ingroup suite
 * \brief Choose the simulator's event set by a short name, for every simulator created from
 *        now on (GlobalValue SchedulerType; call before the first event is scheduled, or
 *        between Simulator::Destroy and the next run). Every ns-3 scheduler orders events by
 *        time, then insertion order, so the choice changes speed and memory, not results.
 * \param name map, heap, calendar, list or priority-queue
 * \return an empty string, or one line naming the bad value (nothing is changed then)
 */
std::string SuiteSetEventScheduler(const std::string& name);

} // namespace ns3

#endif /* SUITE_PROGRAM_SUPPORT_H */

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The programs' shared figures: the mean, the nearest-rank percentile (values worked out by
// hand), and the event scheduler chosen by short name (an unknown name refused in one line,
// the scheduler left as it was).
// Tests: suite-program-support
#include "ns3/global-value.h"
#include "ns3/string.h"
#include "ns3/suite-module.h"

#include <gtest/gtest.h>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

std::string
Scheduler()
{
    StringValue v;
    GlobalValue::GetValueByName("SchedulerType", v);
    return v.Get();
}

} // namespace

TEST(SuiteProgramSupport, Mean)
{
    EXPECT_DOUBLE_EQ(SuiteMean({1, 2, 3, 4}), 2.5);
    EXPECT_DOUBLE_EQ(SuiteMean({-1, 1}), 0);
    EXPECT_EQ(SuiteMean({}), 0);
}

TEST(SuiteProgramSupport, NearestRankPercentile)
{
    // Sorted: 15 20 35 40 50. Rank ceil(q * 5): q 0.05 -> 1, 0.3 -> 2, 0.4 -> 2, 0.5 -> 3,
    // 1 -> 5; q 0 takes the smallest.
    const std::vector<double> v{50, 15, 40, 20, 35};
    EXPECT_EQ(SuitePercentile(v, 0.0), 15);
    EXPECT_EQ(SuitePercentile(v, 0.05), 15);
    EXPECT_EQ(SuitePercentile(v, 0.3), 20);
    EXPECT_EQ(SuitePercentile(v, 0.4), 20);
    EXPECT_EQ(SuitePercentile(v, 0.5), 35);
    EXPECT_EQ(SuitePercentile(v, 0.99), 50);
    EXPECT_EQ(SuitePercentile(v, 1.0), 50);
    EXPECT_EQ(SuitePercentile({}, 0.5), 0);
    EXPECT_EQ(SuitePercentile({7}, 0.5), 7);
}

TEST(SuiteProgramSupport, EventSchedulerByShortName)
{
    EXPECT_EQ(SuiteSetEventScheduler("heap"), "");
    EXPECT_EQ(Scheduler(), "ns3::HeapScheduler");
    EXPECT_EQ(SuiteSetEventScheduler("calendar"), "");
    EXPECT_EQ(Scheduler(), "ns3::CalendarScheduler");
    const std::string refused = SuiteSetEventScheduler("fifo");
    EXPECT_EQ(refused,
              "eventScheduler: unknown event scheduler 'fifo' (map, heap, calendar, list or "
              "priority-queue)");
    EXPECT_EQ(Scheduler(), "ns3::CalendarScheduler");
    EXPECT_NE(SuiteSetEventScheduler("ns3::MapScheduler"), ""); // short names only
    EXPECT_EQ(SuiteSetEventScheduler(SUITE_DEFAULT_EVENT_SCHEDULER), "");
    EXPECT_EQ(Scheduler(), "ns3::PriorityQueueScheduler");
}

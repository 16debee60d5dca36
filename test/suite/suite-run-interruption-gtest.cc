/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The interruption check: few checks where events are far apart in simulated time, a stop at
// the wall-clock limit on a busy run, no limit where the clock cannot count it.
// Tests: suite-run-interruption
#include "ns3/simulator.h"
#include "ns3/suite-run-interruption.h"

#include <chrono>
#include <gtest/gtest.h>

using namespace ns3;

namespace
{

/// An event that reschedules itself `left` more times, `gap` apart.
void
Tick(uint32_t left, Time gap, uint32_t* ran)
{
    ++*ran;
    if (left > 0)
    {
        Simulator::Schedule(gap, &Tick, left - 1, gap, ran);
    }
}

/// An event that keeps the processor busy for about 100 us of wall time, every 1 us.
void
Busy(uint64_t* ran)
{
    ++*ran;
    const auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(100);
    while (std::chrono::steady_clock::now() < until)
    {
    }
    Simulator::Schedule(MicroSeconds(1), &Busy, ran);
}

} // namespace

TEST(SuiteRunInterruption, SparseEventsNeedFewChecks)
{
    // 100 events 10^5 s apart (a trace stretched a millionfold): checks at a fixed 1 s would
    // number 10^7; doubling from 10 us reaches the gap in about 34 checks, then about one a gap.
    SuiteRunInterruption& interruption = SuiteRunInterruption::Get();
    const uint64_t before = interruption.GetChecks();
    uint32_t ran = 0;
    Simulator::Schedule(Seconds(0), &Tick, 99, Seconds(1e5), &ran);
    interruption.Start();
    Simulator::Run();
    Simulator::Destroy();
    EXPECT_EQ(ran, 100U);
    EXPECT_FALSE(interruption.Due());
    EXPECT_LT(interruption.GetChecks() - before, 400U);
    EXPECT_GT(interruption.GetChecks() - before, 30U) << "control: checks did run";
}

TEST(SuiteRunInterruption, WallLimitStopsABusyRun)
{
    // Last in this binary: the interruption is the process's, and it stays stopped.
    SuiteRunInterruption& interruption = SuiteRunInterruption::Get();
    interruption.SetWallLimit(1e300); // past what the clock can count: no limit
    EXPECT_FALSE(interruption.Due());
    interruption.SetWallLimit(0.2);
    uint64_t ran = 0;
    Simulator::ScheduleNow(&Busy, &ran);
    interruption.Start();
    const auto start = std::chrono::steady_clock::now();
    Simulator::Run(); // never ends by itself
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    Simulator::Destroy();
    EXPECT_TRUE(interruption.Due());
    EXPECT_EQ(interruption.GetStatus(), 124);
    EXPECT_EQ(interruption.GetCause(), "the wall-clock limit (--wallLimit)");
    EXPECT_GE(wall, 0.2);
    EXPECT_LT(wall, 2.0) << "checks must keep coming a few ms apart on a busy run";
    EXPECT_GT(ran, 100U);
}

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// How a run that must stop says so: SuiteStopRun stops the simulator at once and keeps the
// first cause, SuiteTakeRunFailure hands it over once, SuiteCheckRunStatus throws it,
// SuiteGuardEvent turns an event's exception into a stop, and Simulator::Destroy clears a
// cause nobody took. Control: a run that nothing stops has no failure.
// Tests: suite-run-status
#include "ns3/nstime.h"
#include "ns3/simulator.h"
#include "ns3/suite-module.h"

#include <gtest/gtest.h>
#include <stdexcept>
#include <string>

using namespace ns3;

TEST(SuiteRunStatus, AStopEndsTheRunAndKeepsTheFirstCause)
{
    bool later = false;
    Simulator::Schedule(Seconds(1), [] { SuiteStopRun("first"); });
    Simulator::Schedule(Seconds(1), [] { SuiteStopRun("second"); });
    Simulator::Schedule(Seconds(2), [&later] { later = true; });
    Simulator::Run();
    EXPECT_EQ(Simulator::Now(), Seconds(1));
    EXPECT_FALSE(later);
    EXPECT_EQ(SuiteTakeRunFailure(), std::optional<std::string>("first"));
    EXPECT_EQ(SuiteTakeRunFailure(), std::nullopt); // taken once
    Simulator::Destroy();
}

TEST(SuiteRunStatus, CheckThrowsTheCause)
{
    EXPECT_NO_THROW(SuiteCheckRunStatus());
    SuiteStopRun("out of memory");
    try
    {
        SuiteCheckRunStatus();
        ADD_FAILURE() << "no exception";
    }
    catch (const std::runtime_error& e)
    {
        EXPECT_EQ(std::string(e.what()), "out of memory");
    }
    EXPECT_NO_THROW(SuiteCheckRunStatus()); // the cause was taken
    Simulator::Destroy();
}

TEST(SuiteRunStatus, GuardedEventsStopTheRunWithWhereAndWhat)
{
    Simulator::Schedule(Seconds(1), [] {
        SuiteGuardEvent("job 3", [] { throw std::invalid_argument("no such model"); });
    });
    Simulator::Run();
    EXPECT_EQ(SuiteTakeRunFailure(), std::optional<std::string>("job 3: no such model"));
    SuiteGuardEvent("", [] { throw std::runtime_error("bare"); });
    EXPECT_EQ(SuiteTakeRunFailure(), std::optional<std::string>("bare"));
    Simulator::Destroy();
}

TEST(SuiteRunStatus, DestroyClearsAnUntakenCauseAndACleanRunHasNone)
{
    SuiteStopRun("left over");
    Simulator::Destroy();
    EXPECT_EQ(SuiteTakeRunFailure(), std::nullopt);
    bool ran = false;
    Simulator::Schedule(Seconds(1), [&ran] { ran = true; });
    Simulator::Run();
    EXPECT_TRUE(ran);
    EXPECT_EQ(SuiteTakeRunFailure(), std::nullopt);
    Simulator::Destroy();
}

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The jobs CSV at full precision at trace scale; console columns that never run together.
// Tests: scenario-report
#include "ns3/cluster-scheduler-tracker.h"
#include "ns3/scenario-report.h"

#include <cmath>
#include <cstdlib>
#include <gtest/gtest.h>
#include <sstream>

using namespace ns3;

namespace
{

/// \return the comma-separated fields of a row
std::vector<std::string>
Fields(const std::string& row)
{
    std::vector<std::string> out;
    std::stringstream in(row);
    for (std::string field; std::getline(in, field, ',');)
    {
        out.push_back(field);
    }
    return out;
}

/// \return the whitespace-separated words of a line
std::vector<std::string>
Words(const std::string& line)
{
    std::vector<std::string> out;
    std::stringstream in(line);
    for (std::string word; in >> word;)
    {
        out.push_back(word);
    }
    return out;
}

} // namespace

TEST(ScenarioReport, JobRowsKeepTraceScaleTimesExactly)
{
    // A job of a month-long trace: arrival 955,563.123456789 s, 4.2 ms wait, 77.000001 ms run.
    ClusterSchedulerTracker::JobRecord r;
    r.gpus = 8;
    r.leaves = 1;
    r.arrival = NanoSeconds(955563123456789);
    r.start = r.arrival + NanoSeconds(4200000);
    r.finish = r.start + NanoSeconds(77000001);
    std::ostringstream out;
    ScenarioWriteJobRow(out, "vclos", 7, r, 0, 0);
    const auto f = Fields(out.str());
    ASSERT_GE(f.size(), 11U);
    const double arrival = std::strtod(f[5].c_str(), nullptr);
    const double wait = std::strtod(f[8].c_str(), nullptr);
    const double run = std::strtod(f[9].c_str(), nullptr);
    const double jct = std::strtod(f[10].c_str(), nullptr);
    // Worked out by hand: 955563123.456789 ms, 4.2 ms, 77.000001 ms, 81.200001 ms.
    EXPECT_NEAR(arrival, 955563123.456789, 1e-6);
    EXPECT_NEAR(wait, 4.2, 1e-9);
    EXPECT_NEAR(run, 77.000001, 1e-9);
    EXPECT_NEAR(jct - wait - run, 0, 1e-9);
    // Control: six significant digits (the stream's default) put the arrival 0.12 s off.
    std::ostringstream six;
    six << 955563123.456789;
    EXPECT_GT(std::fabs(std::strtod(six.str().c_str(), nullptr) - 955563123.456789), 100);
}

TEST(ScenarioReport, ConsoleColumnsNeverRunTogether)
{
    ScenarioPolicyRun run;
    run.policy = "ecmp#3";
    run.jobs = CreateObject<ClusterSchedulerTracker>();
    ScenarioRunFigures f;
    f.policy = run.policy;
    // Trace-scale figures (in ms; shown in s): p50 1,114.64 s, p99 100,140.45 s.
    f.meanJct = 5e6;
    f.p50Jct = 1114641;
    f.p99Jct = 100140450;
    f.meanWait = 123456789;
    f.meanRun = 98765432;
    std::ostringstream wide;
    ScenarioWriteConsoleRow(wide, run, f, true);
    // "#", the policy and 14 figures, however wide the figures.
    const auto words = Words(wide.str());
    ASSERT_EQ(words.size(), 16U) << wide.str();
    EXPECT_EQ(words[3], "1114.64");
    EXPECT_EQ(words[4], "100140.45");
    // Control: small figures give the same count, and the same row width as before.
    ScenarioRunFigures small = f;
    small.meanJct = small.p50Jct = small.p99Jct = small.meanWait = small.meanRun = 1;
    std::ostringstream narrow;
    ScenarioWriteConsoleRow(narrow, run, small, false);
    EXPECT_EQ(Words(narrow.str()).size(), 16U) << narrow.str();
    EXPECT_EQ(narrow.str().find("1.00"), 34U) << narrow.str(); // "#   " + 24 + 10 - 4
}

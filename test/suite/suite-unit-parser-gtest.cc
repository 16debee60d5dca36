/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Times and data rates with their units: the values read, and text ns-3 would misread or
// abort on refused.
// Tests: suite-unit-parser
#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/suite-module.h"

#include <gtest/gtest.h>

using namespace ns3;

TEST(SuiteUnitParser, Time)
{
    Time t;
    EXPECT_TRUE(SuiteParseTime("10us", t));
    EXPECT_EQ(t, MicroSeconds(10));
    EXPECT_TRUE(SuiteParseTime("1.5ms", t));
    EXPECT_EQ(t, MicroSeconds(1500));
    EXPECT_TRUE(SuiteParseTime("2min", t));
    EXPECT_EQ(t, Seconds(120));
    EXPECT_TRUE(SuiteParseTime("3", t)); // seconds, as ns-3 reads it
    EXPECT_EQ(t, Seconds(3));
    EXPECT_TRUE(SuiteParseTime("-1s", t));
    EXPECT_EQ(t, Seconds(-1));
    EXPECT_TRUE(SuiteParseTime("9e9s", t)); // 9e18 ns still fits
    for (const char* text : {"abc",
                             "1e300s",
                             "1e10s",
                             "300y",
                             "5 ms",
                             " 5ms",
                             "5ms ",
                             "ms",
                             "5xs",
                             "nans",
                             "infs",
                             ""})
    {
        EXPECT_FALSE(SuiteParseTime(text, t)) << text;
    }
}

TEST(SuiteUnitParser, DataRate)
{
    DataRate r;
    EXPECT_TRUE(SuiteParseDataRate("100Gbps", r));
    EXPECT_EQ(r.GetBitRate(), 100000000000ULL);
    EXPECT_TRUE(SuiteParseDataRate("1.5Mb/s", r));
    EXPECT_EQ(r.GetBitRate(), 1500000ULL);
    EXPECT_TRUE(SuiteParseDataRate("1bps", r));
    EXPECT_EQ(r.GetBitRate(), 1ULL);
    for (const char* text : {"100 Gbps",
                             "100",
                             "Gbps",
                             "abc",
                             "1e3bps",
                             "100Gbps ",
                             "100Xbps",
                             "-1bps",
                             "99999999999Gbps",
                             ""})
    {
        EXPECT_FALSE(SuiteParseDataRate(text, r)) << text;
    }
}

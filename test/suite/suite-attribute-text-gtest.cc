/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Attribute values as text: the syntax checked, then the checker's range; queue sizes that
// ns-3 would wrap or abort on refused.
// Tests: suite-attribute-text
#include "ns3/boolean.h"
#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/integer.h"
#include "ns3/nstime.h"
#include "ns3/queue-size.h"
#include "ns3/string.h"
#include "ns3/suite-module.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>

using namespace ns3;

TEST(SuiteAttributeText, ChecksSyntaxThenTheCheckersRange)
{
    auto u = MakeUintegerChecker<uint32_t>(1, 64);
    EXPECT_EQ(SuiteCheckValueText(u, "4"), "");
    EXPECT_NE(SuiteCheckValueText(u, "1e1"), "");
    EXPECT_NE(SuiteCheckValueText(u, "2.0"), "");
    EXPECT_NE(SuiteCheckValueText(u, "abc"), "");
    EXPECT_NE(SuiteCheckValueText(u, "1000000000000000000").find("out of range"),
              std::string::npos);
    EXPECT_NE(SuiteCheckValueText(u, "0").find("out of range"), std::string::npos);
    auto i = MakeIntegerChecker<int32_t>(-5, 5);
    EXPECT_EQ(SuiteCheckValueText(i, "-5"), "");
    EXPECT_NE(SuiteCheckValueText(i, "-6"), "");
    EXPECT_NE(SuiteCheckValueText(i, "1.5"), "");
    auto d = MakeDoubleChecker<double>(0, 1);
    EXPECT_EQ(SuiteCheckValueText(d, "0.5"), "");
    EXPECT_NE(SuiteCheckValueText(d, "2"), "");
    EXPECT_NE(SuiteCheckValueText(d, "nan"), "");
    auto t = MakeTimeChecker(Seconds(0));
    EXPECT_EQ(SuiteCheckValueText(t, "5ms"), "");
    EXPECT_NE(SuiteCheckValueText(t, "abc"), "");
    EXPECT_NE(SuiteCheckValueText(t, "1e300s"), "");
    EXPECT_NE(SuiteCheckValueText(t, "-1s"), "");
    auto r = MakeDataRateChecker();
    EXPECT_EQ(SuiteCheckValueText(r, "100Gbps"), "");
    EXPECT_NE(SuiteCheckValueText(r, "100 Gbps"), "");
    auto b = MakeBooleanChecker();
    EXPECT_EQ(SuiteCheckValueText(b, "true"), "");
    EXPECT_NE(SuiteCheckValueText(b, "maybe"), "");
    auto s = MakeStringChecker();
    EXPECT_EQ(SuiteCheckValueText(s, "anything at all"), "");
}

TEST(SuiteAttributeText, QueueSizesThatNs3WouldWrapOrAbortOnAreRefused)
{
    auto q = MakeQueueSizeChecker();
    for (const char* good : {"100p", "65536B", "1MB", "2KiB", "5Kp", "4294967295B"})
    {
        EXPECT_EQ(SuiteCheckValueText(q, good), "") << good;
    }
    // ns-3.37 reads 4294967297B as 1B, and 5000MB (5e9 bytes) wraps too.
    EXPECT_NE(SuiteCheckValueText(q, "4294967297B").find("out of range"), std::string::npos);
    EXPECT_NE(SuiteCheckValueText(q, "5000MB").find("out of range"), std::string::npos);
    // ns-3.37 aborts on these.
    for (const char* bad : {"3GB", "abc", "B", "-1p", "1.5MB", "100"})
    {
        EXPECT_NE(SuiteCheckValueText(q, bad), "") << bad;
    }
}

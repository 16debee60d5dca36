/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Integers and doubles in plain decimal only: no fraction, exponent or sign where the type
// has none, no spaces, no overflow.
// Tests: suite-number-parser
#include "ns3/suite-module.h"

#include <gtest/gtest.h>

using namespace ns3;

TEST(SuiteNumberParser, UnsignedAcceptsPlainIntegers)
{
    uint64_t n = 7;
    EXPECT_TRUE(SuiteParseUnsigned("0", n));
    EXPECT_EQ(n, 0u);
    EXPECT_TRUE(SuiteParseUnsigned("18446744073709551615", n));
    EXPECT_EQ(n, 18446744073709551615ULL);
    EXPECT_TRUE(SuiteParseUnsigned("+12", n));
    EXPECT_EQ(n, 12u);
}

TEST(SuiteNumberParser, UnsignedRefusesEverythingElse)
{
    uint64_t n = 7;
    for (const char* text : {"1e3",
                             "2.5",
                             "2.0",
                             "-1",
                             "abc",
                             "",
                             " 1",
                             "1 ",
                             "12abc",
                             "0x10",
                             "+",
                             "-0",
                             "18446744073709551616",
                             "99999999999999999999999"})
    {
        EXPECT_FALSE(SuiteParseUnsigned(text, n)) << text;
    }
    EXPECT_EQ(n, 7u); // untouched on failure
    EXPECT_FALSE(SuiteParseUnsigned("4294967296", n, 0, 4294967295ULL));
    EXPECT_FALSE(SuiteParseUnsigned("0", n, 1));
}

TEST(SuiteNumberParser, Signed)
{
    int64_t n = 0;
    EXPECT_TRUE(SuiteParseSigned("-9223372036854775808", n));
    EXPECT_EQ(n, INT64_MIN);
    EXPECT_TRUE(SuiteParseSigned("-1", n));
    EXPECT_EQ(n, -1);
    for (const char* text :
         {"9223372036854775808", "-9223372036854775809", "1e3", "2.5", "--1", "abc", "", "-"})
    {
        EXPECT_FALSE(SuiteParseSigned(text, n)) << text;
    }
    EXPECT_FALSE(SuiteParseSigned("-3", n, -2, 2));
}

TEST(SuiteNumberParser, Double)
{
    double d = 0;
    EXPECT_TRUE(SuiteParseDouble("1e3", d));
    EXPECT_EQ(d, 1000.0);
    EXPECT_TRUE(SuiteParseDouble("-0.5", d));
    EXPECT_EQ(d, -0.5);
    EXPECT_TRUE(SuiteParseDouble(".25", d));
    EXPECT_EQ(d, 0.25);
    for (const char* text :
         {"nan", "inf", "-inf", "1e400", "0x1p3", "abc", "", "1.0 ", "1,5", "e5", "1e", "."})
    {
        EXPECT_FALSE(SuiteParseDouble(text, d)) << text;
    }
    EXPECT_FALSE(SuiteParseDouble("1.5", d, 0, 1));
    EXPECT_TRUE(SuiteParseDouble("1", d, 0, 1));
}

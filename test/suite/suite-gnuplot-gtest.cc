/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Gnuplot text: quoting that leaves gnuplot nothing to substitute, and finding a program.
// Tests: suite-gnuplot
#include "ns3/suite-module.h"

#include <gtest/gtest.h>

using namespace ns3;

TEST(SuiteGnuplot, QuotesSoThatGnuplotSubstitutesNothing)
{
    EXPECT_EQ(SuiteGnuplotQuote("a'b`c`\"d\nx"), "'a''b`c`\"d x'");
    EXPECT_NE(SuiteFindProgram("sh"), "");
    EXPECT_EQ(SuiteFindProgram("no-such-program-anywhere"), "");
}

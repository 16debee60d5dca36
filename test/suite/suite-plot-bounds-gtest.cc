/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Plot ranges: set only where gnuplot's own would be empty (no point, or a flat line).
// Tests: suite-plot-bounds
#include "ns3/suite-module.h"

#include <gtest/gtest.h>

using namespace ns3;

TEST(SuitePlotBounds, GivesARangeOnlyWhereGnuplotsWouldBeEmpty)
{
    SuitePlotBounds none;
    EXPECT_EQ(none.XRange(), "set xrange [0:1]\n");
    SuitePlotBounds flat;
    flat.Add(4, 0);
    flat.Add(4, 0);
    EXPECT_EQ(flat.XRange(), "set xrange [2:8]\n");
    EXPECT_EQ(flat.YRange(), "set yrange [0:1]\n");
    SuitePlotBounds negative;
    negative.Add(-4, 1);
    negative.Add(-2, 1);
    EXPECT_EQ(negative.XRange(), "");
    EXPECT_EQ(negative.YRange(), "set yrange [0.5:2]\n");
    EXPECT_EQ(SuitePlotBounds::Range(-4, -4, "x"), "set xrange [-8:-2]\n");
}

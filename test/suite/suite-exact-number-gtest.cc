/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Numbers written exactly for CSV files: the shortest text that reads back as the same double.
// Tests: suite-exact-number
#include "ns3/suite-exact-number.h"

#include <cstdlib>
#include <gtest/gtest.h>
#include <random>
#include <sstream>

using namespace ns3;

namespace
{

/// \return x as SuiteExact writes it
std::string
Exact(double x)
{
    std::ostringstream out;
    out << SuiteExact{x};
    return out.str();
}

} // namespace

TEST(SuiteExactNumber, ShortestTextThatReadsBack)
{
    EXPECT_EQ(Exact(0.1), "0.1");
    EXPECT_EQ(Exact(0), "0");
    EXPECT_EQ(Exact(-2.5), "-2.5");
    EXPECT_EQ(Exact(955563123.456), "955563123.456"); // a trace-scale arrival in ms
    EXPECT_EQ(Exact(1e300), "1e+300");
    // The stream's own precision is ignored (a console table may have set it before).
    std::ostringstream fixed;
    fixed << std::fixed;
    fixed.precision(1);
    fixed << SuiteExact{0.125};
    EXPECT_EQ(fixed.str(), "0.125");
    // Control: the stream's default (6 significant digits) loses the arrival to 1 s.
    std::ostringstream plain;
    plain << 955563123.456;
    EXPECT_EQ(plain.str(), "9.55563e+08");
}

TEST(SuiteExactNumber, RandomDoublesRoundTrip)
{
    std::mt19937_64 rng(1);
    std::uniform_real_distribution<double> exponent(-300, 300);
    std::uniform_real_distribution<double> mantissa(1, 10);
    for (int i = 0; i < 100000; ++i)
    {
        const double x = mantissa(rng) * std::pow(10.0, exponent(rng));
        ASSERT_EQ(std::strtod(Exact(x).c_str(), nullptr), x) << Exact(x);
    }
}

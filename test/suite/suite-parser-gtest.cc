/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The suite module's strict parsers, attribute-text checks, plot ranges and output prefixes.
#include "ns3/boolean.h"
#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/integer.h"
#include "ns3/nstime.h"
#include "ns3/queue-size.h"
#include "ns3/string.h"
#include "ns3/suite-module.h"
#include "ns3/uinteger.h"

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

TEST(SuiteGnuplot, QuotesSoThatGnuplotSubstitutesNothing)
{
    EXPECT_EQ(SuiteGnuplotQuote("a'b`c`\"d\nx"), "'a''b`c`\"d x'");
    EXPECT_NE(SuiteFindProgram("sh"), "");
    EXPECT_EQ(SuiteFindProgram("no-such-program-anywhere"), "");
}

TEST(SuiteOutputPrefix, NeedsAnExistingWritableDirectory)
{
    EXPECT_EQ(SuiteCheckOutputPrefix("run"), "");
    EXPECT_EQ(SuiteCheckOutputPrefix("/tmp/run"), "");
    EXPECT_NE(SuiteCheckOutputPrefix("/no/such/dir/run").find("does not exist"), std::string::npos);
    EXPECT_NE(SuiteCheckOutputPrefix("/etc/passwd/run").find("not a directory"), std::string::npos);
    EXPECT_NE(SuiteCheckOutputPrefix(""), "");
}

namespace
{

/// Check arguments against a command line with one option of each kind.
std::string
CheckArguments(std::vector<std::string> args)
{
    uint32_t jobs = 1;
    int32_t offset = 0;
    double scale = 1;
    Time duration = Seconds(1);
    bool flag = false;
    std::string text;
    SuiteCommandLine cmd(__FILE__);
    cmd.AddValue("jobs", "jobs", jobs);
    cmd.AddValue("offset", "offset", offset);
    cmd.AddValue("scale", "scale", scale);
    cmd.AddValue("duration", "duration", duration);
    cmd.AddValue("flag", "flag", flag);
    cmd.AddValue("text", "text", text);
    args.insert(args.begin(), "program");
    std::vector<char*> argv;
    for (auto& a : args)
    {
        argv.push_back(a.data());
    }
    return cmd.Check(static_cast<int>(argv.size()), argv.data());
}

} // namespace

TEST(SuiteCommandLine, AcceptsValidArguments)
{
    EXPECT_EQ(CheckArguments({"--jobs=4294967295",
                              "--offset=-3",
                              "--scale=1e-3",
                              "--duration=5ms",
                              "--flag",
                              "--flag=0",
                              "-text=a b",
                              "--RngRun=7",
                              "--ns3::RandomVariableStream::Stream=-1",
                              "--PrintHelp"}),
              "");
}

TEST(SuiteCommandLine, NamesTheFirstBadArgument)
{
    EXPECT_EQ(CheckArguments({"--jobs=2", "--jobs=1e3"}),
              "--jobs=1e3: expected an integer from 0 to 4294967295");
    EXPECT_EQ(CheckArguments({"--jobs=4294967296"}).rfind("--jobs=4294967296: ", 0), 0u);
    EXPECT_EQ(CheckArguments({"--jobs=-1"}).rfind("--jobs=-1: ", 0), 0u);
    EXPECT_EQ(CheckArguments({"--jobs"}).rfind("--jobs: ", 0), 0u);
    EXPECT_EQ(CheckArguments({"--offset=2147483648"}).rfind("--offset=2147483648: ", 0), 0u);
    EXPECT_EQ(CheckArguments({"--scale=inf"}).rfind("--scale=inf: ", 0), 0u);
    EXPECT_EQ(CheckArguments({"--duration=abc"}).rfind("--duration=abc: ", 0), 0u);
    EXPECT_EQ(CheckArguments({"--flag=maybe"}).rfind("--flag=maybe: ", 0), 0u);
    EXPECT_EQ(CheckArguments({"--RngRun=abc"}).rfind("--RngRun=abc: ", 0), 0u);
    EXPECT_EQ(CheckArguments({"--RngSeed=0"}).rfind("--RngSeed=0: ", 0), 0u);
    EXPECT_EQ(CheckArguments({"--ns3::RandomVariableStream::Stream=2.5"})
                  .rfind("--ns3::RandomVariableStream::Stream=2.5: ", 0),
              0u);
    EXPECT_EQ(CheckArguments({"--ns3::RandomVariableStream::NoSuch=1"})
                  .rfind("--ns3::RandomVariableStream::NoSuch=1: ", 0),
              0u);
    EXPECT_EQ(CheckArguments({"--nosuch=1"}), "--nosuch=1: unknown argument (see --PrintHelp)");
    EXPECT_EQ(CheckArguments({"stray"}).rfind("stray: ", 0), 0u);
}

TEST(SuiteCommandLine, StringsKeepTheirSpaces)
{
    std::string text = "default";
    SuiteCommandLine cmd(__FILE__);
    cmd.AddValue("text", "text", text);
    std::string program = "program";
    std::string arg = "--text=a b";
    char* argv[] = {program.data(), arg.data()};
    cmd.Parse(2, argv);
    EXPECT_EQ(text, "a b");
}

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The strict command line: valid arguments accepted, the first bad one named in one line,
// strings keep their spaces.
// Tests: suite-command-line
#include "ns3/nstime.h"
#include "ns3/suite-module.h"

#include <gtest/gtest.h>
#include <string>
#include <vector>

using namespace ns3;

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

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Output prefixes: accepted in an existing writable folder, refused otherwise in one line.
// Tests: suite-output-prefix
#include "ns3/suite-module.h"

#include <gtest/gtest.h>

using namespace ns3;

TEST(SuiteOutputPrefix, NeedsAnExistingWritableDirectory)
{
    EXPECT_EQ(SuiteCheckOutputPrefix("run"), "");
    EXPECT_EQ(SuiteCheckOutputPrefix("/tmp/run"), "");
    EXPECT_NE(SuiteCheckOutputPrefix("/no/such/dir/run").find("does not exist"), std::string::npos);
    EXPECT_NE(SuiteCheckOutputPrefix("/etc/passwd/run").find("not a directory"), std::string::npos);
    EXPECT_NE(SuiteCheckOutputPrefix(""), "");
}

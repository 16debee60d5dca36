/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// SuiteShownText: how error messages echo a value from an input file.
// Tests: suite-shown-text
#include "ns3/suite-shown-text.h"

#include <gtest/gtest.h>

using namespace ns3;

TEST(SuiteShownText, ShortValuesAreShownWhole)
{
    EXPECT_EQ(SuiteShownText(""), "");
    EXPECT_EQ(SuiteShownText("vgg16"), "vgg16");
    EXPECT_EQ(SuiteShownText(std::string(64, 'a')), std::string(64, 'a'));
}

TEST(SuiteShownText, LongValuesAreCutAndSayTheirLength)
{
    EXPECT_EQ(SuiteShownText(std::string(65, 'a')), std::string(64, 'a') + "... (65 characters)");
    EXPECT_EQ(SuiteShownText(std::string(5000000, 'b')),
              std::string(64, 'b') + "... (5000000 characters)");
    EXPECT_EQ(SuiteShownText("abcdef", 3), "abc... (6 characters)");
}

TEST(SuiteShownText, ControlCharactersCannotBreakTheLine)
{
    EXPECT_EQ(SuiteShownText(std::string("a\nb\rc\td\0e", 9)), "a?b?c?d?e");
    EXPECT_EQ(SuiteShownText("caf\xc3\xa9"), "caf??");
}

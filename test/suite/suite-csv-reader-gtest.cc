/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// SuiteCsvReader: numbers in decimal only, whole numbers read exactly, one header name per
// column, as many fields per row as the header has, and errors that echo a field cut short.
// Tests: suite-csv-reader
#include "../suite-error-of.h"
#include "../suite-test-file.h"

#include "ns3/suite-csv-reader.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{
/// Write text to the running test's CSV file and return its path.
std::string
TempFile(const std::string& text)
{
    return SuiteTestFile("csv-", text);
}

/// The error of reading field `column` of the first row of "n,x\n1,<field>\n" with `read`.
template <typename Read>
std::string
FieldError(const std::string& field, Read read)
{
    return ErrorOf([&] {
        SuiteCsvReader csv(TempFile("n,x\n1," + field + "\n"), {"n", "x"});
        ASSERT_TRUE(csv.Next());
        read(csv);
    });
}
} // namespace

TEST(SuiteCsvReader, WholeNumbersAreDigitsOnly)
{
    auto integer = [](const SuiteCsvReader& csv) { csv.Integer("x", 0, UINT32_MAX); };
    // strtod read these as 16, 5, 5, 5, 1000 and 5; a whole number is digits, nothing else.
    for (const std::string bad : {"0x10", " 5", "+5", "5 ", "1e3", "5.0", "0X1A"})
    {
        std::string e = FieldError(bad, integer);
        EXPECT_NE(
            e.find(":2: field 'x' must be a whole number from 0 to 4294967295 (got '" + bad + "')"),
            std::string::npos)
            << "'" << bad << "' -> " << e;
        EXPECT_EQ(e.find('\n'), std::string::npos) << e;
    }
    // Control: plain digits, leading zeros included, and both ends of the range.
    for (const auto& [good, value] :
         std::vector<std::pair<std::string, uint64_t>>{{"0", 0},
                                                       {"16", 16},
                                                       {"007", 7},
                                                       {"4294967295", 4294967295u}})
    {
        SuiteCsvReader csv(TempFile("n,x\n1," + good + "\n"), {"n", "x"});
        ASSERT_TRUE(csv.Next());
        EXPECT_EQ(csv.Integer("x", 0, UINT32_MAX), value) << good;
    }
}

TEST(SuiteCsvReader, WholeNumbersAreReadExactly)
{
    // 2^53 + 1 has no double: through strtod it became 2^53 and passed the 2^53 limit.
    auto exact = [](const SuiteCsvReader& csv) { csv.PositiveInteger("x"); };
    std::string e = FieldError("9007199254740993", exact);
    EXPECT_NE(e.find(":2: field 'x' must be a whole number from 1 to 9007199254740992 (got "
                     "'9007199254740993')"),
              std::string::npos)
        << e;
    // Beyond 2^64 - 1 too (strtoull's overflow).
    e = FieldError("18446744073709551616", exact);
    EXPECT_NE(e.find(":2: field 'x' must be a whole number"), std::string::npos) << e;
    // Control: 2^53 itself, and 2^53 - 1, are read as themselves.
    for (uint64_t n : {uint64_t{9007199254740992u}, uint64_t{9007199254740991u}})
    {
        SuiteCsvReader csv(TempFile("n,x\n1," + std::to_string(n) + "\n"), {"n", "x"});
        ASSERT_TRUE(csv.Next());
        EXPECT_EQ(csv.PositiveInteger("x"), n);
    }
}

TEST(SuiteCsvReader, RealNumbersAreDecimal)
{
    auto real = [](const SuiteCsvReader& csv) { csv.NonNegative("x"); };
    // strtod read "0x10" as 16, " 2.5" and "+2.5" as 2.5, "inf" as infinity.
    for (const std::string bad : {"0x10", "0x1p4", " 2.5", "+2.5", "2.5 ", ".5", "inf", "nan"})
    {
        std::string e = FieldError(bad, real);
        EXPECT_NE(e.find(":2: field 'x' must be a number >= 0 (got '" + bad + "')"),
                  std::string::npos)
            << "'" << bad << "' -> " << e;
    }
    // Control: a fraction and an exponent are a real number's.
    for (const auto& [good, value] : std::vector<std::pair<std::string, double>>{{"0", 0},
                                                                                 {"2.5", 2.5},
                                                                                 {"1e-3", 0.001},
                                                                                 {"1E3", 1000},
                                                                                 {"10.", 10}})
    {
        SuiteCsvReader csv(TempFile("n,x\n1," + good + "\n"), {"n", "x"});
        ASSERT_TRUE(csv.Next());
        EXPECT_EQ(csv.NonNegative("x"), value) << good;
    }
}

TEST(SuiteCsvReader, AColumnNamedTwiceIsRefused)
{
    // The second 'x' used to win: the row below read as x = 2.
    std::string e = ErrorOf([] { SuiteCsvReader(TempFile("# c\nx,n,x\n1,1,2\n"), {"x"}); });
    EXPECT_NE(e.find("csv-AColumnNamedTwiceIsRefused.csv:2: the header names column 'x' twice"),
              std::string::npos)
        << e;
    // Control: the same columns once each.
    SuiteCsvReader csv(TempFile("# c\nx,n\n1,1\n"), {"x"});
    ASSERT_TRUE(csv.Next());
    EXPECT_EQ(csv.Text("x"), "1");
}

TEST(SuiteCsvReader, ARowWithMoreFieldsThanTheHeaderIsRefused)
{
    // The fourth field (a value with a comma in it, or a stray trailing comma) was dropped.
    for (const std::string row : {"1,2,3,4", "1,2,3,"})
    {
        std::string e = ErrorOf([&] {
            SuiteCsvReader csv(TempFile("a,b,c\n1,2,3\n" + row + "\n"), {"a"});
            while (csv.Next())
            {
            }
        });
        EXPECT_NE(e.find("csv-ARowWithMoreFieldsThanTheHeaderIsRefused.csv:3: expected 3 fields, "
                         "got 4"),
                  std::string::npos)
            << row << " -> " << e;
    }
    // Control: rows as wide as the header, comments and blank lines between them.
    SuiteCsvReader csv(TempFile("a,b,c\n1,2,3\n\n# x,y,z,w\n4,5,\n"), {"a"});
    ASSERT_TRUE(csv.Next());
    ASSERT_TRUE(csv.Next());
    EXPECT_EQ(csv.Text("c"), "");
    EXPECT_FALSE(csv.Next());
}

TEST(SuiteCsvReader, ErrorsEchoAFieldCutShort)
{
    // A 2 MB field used to be echoed whole in the one-line error.
    const std::string huge = "9" + std::string(2000000, 'x');
    std::string e =
        FieldError(huge, [](const SuiteCsvReader& csv) { csv.Integer("x", 0, UINT32_MAX); });
    EXPECT_NE(e.find(":2: field 'x' must be a whole number from 0 to 4294967295 (got '9" +
                     std::string(63, 'x') + "... (2000001 characters)')"),
              std::string::npos)
        << e.substr(0, 300);
    EXPECT_LT(e.size(), 300u);
    // A duplicate column name, the same.
    e = ErrorOf([&] { SuiteCsvReader(TempFile("n," + huge + "," + huge + "\n"), {"n"}); });
    EXPECT_NE(e.find(":1: the header names column '9" + std::string(63, 'x') +
                     "... (2000001 characters)' twice"),
              std::string::npos)
        << e.substr(0, 300);
    // Control: a field of 64 characters is echoed whole.
    const std::string whole = "9" + std::string(63, 'x');
    e = FieldError(whole, [](const SuiteCsvReader& csv) { csv.Integer("x", 0, UINT32_MAX); });
    EXPECT_NE(e.find("(got '" + whole + "')"), std::string::npos) << e;
}

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "suite-unit-parser.h"

#include "suite-number-parser.h"

#include <cmath>
#include <sstream>
#include <utility>

namespace ns3
{

namespace
{

/**
 * Read a data rate with ns-3's own parser (which fails the stream on bad text, where the
 * DataRate(std::string) constructor and the attribute path abort).
 * \param text the text, without spaces
 * \param value the rate
 * \return true on success
 */
bool
ReadDataRate(const std::string& text, DataRate& value)
{
    std::istringstream in(text);
    in >> value;
    return !in.fail() && in.peek() == std::char_traits<char>::eof();
}

} // namespace

bool
SuiteParseTime(const std::string& text, Time& value)
{
    // Longer units first, so that "ms" is not read as "m" + "s".
    static const std::pair<const char*, double> units[] = {{"min", 60},
                                                           {"ms", 1e-3},
                                                           {"us", 1e-6},
                                                           {"ns", 1e-9},
                                                           {"ps", 1e-12},
                                                           {"fs", 1e-15},
                                                           {"y", 365 * 86400.0},
                                                           {"d", 86400},
                                                           {"h", 3600},
                                                           {"s", 1},
                                                           {"", 1}};
    for (const auto& [unit, seconds] : units)
    {
        std::string suffix = unit;
        if (text.size() <= suffix.size() ||
            text.compare(text.size() - suffix.size(), suffix.size(), suffix) != 0)
        {
            continue;
        }
        double number = 0;
        if (!SuiteParseDouble(text.substr(0, text.size() - suffix.size()), number))
        {
            return false;
        }
        double steps = number * seconds * static_cast<double>(Seconds(1).GetTimeStep());
        // 2^63 steps and beyond do not fit int64_t (the double bound is exact).
        if (!std::isfinite(steps) || std::fabs(steps) >= 9223372036854775808.0)
        {
            return false;
        }
        value = Time(text);
        return true;
    }
    return false;
}

bool
SuiteParseDataRate(const std::string& text, DataRate& value)
{
    std::size_t unit = text.find_first_not_of("0123456789.");
    if (unit == 0 || unit == std::string::npos ||
        text.find_first_of(" \t\n\r\v\f") != std::string::npos)
    {
        return false;
    }
    double number = 0;
    DataRate perUnit;
    if (!SuiteParseDouble(text.substr(0, unit), number) ||
        !ReadDataRate("1" + text.substr(unit), perUnit))
    {
        return false;
    }
    // Below 2^64 bit/s (the double bound is exact), which DataRate holds as uint64_t.
    if (number * static_cast<double>(perUnit.GetBitRate()) >= 18446744073709551616.0)
    {
        return false;
    }
    return ReadDataRate(text, value);
}

} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "suite-csv-reader.h"

#include "suite-check.h"
#include "suite-shown-text.h"

#include "ns3/suite-number-parser.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <sstream>

namespace ns3
{

namespace
{
/// Split a line at commas, dropping a trailing carriage return.
std::vector<std::string>
Split(std::string line)
{
    if (!line.empty() && line.back() == '\r')
    {
        line.pop_back();
    }
    std::vector<std::string> fields;
    std::stringstream stream(line);
    std::string field;
    while (std::getline(stream, field, ','))
    {
        fields.push_back(field);
    }
    if (!line.empty() && line.back() == ',')
    {
        fields.emplace_back();
    }
    return fields;
}

/// \return whether a line carries no record
bool
IsSkipped(const std::string& line)
{
    return line.empty() || line == "\r" || line[0] == '#';
}

/// \return whether a field starts as a decimal number does: with a digit (strtod would also
///         skip spaces and take a sign, "0x10" and "inf")
bool
StartsWithDigit(const std::string& text)
{
    return !text.empty() && text[0] >= '0' && text[0] <= '9';
}
} // namespace

SuiteCsvReader::SuiteCsvReader(const std::string& path, const std::vector<std::string>& required)
    : m_path(path),
      m_in(path),
      m_line(0),
      m_width(0)
{
    SUITE_REQUIRE(m_in.good(), std::runtime_error, path << ": cannot open the file");
    std::string line;
    while (std::getline(m_in, line))
    {
        ++m_line;
        if (IsSkipped(line))
        {
            continue;
        }
        auto header = Split(line);
        m_width = header.size();
        for (std::size_t i = 0; i < header.size(); ++i)
        {
            SUITE_REQUIRE(m_columns.emplace(header[i], i).second,
                          std::runtime_error,
                          Where() << ": the header names column '" << SuiteShownText(header[i])
                                  << "' twice");
        }
        for (const auto& column : required)
        {
            SUITE_REQUIRE(m_columns.count(column) != 0,
                          std::runtime_error,
                          Where() << ": the header has no column '" << column << "'");
        }
        return;
    }
    SUITE_REQUIRE(false, std::runtime_error, path << ": empty file (no header row)");
}

bool
SuiteCsvReader::Next()
{
    std::string line;
    while (std::getline(m_in, line))
    {
        ++m_line;
        if (IsSkipped(line))
        {
            continue;
        }
        m_fields = Split(line);
        SUITE_REQUIRE(m_fields.size() == m_width,
                      std::runtime_error,
                      Where() << ": expected " << m_width << " fields, got " << m_fields.size());
        return true;
    }
    return false;
}

std::string
SuiteCsvReader::Where() const
{
    return m_path + ":" + std::to_string(m_line);
}

bool
SuiteCsvReader::HasColumn(const std::string& column) const
{
    return m_columns.count(column) != 0;
}

void
SuiteCsvReader::Fail(const std::string& column, const std::string& what) const
{
    SUITE_REQUIRE(false,
                  std::runtime_error,
                  Where() << ": field '" << column << "' " << what << " (got '"
                          << SuiteShownText(Text(column)) << "')");
    std::abort(); // unreachable
}

std::string
SuiteCsvReader::Text(const std::string& column) const
{
    auto it = m_columns.find(column);
    return it == m_columns.end() || it->second >= m_fields.size() ? "" : m_fields[it->second];
}

double
SuiteCsvReader::NonNegative(const std::string& column) const
{
    const std::string text = Text(column);
    double value = 0;
    if (!StartsWithDigit(text) || !SuiteParseDouble(text, value, 0))
    {
        Fail(column, "must be a number >= 0");
    }
    return value;
}

double
SuiteCsvReader::Positive(const std::string& column) const
{
    double value = NonNegative(column);
    if (value <= 0)
    {
        Fail(column, "must be a number > 0");
    }
    return value;
}

uint64_t
SuiteCsvReader::PositiveInteger(const std::string& column) const
{
    return Integer(column, 1, MAX_EXACT_INTEGER);
}

uint64_t
SuiteCsvReader::Integer(const std::string& column, uint64_t min, uint64_t max) const
{
    // As an integer: through a double, 2^53 + 1 would be read as 2^53.
    const uint64_t top = std::min(max, MAX_EXACT_INTEGER);
    const std::string text = Text(column);
    uint64_t value = 0;
    if (!StartsWithDigit(text) || !SuiteParseUnsigned(text, value, min, top))
    {
        Fail(column,
             "must be a whole number from " + std::to_string(min) + " to " + std::to_string(top));
    }
    return value;
}

Time
SuiteCsvReader::Duration(const std::string& column, double unitSeconds) const
{
    double value = NonNegative(column);
    if (!SuiteFitsInTime(value * unitSeconds))
    {
        std::ostringstream what;
        what << "is " << value * unitSeconds << " s, beyond the " << SUITE_MAX_TIME_SECONDS
             << " s a simulated time can hold";
        Fail(column, what.str());
    }
    return Seconds(value * unitSeconds);
}

} // namespace ns3

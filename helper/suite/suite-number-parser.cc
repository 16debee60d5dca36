/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "suite-number-parser.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>

namespace ns3
{

namespace
{

/// \return true when text is [+|-]digits (a sign only where allowed), nothing else
bool
IsInteger(const std::string& text, bool minusAllowed)
{
    std::size_t start = 0;
    if (!text.empty() && (text[0] == '+' || (minusAllowed && text[0] == '-')))
    {
        start = 1;
    }
    if (start == text.size())
    {
        return false;
    }
    for (std::size_t i = start; i < text.size(); ++i)
    {
        if (text[i] < '0' || text[i] > '9')
        {
            return false;
        }
    }
    return true;
}

} // namespace

bool
SuiteParseUnsigned(const std::string& text, uint64_t& value, uint64_t min, uint64_t max)
{
    if (!IsInteger(text, false))
    {
        return false;
    }
    errno = 0;
    unsigned long long n = std::strtoull(text.c_str(), nullptr, 10);
    if (errno == ERANGE || n < min || n > max)
    {
        return false;
    }
    value = n;
    return true;
}

bool
SuiteParseSigned(const std::string& text, int64_t& value, int64_t min, int64_t max)
{
    if (!IsInteger(text, true))
    {
        return false;
    }
    errno = 0;
    long long n = std::strtoll(text.c_str(), nullptr, 10);
    if (errno == ERANGE || n < min || n > max)
    {
        return false;
    }
    value = n;
    return true;
}

bool
SuiteParseDouble(const std::string& text, double& value, double min, double max)
{
    // Decimal notation only: strtod would also take "inf", "nan" and "0x1p3".
    bool digit = false;
    for (char c : text)
    {
        digit = digit || (c >= '0' && c <= '9');
        if (!((c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.' || c == 'e' || c == 'E'))
        {
            return false;
        }
    }
    if (!digit)
    {
        return false;
    }
    errno = 0;
    char* end = nullptr;
    double n = std::strtod(text.c_str(), &end);
    if (end != text.c_str() + text.size() || errno == ERANGE || !std::isfinite(n) || n < min ||
        n > max)
    {
        return false;
    }
    value = n;
    return true;
}

} // namespace ns3

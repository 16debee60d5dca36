/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "suite-attribute-text.h"

#include "suite-number-parser.h"
#include "suite-unit-parser.h"

#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/integer.h"
#include "ns3/nstime.h"
#include "ns3/queue-size.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

namespace ns3
{

namespace
{

/**
 * \param checker the checker
 * \param value a value of its type
 * \return "" when the checker accepts the value, else the checker's range
 */
std::string
InRange(Ptr<const AttributeChecker> checker, const AttributeValue& value)
{
    return checker->Check(value) ? ""
                                 : "out of range (" + checker->GetUnderlyingTypeInformation() + ")";
}

} // namespace

std::string
SuiteCheckValueText(Ptr<const AttributeChecker> checker, const std::string& text)
{
    // Some checkers name their type with "ns3::", others (DataRate, Boolean) without.
    std::string type = checker->GetValueTypeName();
    type = type.rfind("ns3::", 0) == 0 ? type.substr(5) : type;
    if (type == "UintegerValue")
    {
        uint64_t n = 0;
        return SuiteParseUnsigned(text, n) ? InRange(checker, UintegerValue(n))
                                           : "expected a non-negative integer";
    }
    if (type == "IntegerValue")
    {
        int64_t n = 0;
        return SuiteParseSigned(text, n) ? InRange(checker, IntegerValue(n))
                                         : "expected an integer";
    }
    if (type == "DoubleValue")
    {
        double n = 0;
        return SuiteParseDouble(text, n) ? InRange(checker, DoubleValue(n))
                                         : "expected a finite number";
    }
    if (type == "TimeValue")
    {
        Time t;
        return SuiteParseTime(text, t) ? InRange(checker, TimeValue(t))
                                       : "expected a time such as 10us, with no space, that "
                                         "fits 64-bit nanoseconds";
    }
    if (type == "DataRateValue")
    {
        DataRate r;
        return SuiteParseDataRate(text, r) ? InRange(checker, DataRateValue(r))
                                           : "expected a data rate such as 100Gbps, with no "
                                             "space";
    }
    if (type == "QueueSizeValue")
    {
        // ns-3.37 keeps a queue size in 32 bits and wraps a larger text silently
        // ("4294967297B" becomes 1B); it aborts on a unit it does not know ("3GB").
        static const std::pair<const char*, uint64_t> units[] = {{"KiB", 1024},
                                                                 {"MiB", 1048576},
                                                                 {"KB", 1000},
                                                                 {"MB", 1000000},
                                                                 {"B", 1},
                                                                 {"Kp", 1000},
                                                                 {"kp", 1000},
                                                                 {"Mp", 1000000},
                                                                 {"p", 1}};
        for (const auto& [unit, scale] : units)
        {
            std::string u(unit);
            uint64_t n = 0;
            if (text.size() > u.size() && text.compare(text.size() - u.size(), u.size(), u) == 0 &&
                SuiteParseUnsigned(text.substr(0, text.size() - u.size()), n))
            {
                return n <= UINT32_MAX / scale ? InRange(checker, QueueSizeValue(QueueSize(text)))
                                               : "out of range (at most 4294967295 bytes or "
                                                 "packets)";
            }
        }
        return "expected a queue size such as 100p, 65536B or 1MB";
    }
    if (type == "BooleanValue" || type == "EnumValue")
    {
        return checker->CreateValidValue(StringValue(text))
                   ? ""
                   : "expected " + std::string(type == "BooleanValue"
                                                   ? "true or false"
                                                   : checker->GetUnderlyingTypeInformation());
    }
    return "";
}

std::string
SuiteCheckAttributeText(const TypeId::AttributeInformation& info, const std::string& text)
{
    return SuiteCheckValueText(info.checker, text);
}

} // namespace ns3

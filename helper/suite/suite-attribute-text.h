/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef SUITE_ATTRIBUTE_TEXT_H
#define SUITE_ATTRIBUTE_TEXT_H

#include "ns3/attribute.h"
#include "ns3/ptr.h"
#include "ns3/type-id.h"

#include <string>

namespace ns3
{

/**
 * \ingroup suite
 * \brief Check that a text is a valid value of an attribute (or global value) before ns-3
 *        parses it: ns-3.37 aborts on text it cannot read (a non-integer for an integer
 *        attribute, "abc" for a time, "100 Gbps" for a rate) and silently overflows others
 *        ("1e300s").
 *
 * Integer, Uinteger, Double, Time and DataRate values are parsed strictly (see
 * suite-number-parser.h and suite-unit-parser.h), then checked against the checker's bounds;
 * Boolean and Enum values must be accepted by the checker; other types (strings among them)
 * pass unchecked.
 * \param checker the attribute's checker
 * \param text the value's text
 * \return "" when valid, else what was expected, e.g. "expected an integer"
 */
std::string SuiteCheckValueText(Ptr<const AttributeChecker> checker, const std::string& text);

/**
 * \ingroup suite
 * \brief SuiteCheckValueText() for an attribute.
 * \param info the attribute
 * \param text the value's text
 * \return "" when valid, else what was expected
 */
std::string SuiteCheckAttributeText(const TypeId::AttributeInformation& info,
                                    const std::string& text);

} // namespace ns3

#endif /* SUITE_ATTRIBUTE_TEXT_H */

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef SUITE_UNIT_PARSER_H
#define SUITE_UNIT_PARSER_H

#include "ns3/data-rate.h"
#include "ns3/nstime.h"

#include <string>

namespace ns3
{

/**
 * \ingroup suite
 * \brief Parse a time: a finite number and a unit (y, d, h, min, s, ms, us, ns, ps, fs; none
 *        means seconds), with no space, whose value fits the simulator's 64-bit time.
 *        Refuses "abc", "5 ms", "1e300s" and "nan".
 * \param text the text
 * \param value the time, set only on success
 * \return true when the text is such a time
 */
bool SuiteParseTime(const std::string& text, Time& value);

/**
 * \ingroup suite
 * \brief Parse a data rate as ns-3 writes it: a non-negative decimal number directly followed
 *        by a unit ("100Gbps", "1.5Mb/s", "10KiBps"), at most 2^64 - 1 bit/s. Refuses text
 *        with spaces ("100 Gbps"), a missing or unknown unit and exponents.
 * \param text the text
 * \param value the rate, set only on success
 * \return true when the text is such a rate
 */
bool SuiteParseDataRate(const std::string& text, DataRate& value);

} // namespace ns3

#endif /* SUITE_UNIT_PARSER_H */

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef SUITE_EXACT_NUMBER_H
#define SUITE_EXACT_NUMBER_H

#include <ostream>

namespace ns3
{

/**
 * \ingroup suite
 * \brief A number for a CSV file, written exactly: the shortest text that reads back as the
 *        same double (std::to_chars), whatever the stream's precision. 0.1 is "0.1",
 *        955563123.456 stays "955563123.456" (not "9.55563e+08"), 1e300 is "1e+300".
 */
struct SuiteExact
{
    double value; //!< the number
};

/**
 * \brief Write a number exactly.
 * \param out the stream
 * \param x the number
 * \return out
 */
std::ostream& operator<<(std::ostream& out, SuiteExact x);

} // namespace ns3

#endif /* SUITE_EXACT_NUMBER_H */

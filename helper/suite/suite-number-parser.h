/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef SUITE_NUMBER_PARSER_H
#define SUITE_NUMBER_PARSER_H

#include <cstdint>
#include <limits>
#include <string>

namespace ns3
{

/**
 * \ingroup suite
 * \brief Parse the whole text as a decimal integer without sign (an optional '+'), in
 *        [min, max]. Refuses "1e3", "2.5", "-1", "abc", spaces, trailing text and overflow.
 * \param text the text
 * \param value the number, set only on success
 * \param min the smallest value accepted
 * \param max the largest value accepted
 * \return true when the text is such an integer
 */
bool SuiteParseUnsigned(const std::string& text,
                        uint64_t& value,
                        uint64_t min = 0,
                        uint64_t max = std::numeric_limits<uint64_t>::max());

/**
 * \ingroup suite
 * \brief Parse the whole text as a decimal integer with an optional sign, in [min, max].
 * \param text the text
 * \param value the number, set only on success
 * \param min the smallest value accepted
 * \param max the largest value accepted
 * \return true when the text is such an integer
 */
bool SuiteParseSigned(const std::string& text,
                      int64_t& value,
                      int64_t min = std::numeric_limits<int64_t>::min(),
                      int64_t max = std::numeric_limits<int64_t>::max());

/**
 * \ingroup suite
 * \brief Parse the whole text as a finite decimal number ("2", "-0.5", "1e3") in [min, max].
 *        Refuses "nan", "inf", hexadecimal, spaces, trailing text and out-of-range values.
 * \param text the text
 * \param value the number, set only on success
 * \param min the smallest value accepted
 * \param max the largest value accepted
 * \return true when the text is such a number
 */
bool SuiteParseDouble(const std::string& text,
                      double& value,
                      double min = std::numeric_limits<double>::lowest(),
                      double max = std::numeric_limits<double>::max());

} // namespace ns3

#endif /* SUITE_NUMBER_PARSER_H */

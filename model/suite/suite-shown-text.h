/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef SUITE_SHOWN_TEXT_H
#define SUITE_SHOWN_TEXT_H

#include <cstddef>
#include <string>

namespace ns3
{

/**
 * \ingroup suite
 * The most characters of a value that an error message echoes (SuiteShownText): room for
 * any model, algorithm or ns-3 attribute name the suite knows.
 */
constexpr std::size_t SUITE_SHOWN_CHARACTERS = 64;

/**
 * \ingroup suite
 * \brief A value from an input file as a one-line error message may echo it: printable ASCII
 *        (other bytes as '?', so a line break cannot split the message), at most `limit`
 *        characters; a longer value is cut and followed by "... (<n> characters)".
 *
 * Readers quote it as before ("(got '" + SuiteShownText(field) + "')"), so a field of a few
 * megabytes gives a message of one short line that still says how long the field was.
 * \param value the value
 * \param limit the most characters shown
 * \return the text to show
 */
std::string SuiteShownText(const std::string& value, std::size_t limit = SUITE_SHOWN_CHARACTERS);

} // namespace ns3

#endif /* SUITE_SHOWN_TEXT_H */

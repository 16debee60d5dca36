/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "suite-shown-text.h"

namespace ns3
{

std::string
SuiteShownText(const std::string& value, std::size_t limit)
{
    std::string shown;
    for (std::size_t i = 0; i < value.size() && i < limit; ++i)
    {
        const auto c = static_cast<unsigned char>(value[i]);
        shown += c >= 0x20 && c < 0x7f ? static_cast<char>(c) : '?';
    }
    if (value.size() > limit)
    {
        shown += "... (" + std::to_string(value.size()) + " characters)";
    }
    return shown;
}

} // namespace ns3

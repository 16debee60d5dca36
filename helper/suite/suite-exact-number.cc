/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "suite-exact-number.h"

#include <array>
#include <charconv>

namespace ns3
{

std::ostream&
operator<<(std::ostream& out, SuiteExact x)
{
    std::array<char, 32> text{}; // the longest double, "-2.2250738585072014e-308", is 24
    const auto [end, error] = std::to_chars(text.data(), text.data() + text.size(), x.value);
    return error == std::errc() ? out.write(text.data(), end - text.data()) : out << x.value;
}

} // namespace ns3

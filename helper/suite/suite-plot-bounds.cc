/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "suite-plot-bounds.h"

#include <algorithm>
#include <sstream>

namespace ns3
{

void
SuitePlotBounds::Add(double x, double y)
{
    m_xMin = std::min(m_xMin, x);
    m_xMax = std::max(m_xMax, x);
    m_yMin = std::min(m_yMin, y);
    m_yMax = std::max(m_yMax, y);
}

std::string
SuitePlotBounds::XRange() const
{
    return Range(m_xMin, m_xMax, "x");
}

std::string
SuitePlotBounds::YRange() const
{
    return Range(m_yMin, m_yMax, "y");
}

std::string
SuitePlotBounds::Range(double lo, double hi, const std::string& axis)
{
    if (lo < hi)
    {
        return "";
    }
    double a = 0;
    double b = 1;
    if (lo == hi && hi > 0)
    {
        a = hi / 2;
        b = hi * 2;
    }
    else if (lo == hi && hi < 0)
    {
        a = hi * 2;
        b = hi / 2;
    }
    std::ostringstream out;
    out.precision(17);
    out << "set " << axis << "range [" << a << ":" << b << "]\n";
    return out.str();
}

} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "vclos-program-support.h"

#include <algorithm>
#include <cmath>
#include <exception>
#include <iostream>
#include <numeric>

namespace ns3
{

double
VclosMean(const std::vector<double>& values)
{
    return values.empty() ? 0.0
                          : std::accumulate(values.begin(), values.end(), 0.0) / values.size();
}

double
VclosPercentile(std::vector<double> values, double q)
{
    if (values.empty())
    {
        return 0.0;
    }
    std::sort(values.begin(), values.end());
    auto k = static_cast<std::size_t>(std::ceil(q * values.size()));
    return values[std::min(values.size() - 1, k == 0 ? 0 : k - 1)];
}

} // namespace ns3

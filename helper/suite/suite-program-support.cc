/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "suite-program-support.h"

#include "ns3/global-value.h"
#include "ns3/string.h"

#include <algorithm>
#include <cmath>
#include <exception>
#include <iostream>
#include <numeric>

namespace ns3
{

double
SuiteMean(const std::vector<double>& values)
{
    return values.empty() ? 0.0
                          : std::accumulate(values.begin(), values.end(), 0.0) / values.size();
}

double
SuitePercentile(std::vector<double> values, double q)
{
    if (values.empty())
    {
        return 0.0;
    }
    std::sort(values.begin(), values.end());
    auto k = static_cast<std::size_t>(std::ceil(q * values.size()));
    return values[std::min(values.size() - 1, k == 0 ? 0 : k - 1)];
}

std::string
SuiteSetEventScheduler(const std::string& name)
{
    static const std::vector<std::pair<std::string, std::string>> schedulers = {
        {"map", "ns3::MapScheduler"},
        {"heap", "ns3::HeapScheduler"},
        {"calendar", "ns3::CalendarScheduler"},
        {"list", "ns3::ListScheduler"},
        {"priority-queue", "ns3::PriorityQueueScheduler"}};
    for (const auto& [shortName, typeId] : schedulers)
    {
        if (name == shortName)
        {
            GlobalValue::Bind("SchedulerType", StringValue(typeId));
            return "";
        }
    }
    return "eventScheduler: unknown event scheduler '" + name +
           "' (map, heap, calendar, list or priority-queue)";
}

} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "oncache-kv-tracker.h"

#include "ns3/log.h"
#include "ns3/oncache-check.h"
#include "ns3/oncache-kv-client.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("OncacheKvTracker");

NS_OBJECT_ENSURE_REGISTERED(OncacheKvTracker);

TypeId
OncacheKvTracker::GetTypeId()
{
    static TypeId tid = TypeId("ns3::OncacheKvTracker")
                            .SetParent<Object>()
                            .SetGroupName("Oncache")
                            .AddConstructor<OncacheKvTracker>();
    return tid;
}

OncacheKvTracker::OncacheKvTracker()
    : m_sorted(false)
{
    NS_LOG_FUNCTION(this);
}

void
OncacheKvTracker::Install(const ApplicationContainer& clients)
{
    for (auto it = clients.Begin(); it != clients.End(); ++it)
    {
        Ptr<OncacheKvClient> client = DynamicCast<OncacheKvClient>(*it);
        ONCACHE_REQUIRE(client,
                        std::invalid_argument,
                        "OncacheKvTracker::Install: application " << (*it)->GetInstanceTypeId()
                                                                  << " is not a key-value client");
        client->TraceConnectWithoutContext("Transaction",
                                           MakeCallback(&OncacheKvTracker::OnTransaction, this));
    }
}

void
OncacheKvTracker::Reset()
{
    m_windowStart = Simulator::Now();
    m_latency.clear();
    m_sorted = false;
}

void
OncacheKvTracker::OnTransaction(Time latency, uint32_t valueBytes)
{
    m_latency.push_back(latency.GetTimeStep());
    m_sorted = false;
}

uint64_t
OncacheKvTracker::GetTransactions() const
{
    return m_latency.size();
}

double
OncacheKvTracker::GetRate() const
{
    double seconds = (Simulator::Now() - m_windowStart).GetSeconds();
    return seconds > 0 ? m_latency.size() / seconds : 0;
}

Time
OncacheKvTracker::GetMeanLatency() const
{
    if (m_latency.empty())
    {
        return Time(0);
    }
    long double sum = 0;
    for (int64_t l : m_latency)
    {
        sum += l;
    }
    return TimeStep(static_cast<uint64_t>(std::llround(sum / m_latency.size())));
}

Time
OncacheKvTracker::GetPercentile(double percent) const
{
    ONCACHE_REQUIRE(percent >= 0 && percent <= 100,
                    std::out_of_range,
                    "percentile " << percent << " is outside [0, 100]");
    if (m_latency.empty())
    {
        return Time(0);
    }
    if (!m_sorted)
    {
        m_order = m_latency;
        std::sort(m_order.begin(), m_order.end());
        m_sorted = true;
    }
    // Nearest rank: the smallest value with at least percent % of the samples at or below it.
    std::size_t rank = static_cast<std::size_t>(std::ceil(percent / 100.0 * m_order.size()));
    rank = std::max<std::size_t>(rank, 1);
    return TimeStep(static_cast<uint64_t>(m_order[rank - 1]));
}

} // namespace ns3

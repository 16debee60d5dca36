/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "oncache-stats-tracker.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("OncacheStatsTracker");

NS_OBJECT_ENSURE_REGISTERED(OncacheStatsTracker);

TypeId
OncacheStatsTracker::GetTypeId()
{
    static TypeId tid = TypeId("ns3::OncacheStatsTracker")
                            .SetParent<Object>()
                            .SetGroupName("Oncache")
                            .AddConstructor<OncacheStatsTracker>();
    return tid;
}

OncacheStatsTracker::OncacheStatsTracker()
    : m_paths{},
      m_drops{}
{
    NS_LOG_FUNCTION(this);
}

void
OncacheStatsTracker::Install(Ptr<OncacheCluster> cluster)
{
    NS_LOG_FUNCTION(this << cluster);
    for (uint32_t h = 0; h < cluster->GetNHosts(); ++h)
    {
        Ptr<OncacheHostDatapath> datapath = cluster->GetDatapath(h);
        datapath->TraceConnectWithoutContext("Path",
                                             MakeCallback(&OncacheStatsTracker::OnPath, this));
        datapath->TraceConnectWithoutContext("Drop",
                                             MakeCallback(&OncacheStatsTracker::OnDrop, this));
        datapath->TraceConnectWithoutContext("Deliver",
                                             MakeCallback(&OncacheStatsTracker::OnDeliver, this));
        datapath->GetCpu()->TraceConnectWithoutContext(
            "CoreBusy",
            MakeCallback(&OncacheStatsTracker::OnCoreBusy, this));
    }
}

void
OncacheStatsTracker::OnPath(uint32_t host,
                            const OncacheFlowKey& flow,
                            OncacheHostDatapath::Direction direction,
                            OncacheHostDatapath::Path path)
{
    ++m_paths[direction][path];
    FlowCounters& f = m_flows[flow.Canonical()];
    const bool fast = path == OncacheHostDatapath::PATH_FAST;
    const bool slow = !fast && path != OncacheHostDatapath::PATH_NATIVE;
    if (direction == OncacheHostDatapath::EGRESS)
    {
        if (slow && f.egressFast > 0)
        {
            ++f.slowAfterFast;
        }
        f.egressSlow += slow ? 1 : 0;
        f.egressFast += fast ? 1 : 0;
    }
    else
    {
        f.ingressSlow += slow ? 1 : 0;
        f.ingressFast += fast ? 1 : 0;
    }
}

void
OncacheStatsTracker::OnDrop(uint32_t host,
                            Ptr<const Packet> packet,
                            OncacheHostDatapath::DropReason reason)
{
    ++m_drops[reason];
}

void
OncacheStatsTracker::OnDeliver(uint32_t host, Ipv4Address pod, Ptr<const Packet> packet)
{
    ++m_delivered[{host, pod.Get()}];
}

void
OncacheStatsTracker::OnCoreBusy(uint32_t host, uint32_t core, Time start, Time duration)
{
    m_busy[{host, core}] += duration;
}

uint64_t
OncacheStatsTracker::GetPathCount(OncacheHostDatapath::Direction direction,
                                  OncacheHostDatapath::Path path) const
{
    return m_paths[direction][path];
}

OncacheStatsTracker::FlowCounters
OncacheStatsTracker::GetFlow(const OncacheFlowKey& flow) const
{
    auto it = m_flows.find(flow.Canonical());
    return it == m_flows.end() ? FlowCounters() : it->second;
}

std::vector<OncacheFlowKey>
OncacheStatsTracker::GetFlows() const
{
    std::vector<OncacheFlowKey> flows;
    for (const auto& entry : m_flows)
    {
        flows.push_back(entry.first);
    }
    return flows;
}

uint64_t
OncacheStatsTracker::GetDrops(OncacheHostDatapath::DropReason reason) const
{
    return m_drops[reason];
}

uint64_t
OncacheStatsTracker::GetTotalDrops() const
{
    uint64_t total = 0;
    for (auto d : m_drops)
    {
        total += d;
    }
    return total;
}

uint64_t
OncacheStatsTracker::GetDelivered(uint32_t host, Ipv4Address pod) const
{
    auto it = m_delivered.find({host, pod.Get()});
    return it == m_delivered.end() ? 0 : it->second;
}

Time
OncacheStatsTracker::GetCoreBusy(uint32_t host, uint32_t core) const
{
    auto it = m_busy.find({host, core});
    return it == m_busy.end() ? Time(0) : it->second;
}

Time
OncacheStatsTracker::GetHostBusy(uint32_t host) const
{
    Time total(0);
    for (const auto& [key, busy] : m_busy)
    {
        if (key.first == host)
        {
            total += busy;
        }
    }
    return total;
}

} // namespace ns3

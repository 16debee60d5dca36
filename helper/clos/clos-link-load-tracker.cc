/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "clos-link-load-tracker.h"

#include "ns3/boolean.h"
#include "ns3/callback.h"
#include "ns3/clos-packet-parser.h"
#include "ns3/log.h"
#include "ns3/queue-disc.h"
#include "ns3/simulator.h"
#include "ns3/suite-check.h"
#include "ns3/traffic-control-layer.h"

#include <algorithm>
#include <fstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ClosLinkLoadTracker");

NS_OBJECT_ENSURE_REGISTERED(ClosLinkLoadTracker);

namespace
{
/// \return an output file, or throw naming it
std::ofstream
OpenCsv(const std::string& filename)
{
    std::ofstream out(filename);
    SUITE_REQUIRE(out.good(), std::runtime_error, "cannot write " << filename);
    return out;
}
} // namespace

TypeId
ClosLinkLoadTracker::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::ClosLinkLoadTracker")
            .SetParent<Object>()
            .SetGroupName("Clos")
            .AddConstructor<ClosLinkLoadTracker>()
            .AddAttribute("IgnorePureAcks",
                          "Do not count TCP segments without payload (ACKs, SYN, FIN) nor "
                          "RoCEv2 ACKs, NAKs and CNPs, so that flows are data flows.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&ClosLinkLoadTracker::m_ignorePureAcks),
                          MakeBooleanChecker())
            .AddAttribute("IdleGap",
                          "A flow silent on a link for longer than this is inactive there until "
                          "its next packet (so an idle persistent connection shares nothing).",
                          TimeValue(MicroSeconds(100)),
                          MakeTimeAccessor(&ClosLinkLoadTracker::m_idleGap),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("BinWidth",
                          "Width of a time-series bin for WriteTimeSeriesCsv (0: no series).",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&ClosLinkLoadTracker::m_binWidth),
                          MakeTimeChecker());
    return tid;
}

ClosLinkLoadTracker::ClosLinkLoadTracker()
    : m_ignorePureAcks(true),
      m_dirty(false)
{
    NS_LOG_FUNCTION(this);
}

void
ClosLinkLoadTracker::Install(Ptr<ClosFabric> fabric)
{
    NS_LOG_FUNCTION(this << fabric);
    // The traces keep the tracker alive; it keeps nothing of the fabric (no cycle).
    Ptr<ClosLinkLoadTracker> self(this);
    const auto& links = fabric->GetLinks();
    m_links.assign(links.size(), LinkRecord());
    m_linkNames.clear();
    m_spineLink.clear();
    for (uint32_t id = 0; id < links.size(); ++id)
    {
        m_linkNames.push_back(links[id].name);
        m_spineLink.push_back(links[id].kind == ClusterLink::LEAF_TO_SPINE ||
                              links[id].kind == ClusterLink::SPINE_TO_LEAF);
        Ptr<NetDevice> device = links[id].device;
        device->TraceConnectWithoutContext(
            "PhyTxBegin",
            MakeBoundCallback(&ClosLinkLoadTracker::PacketSent, self, id));
        for (const char* trace : {"MacTxDrop", "PhyTxDrop"})
        {
            device->TraceConnectWithoutContext(
                trace,
                MakeBoundCallback(&ClosLinkLoadTracker::PacketDropped, self, id));
        }
        Ptr<TrafficControlLayer> tc = device->GetNode()->GetObject<TrafficControlLayer>();
        Ptr<QueueDisc> queueDisc = tc ? tc->GetRootQueueDiscOnDevice(device) : nullptr;
        if (queueDisc)
        {
            queueDisc->TraceConnectWithoutContext(
                "Drop",
                MakeBoundCallback(&ClosLinkLoadTracker::ItemDropped, self, id));
        }
    }
}

void
ClosLinkLoadTracker::Reset()
{
    NS_LOG_FUNCTION(this);
    m_links.assign(m_links.size(), LinkRecord());
    m_flows.clear();
    m_flowIndex.clear();
    m_linkLoads.clear();
    m_totalDrops = 0;
    m_totalDroppedBytes = 0;
    m_dirty = true;
}

void
ClosLinkLoadTracker::PacketSent(Ptr<ClosLinkLoadTracker> tracker,
                                uint32_t link,
                                Ptr<const Packet> packet)
{
    tracker->Record(link, packet);
}

void
ClosLinkLoadTracker::PacketDropped(Ptr<ClosLinkLoadTracker> tracker,
                                   uint32_t link,
                                   Ptr<const Packet> packet)
{
    ClosParsedPacket parsed;
    tracker->CountDrop(link, ClosParsePacket(packet, parsed) ? parsed.ipBytes : packet->GetSize());
}

void
ClosLinkLoadTracker::ItemDropped(Ptr<ClosLinkLoadTracker> tracker,
                                 uint32_t link,
                                 Ptr<const QueueDiscItem> item)
{
    tracker->CountDrop(link, item->GetSize()); // IPv4 header included
}

void
ClosLinkLoadTracker::CountDrop(uint32_t link, uint32_t ipBytes)
{
    m_links[link].drops++;
    m_links[link].droppedBytes += ipBytes;
    m_totalDrops++;
    m_totalDroppedBytes += ipBytes;
}

uint64_t
ClosLinkLoadTracker::GetTotalDrops() const
{
    return m_totalDrops;
}

uint64_t
ClosLinkLoadTracker::GetTotalDroppedBytes() const
{
    return m_totalDroppedBytes;
}

void
ClosLinkLoadTracker::Record(uint32_t link, Ptr<const Packet> packet)
{
    ClosParsedPacket parsed;
    if (!ClosParsePacket(packet, parsed) ||
        (m_ignorePureAcks && (parsed.tcpNoPayload || parsed.roceControl)))
    {
        return;
    }
    const ClusterFiveTuple& t = parsed.tuple;
    const uint32_t totalLength = parsed.ipBytes;
    int64_t now = Simulator::Now().GetTimeStep();
    auto [it, isNew] = m_flowIndex.try_emplace(t, static_cast<uint32_t>(m_flows.size()));
    if (isNew)
    {
        FlowLoad flow;
        flow.tuple = t;
        flow.firstSeen = Simulator::Now();
        m_flows.push_back(flow);
    }
    uint32_t flow = it->second;
    m_flows[flow].lastSeen = Simulator::Now();

    LinkRecord& record = m_links[link];
    auto [slot, isNewHere] =
        record.slot.try_emplace(flow, static_cast<uint32_t>(record.presences.size()));
    if (isNewHere)
    {
        record.presences.push_back(Presence{flow, now, now, 0});
        m_flows[flow].links.push_back(link);
    }
    else if (now - record.presences[slot->second].last > m_idleGap.GetTimeStep())
    {
        slot->second = static_cast<uint32_t>(record.presences.size()); // a new active period
        record.presences.push_back(Presence{flow, now, now, 0});
    }
    Presence& presence = record.presences[slot->second];
    presence.last = now;
    presence.bytes += totalLength;
    if (m_flows[flow].links.front() == link)
    {
        m_flows[flow].bytes += totalLength;
    }
    if (m_binWidth.IsStrictlyPositive())
    {
        auto bin = static_cast<std::size_t>(now / m_binWidth.GetTimeStep());
        if (record.binBytes.size() <= bin)
        {
            record.binBytes.resize(bin + 1, 0);
        }
        record.binBytes[bin] += totalLength;
    }
    m_dirty = true;
}

void
ClosLinkLoadTracker::Analyze()
{
    if (!m_dirty && m_linkLoads.size() == m_links.size())
    {
        return;
    }
    m_linkLoads.assign(m_links.size(), LinkLoad());
    for (auto& flow : m_flows)
    {
        flow.maxSharing = 1;
        flow.conflicting = false;
        flow.crossesSpine = false;
        flow.conflictingOnSpine = false;
    }
    std::vector<std::pair<int64_t, int>> events; // (time, +1 start / -1 end), ends first
    std::vector<uint32_t> others;                // flows overlapping one presence
    for (uint32_t id = 0; id < m_links.size(); ++id)
    {
        const auto& presences = m_links[id].presences;
        LinkLoad& load = m_linkLoads[id];
        load.flows = static_cast<uint32_t>(m_links[id].slot.size());
        for (const auto& p : presences)
        {
            load.bytes += p.bytes;
        }
        load.drops = m_links[id].drops;
        load.droppedBytes = m_links[id].droppedBytes;
        // Peak concurrency by a sweep; an interval ending exactly when another starts
        // does not overlap it.
        events.clear();
        for (const auto& p : presences)
        {
            events.emplace_back(p.first, +1);
            events.emplace_back(p.last, -1);
        }
        std::sort(events.begin(), events.end(), [](const auto& a, const auto& b) {
            return a.first != b.first ? a.first < b.first : a.second > b.second;
        });
        int active = 0;
        for (const auto& e : events)
        {
            active += e.second;
            load.maxConcurrentFlows = std::max<uint32_t>(load.maxConcurrentFlows, active);
        }
        // Per flow: how many other flows overlap it on this link, each counted once however
        // many active periods it has (quadratic in presences per link, which stays small).
        for (const auto& p : presences)
        {
            others.clear();
            for (const auto& q : presences)
            {
                if (p.flow != q.flow && q.first <= p.last && p.first <= q.last)
                {
                    others.push_back(q.flow);
                }
            }
            std::sort(others.begin(), others.end());
            auto overlapping = static_cast<uint32_t>(
                1 + (std::unique(others.begin(), others.end()) - others.begin()));
            FlowLoad& flow = m_flows[p.flow];
            flow.maxSharing = std::max(flow.maxSharing, overlapping);
            flow.conflicting = flow.conflicting || overlapping > 1;
            flow.crossesSpine = flow.crossesSpine || m_spineLink[id];
            flow.conflictingOnSpine =
                flow.conflictingOnSpine || (m_spineLink[id] && overlapping > 1);
        }
    }
    m_dirty = false;
}

ClosLinkLoadTracker::LinkLoad
ClosLinkLoadTracker::GetLinkLoad(uint32_t link)
{
    SUITE_REQUIRE(link < m_links.size(), std::out_of_range, "no link " << link);
    Analyze();
    return m_linkLoads[link];
}

const std::vector<ClosLinkLoadTracker::FlowLoad>&
ClosLinkLoadTracker::GetFlows()
{
    Analyze();
    return m_flows;
}

uint32_t
ClosLinkLoadTracker::GetMaxFlowsPerLink()
{
    Analyze();
    uint32_t most = 0;
    for (const auto& load : m_linkLoads)
    {
        most = std::max(most, load.maxConcurrentFlows);
    }
    return most;
}

double
ClosLinkLoadTracker::GetConflictingFlowShare()
{
    Analyze();
    if (m_flows.empty())
    {
        return 0.0;
    }
    auto conflicting = std::count_if(m_flows.begin(), m_flows.end(), [](const FlowLoad& f) {
        return f.conflicting;
    });
    return static_cast<double>(conflicting) / m_flows.size();
}

double
ClosLinkLoadTracker::GetSpineConflictingFlowShare()
{
    Analyze();
    uint32_t crossing = 0;
    uint32_t conflicting = 0;
    for (const auto& f : m_flows)
    {
        crossing += f.crossesSpine ? 1 : 0;
        conflicting += f.conflictingOnSpine ? 1 : 0;
    }
    return crossing == 0 ? 0.0 : static_cast<double>(conflicting) / crossing;
}

void
ClosLinkLoadTracker::WriteLinkCsv(const std::string& filename)
{
    Analyze();
    std::ofstream out = OpenCsv(filename);
    out << "link_id,link,bytes,flows,max_concurrent_flows,drops\n";
    for (uint32_t id = 0; id < m_linkLoads.size(); ++id)
    {
        const LinkLoad& l = m_linkLoads[id];
        if (l.flows > 0 || l.drops > 0)
        {
            out << id << "," << m_linkNames[id] << "," << l.bytes << "," << l.flows << ","
                << l.maxConcurrentFlows << "," << l.drops << "\n";
        }
    }
}

void
ClosLinkLoadTracker::WriteFlowCsv(const std::string& filename)
{
    Analyze();
    std::ofstream out = OpenCsv(filename);
    out << "src,dst,src_port,dst_port,protocol,bytes,first_s,last_s,max_sharing,conflicting,"
           "conflicting_on_spine,path\n";
    for (const auto& f : m_flows)
    {
        out << Ipv4Address(f.tuple.srcAddress) << "," << Ipv4Address(f.tuple.dstAddress) << ","
            << f.tuple.srcPort << "," << f.tuple.dstPort << ","
            << static_cast<int>(f.tuple.protocol) << "," << f.bytes << ","
            << f.firstSeen.GetSeconds() << "," << f.lastSeen.GetSeconds() << "," << f.maxSharing
            << "," << (f.conflicting ? 1 : 0) << "," << (f.conflictingOnSpine ? 1 : 0) << ",";
        for (std::size_t i = 0; i < f.links.size(); ++i)
        {
            out << (i ? " " : "") << m_linkNames[f.links[i]];
        }
        out << "\n";
    }
}

void
ClosLinkLoadTracker::WriteTimeSeriesCsv(const std::string& filename)
{
    SUITE_REQUIRE(m_binWidth.IsStrictlyPositive(),
                  std::invalid_argument,
                  "ClosLinkLoadTracker::BinWidth must be > 0 for a time series");
    std::ofstream out = OpenCsv(filename);
    out << "time_s,link,bytes,gbps,active_flows\n";
    int64_t width = m_binWidth.GetTimeStep();
    for (uint32_t id = 0; id < m_links.size(); ++id)
    {
        const LinkRecord& record = m_links[id];
        for (std::size_t bin = 0; bin < record.binBytes.size(); ++bin)
        {
            int64_t start = static_cast<int64_t>(bin) * width;
            int64_t end = start + width;
            std::vector<uint32_t> flows; // active in the bin, each flow once
            for (const auto& p : record.presences)
            {
                if (p.first < end && p.last >= start)
                {
                    flows.push_back(p.flow);
                }
            }
            std::sort(flows.begin(), flows.end());
            auto active = std::unique(flows.begin(), flows.end()) - flows.begin();
            double gbps = record.binBytes[bin] * 8.0 / m_binWidth.GetSeconds() / 1e9;
            out << Time(start).GetSeconds() << "," << m_linkNames[id] << "," << record.binBytes[bin]
                << "," << gbps << "," << active << "\n";
        }
    }
}

} // namespace ns3

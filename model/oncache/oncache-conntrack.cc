/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "oncache-conntrack.h"

#include "ns3/log.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("OncacheConntrack");

NS_OBJECT_ENSURE_REGISTERED(OncacheConntrack);

TypeId
OncacheConntrack::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::OncacheConntrack")
            .SetParent<Object>()
            .SetGroupName("Oncache")
            .AddConstructor<OncacheConntrack>()
            .AddAttribute("NewTimeout",
                          "An entry with no reply expires after this long without packets "
                          "(nf_conntrack_udp_timeout: 30 s).",
                          TimeValue(Seconds(30)),
                          MakeTimeAccessor(&OncacheConntrack::m_newTimeout),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("TcpEstablishedTimeout",
                          "An established TCP entry expires after this long without packets "
                          "(nf_conntrack_tcp_timeout_established: 5 days).",
                          TimeValue(Seconds(432000)),
                          MakeTimeAccessor(&OncacheConntrack::m_tcpEstablishedTimeout),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("UdpEstablishedTimeout",
                          "An established entry of any other protocol expires after this long "
                          "without packets (nf_conntrack_udp_timeout_stream: 120 s).",
                          TimeValue(Seconds(120)),
                          MakeTimeAccessor(&OncacheConntrack::m_udpEstablishedTimeout),
                          MakeTimeChecker(NanoSeconds(1)));
    return tid;
}

OncacheConntrack::OncacheConntrack()
    : m_newTimeout(Seconds(30)),
      m_tcpEstablishedTimeout(Seconds(432000)),
      m_udpEstablishedTimeout(Seconds(120)),
      m_expirations(0)
{
    NS_LOG_FUNCTION(this);
}

bool
OncacheConntrack::IsExpired(const OncacheFlowKey& flow, const Entry& entry) const
{
    Time timeout = m_newTimeout;
    if (entry.established)
    {
        timeout = flow.protocol == 6 ? m_tcpEstablishedTimeout : m_udpEstablishedTimeout;
    }
    return Simulator::Now() - entry.lastSeen > timeout;
}

OncacheConntrack::State
OncacheConntrack::Track(const OncacheFlowKey& flow)
{
    const Time now = Simulator::Now();
    for (const OncacheFlowKey& key : {flow, flow.Reversed()})
    {
        auto it = m_entries.find(key);
        if (it == m_entries.end())
        {
            continue;
        }
        if (IsExpired(key, it->second))
        {
            NS_LOG_LOGIC("conntrack entry " << key << " expired");
            ++m_expirations;
            m_entries.erase(it);
            break;
        }
        it->second.lastSeen = now;
        if (!(key == flow))
        {
            it->second.established = true; // a reply
        }
        return it->second.established ? ESTABLISHED : NEW;
    }
    Entry entry;
    entry.lastSeen = now;
    m_entries.emplace(flow, entry);
    return NEW;
}

uint64_t
OncacheConntrack::GetExpirations() const
{
    return m_expirations;
}

bool
OncacheConntrack::IsTracked(const OncacheFlowKey& flow) const
{
    return m_entries.count(flow) > 0 || m_entries.count(flow.Reversed()) > 0;
}

std::size_t
OncacheConntrack::GetSize() const
{
    return m_entries.size();
}

void
OncacheConntrack::Forget(const OncacheFlowKey& flow)
{
    m_entries.erase(flow);
    m_entries.erase(flow.Reversed());
}

} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "oncache-conntrack.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("OncacheConntrack");

NS_OBJECT_ENSURE_REGISTERED(OncacheConntrack);

TypeId
OncacheConntrack::GetTypeId()
{
    static TypeId tid = TypeId("ns3::OncacheConntrack")
                            .SetParent<Object>()
                            .SetGroupName("Oncache")
                            .AddConstructor<OncacheConntrack>();
    return tid;
}

OncacheConntrack::OncacheConntrack()
{
    NS_LOG_FUNCTION(this);
}

OncacheConntrack::State
OncacheConntrack::Track(const OncacheFlowKey& flow)
{
    auto it = m_entries.find(flow);
    if (it != m_entries.end())
    {
        return it->second ? ESTABLISHED : NEW;
    }
    auto reply = m_entries.find(flow.Reversed());
    if (reply != m_entries.end())
    {
        reply->second = true;
        return ESTABLISHED;
    }
    m_entries.emplace(flow, false);
    return NEW;
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

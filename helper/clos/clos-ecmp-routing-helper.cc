/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "clos-ecmp-routing-helper.h"

#include "ns3/clos-ecmp-routing.h"

namespace ns3
{

ClosEcmpRoutingHelper::ClosEcmpRoutingHelper()
{
    m_factory.SetTypeId(ClosEcmpRouting::GetTypeId());
}

ClosEcmpRoutingHelper*
ClosEcmpRoutingHelper::Copy() const
{
    return new ClosEcmpRoutingHelper(*this);
}

Ptr<Ipv4RoutingProtocol>
ClosEcmpRoutingHelper::Create(Ptr<Node> node) const
{
    return m_factory.Create<ClosEcmpRouting>();
}

void
ClosEcmpRoutingHelper::Set(const std::string& name, const AttributeValue& value)
{
    m_factory.Set(name, value);
}

} // namespace ns3

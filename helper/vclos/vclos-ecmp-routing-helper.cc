/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "vclos-ecmp-routing-helper.h"

#include "ns3/vclos-ecmp-routing.h"

namespace ns3
{

VclosEcmpRoutingHelper::VclosEcmpRoutingHelper()
{
    m_factory.SetTypeId(VclosEcmpRouting::GetTypeId());
}

VclosEcmpRoutingHelper*
VclosEcmpRoutingHelper::Copy() const
{
    return new VclosEcmpRoutingHelper(*this);
}

Ptr<Ipv4RoutingProtocol>
VclosEcmpRoutingHelper::Create(Ptr<Node> node) const
{
    return m_factory.Create<VclosEcmpRouting>();
}

void
VclosEcmpRoutingHelper::Set(const std::string& name, const AttributeValue& value)
{
    m_factory.Set(name, value);
}

} // namespace ns3

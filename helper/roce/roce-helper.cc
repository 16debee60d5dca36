/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "roce-helper.h"

#include "ns3/node.h"

namespace ns3
{

RoceHelper::RoceHelper()
{
    m_factory.SetTypeId(RoceNic::GetTypeId());
}

void
RoceHelper::SetNicAttribute(const std::string& name, const AttributeValue& value)
{
    m_factory.Set(name, value);
}

std::vector<Ptr<RoceNic>>
RoceHelper::Install(const NodeContainer& nodes) const
{
    m_factory.Create<RoceNic>()->Validate();
    std::vector<Ptr<RoceNic>> nics;
    nics.reserve(nodes.GetN());
    for (auto it = nodes.Begin(); it != nodes.End(); ++it)
    {
        Ptr<RoceNic> nic = m_factory.Create<RoceNic>();
        (*it)->AggregateObject(nic);
        nic->Start();
        nics.push_back(nic);
    }
    return nics;
}

} // namespace ns3

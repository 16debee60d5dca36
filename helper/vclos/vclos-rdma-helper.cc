/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "vclos-rdma-helper.h"

#include "ns3/node.h"

namespace ns3
{

VclosRdmaHelper::VclosRdmaHelper()
{
    m_factory.SetTypeId(VclosRdmaNic::GetTypeId());
}

void
VclosRdmaHelper::SetNicAttribute(const std::string& name, const AttributeValue& value)
{
    m_factory.Set(name, value);
}

std::vector<Ptr<VclosRdmaNic>>
VclosRdmaHelper::Install(const NodeContainer& nodes) const
{
    m_factory.Create<VclosRdmaNic>()->Validate();
    std::vector<Ptr<VclosRdmaNic>> nics;
    nics.reserve(nodes.GetN());
    for (auto it = nodes.Begin(); it != nodes.End(); ++it)
    {
        Ptr<VclosRdmaNic> nic = m_factory.Create<VclosRdmaNic>();
        (*it)->AggregateObject(nic);
        nic->Start();
        nics.push_back(nic);
    }
    return nics;
}

} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "lean-link-ipv4-receive.h"

#include "ns3/arp-l3-protocol.h"
#include "ns3/ipv4-l3-protocol.h"
#include "ns3/net-device.h"
#include "ns3/traffic-control-layer.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(LeanLinkIpv4ReceiveTaken);

TypeId
LeanLinkIpv4ReceiveTaken::GetTypeId()
{
    static TypeId tid = TypeId("ns3::LeanLinkIpv4ReceiveTaken")
                            .SetParent<Object>()
                            .SetGroupName("LeanLink")
                            .AddConstructor<LeanLinkIpv4ReceiveTaken>();
    return tid;
}

bool
LeanLinkIsIpv4ReceiveTaken(Ptr<Node> node)
{
    return node->GetObject<LeanLinkIpv4ReceiveTaken>() != nullptr;
}

std::vector<int32_t>
LeanLinkTakeIpv4Receive(Ptr<Node> node,
                        Ptr<Ipv4L3Protocol> ipv4,
                        Ptr<TrafficControlLayer> tc,
                        const Node::ProtocolHandler& handler)
{
    const auto tcReceive = MakeCallback(&TrafficControlLayer::Receive, tc);
    const uint32_t n = ipv4->GetNInterfaces();
    for (uint32_t i = 1; i < n; ++i)
    {
        node->UnregisterProtocolHandler(tcReceive);
        node->UnregisterProtocolHandler(tcReceive);
    }
    std::vector<int32_t> interfaceOf;
    for (uint32_t i = 1; i < n; ++i) // 0: the loopback
    {
        Ptr<NetDevice> device = ipv4->GetNetDevice(i);
        if (device->NeedsArp())
        {
            node->RegisterProtocolHandler(tcReceive, ArpL3Protocol::PROT_NUMBER, device);
            node->RegisterProtocolHandler(tcReceive, Ipv4L3Protocol::PROT_NUMBER, device);
            continue;
        }
        if (device->GetIfIndex() >= interfaceOf.size())
        {
            interfaceOf.resize(device->GetIfIndex() + 1, -1);
        }
        interfaceOf[device->GetIfIndex()] = static_cast<int32_t>(i);
    }
    if (interfaceOf.empty())
    {
        return interfaceOf;
    }
    if (!LeanLinkIsIpv4ReceiveTaken(node))
    {
        node->AggregateObject(CreateObject<LeanLinkIpv4ReceiveTaken>());
    }
    // One entry per protocol for the node, not one per device: the handler filters.
    node->RegisterProtocolHandler(handler, ArpL3Protocol::PROT_NUMBER, nullptr);
    node->RegisterProtocolHandler(handler, Ipv4L3Protocol::PROT_NUMBER, nullptr);
    return interfaceOf;
}

} // namespace ns3

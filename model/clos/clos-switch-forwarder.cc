/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "clos-switch-forwarder.h"

#include "clos-ecmp-routing.h"

#include "ns3/ipv4-interface.h"
#include "ns3/ipv4-l3-protocol.h"
#include "ns3/lean-link-ipv4-receive.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/socket.h"
#include "ns3/suite-check.h"
#include "ns3/traffic-control-layer.h"

#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ClosSwitchForwarder");

NS_OBJECT_ENSURE_REGISTERED(ClosSwitchForwarder);

TypeId
ClosSwitchForwarder::GetTypeId()
{
    static TypeId tid = TypeId("ns3::ClosSwitchForwarder")
                            .SetParent<Object>()
                            .SetGroupName("Clos")
                            .AddConstructor<ClosSwitchForwarder>();
    return tid;
}

ClosSwitchForwarder::ClosSwitchForwarder()
    : m_checksums(false),
      m_minMtu(std::numeric_limits<uint32_t>::max()),
      m_fastForwarded(0),
      m_slowPath(0)
{
    NS_LOG_FUNCTION(this);
}

void
ClosSwitchForwarder::DoDispose()
{
    m_ipv4 = nullptr;
    m_tc = nullptr;
    m_routing = nullptr;
    for (auto& port : m_ports)
    {
        port.egress.Clear();
    }
    m_ports.clear();
    Object::DoDispose();
}

void
ClosSwitchForwarder::Install(Ptr<Node> node)
{
    NS_LOG_FUNCTION(this << node);
    m_ipv4 = node->GetObject<Ipv4L3Protocol>();
    m_tc = node->GetObject<TrafficControlLayer>();
    SUITE_REQUIRE(m_ipv4 && m_tc,
                  std::invalid_argument,
                  "ClosSwitchForwarder: node " << node->GetId() << " has no IPv4 stack");
    m_routing = DynamicCast<ClosEcmpRouting>(m_ipv4->GetRoutingProtocol());
    SUITE_REQUIRE(m_routing,
                  std::invalid_argument,
                  "ClosSwitchForwarder: node " << node->GetId()
                                               << " does not route with ClosEcmpRouting");
    m_checksums = Node::ChecksumEnabled(); // a GlobalValue read costs ~270 instructions
    m_ports.resize(m_ipv4->GetNInterfaces());
    for (uint32_t i = 0; i < m_ipv4->GetNInterfaces(); ++i)
    {
        Ptr<NetDevice> device = m_ipv4->GetNetDevice(i);
        m_ports[i] =
            Port{LeanLinkIpv4Egress(m_tc, device), m_ipv4->GetInterface(i), device->NeedsArp()};
        if (i > 0) // not the loopback
        {
            m_minMtu = std::min<uint32_t>(m_minMtu, device->GetMtu());
        }
    }
    m_interfaceOf = LeanLinkTakeIpv4Receive(node,
                                            m_ipv4,
                                            m_tc,
                                            MakeCallback(&ClosSwitchForwarder::Receive, this));
    node->AggregateObject(this);
}

uint64_t
ClosSwitchForwarder::GetFastForwarded() const
{
    return m_fastForwarded;
}

uint64_t
ClosSwitchForwarder::GetSlowPath() const
{
    return m_slowPath;
}

void
ClosSwitchForwarder::Receive(Ptr<NetDevice> device,
                             Ptr<const Packet> p,
                             uint16_t protocol,
                             const Address& from,
                             const Address& to,
                             NetDevice::PacketType packetType)
{
    const int32_t in =
        LeanLinkTakenIpv4Interface(m_interfaceOf, *m_tc, device, p, protocol, from, to, packetType);
    if (in < 0)
    {
        return; // not ours, or ARP (handed to the traffic-control layer)
    }
    if (m_ports[in].interface->IsUp() && p->GetSize() <= m_minMtu)
    {
        Ptr<Packet> packet = p->Copy();
        Ipv4Header header;
        if (m_checksums)
        {
            header.EnableChecksum();
        }
        packet->RemoveHeader(header);
        if (header.GetPayloadSize() < packet->GetSize())
        {
            packet->RemoveAtEnd(packet->GetSize() - header.GetPayloadSize());
        }
        if (header.IsChecksumOk() && header.GetTtl() > 1)
        {
            const int32_t out = m_routing->ForwardInterface(header, packet);
            if (out >= 0)
            {
                // From here on as IpForward + SendRealOut + Ipv4Interface::Send.
                ++m_fastForwarded;
                header.SetTtl(header.GetTtl() - 1);
                const Port& port = m_ports[out];
                SocketPriorityTag priorityTag;
                packet->RemovePacketTag(priorityTag);
                const uint8_t priority = Socket::IpTos2Priority(header.GetTos());
                // A direct egress (a clock port, no queue disc) would remove the tag again,
                // as TrafficControlLayer::Send does for a single-queue device: skip both.
                if (priority && !port.egress.IsDirect())
                {
                    priorityTag.SetPriority(priority);
                    packet->AddPacketTag(priorityTag);
                }
                if (!port.interface->IsUp())
                {
                    NS_LOG_LOGIC("output interface " << out << " down: dropped");
                    return; // as SendRealOut does
                }
                if (port.needsArp)
                {
                    port.interface->Send(packet, header, header.GetDestination());
                    return;
                }
                port.egress.Send(packet, header);
                return;
            }
        }
    }
    ++m_slowPath;
    m_tc->Receive(device, p, protocol, from, to, packetType);
}

} // namespace ns3

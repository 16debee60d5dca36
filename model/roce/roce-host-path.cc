/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "roce-host-path.h"

#include "ns3/ipv4-header.h"
#include "ns3/ipv4-interface.h"
#include "ns3/ipv4-l3-protocol.h"
#include "ns3/ipv4-route.h"
#include "ns3/ipv4-routing-protocol.h"
#include "ns3/lean-link-ipv4-receive.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/socket.h"
#include "ns3/suite-check.h"
#include "ns3/traffic-control-layer.h"
#include "ns3/udp-header.h"
#include "ns3/udp-l4-protocol.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RoceHostPath");
NS_OBJECT_ENSURE_REGISTERED(RoceHostPath);

namespace
{
/// IPv4 header bytes (no options).
constexpr uint32_t IPV4_BYTES = 20;
/// UDP header bytes.
constexpr uint32_t UDP_BYTES = 8;
} // namespace

TypeId
RoceHostPath::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RoceHostPath")
                            .SetParent<Object>()
                            .SetGroupName("Roce")
                            .AddConstructor<RoceHostPath>();
    return tid;
}

RoceHostPath::RoceHostPath()
{
    NS_LOG_FUNCTION(this);
}

void
RoceHostPath::DoDispose()
{
    m_ipv4 = nullptr;
    m_tc = nullptr;
    for (auto& egress : m_egress)
    {
        egress.Clear();
    }
    m_egress.clear();
    m_interfaces.clear();
    m_receive = ReceiveCallback();
    Object::DoDispose();
}

void
RoceHostPath::Install(Ptr<Node> node, uint16_t port, ReceiveCallback receive)
{
    NS_LOG_FUNCTION(this << node << port);
    m_ipv4 = node->GetObject<Ipv4L3Protocol>();
    m_tc = node->GetObject<TrafficControlLayer>();
    SUITE_REQUIRE(m_ipv4 && m_tc && m_ipv4->GetRoutingProtocol(),
                  std::invalid_argument,
                  "RoceHostPath: node " << node->GetId()
                                        << " has no IPv4 stack with a routing protocol");
    m_port = port;
    m_receive = receive;
    m_checksums = Node::ChecksumEnabled(); // a GlobalValue read costs ~270 instructions
    UintegerValue ttl;
    m_ipv4->GetAttribute("DefaultTtl", ttl);
    m_ttl = static_cast<uint8_t>(ttl.Get());
    // The node's handler list holds a reference: the path lives as long as the node.
    m_interfaceOf =
        LeanLinkTakeIpv4Receive(node,
                                m_ipv4,
                                m_tc,
                                MakeCallback(&RoceHostPath::Receive, Ptr<RoceHostPath>(this)));
    m_egress.resize(m_ipv4->GetNInterfaces());
    m_interfaces.resize(m_ipv4->GetNInterfaces());
    for (const int32_t interface : m_interfaceOf)
    {
        if (interface >= 0)
        {
            m_egress[interface] = LeanLinkIpv4Egress(m_tc, m_ipv4->GetNetDevice(interface));
            m_interfaces[interface] = m_ipv4->GetInterface(interface);
        }
    }
}

uint64_t
RoceHostPath::GetFastSent() const
{
    return m_fastSent;
}

uint64_t
RoceHostPath::GetFastReceived() const
{
    return m_fastReceived;
}

uint64_t
RoceHostPath::GetSlowPath() const
{
    return m_slowPath;
}

uint16_t&
RoceHostPath::GetIdentificationCounter(Ipv4Address source, Ipv4Address destination)
{
    return m_ipId[(uint64_t{source.Get()} << 32) | destination.Get()];
}

void
RoceHostPath::Send(const Ptr<Packet>& packet,
                   Ipv4Address source,
                   Ipv4Address destination,
                   uint16_t sport,
                   uint16_t dport,
                   uint8_t tos,
                   uint16_t& id)
{
    const bool checksums = m_checksums;
    // UdpL4Protocol::Send.
    UdpHeader udp;
    if (checksums)
    {
        udp.EnableChecksums();
        udp.InitializeChecksum(source, destination, UdpL4Protocol::PROT_NUMBER);
    }
    udp.SetDestinationPort(dport);
    udp.SetSourcePort(sport);
    packet->AddHeader(udp);

    // Ipv4L3Protocol::BuildHeader, with the identification of (source, destination, UDP).
    Ipv4Header header;
    header.SetSource(source);
    header.SetDestination(destination);
    header.SetProtocol(UdpL4Protocol::PROT_NUMBER);
    header.SetPayloadSize(packet->GetSize());
    header.SetTtl(m_ttl);
    header.SetTos(tos);
    header.SetMayFragment();
    header.SetIdentification(id);
    if (checksums)
    {
        header.EnableChecksum();
    }

    // Ipv4L3Protocol::Send, case 4: no route given, unicast destination.
    Socket::SocketErrno error = Socket::ERROR_NOTERROR;
    Ptr<Ipv4Route> route =
        m_ipv4->GetRoutingProtocol()->RouteOutput(packet, header, nullptr, error);
    if (!route)
    {
        // Ipv4L3Protocol drops it (Drop trace, DROP_NO_ROUTE) and keeps its identification.
        ++m_slowPath;
        SocketIpTosTag tag;
        tag.SetTos(tos);
        packet->AddPacketTag(tag);
        m_ipv4->Send(packet, source, destination, UdpL4Protocol::PROT_NUMBER, nullptr);
        return;
    }
    ++id;
    // SendRealOut + Ipv4Interface::Send.
    Ptr<NetDevice> device = route->GetOutputDevice();
    const int32_t out = LeanLinkTakenInterface(m_interfaceOf, device);
    // m_interfaceOf maps only the devices taken: no loopback, no ARP.
    if (out < 0 || m_egress[out].GetDevice() != device ||
        packet->GetSize() + IPV4_BYTES > device->GetMtu())
    {
        ++m_slowPath;
        m_ipv4->SendWithHeader(packet, header, route);
        return;
    }
    const Ptr<Ipv4Interface>& interface = m_interfaces[out];
    if (!interface->IsUp())
    {
        NS_LOG_LOGIC("output interface " << out << " down: dropped");
        return; // as SendRealOut does
    }
    const Ipv4Address target = route->GetGateway().IsAny() ? destination : route->GetGateway();
    for (uint32_t j = 0; j < interface->GetNAddresses(); ++j)
    {
        if (interface->GetAddress(j).GetLocal() == target)
        {
            ++m_slowPath; // to a local address: Ipv4Interface::Send loops it back
            m_ipv4->SendWithHeader(packet, header, route);
            return;
        }
    }
    ++m_fastSent;
    m_egress[out].Send(packet, header);
}

void
RoceHostPath::Receive(Ptr<NetDevice> device,
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
    if (p->GetSize() >= IPV4_BYTES + UDP_BYTES)
    {
        // Ipv4L3Protocol::Receive.
        const Ptr<Ipv4Interface>& interface = m_interfaces[in];
        Ptr<Packet> packet = p->Copy();
        const bool checksums = m_checksums;
        Ipv4Header header;
        if (checksums)
        {
            header.EnableChecksum();
        }
        packet->RemoveHeader(header);
        if (header.GetPayloadSize() < packet->GetSize())
        {
            packet->RemoveAtEnd(packet->GetSize() - header.GetPayloadSize());
        }
        const Ipv4Address destination = header.GetDestination();
        if (interface->IsUp() && header.IsChecksumOk() &&
            header.GetProtocol() == UdpL4Protocol::PROT_NUMBER && header.IsLastFragment() &&
            header.GetFragmentOffset() == 0 && packet->GetSize() >= UDP_BYTES &&
            !destination.IsBroadcast() && !destination.IsMulticast() &&
            m_ipv4->IsDestinationAddress(destination, static_cast<uint32_t>(in)))
        {
            // UdpL4Protocol::Receive.
            UdpHeader udp;
            if (checksums)
            {
                // (Without checksums UdpHeader never reads the addresses: not set.)
                udp.EnableChecksums();
                udp.InitializeChecksum(header.GetSource(), destination, UdpL4Protocol::PROT_NUMBER);
            }
            packet->RemoveHeader(udp);
            if (udp.GetDestinationPort() == m_port && udp.IsChecksumOk())
            {
                ++m_fastReceived;
                m_receive(packet, header, udp.GetSourcePort(), interface);
                return;
            }
        }
    }
    ++m_slowPath;
    m_tc->Receive(device, p, protocol, from, to, packetType);
}

} // namespace ns3

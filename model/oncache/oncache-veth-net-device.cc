/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "oncache-veth-net-device.h"

#include "ns3/channel.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("OncacheVethNetDevice");

NS_OBJECT_ENSURE_REGISTERED(OncacheVethNetDevice);

TypeId
OncacheVethNetDevice::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::OncacheVethNetDevice")
            .SetParent<NetDevice>()
            .SetGroupName("Oncache")
            .AddConstructor<OncacheVethNetDevice>()
            .AddAttribute(
                "Mtu",
                "The MTU of the device in IP bytes; the topology helper sets the pod "
                "MTU (underlay MTU minus 50 bytes of VXLAN overhead in overlay modes).",
                UintegerValue(1500),
                MakeUintegerAccessor(&OncacheVethNetDevice::SetMtu, &OncacheVethNetDevice::GetMtu),
                MakeUintegerChecker<uint16_t>(68))
            .AddTraceSource("MacTx",
                            "A packet was sent on this end of the pair.",
                            MakeTraceSourceAccessor(&OncacheVethNetDevice::m_macTxTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("MacRx",
                            "A packet was received from the other end of the pair.",
                            MakeTraceSourceAccessor(&OncacheVethNetDevice::m_macRxTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("MacTxDrop",
                            "A packet was sent while the pair was disconnected and was lost.",
                            MakeTraceSourceAccessor(&OncacheVethNetDevice::m_macTxDropTrace),
                            "ns3::Packet::TracedCallback");
    return tid;
}

OncacheVethNetDevice::OncacheVethNetDevice()
    : m_address(Mac48Address::Allocate()),
      m_ifIndex(0),
      m_mtu(1500)
{
    NS_LOG_FUNCTION(this);
}

void
OncacheVethNetDevice::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_node = nullptr;
    m_peer = nullptr;
    m_rxCallback =
        MakeNullCallback<bool, Ptr<NetDevice>, Ptr<const Packet>, uint16_t, const Address&>();
    m_promiscCallback = MakeNullCallback<bool,
                                         Ptr<NetDevice>,
                                         Ptr<const Packet>,
                                         uint16_t,
                                         const Address&,
                                         const Address&,
                                         NetDevice::PacketType>();
    NetDevice::DoDispose();
}

void
OncacheVethNetDevice::SetPeer(const Ptr<OncacheVethNetDevice>& peer)
{
    NS_LOG_FUNCTION(this << peer);
    m_peer = peer;
}

Ptr<OncacheVethNetDevice>
OncacheVethNetDevice::GetPeer() const
{
    return m_peer;
}

void
OncacheVethNetDevice::Connect(const Ptr<OncacheVethNetDevice>& a,
                              const Ptr<OncacheVethNetDevice>& b)
{
    a->SetPeer(b);
    b->SetPeer(a);
}

void
OncacheVethNetDevice::SetIfIndex(const uint32_t index)
{
    m_ifIndex = index;
}

uint32_t
OncacheVethNetDevice::GetIfIndex() const
{
    return m_ifIndex;
}

Ptr<Channel>
OncacheVethNetDevice::GetChannel() const
{
    return nullptr;
}

void
OncacheVethNetDevice::SetAddress(Address address)
{
    m_address = Mac48Address::ConvertFrom(address);
}

Address
OncacheVethNetDevice::GetAddress() const
{
    return m_address;
}

bool
OncacheVethNetDevice::SetMtu(const uint16_t mtu)
{
    m_mtu = mtu;
    return true;
}

uint16_t
OncacheVethNetDevice::GetMtu() const
{
    return m_mtu;
}

bool
OncacheVethNetDevice::IsLinkUp() const
{
    return static_cast<bool>(m_peer);
}

void
OncacheVethNetDevice::AddLinkChangeCallback(Callback<void> callback)
{
}

bool
OncacheVethNetDevice::IsBroadcast() const
{
    return true;
}

Address
OncacheVethNetDevice::GetBroadcast() const
{
    return Mac48Address::GetBroadcast();
}

bool
OncacheVethNetDevice::IsMulticast() const
{
    return true;
}

Address
OncacheVethNetDevice::GetMulticast(Ipv4Address multicastGroup) const
{
    return Mac48Address::GetMulticast(multicastGroup);
}

Address
OncacheVethNetDevice::GetMulticast(Ipv6Address addr) const
{
    return Mac48Address::GetMulticast(addr);
}

bool
OncacheVethNetDevice::IsBridge() const
{
    return false;
}

bool
OncacheVethNetDevice::IsPointToPoint() const
{
    return false;
}

bool
OncacheVethNetDevice::Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber)
{
    return SendFrom(packet, m_address, dest, protocolNumber);
}

bool
OncacheVethNetDevice::SendFrom(Ptr<Packet> packet,
                               const Address& source,
                               const Address& dest,
                               uint16_t protocolNumber)
{
    NS_LOG_FUNCTION(this << packet << dest << protocolNumber);
    if (!m_peer)
    {
        m_macTxDropTrace(packet);
        return false;
    }
    m_macTxTrace(packet);
    m_peer->Receive(packet, protocolNumber, source, dest);
    return true;
}

void
OncacheVethNetDevice::Receive(Ptr<Packet> packet,
                              uint16_t protocol,
                              const Address& from,
                              const Address& to)
{
    NS_LOG_FUNCTION(this << packet << protocol);
    m_macRxTrace(packet);
    if (!m_promiscCallback.IsNull())
    {
        m_promiscCallback(this, packet, protocol, from, to, NetDevice::PACKET_HOST);
    }
    if (!m_rxCallback.IsNull())
    {
        m_rxCallback(this, packet, protocol, from);
    }
}

Ptr<Node>
OncacheVethNetDevice::GetNode() const
{
    return m_node;
}

void
OncacheVethNetDevice::SetNode(Ptr<Node> node)
{
    m_node = node;
}

bool
OncacheVethNetDevice::NeedsArp() const
{
    return false;
}

void
OncacheVethNetDevice::SetReceiveCallback(NetDevice::ReceiveCallback cb)
{
    m_rxCallback = cb;
}

void
OncacheVethNetDevice::SetPromiscReceiveCallback(NetDevice::PromiscReceiveCallback cb)
{
    m_promiscCallback = cb;
}

bool
OncacheVethNetDevice::SupportsSendFrom() const
{
    return true;
}

} // namespace ns3

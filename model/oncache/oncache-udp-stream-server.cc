/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "oncache-udp-stream-server.h"

#include "ns3/inet-socket-address.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("OncacheUdpStreamServer");

NS_OBJECT_ENSURE_REGISTERED(OncacheUdpStreamServer);

TypeId
OncacheUdpStreamServer::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::OncacheUdpStreamServer")
            .SetParent<Application>()
            .SetGroupName("Oncache")
            .AddConstructor<OncacheUdpStreamServer>()
            .AddAttribute("Port",
                          "The UDP port to listen on.",
                          UintegerValue(5201),
                          MakeUintegerAccessor(&OncacheUdpStreamServer::m_port),
                          MakeUintegerChecker<uint16_t>())
            .AddTraceSource("Rx",
                            "A datagram was received.",
                            MakeTraceSourceAccessor(&OncacheUdpStreamServer::m_rxTrace),
                            "ns3::Packet::TracedCallback");
    return tid;
}

OncacheUdpStreamServer::OncacheUdpStreamServer()
    : m_port(5201),
      m_totalRx(0)
{
    NS_LOG_FUNCTION(this);
}

void
OncacheUdpStreamServer::DoDispose()
{
    m_socket = nullptr;
    Application::DoDispose();
}

uint64_t
OncacheUdpStreamServer::GetTotalRx() const
{
    return m_totalRx;
}

void
OncacheUdpStreamServer::StartApplication()
{
    NS_LOG_FUNCTION(this);
    m_socket = Socket::CreateSocket(GetNode(), UdpSocketFactory::GetTypeId());
    m_socket->Bind(InetSocketAddress(Ipv4Address::GetAny(), m_port));
    m_socket->SetRecvCallback(MakeCallback(&OncacheUdpStreamServer::Receive, this));
}

void
OncacheUdpStreamServer::StopApplication()
{
    NS_LOG_FUNCTION(this);
    if (m_socket)
    {
        m_socket->Close();
    }
}

void
OncacheUdpStreamServer::Receive(Ptr<Socket> socket)
{
    Address from;
    while (Ptr<Packet> packet = socket->RecvFrom(from))
    {
        m_totalRx += packet->GetSize();
        m_rxTrace(packet);
        InetSocketAddress peer = InetSocketAddress::ConvertFrom(from);
        if (m_peers.insert({peer.GetIpv4().Get(), peer.GetPort()}).second)
        {
            socket->SendTo(Create<Packet>(4), 0, from); // the connect reply
        }
    }
}

} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "oncache-udp-stream-client.h"

#include "ns3/inet-socket-address.h"
#include "ns3/ipv4.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("OncacheUdpStreamClient");

NS_OBJECT_ENSURE_REGISTERED(OncacheUdpStreamClient);

TypeId
OncacheUdpStreamClient::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::OncacheUdpStreamClient")
            .SetParent<Application>()
            .SetGroupName("Oncache")
            .AddConstructor<OncacheUdpStreamClient>()
            .AddAttribute("Remote",
                          "The address (InetSocketAddress) of the receiver.",
                          AddressValue(),
                          MakeAddressAccessor(&OncacheUdpStreamClient::m_remote),
                          MakeAddressChecker())
            .AddAttribute("PacketSize",
                          "The UDP payload of a datagram; keep it within the pod MTU minus 28.",
                          UintegerValue(1400),
                          MakeUintegerAccessor(&OncacheUdpStreamClient::m_packetSize),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("Window",
                          "The datagrams kept in the pod's egress path at once (1: a blocking "
                          "send loop, as iperf3).",
                          UintegerValue(1),
                          MakeUintegerAccessor(&OncacheUdpStreamClient::m_window),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("SendBuffer",
                          "The socket send buffer (SO_SNDBUF) in bytes: datagrams the host has "
                          "not yet freed (serialised by the NIC or dropped) count against it, "
                          "and the sender blocks when the next one would not fit, so a "
                          "saturated NIC paces the sender instead of dropping (Linux's "
                          "net.core.wmem_default, 212992).",
                          UintegerValue(212992),
                          MakeUintegerAccessor(&OncacheUdpStreamClient::m_sendBuffer),
                          MakeUintegerChecker<uint32_t>(1));
    return tid;
}

OncacheUdpStreamClient::OncacheUdpStreamClient()
    : m_packetSize(1400),
      m_window(1),
      m_localPort(0),
      m_inFlight(0),
      m_sendBuffer(212992),
      m_unfreed(0),
      m_sent(0),
      m_running(false),
      m_connected(false)
{
    NS_LOG_FUNCTION(this);
}

void
OncacheUdpStreamClient::DoDispose()
{
    m_socket = nullptr;
    Application::DoDispose();
}

uint64_t
OncacheUdpStreamClient::GetSent() const
{
    return m_sent;
}

void
OncacheUdpStreamClient::StartApplication()
{
    NS_LOG_FUNCTION(this);
    m_socket = Socket::CreateSocket(GetNode(), UdpSocketFactory::GetTypeId());
    m_socket->Bind();
    Address local;
    m_socket->GetSockName(local);
    m_localPort = InetSocketAddress::ConvertFrom(local).GetPort();
    // Pods on one host have their own stacks and may pick the same port: match the address too.
    Ptr<Ipv4> ipv4 = GetNode()->GetObject<Ipv4>();
    m_localAddress = ipv4 && ipv4->GetNInterfaces() > 1 ? ipv4->GetAddress(1, 0).GetLocal()
                                                        : Ipv4Address::GetAny();
    m_socket->Connect(m_remote);
    m_running = true;
    m_inFlight = 0;
    m_unfreed = 0;
    m_connected = false;
    // As iperf3: a connect message first; the stream starts when the server answers.
    m_socket->SetRecvCallback(MakeCallback(&OncacheUdpStreamClient::Receive, this));
    m_socket->Send(Create<Packet>(4));
}

void
OncacheUdpStreamClient::Receive(Ptr<Socket> socket)
{
    while (socket->Recv())
    {
    }
    if (m_connected || !m_running)
    {
        return;
    }
    m_connected = true;
    TrySend();
}

void
OncacheUdpStreamClient::StopApplication()
{
    NS_LOG_FUNCTION(this);
    m_running = false;
    if (m_socket)
    {
        m_socket->Close();
    }
}

void
OncacheUdpStreamClient::TrySend()
{
    // A datagram larger than the buffer may still go when nothing else is outstanding.
    while (m_running && m_connected && m_inFlight < m_window &&
           (m_unfreed == 0 || m_unfreed + m_packetSize <= m_sendBuffer))
    {
        ++m_inFlight;
        ++m_sent;
        m_unfreed += m_packetSize;
        m_socket->Send(Create<Packet>(m_packetSize));
    }
}

bool
OncacheUdpStreamClient::IsMine(const OncacheFlowKey& flow) const
{
    return flow.protocol == 17 && flow.srcPort == m_localPort &&
           (m_localAddress == Ipv4Address::GetAny() || flow.srcAddress == m_localAddress.Get());
}

void
OncacheUdpStreamClient::TxComplete(uint32_t host, const OncacheFlowKey& flow)
{
    if (!m_connected || !IsMine(flow) || m_unfreed < m_packetSize)
    {
        return;
    }
    m_unfreed -= m_packetSize;
    TrySend();
}

void
OncacheUdpStreamClient::EgressDone(uint32_t host, const OncacheFlowKey& flow)
{
    if (!m_connected || !IsMine(flow) || m_inFlight == 0)
    {
        return;
    }
    --m_inFlight;
    TrySend();
}

} // namespace ns3

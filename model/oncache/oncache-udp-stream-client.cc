/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "oncache-udp-stream-client.h"

#include "ns3/inet-socket-address.h"
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
                          MakeUintegerChecker<uint32_t>(1));
    return tid;
}

OncacheUdpStreamClient::OncacheUdpStreamClient()
    : m_packetSize(1400),
      m_window(1),
      m_localPort(0),
      m_inFlight(0),
      m_sent(0),
      m_running(false)
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
    m_socket->Connect(m_remote);
    m_running = true;
    m_inFlight = 0;
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
    while (m_inFlight < m_window)
    {
        SendOne();
    }
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
OncacheUdpStreamClient::SendOne()
{
    ++m_inFlight;
    ++m_sent;
    m_socket->Send(Create<Packet>(m_packetSize));
}

void
OncacheUdpStreamClient::EgressDone(uint32_t host, const OncacheFlowKey& flow)
{
    if (!m_connected || flow.protocol != 17 || flow.srcPort != m_localPort || m_inFlight == 0)
    {
        return;
    }
    --m_inFlight;
    if (m_running)
    {
        SendOne();
    }
}

} // namespace ns3

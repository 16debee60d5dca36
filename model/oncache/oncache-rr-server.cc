/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "oncache-rr-server.h"

#include "oncache-host-datapath.h"
#include "oncache-limits.h"
#include "oncache-rr-client.h"

#include "ns3/boolean.h"
#include "ns3/inet-socket-address.h"
#include "ns3/ipv4-address.h"
#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/tcp-socket-factory.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("OncacheRrServer");

NS_OBJECT_ENSURE_REGISTERED(OncacheRrServer);

TypeId
OncacheRrServer::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::OncacheRrServer")
            .SetParent<Application>()
            .SetGroupName("Oncache")
            .AddConstructor<OncacheRrServer>()
            .AddAttribute("Port",
                          "The port to listen on.",
                          UintegerValue(7000),
                          MakeUintegerAccessor(&OncacheRrServer::m_port),
                          MakeUintegerChecker<uint16_t>())
            .AddAttribute("Protocol",
                          "The socket factory: ns3::TcpSocketFactory or ns3::UdpSocketFactory.",
                          TypeIdValue(TcpSocketFactory::GetTypeId()),
                          MakeTypeIdAccessor(&OncacheRrServer::m_protocol),
                          MakeTypeIdChecker())
            .AddAttribute("RequestSize",
                          "The bytes of one TCP request (a UDP request is one datagram).",
                          UintegerValue(1),
                          MakeUintegerAccessor(&OncacheRrServer::m_requestSize),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("ResponseSize",
                          "The bytes of one response.",
                          UintegerValue(1),
                          MakeUintegerAccessor(&OncacheRrServer::m_responseSize),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("ProcessingTime",
                          "The application's own (user-space) CPU time per request, spent on "
                          "the pod's application core before the response is sent. Fitted "
                          "(doc: calibration table) to the paper's CPU per transaction.",
                          TimeValue(NanoSeconds(ONCACHE_RR_PROCESSING_NS)),
                          MakeTimeAccessor(&OncacheRrServer::m_processingTime),
                          MakeTimeChecker(Time(0), OncacheMaxStepTime()));
    return tid;
}

OncacheRrServer::OncacheRrServer()
    : m_port(7000),
      m_requestSize(1),
      m_responseSize(1),
      m_processingTime(NanoSeconds(ONCACHE_RR_PROCESSING_NS)),
      m_responses(0)
{
    NS_LOG_FUNCTION(this);
}

void
OncacheRrServer::DoDispose()
{
    m_listener = nullptr;
    m_pending.clear();
    Application::DoDispose();
}

uint64_t
OncacheRrServer::GetResponses() const
{
    return m_responses;
}

void
OncacheRrServer::StartApplication()
{
    NS_LOG_FUNCTION(this);
    m_listener = Socket::CreateSocket(GetNode(), m_protocol);
    m_listener->Bind(InetSocketAddress(Ipv4Address::GetAny(), m_port));
    if (m_protocol == TcpSocketFactory::GetTypeId())
    {
        m_listener->SetAttribute("TcpNoDelay", BooleanValue(true));
        m_listener->Listen();
        m_listener->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                                      MakeCallback(&OncacheRrServer::Accept, this));
    }
    else
    {
        m_listener->SetRecvCallback(MakeCallback(&OncacheRrServer::Receive, this));
    }
}

void
OncacheRrServer::StopApplication()
{
    NS_LOG_FUNCTION(this);
    for (auto& [socket, pending] : m_pending)
    {
        socket->Close();
    }
    m_pending.clear();
    if (m_listener)
    {
        m_listener->Close();
    }
}

void
OncacheRrServer::Accept(Ptr<Socket> socket, const Address& from)
{
    NS_LOG_FUNCTION(this << socket << from);
    m_pending[socket] = 0;
    socket->SetRecvCallback(MakeCallback(&OncacheRrServer::Receive, this));
    socket->SetCloseCallbacks(MakeCallback(&OncacheRrServer::PeerClosed, this),
                              MakeCallback(&OncacheRrServer::PeerClosed, this));
}

void
OncacheRrServer::PeerClosed(Ptr<Socket> socket)
{
    socket->Close();
    m_pending.erase(socket);
}

void
OncacheRrServer::Receive(Ptr<Socket> socket)
{
    Address from;
    while (Ptr<Packet> packet = socket->RecvFrom(from))
    {
        if (socket == m_listener)
        {
            // UDP: one datagram, one request.
            uint32_t size = m_responseSize;
            Ptr<OncacheRrServer> self = this;
            OncacheHostDatapath::RunOnAppCore(GetNode(),
                                              m_processingTime,
                                              [self, socket, from, size]() {
                                                  socket->SendTo(Create<Packet>(size), 0, from);
                                                  ++self->m_responses;
                                              });
            continue;
        }
        uint32_t& pending = m_pending[socket];
        pending += packet->GetSize();
        while (pending >= m_requestSize)
        {
            pending -= m_requestSize;
            uint32_t size = m_responseSize;
            Ptr<OncacheRrServer> self = this;
            OncacheHostDatapath::RunOnAppCore(GetNode(), m_processingTime, [self, socket, size]() {
                socket->Send(Create<Packet>(size));
                ++self->m_responses;
            });
        }
    }
}

} // namespace ns3

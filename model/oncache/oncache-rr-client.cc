/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "oncache-rr-client.h"

#include "oncache-host-datapath.h"
#include "oncache-limits.h"

#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/tcp-socket-factory.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("OncacheRrClient");

NS_OBJECT_ENSURE_REGISTERED(OncacheRrClient);

TypeId
OncacheRrClient::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::OncacheRrClient")
            .SetParent<Application>()
            .SetGroupName("Oncache")
            .AddConstructor<OncacheRrClient>()
            .AddAttribute("Remote",
                          "The address (InetSocketAddress) of the OncacheRrServer.",
                          AddressValue(),
                          MakeAddressAccessor(&OncacheRrClient::m_remote),
                          MakeAddressChecker())
            .AddAttribute("Protocol",
                          "The socket factory: ns3::TcpSocketFactory or ns3::UdpSocketFactory.",
                          TypeIdValue(TcpSocketFactory::GetTypeId()),
                          MakeTypeIdAccessor(&OncacheRrClient::m_protocol),
                          MakeTypeIdChecker())
            .AddAttribute("RequestSize",
                          "The bytes of one request (netperf -r; 1 for the paper's RR tests).",
                          UintegerValue(1),
                          MakeUintegerAccessor(&OncacheRrClient::m_requestSize),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("ResponseSize",
                          "The bytes of one response; must match the server's ResponseSize.",
                          UintegerValue(1),
                          MakeUintegerAccessor(&OncacheRrClient::m_responseSize),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("NewConnectionPerTransaction",
                          "Open a new TCP connection for every transaction (netperf TCP_CRR).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&OncacheRrClient::m_connectPerTransaction),
                          MakeBooleanChecker())
            .AddAttribute("ProcessingTime",
                          "The application's own (user-space) CPU time per transaction, spent on "
                          "the pod's application core after each response (netperf's loop). "
                          "Fitted (doc: calibration table) to the paper's CPU per transaction.",
                          TimeValue(NanoSeconds(ONCACHE_RR_PROCESSING_NS)),
                          MakeTimeAccessor(&OncacheRrClient::m_processingTime),
                          MakeTimeChecker(Time(0), OncacheMaxStepTime()))
            .AddAttribute("MaxTransactions",
                          "Stop after this many transactions; 0 runs until the application "
                          "stops.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&OncacheRrClient::m_maxTransactions),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("UdpTimeout",
                          "UDP only: a transaction without a full response after this time is "
                          "counted as lost and the next request goes out from a new socket "
                          "(sockperf-like; no retransmission). 0 waits for ever (a lost packet "
                          "then stalls the client).",
                          TimeValue(MilliSeconds(10)),
                          MakeTimeAccessor(&OncacheRrClient::m_udpTimeout),
                          MakeTimeChecker(Time(0), OncacheMaxStepTime()))
            .AddTraceSource("Transaction",
                            "A transaction completed; the argument is its latency.",
                            MakeTraceSourceAccessor(&OncacheRrClient::m_transactionTrace),
                            "ns3::OncacheRrClient::TransactionTracedCallback");
    return tid;
}

OncacheRrClient::OncacheRrClient()
    : m_requestSize(1),
      m_responseSize(1),
      m_connectPerTransaction(false),
      m_maxTransactions(0),
      m_processingTime(NanoSeconds(ONCACHE_RR_PROCESSING_NS)),
      m_received(0),
      m_transactions(0),
      m_running(false),
      m_udpTimeout(MilliSeconds(10)),
      m_lost(0)
{
    NS_LOG_FUNCTION(this);
}

void
OncacheRrClient::DoDispose()
{
    m_socket = nullptr;
    Application::DoDispose();
}

uint64_t
OncacheRrClient::GetTransactions() const
{
    return m_transactions;
}

uint64_t
OncacheRrClient::GetLostTransactions() const
{
    return m_lost;
}

void
OncacheRrClient::StartApplication()
{
    NS_LOG_FUNCTION(this);
    m_running = true;
    Open();
}

void
OncacheRrClient::StopApplication()
{
    NS_LOG_FUNCTION(this);
    m_running = false;
    m_timeoutEvent.Cancel();
    if (m_socket)
    {
        m_socket->SetRecvCallback(MakeNullCallback<void, Ptr<Socket>>());
        m_socket->Close();
        m_socket = nullptr;
    }
}

void
OncacheRrClient::Open()
{
    NS_LOG_FUNCTION(this);
    m_start = Simulator::Now();
    m_received = 0;
    m_socket = Socket::CreateSocket(GetNode(), m_protocol);
    const bool tcp = m_protocol == TcpSocketFactory::GetTypeId();
    if (tcp)
    {
        m_socket->SetAttribute("TcpNoDelay", BooleanValue(true));
    }
    m_socket->Bind();
    m_socket->SetRecvCallback(MakeCallback(&OncacheRrClient::Receive, this));
    if (tcp)
    {
        m_socket->SetConnectCallback(MakeCallback(&OncacheRrClient::Connected, this),
                                     MakeCallback(&OncacheRrClient::ConnectFailed, this));
        m_socket->Connect(m_remote);
    }
    else
    {
        m_socket->Connect(m_remote);
        SendRequest();
    }
}

void
OncacheRrClient::Connected(Ptr<Socket> socket)
{
    NS_LOG_FUNCTION(this << socket);
    SendRequest();
}

void
OncacheRrClient::ConnectFailed(Ptr<Socket> socket)
{
    NS_LOG_WARN("connection to the RR server failed");
}

void
OncacheRrClient::SendRequest()
{
    if (!m_connectPerTransaction)
    {
        m_start = Simulator::Now();
    }
    m_received = 0;
    m_socket->Send(Create<Packet>(m_requestSize));
    if (m_protocol != TcpSocketFactory::GetTypeId() && m_udpTimeout.IsStrictlyPositive())
    {
        m_timeoutEvent = Simulator::Schedule(m_udpTimeout, &OncacheRrClient::Timeout, this);
    }
}

void
OncacheRrClient::Timeout()
{
    NS_LOG_FUNCTION(this);
    ++m_lost;
    NS_LOG_INFO("UDP transaction lost after " << m_udpTimeout.As(Time::US));
    m_socket->SetRecvCallback(MakeNullCallback<void, Ptr<Socket>>());
    m_socket->Close();
    m_socket = nullptr;
    if (m_running)
    {
        Open();
    }
}

void
OncacheRrClient::Receive(Ptr<Socket> socket)
{
    while (Ptr<Packet> packet = socket->Recv())
    {
        m_received += packet->GetSize();
    }
    if (m_received < m_responseSize || socket != m_socket)
    {
        return;
    }
    m_timeoutEvent.Cancel();
    ++m_transactions;
    m_transactionTrace(Simulator::Now() - m_start);
    if (!m_running || (m_maxTransactions > 0 && m_transactions >= m_maxTransactions))
    {
        return;
    }
    Ptr<OncacheRrClient> self = this;
    OncacheHostDatapath::RunOnAppCore(GetNode(), m_processingTime, [self]() { self->Next(); });
}

void
OncacheRrClient::Next()
{
    if (!m_running)
    {
        return;
    }
    if (m_connectPerTransaction)
    {
        m_socket->SetRecvCallback(MakeNullCallback<void, Ptr<Socket>>());
        m_socket->Close();
        Open();
    }
    else
    {
        SendRequest();
    }
}

} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "oncache-kv-client.h"

#include "oncache-host-datapath.h"
#include "oncache-limits.h"

#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/tcp-socket-factory.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("OncacheKvClient");

NS_OBJECT_ENSURE_REGISTERED(OncacheKvClient);

TypeId
OncacheKvClient::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::OncacheKvClient")
            .SetParent<Application>()
            .SetGroupName("Oncache")
            .AddConstructor<OncacheKvClient>()
            .AddAttribute("Remote",
                          "The address (InetSocketAddress) of the OncacheKvServer.",
                          AddressValue(),
                          MakeAddressAccessor(&OncacheKvClient::m_remote),
                          MakeAddressChecker())
            .AddAttribute("Concurrency",
                          "The TCP connections, each with one request outstanding (closed loop).",
                          UintegerValue(4),
                          MakeUintegerAccessor(&OncacheKvClient::m_concurrency),
                          MakeUintegerChecker<uint32_t>(1, 1024))
            .AddAttribute("RequestSize",
                          "The bytes of one GET request (command, key and framing); must match "
                          "the server's RequestSize.",
                          UintegerValue(100),
                          MakeUintegerAccessor(&OncacheKvClient::m_requestSize),
                          MakeUintegerChecker<uint32_t>(HEADER_BYTES))
            .AddAttribute("ResponseOverhead",
                          "The bytes a response adds to its value (\"VALUE key flags bytes\" "
                          "line and \"END\"); with the largest value the response must fit in 32 "
                          "bits.",
                          UintegerValue(40),
                          MakeUintegerAccessor(&OncacheKvClient::m_responseOverhead),
                          MakeUintegerChecker<uint32_t>(0, UINT32_MAX - MAX_VALUE_BYTES))
            .AddAttribute("ValueSize",
                          "The value size of each request in bytes (rounded, at least 1, at most "
                          "16 MiB). The "
                          "default is heavy-tailed with mostly small values (mean about 254 B, "
                          "values above 4 KB redrawn), like memcached's ETC pool.",
                          StringValue("ns3::ParetoRandomVariable[Scale=100|Shape=1.5|Bound=4096]"),
                          MakePointerAccessor(&OncacheKvClient::m_valueSize),
                          MakePointerChecker<RandomVariableStream>())
            .AddAttribute("ProcessingTime",
                          "The client's own CPU time per request, on its pod's application core, "
                          "after each response.",
                          TimeValue(MicroSeconds(1)),
                          MakeTimeAccessor(&OncacheKvClient::m_processingTime),
                          MakeTimeChecker(Time(0), OncacheMaxStepTime()))
            .AddAttribute("MaxTransactions",
                          "Stop sending after this many requests; 0 runs until the application "
                          "stops.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&OncacheKvClient::m_maxTransactions),
                          MakeUintegerChecker<uint64_t>())
            .AddTraceSource("Transaction",
                            "A request completed: its latency and value size.",
                            MakeTraceSourceAccessor(&OncacheKvClient::m_transactionTrace),
                            "ns3::OncacheKvClient::TransactionTracedCallback");
    return tid;
}

OncacheKvClient::OncacheKvClient()
    : m_concurrency(4),
      m_requestSize(100),
      m_responseOverhead(40),
      m_processingTime(MicroSeconds(1)),
      m_maxTransactions(0),
      m_transactions(0),
      m_sent(0),
      m_running(false)
{
    NS_LOG_FUNCTION(this);
}

void
OncacheKvClient::DoDispose()
{
    m_connections.clear();
    m_valueSize = nullptr;
    Application::DoDispose();
}

uint64_t
OncacheKvClient::GetTransactions() const
{
    return m_transactions;
}

int64_t
OncacheKvClient::AssignStreams(int64_t stream)
{
    m_valueSize->SetStream(stream);
    return 1;
}

void
OncacheKvClient::StartApplication()
{
    NS_LOG_FUNCTION(this);
    m_running = true;
    m_connections.assign(m_concurrency, Connection());
    for (auto& c : m_connections)
    {
        c.socket = Socket::CreateSocket(GetNode(), TcpSocketFactory::GetTypeId());
        c.socket->SetAttribute("TcpNoDelay", BooleanValue(true));
        c.socket->Bind();
        c.socket->SetRecvCallback(MakeCallback(&OncacheKvClient::Receive, this));
        c.socket->SetConnectCallback(MakeCallback(&OncacheKvClient::Connected, this),
                                     MakeCallback(&OncacheKvClient::ConnectFailed, this));
        c.socket->Connect(m_remote);
    }
}

void
OncacheKvClient::StopApplication()
{
    NS_LOG_FUNCTION(this);
    m_running = false;
    for (auto& c : m_connections)
    {
        c.socket->SetRecvCallback(MakeNullCallback<void, Ptr<Socket>>());
        c.socket->Close();
    }
}

std::size_t
OncacheKvClient::Find(Ptr<Socket> socket) const
{
    for (std::size_t i = 0; i < m_connections.size(); ++i)
    {
        if (m_connections[i].socket == socket)
        {
            return i;
        }
    }
    return m_connections.size();
}

void
OncacheKvClient::Connected(Ptr<Socket> socket)
{
    std::size_t index = Find(socket);
    if (index < m_connections.size())
    {
        m_connections[index].connected = true;
        SendRequest(index);
    }
}

void
OncacheKvClient::ConnectFailed(Ptr<Socket> socket)
{
    NS_LOG_WARN("connection to the key-value server failed");
}

void
OncacheKvClient::SendRequest(std::size_t index)
{
    if (!m_running || (m_maxTransactions > 0 && m_sent >= m_maxTransactions))
    {
        return;
    }
    Connection& c = m_connections[index];
    double draw = std::max(1.0, std::round(m_valueSize->GetValue()));
    c.valueBytes = static_cast<uint32_t>(std::min(draw, double{MAX_VALUE_BYTES}));
    c.expected = c.valueBytes + m_responseOverhead;
    c.received = 0;
    c.start = Simulator::Now();
    // The request names its response size in its first bytes (the "key" the server looks up).
    std::vector<uint8_t> bytes(m_requestSize, 0);
    for (uint32_t i = 0; i < HEADER_BYTES; ++i)
    {
        bytes[i] = static_cast<uint8_t>(c.expected >> (8 * i));
    }
    ++m_sent;
    c.socket->Send(Create<Packet>(bytes.data(), m_requestSize));
}

void
OncacheKvClient::Receive(Ptr<Socket> socket)
{
    std::size_t index = Find(socket);
    while (Ptr<Packet> packet = socket->Recv())
    {
        if (index < m_connections.size())
        {
            m_connections[index].received += packet->GetSize();
        }
    }
    if (index >= m_connections.size())
    {
        return;
    }
    Connection& c = m_connections[index];
    if (c.expected == 0 || c.received < c.expected)
    {
        return;
    }
    ++m_transactions;
    m_transactionTrace(Simulator::Now() - c.start, c.valueBytes);
    c.expected = 0;
    Ptr<OncacheKvClient> self = this;
    OncacheHostDatapath::RunOnAppCore(GetNode(), m_processingTime, [self, index]() {
        self->SendRequest(index);
    });
}

} // namespace ns3

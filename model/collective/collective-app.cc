/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "collective-app.h"

#include "ns3/enum.h"
#include "ns3/inet-socket-address.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/roce-nic.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/suite-check.h"
#include "ns3/suite-run-status.h"
#include "ns3/tcp-socket-factory.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <sstream>
#include <string>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CollectiveApp");

NS_OBJECT_ENSURE_REGISTERED(CollectiveApp);

TypeId
CollectiveApp::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::CollectiveApp")
            .SetParent<Application>()
            .SetGroupName("Collective")
            .AddConstructor<CollectiveApp>()
            .AddAttribute("Transport",
                          "How ranks exchange bytes: tcp (TCP sockets) or rdma (RoCEv2 RC queue "
                          "pairs on the node's RoceNic, one per peer; RoceHelper "
                          "installs the NICs). Same per-peer byte streams and step semantics.",
                          EnumValue(TCP),
                          MakeEnumAccessor(&CollectiveApp::m_transport),
                          MakeEnumChecker(TCP, "tcp", RDMA, "rdma"))
            .AddAttribute("Port",
                          "TCP port every rank of the job listens on (with Transport rdma: the "
                          "service its QPs connect to).",
                          UintegerValue(7000),
                          MakeUintegerAccessor(&CollectiveApp::m_port),
                          MakeUintegerChecker<uint16_t>(1))
            .AddAttribute("ChunkBytes",
                          "Pipelining unit: a step's send is released in chunks as the previous "
                          "step's chunks arrive. 512 KiB is NCCL's default (a 4 MiB buffer in "
                          "8 slots).",
                          UintegerValue(512 * 1024),
                          MakeUintegerAccessor(&CollectiveApp::m_chunkBytes),
                          MakeUintegerChecker<uint64_t>(1))
            .AddAttribute("Iterations",
                          "Iterations to run (compute, then the collective).",
                          UintegerValue(1),
                          MakeUintegerAccessor(&CollectiveApp::m_iterations),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("ComputeTime",
                          "Compute phase of each iteration, before its collective.",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&CollectiveApp::m_computeTime),
                          MakeTimeChecker(Time(0)))
            .AddTraceSource("IterationStart",
                            "An iteration (its compute phase) begins.",
                            MakeTraceSourceAccessor(&CollectiveApp::m_iterationStartTrace),
                            "ns3::CollectiveApp::IterationTracedCallback")
            .AddTraceSource("CollectiveStart",
                            "The collective of an iteration begins.",
                            MakeTraceSourceAccessor(&CollectiveApp::m_collectiveStartTrace),
                            "ns3::CollectiveApp::IterationTracedCallback")
            .AddTraceSource("StepComplete",
                            "All bytes a step receives have arrived.",
                            MakeTraceSourceAccessor(&CollectiveApp::m_stepTrace),
                            "ns3::CollectiveApp::StepTracedCallback")
            .AddTraceSource("IterationEnd",
                            "This rank received all its data and handed all its sends to TCP.",
                            MakeTraceSourceAccessor(&CollectiveApp::m_iterationEndTrace),
                            "ns3::CollectiveApp::IterationTracedCallback");
    return tid;
}

CollectiveApp::CollectiveApp()
    : m_transport(TCP),
      m_port(0),
      m_chunkBytes(0),
      m_iterations(0),
      m_rank(0),
      m_readyReported(false),
      m_iteration(0),
      m_collectiveRunning(false),
      m_nextStepToComplete(0),
      m_stepBarrier(false),
      m_releasedStep(0)
{
    NS_LOG_FUNCTION(this);
}

void
CollectiveApp::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_out.clear();
    m_inSockets.clear();
    m_listener = nullptr;
    m_nic = nullptr;
    m_inQps.clear();
    m_ready = Callback<void, uint32_t>();
    Application::DoDispose();
}

void
CollectiveApp::Configure(uint32_t rank,
                         const ClusterRankSchedule& schedule,
                         std::shared_ptr<const std::vector<Ipv4Address>> peerAddresses,
                         std::shared_ptr<const std::map<uint32_t, uint32_t>> rankOfAddress)
{
    NS_LOG_FUNCTION(this << rank << schedule.size());
    SUITE_REQUIRE(peerAddresses && rankOfAddress,
                  std::invalid_argument,
                  "collective rank " << rank << ": no address tables");
    for (uint32_t k = 0; k < schedule.size(); ++k)
    {
        const ClusterCollectiveStep& s = schedule[k];
        SUITE_REQUIRE(s.sendPeer < static_cast<int64_t>(peerAddresses->size()),
                      std::out_of_range,
                      "collective rank " << rank << ": peer " << s.sendPeer << " has no address");
        for (uint32_t d : s.dependsOn)
        {
            SUITE_REQUIRE(d < k && schedule[d].recvPeer >= 0,
                          std::invalid_argument,
                          "collective rank " << rank << ": step " << k << " depends on step " << d
                                             << ", which is not an earlier receive");
        }
    }
    m_rank = rank;
    m_schedule = schedule;
    m_peerAddresses = std::move(peerAddresses);
    m_rankOfAddress = std::move(rankOfAddress);
    m_out.clear();
    m_in.clear();
    m_sendOffset.assign(schedule.size(), 0);
    m_recvOffset.assign(schedule.size(), 0);
    for (uint32_t k = 0; k < schedule.size(); ++k)
    {
        const ClusterCollectiveStep& s = schedule[k];
        if (s.sendPeer >= 0)
        {
            PeerOut& out = m_out[s.sendPeer];
            m_sendOffset[k] = out.perIteration;
            out.perIteration += s.sendBytes;
            out.steps.push_back(k);
        }
        if (s.recvPeer >= 0)
        {
            PeerIn& in = m_in[s.recvPeer];
            m_recvOffset[k] = in.perIteration;
            in.perIteration += s.recvBytes;
        }
    }
}

void
CollectiveApp::SetReadyCallback(Callback<void, uint32_t> callback)
{
    m_ready = callback;
}

uint32_t
CollectiveApp::GetRank() const
{
    return m_rank;
}

uint32_t
CollectiveApp::GetCompletedIterations() const
{
    return m_iteration;
}

uint64_t
CollectiveApp::GetBytesSent() const
{
    uint64_t total = 0;
    for (const auto& [peer, out] : m_out)
    {
        total += out.written;
    }
    return total;
}

uint64_t
CollectiveApp::GetBytesReceived() const
{
    uint64_t total = 0;
    for (const auto& [peer, in] : m_in)
    {
        total += in.received;
    }
    return total;
}

void
CollectiveApp::StartApplication()
{
    NS_LOG_FUNCTION(this);
    if (m_transport == RDMA)
    {
        StartRdma();
        return;
    }
    m_listener = Socket::CreateSocket(GetNode(), TcpSocketFactory::GetTypeId());
    if (m_listener->Bind(InetSocketAddress(Ipv4Address::GetAny(), m_port)) != 0)
    {
        Fail("cannot listen on port " + std::to_string(m_port) + " (in use on its node)");
        return;
    }
    m_listener->Listen();
    m_listener->SetAcceptCallback(MakeCallback(&CollectiveApp::AcceptRequest, this),
                                  MakeCallback(&CollectiveApp::Accepted, this));
    for (auto& [peer, out] : m_out)
    {
        out.socket = Socket::CreateSocket(GetNode(), TcpSocketFactory::GetTypeId());
        if (out.socket->Bind() != 0)
        {
            Fail("no free local port for a connection to rank " + std::to_string(peer));
            return;
        }
        out.socket->SetConnectCallback(MakeCallback(&CollectiveApp::Connected, this),
                                       MakeCallback(&CollectiveApp::ConnectFailed, this));
        out.socket->SetSendCallback(MakeCallback(&CollectiveApp::SendSpace, this));
        out.socket->Connect(InetSocketAddress(m_peerAddresses->at(peer), m_port));
    }
    CheckReady();
}

void
CollectiveApp::StartRdma()
{
    m_nic = GetNode()->GetObject<RoceNic>();
    if (!m_nic)
    {
        Fail("Transport=rdma needs a RoceNic on node " + std::to_string(GetNode()->GetId()) +
             " (RoceHelper::Install)");
        return;
    }
    // Connection management is instant (RoceNic::Connect): every QP exists now, and
    // the peers' QPs are reported to QpAccepted when their first packet arrives.
    m_nic->SetAcceptCallback(m_port, MakeCallback(&CollectiveApp::QpAccepted, this));
    for (auto& [peer, in] : m_in)
    {
        in.connected = true;
    }
    for (auto& [peer, out] : m_out)
    {
        try
        {
            out.qp = m_nic->Connect(m_peerAddresses->at(peer), m_port);
        }
        catch (const std::exception& e)
        {
            Fail(e.what());
            return;
        }
        out.connected = true;
    }
    CheckReady();
}

void
CollectiveApp::QpAccepted(Ptr<RoceQp> qp, Ipv4Address from)
{
    auto rank = m_rankOfAddress->find(from.Get());
    if (rank == m_rankOfAddress->end() || m_in.count(rank->second) == 0)
    {
        return; // not a peer that sends to this rank
    }
    m_inQps.push_back(qp);
    qp->SetDataCallback(MakeCallback(&CollectiveApp::QpData, this).Bind(&m_in.at(rank->second)));
}

void
CollectiveApp::QpData(PeerIn* in, Ptr<RoceQp> qp, uint32_t bytes)
{
    in->received += bytes;
    Progress();
}

void
CollectiveApp::StopApplication()
{
    NS_LOG_FUNCTION(this);
    m_computeEvent.Cancel();
    m_collectiveRunning = false;
    ReleaseSockets();
}

void
CollectiveApp::ReleaseSockets()
{
    NS_LOG_FUNCTION(this);
    // Each socket closes gracefully (TCP delivers what it holds, then FIN) and frees its
    // ns-3 endpoint when the close completes; TcpL4Protocol holds it until then.
    for (auto& qp : m_inQps)
    {
        qp->SetDataCallback(RoceQp::DataCallback());
    }
    m_inQps.clear();
    if (m_nic)
    {
        m_nic->SetAcceptCallback(m_port, RoceNic::AcceptCallback());
        m_nic = nullptr;
    }
    for (auto& [peer, out] : m_out)
    {
        out.qp = nullptr; // a QP finishes what it was given; the NIC keeps it
        if (out.socket)
        {
            out.socket->SetConnectCallback(MakeNullCallback<void, Ptr<Socket>>(),
                                           MakeNullCallback<void, Ptr<Socket>>());
            out.socket->SetSendCallback(MakeNullCallback<void, Ptr<Socket>, uint32_t>());
            out.socket->Close();
            out.socket = nullptr;
        }
        out.connected = false;
    }
    for (auto& [socket, peer] : m_inSockets)
    {
        socket->SetRecvCallback(MakeNullCallback<void, Ptr<Socket>>());
        socket->Close();
    }
    m_inSockets.clear();
    if (m_listener)
    {
        m_listener->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                                      MakeNullCallback<void, Ptr<Socket>, const Address&>());
        m_listener->Close();
        m_listener = nullptr;
    }
}

void
CollectiveApp::Fail(const std::string& cause)
{
    m_computeEvent.Cancel();
    m_collectiveRunning = false;
    ReleaseSockets();
    SuiteStopRun("collective rank " + std::to_string(m_rank) + " (port " + std::to_string(m_port) +
                 "): " + cause);
}

void
CollectiveApp::Connected(Ptr<Socket> socket)
{
    NS_LOG_FUNCTION(this << socket);
    for (auto& [peer, out] : m_out)
    {
        if (out.socket == socket)
        {
            out.connected = true;
        }
    }
    CheckReady();
}

void
CollectiveApp::ConnectFailed(Ptr<Socket> socket)
{
    NS_LOG_FUNCTION(this << socket);
    for (const auto& [peer, out] : m_out)
    {
        if (out.socket == socket)
        {
            std::ostringstream cause;
            cause << "the connection to rank " << peer << " (" << m_peerAddresses->at(peer)
                  << ") failed (refused, or no answer to its SYNs)";
            Fail(cause.str());
            return;
        }
    }
}

bool
CollectiveApp::AcceptRequest(Ptr<Socket> socket, const Address& from)
{
    return m_rankOfAddress->count(InetSocketAddress::ConvertFrom(from).GetIpv4().Get()) != 0;
}

void
CollectiveApp::Accepted(Ptr<Socket> socket, const Address& from)
{
    NS_LOG_FUNCTION(this << socket << from);
    uint32_t peer = m_rankOfAddress->at(InetSocketAddress::ConvertFrom(from).GetIpv4().Get());
    m_inSockets[socket] = peer;
    m_in[peer].connected = true;
    socket->SetRecvCallback(MakeCallback(&CollectiveApp::DataArrived, this));
    CheckReady();
}

void
CollectiveApp::CheckReady()
{
    if (m_readyReported)
    {
        return;
    }
    for (const auto& [peer, out] : m_out)
    {
        if (!out.connected)
        {
            return;
        }
    }
    for (const auto& [peer, in] : m_in)
    {
        if (!in.connected)
        {
            return;
        }
    }
    m_readyReported = true;
    if (!m_ready.IsNull())
    {
        m_ready(m_rank);
    }
}

void
CollectiveApp::StartIterations()
{
    NS_LOG_FUNCTION(this);
    m_iteration = 0;
    BeginIteration();
}

void
CollectiveApp::EnableStepBarrier()
{
    m_stepBarrier = true;
}

void
CollectiveApp::ReleaseStep(uint32_t iteration, uint32_t step)
{
    NS_LOG_FUNCTION(this << iteration << step);
    if (iteration != m_iteration)
    {
        return; // the previous iteration's last release: this rank already moved on
    }
    m_releasedStep = std::max(m_releasedStep, step);
    Progress();
}

void
CollectiveApp::BeginIteration()
{
    NS_LOG_FUNCTION(this << m_iteration);
    m_iterationStartTrace(m_rank, m_iteration);
    m_computeEvent = Simulator::Schedule(m_computeTime, &CollectiveApp::BeginCollective, this);
}

void
CollectiveApp::BeginCollective()
{
    NS_LOG_FUNCTION(this << m_iteration);
    m_collectiveRunning = true;
    m_nextStepToComplete = 0;
    m_releasedStep = 0;
    for (auto& [peer, out] : m_out)
    {
        out.frontier = 0;
    }
    m_collectiveStartTrace(m_rank, m_iteration);
    Progress();
}

uint64_t
CollectiveApp::Arrived(uint32_t step) const
{
    const ClusterCollectiveStep& s = m_schedule[step];
    const PeerIn& in = m_in.at(s.recvPeer);
    uint64_t start = m_iteration * in.perIteration + m_recvOffset[step];
    return in.received <= start ? 0 : std::min(in.received - start, s.recvBytes);
}

uint64_t
CollectiveApp::Released(uint32_t step) const
{
    const ClusterCollectiveStep& s = m_schedule[step];
    if (m_stepBarrier && step > m_releasedStep)
    {
        return 0;
    }
    // Released in proportion to the least advanced receive it needs, chunk by chunk.
    uint64_t released = s.sendBytes;
    for (uint32_t d : s.dependsOn)
    {
        const ClusterCollectiveStep& needed = m_schedule[d];
        uint64_t arrived = Arrived(d);
        if (arrived < needed.recvBytes)
        {
            uint64_t chunks = (needed.recvBytes + m_chunkBytes - 1) / m_chunkBytes;
            released = std::min(released, s.sendBytes * (arrived / m_chunkBytes) / chunks);
        }
    }
    return released;
}

void
CollectiveApp::Write(uint32_t peer)
{
    PeerOut& out = m_out[peer];
    if (!out.connected || !m_collectiveRunning)
    {
        return;
    }
    uint64_t base = m_iteration * out.perIteration;
    uint64_t target = base;
    while (out.frontier < out.steps.size())
    {
        uint32_t step = out.steps[out.frontier];
        uint64_t released = Released(step);
        target = base + m_sendOffset[step] + released;
        if (released < m_schedule[step].sendBytes)
        {
            break;
        }
        ++out.frontier;
    }
    if (out.frontier == out.steps.size())
    {
        target = base + out.perIteration;
    }
    if (out.qp)
    {
        if (out.written < target) // a QP takes any size: no send buffer to wait for
        {
            out.qp->Send(target - out.written);
            out.written = target;
        }
        return;
    }
    while (out.written < target)
    {
        uint32_t space = out.socket->GetTxAvailable();
        if (space == 0)
        {
            return; // SendSpace resumes
        }
        auto n = static_cast<uint32_t>(std::min<uint64_t>(target - out.written, space));
        int sent = out.socket->Send(Create<Packet>(n));
        if (sent <= 0)
        {
            return;
        }
        out.written += static_cast<uint64_t>(sent);
    }
}

void
CollectiveApp::Progress()
{
    if (!m_collectiveRunning)
    {
        return;
    }
    while (m_nextStepToComplete < m_schedule.size())
    {
        const ClusterCollectiveStep& s = m_schedule[m_nextStepToComplete];
        if (s.recvPeer >= 0 && Arrived(m_nextStepToComplete) < s.recvBytes)
        {
            break;
        }
        m_stepTrace(m_rank, m_iteration, m_nextStepToComplete);
        ++m_nextStepToComplete;
    }
    bool allWritten = true;
    for (auto& [peer, out] : m_out)
    {
        Write(peer);
        allWritten = allWritten && out.written >= (m_iteration + 1) * out.perIteration;
    }
    if (m_nextStepToComplete < m_schedule.size() || !allWritten)
    {
        return;
    }
    m_collectiveRunning = false;
    m_iterationEndTrace(m_rank, m_iteration);
    ++m_iteration;
    if (m_iteration < m_iterations)
    {
        BeginIteration();
        return;
    }
    ReleaseSockets(); // the job is over for this rank: every socket closes
}

void
CollectiveApp::DataArrived(Ptr<Socket> socket)
{
    PeerIn& in = m_in[m_inSockets.at(socket)];
    while (Ptr<Packet> packet = socket->Recv())
    {
        in.received += packet->GetSize();
    }
    Progress();
}

void
CollectiveApp::SendSpace(Ptr<Socket> socket, uint32_t available)
{
    Progress();
}

} // namespace ns3

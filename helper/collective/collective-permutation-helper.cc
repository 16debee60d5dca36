/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "collective-permutation-helper.h"

#include "ns3/bulk-send-helper.h"
#include "ns3/enum.h"
#include "ns3/inet-socket-address.h"
#include "ns3/log.h"
#include "ns3/packet-sink-helper.h"
#include "ns3/packet-sink.h"
#include "ns3/roce-helper.h"
#include "ns3/roce-nic.h"
#include "ns3/simulator.h"
#include "ns3/suite-check.h"
#include "ns3/tcp-socket.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <set>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CollectivePermutationHelper");

NS_OBJECT_ENSURE_REGISTERED(CollectivePermutationHelper);

TypeId
CollectivePermutationHelper::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::CollectivePermutationHelper")
            .SetParent<Object>()
            .SetGroupName("Collective")
            .AddConstructor<CollectivePermutationHelper>()
            .AddAttribute("FlowBytes",
                          "Bytes each flow carries, 1 to 10^10 (10 GB: about 0.8 s at 100 Gbps, "
                          "hours of packet-level simulation).",
                          UintegerValue(4000000),
                          MakeUintegerAccessor(&CollectivePermutationHelper::m_flowBytes),
                          MakeUintegerChecker<uint64_t>(1, MAX_FLOW_BYTES))
            .AddAttribute("SendSize",
                          "Bytes a sender writes to its socket at a time; 0 means 8 TCP "
                          "segments (a write that is not a whole number of segments makes "
                          "ns-3's send buffer split and merge, which costs CPU). At most 16 MiB "
                          "(each write allocates that much).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&CollectivePermutationHelper::m_sendSize),
                          MakeUintegerChecker<uint32_t>(0, MAX_SEND_SIZE))
            .AddAttribute("BasePort",
                          "TCP port of the first flow's sink; flow i listens on BasePort + i.",
                          UintegerValue(5000),
                          MakeUintegerAccessor(&CollectivePermutationHelper::m_basePort),
                          MakeUintegerChecker<uint16_t>(1))
            .AddAttribute("StartTime",
                          "When every sender starts, 0 to 1 hour.",
                          TimeValue(MicroSeconds(10)),
                          MakeTimeAccessor(&CollectivePermutationHelper::m_startTime),
                          MakeTimeChecker(Seconds(0), Seconds(3600)))
            .AddAttribute("Transport",
                          "tcp: each flow is a BulkSend over TCP to a PacketSink; rdma: each "
                          "flow is one RoCEv2 queue pair sending one FlowBytes message (Install "
                          "puts a RoceNic on GPUs without one; flow i is service "
                          "BasePort + i on the receiver's NIC).",
                          EnumValue(TCP),
                          MakeEnumAccessor(&CollectivePermutationHelper::m_transport),
                          MakeEnumChecker(TCP, "tcp", RDMA, "rdma"))
            .AddTraceSource("FlowCompleted",
                            "A flow's last byte arrived (flow index, in Install order).",
                            MakeTraceSourceAccessor(&CollectivePermutationHelper::m_flowCompleted),
                            "ns3::TracedValueCallback::Uint32");
    return tid;
}

CollectivePermutationHelper::CollectivePermutationHelper()
    : m_flowBytes(0),
      m_sendSize(0),
      m_basePort(0),
      m_transport(TCP)
{
    NS_LOG_FUNCTION(this);
}

std::vector<CollectivePermutationHelper::Pair>
CollectivePermutationHelper::LeafShift(Ptr<const ClosFabric> fabric, uint32_t shift)
{
    uint32_t leaves = fabric->GetLeafCount();
    SUITE_REQUIRE(leaves >= 2,
                  std::invalid_argument,
                  "the leaf-shift permutation needs at least 2 leaves (the fabric has " << leaves
                                                                                        << ")");
    SUITE_REQUIRE(shift >= 1 && shift < leaves,
                  std::invalid_argument,
                  "shift must be 1 to " << leaves - 1 << " for " << leaves << " leaves (got "
                                        << shift << ")");
    std::vector<Pair> pairs;
    for (uint32_t leaf = 0; leaf < leaves; ++leaf)
    {
        for (uint32_t i = 0; i < fabric->GetGpusPerLeaf(); ++i)
        {
            pairs.emplace_back(fabric->GetGpuAt(leaf, i),
                               fabric->GetGpuAt((leaf + shift) % leaves, i));
        }
    }
    return pairs;
}

CollectivePermutationHelper::LinkLoad
CollectivePermutationHelper::PinnedLinkLoad(uint32_t flowsPerLeaf, uint32_t spines)
{
    SUITE_REQUIRE(flowsPerLeaf >= 1 && spines >= 1,
                  std::invalid_argument,
                  "PinnedLinkLoad needs at least 1 flow per leaf and 1 spine");
    const uint32_t k = flowsPerLeaf;
    const uint32_t n = spines;
    LinkLoad load;
    load.maxFlowsPerLink = (k + n - 1) / n;
    if (k <= n)
    {
        load.conflictingShare = 0;
    }
    else if (k >= 2 * n)
    {
        load.conflictingShare = 1;
    }
    else
    {
        load.conflictingShare = 2.0 * (k % n) / k;
    }
    return load;
}

uint32_t
CollectivePermutationHelper::DefaultSendSize()
{
    TypeId::AttributeInformation info;
    bool found = TcpSocket::GetTypeId().LookupAttributeByName("SegmentSize", &info);
    NS_ASSERT(found);
    return 8 * DynamicCast<const UintegerValue>(info.initialValue)->Get();
}

void
CollectivePermutationHelper::PinBalanced(Ptr<ClosFabric> fabric, const std::vector<Pair>& pairs)
{
    for (const auto& [src, dst] : pairs)
    {
        fabric->PinPairToSpine(src, dst, fabric->GetIndexInLeaf(src) % fabric->GetSpineCount());
    }
}

ApplicationContainer
CollectivePermutationHelper::Install(Ptr<ClosFabric> fabric, const std::vector<Pair>& pairs)
{
    NS_LOG_FUNCTION(this << fabric << pairs.size());
    CheckPermutation(fabric, pairs);
    if (m_transport == RDMA)
    {
        InstallRdmaFlows(fabric, pairs);
        return ApplicationContainer();
    }
    return InstallTcpFlows(fabric, pairs);
}

void
CollectivePermutationHelper::CheckPermutation(Ptr<ClosFabric> fabric,
                                              const std::vector<Pair>& pairs) const
{
    SUITE_REQUIRE(!pairs.empty(), std::invalid_argument, "the permutation has no pairs");
    std::vector<bool> sends(fabric->GetGpuCount(), false);
    std::vector<bool> receives(fabric->GetGpuCount(), false);
    for (const auto& [src, dst] : pairs)
    {
        SUITE_REQUIRE(src < fabric->GetGpuCount() && dst < fabric->GetGpuCount(),
                      std::out_of_range,
                      "pair " << src << "->" << dst << " names a GPU outside the fabric");
        SUITE_REQUIRE(src != dst,
                      std::invalid_argument,
                      "pair " << src << "->" << dst << " is a self-loop");
        SUITE_REQUIRE(!sends[src] && !receives[dst],
                      std::invalid_argument,
                      "pair " << src << "->" << dst << " breaks the permutation (a GPU sends or "
                              << "receives twice)");
        sends[src] = true;
        receives[dst] = true;
    }
    SUITE_REQUIRE(pairs.size() + m_basePort <= 65535,
                  std::invalid_argument,
                  "BasePort + flows exceeds 65535");
}

uint32_t
CollectivePermutationHelper::AddFlow(uint32_t src, uint32_t dst)
{
    FlowResult result;
    result.src = src;
    result.dst = dst;
    result.start = m_startTime;
    m_results.push_back(result);
    return static_cast<uint32_t>(m_results.size() - 1);
}

void
CollectivePermutationHelper::InstallRdmaFlows(Ptr<ClosFabric> fabric,
                                              const std::vector<Pair>& pairs)
{
    NodeContainer bare;
    std::set<uint32_t> seen;
    for (const auto& [src, dst] : pairs)
    {
        for (uint32_t gpu : {src, dst})
        {
            Ptr<Node> node = fabric->GetGpus().Get(gpu);
            if (seen.insert(gpu).second && !node->GetObject<RoceNic>())
            {
                bare.Add(node);
            }
        }
    }
    RoceHelper().Install(bare);                  // bad NIC attributes throw here, one line
    Ptr<CollectivePermutationHelper> self(this); // the QPs' callbacks keep the helper alive
    for (const auto& [src, dst] : pairs)
    {
        const uint32_t flow = AddFlow(src, dst);
        const auto service = static_cast<uint16_t>(m_basePort + flow);
        fabric->GetGpus().Get(dst)->GetObject<RoceNic>()->SetAcceptCallback(
            service,
            RoceNic::AcceptCallback([self, flow](Ptr<RoceQp> qp, Ipv4Address) {
                qp->SetDataCallback(
                    MakeBoundCallback(&CollectivePermutationHelper::QpReceived, self, flow));
            }));
        Ptr<RoceQp> qp =
            fabric->GetGpus().Get(src)->GetObject<RoceNic>()->Connect(fabric->GetGpuAddress(dst),
                                                                      service);
        Simulator::Schedule(m_startTime, [qp, bytes = m_flowBytes]() { qp->Send(bytes); });
    }
}

ApplicationContainer
CollectivePermutationHelper::InstallTcpFlows(Ptr<ClosFabric> fabric, const std::vector<Pair>& pairs)
{
    Ptr<CollectivePermutationHelper> self(this); // the sinks' traces keep the helper alive
    ApplicationContainer sinks;
    ApplicationContainer senders;
    for (const auto& [src, dst] : pairs)
    {
        const uint32_t flow = AddFlow(src, dst);
        const auto port = static_cast<uint16_t>(m_basePort + flow);
        PacketSinkHelper sink("ns3::TcpSocketFactory",
                              InetSocketAddress(Ipv4Address::GetAny(), port));
        ApplicationContainer s = sink.Install(fabric->GetGpus().Get(dst));
        s.Get(0)->TraceConnectWithoutContext(
            "Rx",
            MakeBoundCallback(&CollectivePermutationHelper::Received, self, flow));
        sinks.Add(s);

        BulkSendHelper bulk("ns3::TcpSocketFactory",
                            InetSocketAddress(fabric->GetGpuAddress(dst), port));
        bulk.SetAttribute("MaxBytes", UintegerValue(m_flowBytes));
        bulk.SetAttribute("SendSize",
                          UintegerValue(m_sendSize > 0 ? m_sendSize : DefaultSendSize()));
        senders.Add(bulk.Install(fabric->GetGpus().Get(src)));
    }
    sinks.Start(Seconds(0));
    senders.Start(m_startTime);
    ApplicationContainer all(sinks);
    all.Add(senders);
    return all;
}

void
CollectivePermutationHelper::Received(Ptr<CollectivePermutationHelper> helper,
                                      uint32_t flow,
                                      Ptr<const Packet> packet,
                                      const Address& from)
{
    helper->Delivered(flow, packet->GetSize());
}

void
CollectivePermutationHelper::QpReceived(Ptr<CollectivePermutationHelper> helper,
                                        uint32_t flow,
                                        Ptr<RoceQp> qp,
                                        uint32_t bytes)
{
    helper->Delivered(flow, bytes);
}

void
CollectivePermutationHelper::Delivered(uint32_t flow, uint64_t bytes)
{
    FlowResult& r = m_results[flow];
    Time now = Simulator::Now();
    if (r.bytes == 0)
    {
        r.firstRx = now;
        r.firstChunkBytes = bytes;
    }
    r.bytes += bytes;
    r.lastRx = now;
    if (r.lastRx > r.firstRx)
    {
        r.goodputBps = (r.bytes - r.firstChunkBytes) * 8.0 / (r.lastRx - r.firstRx).GetSeconds();
    }
    bool wasComplete = r.complete;
    r.complete = r.bytes >= m_flowBytes;
    if (r.complete && !wasComplete)
    {
        m_flowCompleted(flow);
    }
}

const std::vector<CollectivePermutationHelper::FlowResult>&
CollectivePermutationHelper::GetResults() const
{
    return m_results;
}

Time
CollectivePermutationHelper::GetCompletionTime() const
{
    Time latest(0);
    for (const auto& r : m_results)
    {
        latest = std::max(latest, r.lastRx);
    }
    return latest > m_startTime ? latest - m_startTime : Time(0);
}

uint32_t
CollectivePermutationHelper::GetCompletedFlows() const
{
    return static_cast<uint32_t>(std::count_if(m_results.begin(),
                                               m_results.end(),
                                               [](const FlowResult& r) { return r.complete; }));
}

} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "vclos-permutation-helper.h"

#include "ns3/bulk-send-helper.h"
#include "ns3/enum.h"
#include "ns3/inet-socket-address.h"
#include "ns3/log.h"
#include "ns3/packet-sink-helper.h"
#include "ns3/packet-sink.h"
#include "ns3/simulator.h"
#include "ns3/tcp-socket.h"
#include "ns3/uinteger.h"
#include "ns3/vclos-check.h"
#include "ns3/vclos-rdma-helper.h"
#include "ns3/vclos-rdma-nic.h"

#include <algorithm>
#include <set>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("VclosPermutationHelper");

NS_OBJECT_ENSURE_REGISTERED(VclosPermutationHelper);

TypeId
VclosPermutationHelper::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::VclosPermutationHelper")
            .SetParent<Object>()
            .SetGroupName("Vclos")
            .AddConstructor<VclosPermutationHelper>()
            .AddAttribute("FlowBytes",
                          "Bytes each flow carries, 1 to 10^10 (10 GB: about 0.8 s at 100 Gbps, "
                          "hours of packet-level simulation).",
                          UintegerValue(4000000),
                          MakeUintegerAccessor(&VclosPermutationHelper::m_flowBytes),
                          MakeUintegerChecker<uint64_t>(1, MAX_FLOW_BYTES))
            .AddAttribute("SendSize",
                          "Bytes a sender writes to its socket at a time; 0 means 8 TCP "
                          "segments (a write that is not a whole number of segments makes "
                          "ns-3's send buffer split and merge, which costs CPU). At most 16 MiB "
                          "(each write allocates that much).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&VclosPermutationHelper::m_sendSize),
                          MakeUintegerChecker<uint32_t>(0, MAX_SEND_SIZE))
            .AddAttribute("BasePort",
                          "TCP port of the first flow's sink; flow i listens on BasePort + i.",
                          UintegerValue(5000),
                          MakeUintegerAccessor(&VclosPermutationHelper::m_basePort),
                          MakeUintegerChecker<uint16_t>(1))
            .AddAttribute("StartTime",
                          "When every sender starts, 0 to 1 hour.",
                          TimeValue(MicroSeconds(10)),
                          MakeTimeAccessor(&VclosPermutationHelper::m_startTime),
                          MakeTimeChecker(Seconds(0), Seconds(3600)))
            .AddAttribute("Transport",
                          "tcp: each flow is a BulkSend over TCP to a PacketSink; rdma: each "
                          "flow is one RoCEv2 queue pair sending one FlowBytes message (Install "
                          "puts a VclosRdmaNic on GPUs without one; flow i is service "
                          "BasePort + i on the receiver's NIC).",
                          EnumValue(TCP),
                          MakeEnumAccessor(&VclosPermutationHelper::m_transport),
                          MakeEnumChecker(TCP, "tcp", RDMA, "rdma"))
            .AddTraceSource("FlowCompleted",
                            "A flow's last byte arrived (flow index, in Install order).",
                            MakeTraceSourceAccessor(&VclosPermutationHelper::m_flowCompleted),
                            "ns3::TracedValueCallback::Uint32");
    return tid;
}

VclosPermutationHelper::VclosPermutationHelper()
    : m_flowBytes(0),
      m_sendSize(0),
      m_basePort(0),
      m_transport(TCP)
{
    NS_LOG_FUNCTION(this);
}

std::vector<VclosPermutationHelper::Pair>
VclosPermutationHelper::LeafShift(Ptr<const VclosFabric> fabric, uint32_t shift)
{
    uint32_t leaves = fabric->GetLeafCount();
    VCLOS_REQUIRE(leaves >= 2,
                  std::invalid_argument,
                  "the leaf-shift permutation needs at least 2 leaves (the fabric has " << leaves
                                                                                        << ")");
    VCLOS_REQUIRE(shift >= 1 && shift < leaves,
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

VclosPermutationHelper::LinkLoad
VclosPermutationHelper::PinnedLinkLoad(uint32_t flowsPerLeaf, uint32_t spines)
{
    VCLOS_REQUIRE(flowsPerLeaf >= 1 && spines >= 1,
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
VclosPermutationHelper::DefaultSendSize()
{
    TypeId::AttributeInformation info;
    bool found = TcpSocket::GetTypeId().LookupAttributeByName("SegmentSize", &info);
    NS_ASSERT(found);
    return 8 * DynamicCast<const UintegerValue>(info.initialValue)->Get();
}

void
VclosPermutationHelper::PinBalanced(Ptr<VclosFabric> fabric, const std::vector<Pair>& pairs)
{
    for (const auto& [src, dst] : pairs)
    {
        fabric->PinPairToSpine(src, dst, fabric->GetIndexInLeaf(src) % fabric->GetSpineCount());
    }
}

ApplicationContainer
VclosPermutationHelper::Install(Ptr<VclosFabric> fabric, const std::vector<Pair>& pairs)
{
    NS_LOG_FUNCTION(this << fabric << pairs.size());
    VCLOS_REQUIRE(!pairs.empty(), std::invalid_argument, "the permutation has no pairs");
    std::vector<bool> sends(fabric->GetGpuCount(), false);
    std::vector<bool> receives(fabric->GetGpuCount(), false);
    for (const auto& [src, dst] : pairs)
    {
        VCLOS_REQUIRE(src < fabric->GetGpuCount() && dst < fabric->GetGpuCount(),
                      std::out_of_range,
                      "pair " << src << "->" << dst << " names a GPU outside the fabric");
        VCLOS_REQUIRE(src != dst,
                      std::invalid_argument,
                      "pair " << src << "->" << dst << " is a self-loop");
        VCLOS_REQUIRE(!sends[src] && !receives[dst],
                      std::invalid_argument,
                      "pair " << src << "->" << dst << " breaks the permutation (a GPU sends or "
                              << "receives twice)");
        sends[src] = true;
        receives[dst] = true;
    }
    VCLOS_REQUIRE(pairs.size() + m_basePort <= 65535,
                  std::invalid_argument,
                  "BasePort + flows exceeds 65535");

    Ptr<VclosPermutationHelper> self(this); // the sinks' traces keep the helper alive
    if (m_transport == RDMA)
    {
        NodeContainer bare;
        std::set<uint32_t> seen;
        for (const auto& [src, dst] : pairs)
        {
            for (uint32_t gpu : {src, dst})
            {
                Ptr<Node> node = fabric->GetGpus().Get(gpu);
                if (seen.insert(gpu).second && !node->GetObject<VclosRdmaNic>())
                {
                    bare.Add(node);
                }
            }
        }
        VclosRdmaHelper().Install(bare); // bad NIC attributes throw here, one line
        const uint32_t first = static_cast<uint32_t>(m_results.size());
        for (uint32_t i = 0; i < pairs.size(); ++i)
        {
            const auto& [src, dst] = pairs[i];
            const auto service = static_cast<uint16_t>(m_basePort + first + i);
            FlowResult result;
            result.src = src;
            result.dst = dst;
            result.start = m_startTime;
            m_results.push_back(result);
            fabric->GetGpus().Get(dst)->GetObject<VclosRdmaNic>()->SetAcceptCallback(
                service,
                VclosRdmaNic::AcceptCallback(
                    [self, flow = first + i](Ptr<VclosRdmaQp> qp, Ipv4Address) {
                        qp->SetDataCallback(
                            MakeBoundCallback(&VclosPermutationHelper::QpReceived, self, flow));
                    }));
            Ptr<VclosRdmaQp> qp = fabric->GetGpus().Get(src)->GetObject<VclosRdmaNic>()->Connect(
                fabric->GetGpuAddress(dst),
                service);
            Simulator::Schedule(m_startTime, [qp, bytes = m_flowBytes]() { qp->Send(bytes); });
        }
        return ApplicationContainer();
    }
    ApplicationContainer sinks;
    ApplicationContainer senders;
    uint32_t first = static_cast<uint32_t>(m_results.size());
    for (uint32_t i = 0; i < pairs.size(); ++i)
    {
        const auto& [src, dst] = pairs[i];
        uint16_t port = static_cast<uint16_t>(m_basePort + first + i);
        FlowResult result;
        result.src = src;
        result.dst = dst;
        result.start = m_startTime;
        m_results.push_back(result);

        PacketSinkHelper sink("ns3::TcpSocketFactory",
                              InetSocketAddress(Ipv4Address::GetAny(), port));
        ApplicationContainer s = sink.Install(fabric->GetGpus().Get(dst));
        s.Get(0)->TraceConnectWithoutContext(
            "Rx",
            MakeBoundCallback(&VclosPermutationHelper::Received, self, first + i));
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
VclosPermutationHelper::Received(Ptr<VclosPermutationHelper> helper,
                                 uint32_t flow,
                                 Ptr<const Packet> packet,
                                 const Address& from)
{
    helper->Delivered(flow, packet->GetSize());
}

void
VclosPermutationHelper::QpReceived(Ptr<VclosPermutationHelper> helper,
                                   uint32_t flow,
                                   Ptr<VclosRdmaQp> qp,
                                   uint32_t bytes)
{
    helper->Delivered(flow, bytes);
}

void
VclosPermutationHelper::Delivered(uint32_t flow, uint64_t bytes)
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

const std::vector<VclosPermutationHelper::FlowResult>&
VclosPermutationHelper::GetResults() const
{
    return m_results;
}

Time
VclosPermutationHelper::GetCompletionTime() const
{
    Time latest(0);
    for (const auto& r : m_results)
    {
        latest = std::max(latest, r.lastRx);
    }
    return latest > m_startTime ? latest - m_startTime : Time(0);
}

uint32_t
VclosPermutationHelper::GetCompletedFlows() const
{
    return static_cast<uint32_t>(std::count_if(m_results.begin(),
                                               m_results.end(),
                                               [](const FlowResult& r) { return r.complete; }));
}

} // namespace ns3

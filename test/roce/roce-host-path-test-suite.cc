/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The NIC's host fast path (RoceHostPath, RoceNic::HostFastPath) against ns-3's
// UDP/IPv4 path at the hosts, with the harness of clos-switch-forwarder: the same seed puts
// byte-identical frames (IPv4 identification, TTL, TOS/ECN, checksums, UDP ports) on every
// link at the same times, with RDMA + DCQCN over RED, on PFC links, with checksums on, with
// another DefaultTtl, with the incast receiver's interface going down and up (routes
// removed and put back), and with TCP flows sharing the hosts (which must complete). The
// controls: another seed, another DSCP, another TTL and checksums on each change the
// digest, so the comparison sees those bytes. Two QPs between the same two addresses number
// their datagrams from one IPv4 identification counter, as Ipv4L3Protocol (one counter per
// source, destination and protocol) does on the old path (control: QPs to two peers use
// two counters).
// Tests: roce-host-path

#include "clos/clos-wire-digest.h"

#include "ns3/boolean.h"
#include "ns3/clos-fabric-helper.h"
#include "ns3/clos-fabric.h"
#include "ns3/collective-permutation-helper.h"
#include "ns3/global-value.h"
#include "ns3/ipv4-header.h"
#include "ns3/ipv4-l3-protocol.h"
#include "ns3/ipv4-routing-table-entry.h"
#include "ns3/ipv4-static-routing-helper.h"
#include "ns3/ipv4-static-routing.h"
#include "ns3/pfc-net-device.h"
#include "ns3/pfc-switch-buffer.h"
#include "ns3/ppp-header.h"
#include "ns3/queue-disc.h"
#include "ns3/roce-helper.h"
#include "ns3/roce-host-path.h"
#include "ns3/roce-nic.h"
#include "ns3/roce-qp.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/traffic-control-layer.h"
#include "ns3/uinteger.h"

#include <cstdio>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// How a run differs from the base case (RDMA 7:1 incast, DCQCN, p2p links with RED).
struct Options
{
    bool hostFastPath = true;  //!< RoceNic::HostFastPath
    int64_t stream = 1;        //!< first random stream
    bool pfc = false;          //!< LinkLayer=pfc
    bool checksums = false;    //!< ChecksumEnabled
    uint8_t ttl = 64;          //!< Ipv4L3Protocol::DefaultTtl
    uint8_t dataDscp = 26;     //!< RoceNic::DataDscp
    bool flapReceiver = false; //!< GPU 0's interface down at 30 us, up at 60 us
    uint32_t tcpFlowBytes = 0; //!< > 0: also a TCP flow per GPU (leaf shift) of this size
    uint32_t qpsPerSender = 1; //!< QPs each sender opens to GPU 0 (300000 bytes in all)
};

/// What a run put on the wire (the harness of clos-switch-forwarder).
struct WireRecord : ClosWireDigest
{
    uint64_t marks = 0;         //!< ECN marks (RED queue discs, PFC devices)
    uint64_t pauses = 0;        //!< PFC pause frames the switches sent
    uint64_t rdmaDelivered = 0; //!< bytes the responder QPs delivered
    uint64_t tcpDelivered = 0;  //!< bytes the TCP sinks received
    uint64_t fastSent = 0;      //!< packets the host paths sent
    uint64_t fastReceived = 0;  //!< packets the host paths received
    uint64_t slow = 0;          //!< packets the host paths left to IPv4
    uint32_t hostPaths = 0;     //!< NICs with a host path
};

/// Sniffer sink: every frame a link's sending device puts on the wire.
void
RecordFrame(WireRecord* record, uint32_t link, Ptr<const Packet> frame)
{
    record->Record(link, frame);
}

/**
 * \param o the run
 * \return what the run put on the wire
 */
WireRecord
RunScenario(const Options& o)
{
    GlobalValue::Bind("ChecksumEnabled", BooleanValue(o.checksums));
    Ptr<ClosFabricHelper> helper = CreateObject<ClosFabricHelper>();
    helper->SetAttribute("Leaves", UintegerValue(2));
    helper->SetAttribute("ServersPerLeaf", UintegerValue(4));
    helper->SetAttribute("GpusPerServer", UintegerValue(1));
    helper->SetAttribute("Spines", UintegerValue(4));
    helper->SetAttribute("EcnThreshold", StringValue("20KB"));
    if (o.pfc)
    {
        helper->SetAttribute("LinkLayer", StringValue("pfc"));
        helper->SetPfcBufferAttribute("BufferSize", UintegerValue(600000));
        helper->SetPfcDeviceAttribute("EcnEnabled", BooleanValue(true));
        helper->SetPfcDeviceAttribute("EcnKmin", UintegerValue(20000));
        helper->SetPfcDeviceAttribute("EcnKmax", UintegerValue(80000));
    }
    Ptr<ClosFabric> fabric = helper->Install();
    helper->AssignStreams(fabric, o.stream);
    for (uint32_t g = 0; g < fabric->GetGpuCount(); ++g)
    {
        fabric->GetGpus().Get(g)->GetObject<Ipv4L3Protocol>()->SetAttribute("DefaultTtl",
                                                                            UintegerValue(o.ttl));
    }

    WireRecord record;
    const auto& links = fabric->GetLinks();
    for (uint32_t id = 0; id < links.size(); ++id)
    {
        links[id].device->TraceConnectWithoutContext("PhyTxBegin",
                                                     MakeBoundCallback(&RecordFrame, &record, id));
        if (auto pfc = DynamicCast<PfcNetDevice>(links[id].device))
        {
            pfc->TraceConnectWithoutContext("EcnMark",
                                            Callback<void, Ptr<const Packet>>(
                                                [&record](Ptr<const Packet>) { ++record.marks; }));
        }
    }

    Ptr<CollectivePermutationHelper> tcp;
    if (o.tcpFlowBytes > 0)
    {
        // One TCP flow per GPU to the GPU of the same index under the other leaf, on the
        // same hosts and links as the RDMA incast.
        tcp = CreateObject<CollectivePermutationHelper>();
        tcp->SetAttribute("FlowBytes", UintegerValue(o.tcpFlowBytes));
        tcp->Install(fabric, CollectivePermutationHelper::LeafShift(fabric, 1));
    }
    RoceHelper rdma;
    rdma.SetNicAttribute("AckTimeout", StringValue("1ms"));
    rdma.SetNicAttribute("RateControl", StringValue("ns3::Dcqcn"));
    rdma.SetNicAttribute("HostFastPath", BooleanValue(o.hostFastPath));
    rdma.SetNicAttribute("DataDscp", UintegerValue(o.dataDscp));
    std::vector<Ptr<RoceNic>> nics = rdma.Install(fabric->GetGpus());
    nics[0]->SetAcceptCallback(
        Callback<void, Ptr<RoceQp>, Ipv4Address>([&record](Ptr<RoceQp> qp, Ipv4Address) {
            qp->SetDataCallback(Callback<void, Ptr<RoceQp>, uint32_t>(
                [&record](Ptr<RoceQp>, uint32_t bytes) { record.rdmaDelivered += bytes; }));
        }));
    for (uint32_t g = 1; g < fabric->GetGpuCount(); ++g)
    {
        for (uint32_t q = 0; q < o.qpsPerSender; ++q)
        {
            nics[g]->Connect(fabric->GetGpuAddress(0))->Send(300000 / o.qpsPerSender);
        }
    }
    if (o.flapReceiver)
    {
        // GPU 0's NIC interface goes down (Ipv4StaticRouting removes its routes: its ACKs
        // and CNPs find none; arriving packets are dropped) and up again, with its default
        // route put back; go-back-N recovers the lost packets.
        Ptr<Ipv4> ipv4 = fabric->GetGpus().Get(0)->GetObject<Ipv4>();
        uint32_t itf = 0;
        for (const ClusterLink& l : links)
        {
            if (l.kind == ClusterLink::GPU_TO_LEAF && l.from == 0)
            {
                itf = ipv4->GetInterfaceForDevice(l.device);
            }
        }
        Ptr<Ipv4StaticRouting> routing = Ipv4StaticRoutingHelper().GetStaticRouting(ipv4);
        const Ipv4Address gateway = routing->GetDefaultRoute().GetGateway();
        Simulator::Schedule(MicroSeconds(30), [ipv4, itf]() { ipv4->SetDown(itf); });
        Simulator::Schedule(MicroSeconds(60), [ipv4, itf, routing, gateway]() {
            ipv4->SetUp(itf);
            routing->SetDefaultRoute(gateway, itf);
        });
    }
    Simulator::Stop(MilliSeconds(20));
    Simulator::Run();

    if (tcp)
    {
        for (const auto& r : tcp->GetResults())
        {
            record.tcpDelivered += r.bytes;
        }
    }
    for (const Ptr<RoceNic>& nic : nics)
    {
        if (Ptr<RoceHostPath> path = nic->GetHostPath())
        {
            ++record.hostPaths;
            record.fastSent += path->GetFastSent();
            record.fastReceived += path->GetFastReceived();
            record.slow += path->GetSlowPath();
        }
    }
    record.pauses += ClosFabricPausesSent(fabric);
    record.marks += ClosFabricQueueDiscMarks(fabric);
    Simulator::Destroy();
    GlobalValue::Bind("ChecksumEnabled", BooleanValue(false));
    std::printf("hostFastPath=%d stream=%lld pfc=%d checksums=%d ttl=%u dscp=%u flap=%d tcp=%u "
                "qps=%u: "
                "%llu frames, digest %016llx, %llu marks, %llu pauses, rdma %llu B, tcp %llu B, "
                "fast sent %llu, fast received %llu, slow %llu\n",
                o.hostFastPath,
                static_cast<long long>(o.stream),
                o.pfc,
                o.checksums,
                unsigned{o.ttl},
                unsigned{o.dataDscp},
                o.flapReceiver,
                o.tcpFlowBytes,
                o.qpsPerSender,
                static_cast<unsigned long long>(record.frames),
                static_cast<unsigned long long>(record.digest),
                static_cast<unsigned long long>(record.marks),
                static_cast<unsigned long long>(record.pauses),
                static_cast<unsigned long long>(record.rdmaDelivered),
                static_cast<unsigned long long>(record.tcpDelivered),
                static_cast<unsigned long long>(record.fastSent),
                static_cast<unsigned long long>(record.fastReceived),
                static_cast<unsigned long long>(record.slow));
    return record;
}

/// One datagram a GPU sent: its IPv4 identification and destination.
struct SentDatagram
{
    uint16_t id;             //!< IPv4 identification
    Ipv4Address destination; //!< IPv4 destination
};

/// PhyTxBegin sink: the IPv4 identification and destination of a frame.
void
RecordDatagram(std::vector<SentDatagram>* sent, Ptr<const Packet> frame)
{
    Ptr<Packet> copy = frame->Copy();
    PppHeader ppp;
    copy->RemoveHeader(ppp);
    Ipv4Header ip;
    copy->RemoveHeader(ip);
    sent->push_back({ip.GetIdentification(), ip.GetDestination()});
}

/**
 * GPU 1 of a 4-GPU fabric (2 leaves, 2 servers each) opens two QPs and sends 40000 bytes on
 * each: both to GPU 0, or (control) one to GPU 0 and one to GPU 2.
 * \param hostFastPath RoceNic::HostFastPath
 * \param samePeer both QPs to GPU 0
 * \return the datagrams GPU 1 put on its link, in order
 */
std::vector<SentDatagram>
RunTwoQps(bool hostFastPath, bool samePeer)
{
    Ptr<ClosFabricHelper> helper = CreateObject<ClosFabricHelper>();
    helper->SetAttribute("Leaves", UintegerValue(2));
    helper->SetAttribute("ServersPerLeaf", UintegerValue(2));
    helper->SetAttribute("GpusPerServer", UintegerValue(1));
    helper->SetAttribute("Spines", UintegerValue(2));
    Ptr<ClosFabric> fabric = helper->Install();
    helper->AssignStreams(fabric, 1);
    std::vector<SentDatagram> sent;
    for (const ClusterLink& l : fabric->GetLinks())
    {
        if (l.kind == ClusterLink::GPU_TO_LEAF && l.from == 1)
        {
            l.device->TraceConnectWithoutContext("PhyTxBegin",
                                                 MakeBoundCallback(&RecordDatagram, &sent));
        }
    }
    RoceHelper rdma;
    rdma.SetNicAttribute("HostFastPath", BooleanValue(hostFastPath));
    std::vector<Ptr<RoceNic>> nics = rdma.Install(fabric->GetGpus());
    nics[1]->Connect(fabric->GetGpuAddress(0))->Send(40000);
    nics[1]->Connect(fabric->GetGpuAddress(samePeer ? 0 : 2))->Send(40000);
    Simulator::Stop(MilliSeconds(5));
    Simulator::Run();
    Simulator::Destroy();
    std::printf("two QPs, hostFastPath=%d samePeer=%d: identifications", hostFastPath, samePeer);
    for (const SentDatagram& d : sent)
    {
        std::printf(" %u", unsigned{d.id});
    }
    std::printf("\n");
    return sent;
}

/// The incast: 7 senders x 300000 bytes.
constexpr uint64_t INCAST_BYTES = 7 * 300000;

} // namespace

/// Host fast path and ns-3's UDP and IPv4 path: byte-identical frames on every link.
class RoceHostPathCrossCheckTestCase : public TestCase
{
  public:
    /**
     * \param base the run (hostFastPath is set by the test)
     * \param name its label
     * \param control a change of the base run that must change the digest
     * \param controlName the control's label
     */
    RoceHostPathCrossCheckTestCase(const Options& base,
                                   const std::string& name,
                                   const Options& control,
                                   const std::string& controlName)
        : TestCase("host fast path and ns-3's UDP and IPv4 path send the same frames at the same "
                   "times: " +
                   name + "; control: " + controlName + " changes them"),
          m_base(base),
          m_control(control)
    {
    }

  private:
    void DoRun() override
    {
        Options on = m_base;
        on.hostFastPath = true;
        Options off = m_base;
        off.hostFastPath = false;
        const WireRecord fast = RunScenario(on);
        const WireRecord old = RunScenario(off);
        NS_TEST_EXPECT_MSG_EQ(fast.hostPaths, 8, "every NIC has a host path");
        NS_TEST_EXPECT_MSG_EQ(old.hostPaths, 0, "HostFastPath=false creates none");
        // Every data packet of the incast is 4096 payload bytes or less: at least 7 x 74
        // packets were sent and received on the fast path (more: ACKs, CNPs, resends).
        NS_TEST_EXPECT_MSG_GT(fast.fastSent, 7 * 74, "the NICs sent on the fast path");
        NS_TEST_EXPECT_MSG_GT(fast.fastReceived, 7 * 74, "the NICs received on the fast path");
        NS_TEST_EXPECT_MSG_GT(fast.marks, 0, "the queues marked ECN");
        NS_TEST_EXPECT_MSG_EQ(fast.frames, old.frames, "same frame count");
        NS_TEST_EXPECT_MSG_EQ(fast.digest, old.digest, "same frames, same times, same links");
        NS_TEST_EXPECT_MSG_EQ(fast.marks, old.marks, "same ECN marks");
        NS_TEST_EXPECT_MSG_EQ(fast.pauses, old.pauses, "same PFC pauses");
        NS_TEST_EXPECT_MSG_EQ(fast.rdmaDelivered, INCAST_BYTES, "the incast completed");
        NS_TEST_EXPECT_MSG_EQ(old.rdmaDelivered, INCAST_BYTES, "the incast completed (old)");
        NS_TEST_EXPECT_MSG_EQ(fast.tcpDelivered, old.tcpDelivered, "same TCP bytes");
        if (m_base.pfc)
        {
            NS_TEST_EXPECT_MSG_GT(fast.pauses, 0, "PFC paused");
        }
        if (m_base.flapReceiver)
        {
            NS_TEST_EXPECT_MSG_GT(fast.slow, 0, "the down interface's packets took the old path");
        }
        if (m_base.tcpFlowBytes > 0)
        {
            // LeafShift: one flow per GPU (8), each FlowBytes.
            NS_TEST_EXPECT_MSG_EQ(fast.tcpDelivered,
                                  8ull * m_base.tcpFlowBytes,
                                  "every TCP flow completed beside the fast path");
            // TCP segments of up to 9000 bytes (the fabric's MTU): at least 1600000 / 9000
            // data packets went to the stack.
            NS_TEST_EXPECT_MSG_GT(fast.slow,
                                  8 * m_base.tcpFlowBytes / 9000,
                                  "TCP went to the stack");
        }
        const WireRecord other = RunScenario(m_control);
        NS_TEST_EXPECT_MSG_NE(other.digest, fast.digest, "control: the digest sees the change");
    }

    Options m_base;    //!< the run
    Options m_control; //!< the control run
};

/// Two QPs between one pair of addresses share the pair's IPv4 identification counter.
class RoceHostPathIdentificationTestCase : public TestCase
{
  public:
    RoceHostPathIdentificationTestCase()
        : TestCase("two QPs between the same two addresses number their datagrams 0, 1, 2, ... "
                   "from one counter, as ns-3's UDP and IPv4 path does; control: QPs to two "
                   "peers, two counters")
    {
    }

  private:
    /// \return true when the identifications are 0, 1, 2, ... in sending order
    static bool Consecutive(const std::vector<SentDatagram>& sent)
    {
        for (std::size_t i = 0; i < sent.size(); ++i)
        {
            if (sent[i].id != i)
            {
                return false;
            }
        }
        return true;
    }

    void DoRun() override
    {
        const std::vector<SentDatagram> fast = RunTwoQps(true, true);
        const std::vector<SentDatagram> old = RunTwoQps(false, true);
        // 2 x 40000 bytes in 4096-byte packets: 2 x 10 data packets at least.
        NS_TEST_ASSERT_MSG_GT_OR_EQ(fast.size(), 20, "both QPs sent");
        NS_TEST_EXPECT_MSG_EQ(Consecutive(fast), true, "one counter for the pair");
        NS_TEST_ASSERT_MSG_EQ(old.size(), fast.size(), "old path: as many datagrams");
        for (std::size_t i = 0; i < fast.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(fast[i].id, old[i].id, "identification as ns-3's, " << i);
        }
        // Control: to two peers, two counters; the same check fails, on both paths.
        const std::vector<SentDatagram> split = RunTwoQps(true, false);
        const std::vector<SentDatagram> splitOld = RunTwoQps(false, false);
        NS_TEST_EXPECT_MSG_EQ(Consecutive(split), false, "control: two counters");
        NS_TEST_EXPECT_MSG_EQ(Consecutive(splitOld), false, "control: two counters (old path)");
        NS_TEST_ASSERT_MSG_EQ(splitOld.size(), split.size(), "control: as many datagrams");
        for (std::size_t i = 0; i < split.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(split[i].id, splitOld[i].id, "control: as ns-3's, " << i);
        }
    }
};

/// The host fast-path test suite.
class RoceRdmaHostPathTestSuite : public TestSuite
{
  public:
    RoceRdmaHostPathTestSuite()
        : TestSuite("roce-host-path", UNIT)
    {
        Options base;
        Options seed = base;
        seed.stream = 7;
        AddTestCase(new RoceHostPathCrossCheckTestCase(base,
                                                       "RDMA incast with DCQCN over RED",
                                                       seed,
                                                       "another random stream"),
                    TestCase::QUICK);
        Options dscp = base;
        dscp.dataDscp = 27;
        AddTestCase(new RoceHostPathCrossCheckTestCase(base,
                                                       "RDMA incast with DCQCN over RED",
                                                       dscp,
                                                       "DataDscp 27 (TOS byte)"),
                    TestCase::QUICK);
        Options checksums = base;
        checksums.checksums = true;
        AddTestCase(new RoceHostPathCrossCheckTestCase(checksums,
                                                       "with IPv4 and UDP checksums",
                                                       base,
                                                       "checksums off"),
                    TestCase::QUICK);
        Options ttl = base;
        ttl.ttl = 32;
        AddTestCase(
            new RoceHostPathCrossCheckTestCase(ttl, "hosts' DefaultTtl 32", base, "DefaultTtl 64"),
            TestCase::QUICK);
        Options pfc = base;
        pfc.pfc = true;
        Options pfcSeed = pfc;
        pfcSeed.stream = 7;
        AddTestCase(new RoceHostPathCrossCheckTestCase(pfc,
                                                       "RDMA incast on PFC links",
                                                       pfcSeed,
                                                       "another random stream"),
                    TestCase::QUICK);
        Options flap = base;
        flap.flapReceiver = true;
        AddTestCase(new RoceHostPathCrossCheckTestCase(flap,
                                                       "receiver's interface down and up",
                                                       base,
                                                       "no interface change"),
                    TestCase::QUICK);
        // Two QPs between each pair of addresses share one IPv4 identification counter (as
        // Ipv4L3Protocol's, per source, destination and protocol): on their own, and in the
        // incast.
        AddTestCase(new RoceHostPathIdentificationTestCase(), TestCase::QUICK);
        Options qps = base;
        qps.qpsPerSender = 2;
        AddTestCase(new RoceHostPathCrossCheckTestCase(qps,
                                                       "two QPs per sender",
                                                       base,
                                                       "one QP per sender"),
                    TestCase::QUICK);
        Options tcp = base;
        tcp.tcpFlowBytes = 200000;
        Options tcpSeed = tcp;
        tcpSeed.stream = 7;
        AddTestCase(new RoceHostPathCrossCheckTestCase(tcp,
                                                       "TCP flows on the same hosts",
                                                       tcpSeed,
                                                       "another random stream"),
                    TestCase::QUICK);
    }
};

/// The suite's instance.
static RoceRdmaHostPathTestSuite g_vclosRdmaHostPathTestSuite;

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The switch fast path (ClosSwitchForwarder, ClosFabricHelper::SwitchFastPath) against
// ns-3's IPv4 forwarding path: the same seed puts byte-identical frames on every link at the
// same times (TCP over RED with ECN marks, RDMA with DCQCN, RDMA on PFC links with pauses,
// a spine port going down and up mid-run); another salt stream changes them (the control:
// the comparison sees a different path choice). TTL: frames leave the spines with 64 - 2,
// and a packet whose TTL runs out at a spine is dropped there by the old path (ICMP time
// exceeded), as with the fast path off; a TTL one higher passes the spine (the control).
// Lean links (LeanLinkNetDevice) against PointToPointNetDevice: the same harness, see below.
// Tests: clos-switch-forwarder, lean-link-net-device

#include "clos/clos-wire-digest.h"

#include "ns3/boolean.h"
#include "ns3/clos-fabric-helper.h"
#include "ns3/clos-fabric.h"
#include "ns3/clos-switch-forwarder.h"
#include "ns3/collective-permutation-helper.h"
#include "ns3/data-rate.h"
#include "ns3/inet-socket-address.h"
#include "ns3/ipv4-l3-protocol.h"
#include "ns3/nstime.h"
#include "ns3/pfc-net-device.h"
#include "ns3/pfc-switch-buffer.h"
#include "ns3/queue-disc.h"
#include "ns3/roce-helper.h"
#include "ns3/roce-nic.h"
#include "ns3/roce-qp.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/traffic-control-layer.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/uinteger.h"

#include <cstdio>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// The traffic of a cross-check run.
enum class Scenario
{
    TCP_RED,    //!< TCP permutation over one spine (RED marks ECN), a port down and up
    RDMA_DCQCN, //!< RDMA 7:1 incast, DCQCN, p2p links with RED
    RDMA_PFC,   //!< RDMA 7:1 incast on LinkLayer=pfc (pauses, ECN at the PFC devices)
    TCP_ONE,    //!< one TCP flow, 10 Gb/s leaf-spine links (RED marks ECN), ports down and up
    RDMA_ONE    //!< one RDMA QP with DCQCN, 10 Gb/s leaf-spine links (RED marks ECN)
};

/// What a run put on the wire.
struct WireRecord : ClosWireDigest
{
    uint64_t marks = 0;               //!< ECN marks (RED queue discs, PFC devices)
    uint64_t pauses = 0;              //!< PFC pause frames the switches sent
    uint64_t fast = 0;                //!< packets the switch fast path forwarded
    uint64_t slow = 0;                //!< packets the forwarders handed to IPv4
    uint32_t forwarders = 0;          //!< switches with a ClosSwitchForwarder
    uint32_t switches = 0;            //!< leaves and spines
    uint64_t delivered = 0;           //!< bytes delivered to the applications
    std::vector<uint64_t> linkDigest; //!< per link: FNV-1a of (time, frame bytes)
    std::vector<Time> linkFree;       //!< per p2p link: end of its last frame
    std::vector<DataRate> linkRate;   //!< per p2p link: its line rate
    uint64_t overlaps = 0;            //!< frames started before the last one ended
    uint64_t events = 0;              //!< simulator events executed

    /// \return one digest of the per-link digests, in link order: frames, times and links,
    ///         but not the order of frames on different links at one instant
    uint64_t LinkDigest() const
    {
        uint64_t d = CLOS_FNV1A_BASIS;
        for (uint64_t l : linkDigest)
        {
            ClosFnv1a(d, &l, sizeof(l));
        }
        return d;
    }
};

/// Sniffer sink: every frame a link's sending device puts on the wire.
void
RecordFrame(WireRecord* record, uint32_t link, Ptr<const Packet> frame)
{
    const std::vector<uint8_t> bytes = record->Record(link, frame);
    const int64_t t = Simulator::Now().GetTimeStep();
    uint64_t& d = record->linkDigest[link];
    ClosFnv1a(d, &t, sizeof(t));
    ClosFnv1a(d, bytes.data(), bytes.size());
    if (link < record->linkRate.size() && record->linkRate[link].GetBitRate() > 0)
    {
        // A p2p frame (PPP header included) occupies the wire for its size at the line rate.
        record->overlaps += Simulator::Now() < record->linkFree[link];
        record->linkFree[link] =
            Simulator::Now() + record->linkRate[link].CalculateBytesTxTime(frame->GetSize());
    }
}

/**
 * \param scenario the traffic
 * \param fastPath ClosFabricHelper::SwitchFastPath
 * \param stream the first random stream (salts, RED, NICs)
 * \param lean ClosFabricHelper::LeanLinks
 * \param fabricDelay ClosFabricHelper::FabricDelay (zero: the default)
 * \return what the run put on the wire
 */
WireRecord
RunScenario(Scenario scenario,
            bool fastPath,
            int64_t stream,
            bool lean = true,
            Time fabricDelay = Time(0))
{
    Ptr<ClosFabricHelper> helper = CreateObject<ClosFabricHelper>();
    helper->SetAttribute("SwitchFastPath", BooleanValue(fastPath));
    helper->SetAttribute("LeanLinks", BooleanValue(lean));
    if (!fabricDelay.IsZero())
    {
        helper->SetAttribute("FabricDelay", TimeValue(fabricDelay));
    }
    helper->SetAttribute("Leaves", UintegerValue(2));
    helper->SetAttribute("ServersPerLeaf", UintegerValue(4));
    helper->SetAttribute("GpusPerServer", UintegerValue(1));
    const bool one = scenario == Scenario::TCP_ONE || scenario == Scenario::RDMA_ONE;
    if (one)
    {
        // A single flow: no two frames meet at one node at one instant (see the lean case).
        helper->SetAttribute("Spines", UintegerValue(2));
        helper->SetAttribute("FabricDataRate", StringValue("10Gbps"));
        helper->SetAttribute("EcnThreshold", StringValue("20KB"));
    }
    else if (scenario == Scenario::TCP_RED)
    {
        helper->SetAttribute("Spines", UintegerValue(2)); // 4 flows per leaf over 2 uplinks
        helper->SetAttribute("EcnThreshold", StringValue("20KB"));
    }
    else
    {
        helper->SetAttribute("Spines", UintegerValue(4));
        helper->SetAttribute("EcnThreshold", StringValue("20KB"));
    }
    if (scenario == Scenario::RDMA_PFC)
    {
        helper->SetAttribute("LinkLayer", StringValue("pfc"));
        helper->SetPfcBufferAttribute("BufferSize", UintegerValue(600000));
        helper->SetPfcDeviceAttribute("EcnEnabled", BooleanValue(true));
        helper->SetPfcDeviceAttribute("EcnKmin", UintegerValue(20000));
        helper->SetPfcDeviceAttribute("EcnKmax", UintegerValue(80000));
    }
    Ptr<ClosFabric> fabric = helper->Install();
    helper->AssignStreams(fabric, stream);

    WireRecord record;
    const auto& links = fabric->GetLinks();
    record.linkDigest.assign(links.size(), CLOS_FNV1A_BASIS);
    record.linkFree.assign(links.size(), Time(0));
    record.linkRate.assign(links.size(), DataRate(0));
    for (uint32_t id = 0; id < links.size(); ++id)
    {
        if (!DynamicCast<PfcNetDevice>(links[id].device))
        {
            DataRateValue rate;
            links[id].device->GetAttribute("DataRate", rate);
            record.linkRate[id] = rate.Get();
        }
        // PhyTxBegin: data packets (p2p: with the PPP header; pfc: the IPv4 packet) and PFC
        // frames as they start on the wire; their bytes carry TTL, ECN and checksum fields.
        links[id].device->TraceConnectWithoutContext("PhyTxBegin",
                                                     MakeBoundCallback(&RecordFrame, &record, id));
        if (auto pfc = DynamicCast<PfcNetDevice>(links[id].device))
        {
            pfc->TraceConnectWithoutContext("EcnMark",
                                            Callback<void, Ptr<const Packet>>(
                                                [&record](Ptr<const Packet>) { ++record.marks; }));
        }
    }

    if (scenario == Scenario::TCP_RED || scenario == Scenario::TCP_ONE)
    {
        std::vector<CollectivePermutationHelper::Pair> pairs =
            CollectivePermutationHelper::LeafShift(fabric, 1);
        if (scenario == Scenario::TCP_ONE)
        {
            pairs = {{0, 4}};
        }
        Ptr<CollectivePermutationHelper> traffic = CreateObject<CollectivePermutationHelper>();
        traffic->SetAttribute("FlowBytes",
                              UintegerValue(scenario == Scenario::TCP_ONE ? 4000000 : 400000));
        traffic->Install(fabric, pairs);
        // Every spine's port to leaf 1 goes down at 30 us and up at 60 us: packets routed to
        // it meanwhile are dropped, and packets arriving on it too, on either path.
        for (const ClusterLink& l : links)
        {
            if (l.kind == ClusterLink::SPINE_TO_LEAF && l.to == 1)
            {
                Ptr<Ipv4> spine = l.device->GetNode()->GetObject<Ipv4>();
                const uint32_t itf = spine->GetInterfaceForDevice(l.device);
                Simulator::Schedule(MicroSeconds(30), [spine, itf]() { spine->SetDown(itf); });
                Simulator::Schedule(MicroSeconds(60), [spine, itf]() { spine->SetUp(itf); });
            }
        }
        Simulator::Stop(MilliSeconds(20));
        Simulator::Run();
        for (const auto& r : traffic->GetResults())
        {
            record.delivered += r.bytes;
        }
    }
    else
    {
        RoceHelper rdma;
        rdma.SetNicAttribute("AckTimeout", StringValue("1ms"));
        if (scenario == Scenario::RDMA_DCQCN || scenario == Scenario::RDMA_ONE)
        {
            rdma.SetNicAttribute("RateControl", StringValue("ns3::Dcqcn"));
        }
        std::vector<Ptr<RoceNic>> nics = rdma.Install(fabric->GetGpus());
        nics[0]->SetAcceptCallback(
            Callback<void, Ptr<RoceQp>, Ipv4Address>([&record](Ptr<RoceQp> qp, Ipv4Address) {
                qp->SetDataCallback(Callback<void, Ptr<RoceQp>, uint32_t>(
                    [&record](Ptr<RoceQp>, uint32_t bytes) { record.delivered += bytes; }));
            }));
        for (uint32_t g = 1; g < fabric->GetGpuCount(); ++g)
        {
            if (scenario == Scenario::RDMA_ONE && g != 5)
            {
                continue; // one QP, from the other leaf
            }
            nics[g]
                ->Connect(fabric->GetGpuAddress(0))
                ->Send(scenario == Scenario::RDMA_ONE ? 3000000 : 300000);
        }
        Simulator::Stop(MilliSeconds(20));
        Simulator::Run();
    }

    for (const NodeContainer* set : {&fabric->GetLeaves(), &fabric->GetSpines()})
    {
        for (uint32_t i = 0; i < set->GetN(); ++i)
        {
            Ptr<Node> node = set->Get(i);
            ++record.switches;
            if (Ptr<ClosSwitchForwarder> f = node->GetObject<ClosSwitchForwarder>())
            {
                ++record.forwarders;
                record.fast += f->GetFastForwarded();
                record.slow += f->GetSlowPath();
            }
        }
    }
    record.pauses += ClosFabricPausesSent(fabric);
    record.marks += ClosFabricQueueDiscMarks(fabric);
    record.events = Simulator::GetEventCount();
    Simulator::Destroy();
    std::printf("scenario %d fastPath=%d lean=%d stream=%lld delay=%lld ns: %llu frames, digest "
                "%016llx, link digest %016llx, %llu overlaps, %llu events, %llu marks, "
                "%llu pauses, %llu B delivered, fast %llu, slow %llu\n",
                static_cast<int>(scenario),
                fastPath,
                lean,
                static_cast<long long>(stream),
                static_cast<long long>(fabricDelay.GetNanoSeconds()),
                static_cast<unsigned long long>(record.frames),
                static_cast<unsigned long long>(record.digest),
                static_cast<unsigned long long>(record.LinkDigest()),
                static_cast<unsigned long long>(record.overlaps),
                static_cast<unsigned long long>(record.events),
                static_cast<unsigned long long>(record.marks),
                static_cast<unsigned long long>(record.pauses),
                static_cast<unsigned long long>(record.delivered),
                static_cast<unsigned long long>(record.fast),
                static_cast<unsigned long long>(record.slow));
    return record;
}

} // namespace

/// Fast path and old path: byte-identical frames on every link at the same times.
class ClosFastPathCrossCheckTestCase : public TestCase
{
  public:
    /**
     * \param scenario the traffic
     * \param name its label
     */
    ClosFastPathCrossCheckTestCase(Scenario scenario, const std::string& name)
        : TestCase("fast path and ns-3's IPv4 path send the same frames at the same times: " +
                   name + "; another salt stream does not (control)"),
          m_scenario(scenario)
    {
    }

  private:
    void DoRun() override
    {
        const WireRecord fast = RunScenario(m_scenario, true, 1);
        const WireRecord old = RunScenario(m_scenario, false, 1);
        NS_TEST_EXPECT_MSG_EQ(fast.forwarders,
                              fast.switches,
                              "every leaf and spine has a forwarder");
        NS_TEST_EXPECT_MSG_EQ(old.forwarders, 0, "SwitchFastPath=false installs none");
        NS_TEST_EXPECT_MSG_GT(fast.fast, 1000, "the fast path forwarded the traffic");
        NS_TEST_EXPECT_MSG_GT(fast.frames, 1000, "traffic crossed the fabric");
        NS_TEST_EXPECT_MSG_GT(fast.marks, 0, "the queues marked ECN");
        NS_TEST_EXPECT_MSG_EQ(fast.frames, old.frames, "same frame count");
        NS_TEST_EXPECT_MSG_EQ(fast.digest, old.digest, "same frames, same times, same links");
        NS_TEST_EXPECT_MSG_EQ(fast.marks, old.marks, "same ECN marks");
        NS_TEST_EXPECT_MSG_EQ(fast.pauses, old.pauses, "same PFC pauses");
        NS_TEST_EXPECT_MSG_EQ(fast.delivered, old.delivered, "same bytes delivered");
        if (m_scenario == Scenario::RDMA_PFC)
        {
            NS_TEST_EXPECT_MSG_GT(fast.pauses, 0, "PFC paused");
        }
        if (m_scenario == Scenario::TCP_RED)
        {
            NS_TEST_EXPECT_MSG_GT(fast.slow, 0, "the down port's packets took the old path");
        }
        // Control: the same check on a run with other salts (other ECMP choices) fails.
        const WireRecord other = RunScenario(m_scenario, true, 7);
        NS_TEST_EXPECT_MSG_NE(other.digest, fast.digest, "control: other salts, other frames");
    }

    Scenario m_scenario; //!< the traffic
};

/// Lean links (LeanLinkNetDevice) and ns-3's PointToPointNetDevice, same fabric, traffic
/// and seed. Exact scenarios (one flow, and the RDMA incast): byte-identical frames at
/// identical times on every link. The TCP permutation: the same traffic and outcome, but not
/// the same frames (a frame that starts at
/// the instant the previous one ends is started from another event than ns-3's
/// TransmitComplete, so frames arriving at one node at one instant can be taken in another
/// order; doc/lean-link/lean-link.rst, "Device and channel"). Both: fewer events, never two frames
/// on a link at once.
class ClosLeanLinkCrossCheckTestCase : public TestCase
{
  public:
    /**
     * \param scenario the traffic (p2p links only)
     * \param name its label
     * \param exact whether the frames must be byte-identical
     */
    ClosLeanLinkCrossCheckTestCase(Scenario scenario, const std::string& name, bool exact)
        : TestCase(std::string(exact ? "lean links and PointToPointNetDevice send the same "
                                       "frames at the same times on every link"
                                     : "lean links and PointToPointNetDevice carry the same "
                                       "traffic to the same end") +
                   ", with fewer events: " + name +
                   (exact ? "; another seed or fabric delay does not (control)" : "")),
          m_scenario(scenario),
          m_exact(exact)
    {
    }

  private:
    void DoRun() override
    {
        const WireRecord lean = RunScenario(m_scenario, true, 1, true);
        const WireRecord p2p = RunScenario(m_scenario, true, 1, false);
        NS_TEST_EXPECT_MSG_GT(lean.frames, 1000, "traffic crossed the fabric");
        NS_TEST_EXPECT_MSG_GT(lean.marks, 0, "the queues marked ECN");
        NS_TEST_EXPECT_MSG_EQ(p2p.overlaps, 0, "p2p: one frame at a time on each link");
        NS_TEST_EXPECT_MSG_EQ(lean.overlaps, 0, "lean: one frame at a time on each link");
        NS_TEST_EXPECT_MSG_EQ(lean.delivered, p2p.delivered, "same bytes delivered");
        std::printf("events: lean %llu, p2p %llu (%.2fx)\n",
                    static_cast<unsigned long long>(lean.events),
                    static_cast<unsigned long long>(p2p.events),
                    static_cast<double>(p2p.events) / static_cast<double>(lean.events));
        NS_TEST_EXPECT_MSG_LT(lean.events, p2p.events, "lean links use fewer events");
        if (!m_exact)
        {
            // Same load on the wire, to a few percent.
            NS_TEST_EXPECT_MSG_EQ_TOL(static_cast<double>(lean.frames),
                                      static_cast<double>(p2p.frames),
                                      0.05 * p2p.frames,
                                      "frames within 5%");
            return;
        }
        NS_TEST_EXPECT_MSG_EQ(lean.frames, p2p.frames, "same frame count");
        NS_TEST_EXPECT_MSG_EQ(lean.LinkDigest(), p2p.LinkDigest(), "same frames, times, links");
        std::printf("frames at one instant on different links in the same order: %s\n",
                    lean.digest == p2p.digest ? "yes" : "no");
        NS_TEST_EXPECT_MSG_EQ(lean.marks, p2p.marks, "same ECN marks");
        // Controls: the same comparison against another seed, or another fabric delay, fails.
        const WireRecord seed = RunScenario(m_scenario, true, 7, true);
        NS_TEST_EXPECT_MSG_NE(seed.LinkDigest(), p2p.LinkDigest(), "control: other seed");
        const WireRecord delay = RunScenario(m_scenario, true, 1, true, NanoSeconds(1001));
        NS_TEST_EXPECT_MSG_NE(delay.LinkDigest(), p2p.LinkDigest(), "control: other delay");
    }

    Scenario m_scenario; //!< the traffic
    bool m_exact;        //!< frames must be byte-identical
};

/// TTL on the wire and TTL expiry at a spine.
class ClosFastPathTtlTestCase : public TestCase
{
  public:
    ClosFastPathTtlTestCase()
        : TestCase("fast path: spines send TTL 64 - 2; a TTL of 2 expires at the spine through "
                   "the old path, 3 passes it (control)")
    {
    }

  private:
    /**
     * \param ttl the TTL of the UDP packets GPU 0 sends to GPU 4 (other leaf)
     * \param[out] spineTtls TTLs of the IPv4 packets spines sent
     * \param[out] received packets GPU 4 received
     * \return TTL-expired drops at the spines
     */
    uint32_t Run(uint8_t ttl, std::vector<uint32_t>& spineTtls, uint32_t& received)
    {
        Ptr<ClosFabricHelper> helper = CreateObject<ClosFabricHelper>();
        helper->SetAttribute("Leaves", UintegerValue(2));
        helper->SetAttribute("ServersPerLeaf", UintegerValue(4));
        helper->SetAttribute("GpusPerServer", UintegerValue(1));
        Ptr<ClosFabric> f = helper->Install();
        uint32_t expired = 0;
        for (uint32_t s = 0; s < f->GetSpineCount(); ++s)
        {
            f->GetSpines().Get(s)->GetObject<Ipv4L3Protocol>()->TraceConnectWithoutContext(
                "Drop",
                Callback<void,
                         const Ipv4Header&,
                         Ptr<const Packet>,
                         Ipv4L3Protocol::DropReason,
                         Ptr<Ipv4>,
                         uint32_t>([&expired](const Ipv4Header&,
                                              Ptr<const Packet>,
                                              Ipv4L3Protocol::DropReason reason,
                                              Ptr<Ipv4>,
                                              uint32_t) {
                    expired += reason == Ipv4L3Protocol::DROP_TTL_EXPIRED;
                }));
        }
        for (const ClusterLink& l : f->GetLinks())
        {
            if (l.kind != ClusterLink::SPINE_TO_LEAF)
            {
                continue;
            }
            // p2p PhyTxBegin: PPP header (2 bytes), then IPv4 (TTL at byte 8, protocol at 9).
            l.device->TraceConnectWithoutContext(
                "PhyTxBegin",
                Callback<void, Ptr<const Packet>>([&spineTtls](Ptr<const Packet> p) {
                    uint8_t bytes[12];
                    p->CopyData(bytes, sizeof(bytes));
                    if (bytes[2 + 9] == 17) // UDP (not the ICMP error)
                    {
                        spineTtls.push_back(bytes[2 + 8]);
                    }
                }));
        }
        received = 0;
        Ptr<Socket> rx = Socket::CreateSocket(f->GetGpus().Get(4), UdpSocketFactory::GetTypeId());
        rx->Bind(InetSocketAddress(Ipv4Address::GetAny(), 9));
        rx->SetRecvCallback(Callback<void, Ptr<Socket>>([&received](Ptr<Socket> s) {
            while (s->Recv())
            {
                ++received;
            }
        }));
        Ptr<Socket> tx = Socket::CreateSocket(f->GetGpus().Get(0), UdpSocketFactory::GetTypeId());
        tx->SetIpTtl(ttl);
        const Ipv4Address to = f->GetGpuAddress(4);
        for (uint32_t i = 0; i < 5; ++i)
        {
            Simulator::Schedule(MicroSeconds(1 + i), [tx, to, i]() {
                tx->SendTo(Create<Packet>(100 + i), 0, InetSocketAddress(to, 9));
            });
        }
        Simulator::Run();
        Simulator::Destroy();
        return expired;
    }

    void DoRun() override
    {
        std::vector<uint32_t> ttls;
        uint32_t received = 0;
        NS_TEST_EXPECT_MSG_EQ(Run(64, ttls, received), 0, "no TTL drop at 64");
        NS_TEST_EXPECT_MSG_EQ(received, 5, "all arrive");
        NS_TEST_ASSERT_MSG_EQ(ttls.size(), 5, "each crossed one spine");
        for (uint32_t t : ttls)
        {
            NS_TEST_EXPECT_MSG_EQ(t, 62, "leaf and spine each took one");
        }
        ttls.clear();
        NS_TEST_EXPECT_MSG_EQ(Run(2, ttls, received), 5, "TTL 2 expires at the spine");
        NS_TEST_EXPECT_MSG_EQ(received, 0, "none arrives");
        NS_TEST_EXPECT_MSG_EQ(ttls.size(), 0, "no UDP leaves a spine");
        ttls.clear();
        NS_TEST_EXPECT_MSG_EQ(Run(3, ttls, received), 0, "control: TTL 3 passes the spine");
        NS_TEST_EXPECT_MSG_EQ(ttls.size(), 5, "control: each leaves a spine");
        for (uint32_t t : ttls)
        {
            NS_TEST_EXPECT_MSG_EQ(t, 1, "control: with TTL 1 (it expires at the last leaf)");
        }
        NS_TEST_EXPECT_MSG_EQ(received, 0, "control: none arrives");
    }
};

/// The fast-path test suite.
class ClosFabricFastPathTestSuite : public TestSuite
{
  public:
    ClosFabricFastPathTestSuite()
        : TestSuite("clos-switch-forwarder", UNIT)
    {
        AddTestCase(new ClosFastPathCrossCheckTestCase(Scenario::TCP_RED,
                                                       "TCP over RED, ports down and up"),
                    TestCase::QUICK);
        AddTestCase(
            new ClosFastPathCrossCheckTestCase(Scenario::RDMA_DCQCN, "RDMA incast with DCQCN"),
            TestCase::QUICK);
        AddTestCase(
            new ClosFastPathCrossCheckTestCase(Scenario::RDMA_PFC, "RDMA incast on PFC links"),
            TestCase::QUICK);
        AddTestCase(new ClosFastPathTtlTestCase(), TestCase::QUICK);
        AddTestCase(new ClosLeanLinkCrossCheckTestCase(Scenario::TCP_ONE,
                                                       "one TCP flow over RED, ports down and up",
                                                       true),
                    TestCase::QUICK);
        AddTestCase(
            new ClosLeanLinkCrossCheckTestCase(Scenario::RDMA_ONE, "one RDMA QP with DCQCN", true),
            TestCase::QUICK);
        AddTestCase(new ClosLeanLinkCrossCheckTestCase(Scenario::TCP_RED,
                                                       "TCP over RED, ports down and up",
                                                       false),
                    TestCase::QUICK);
        AddTestCase(new ClosLeanLinkCrossCheckTestCase(Scenario::RDMA_DCQCN,
                                                       "RDMA incast with DCQCN",
                                                       true),
                    TestCase::QUICK);
    }
};

/// The suite's instance.
static ClosFabricFastPathTestSuite g_vclosFabricFastPathTestSuite;

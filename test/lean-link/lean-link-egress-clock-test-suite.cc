/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// LeanLinkNetDevice with Egress=Clock (each frame given its start time on arrival, no device
// queue) and the fabric's Egress=clock ports, against hand values and against Egress=Queue:
// - on one cable, frames start and arrive at the same times as Egress=Queue (back to back
//   with the gap, idle ones at once), with one event per frame (the receive) instead of a
//   completion per waiting frame; a start-of-frame sink (PhyTxBegin) sees the same times,
//   and PhyTxEnd fires at the frame's end plus the gap (control: another gap changes the
//   arrivals, so the comparison sees them);
// - the backlog is the frames not yet started: a burst into a 5-packet or a 5,010-byte limit
//   loses the frames Egress=Queue with the same device queue loses, and ECT frames are
//   marked CE exactly when more than K bytes wait (controls: Not-ECT frames, marking off, and
//   a second burst after the first has left, which is marked as the first was, not more);
// - on a ramp (Kmin < Kmax) a frame that finds q waiting is marked with probability
//   Pmax (q - Kmin) / (Kmax - Kmin), from the device's stream (control: a lower Pmax falls
//   outside the band);
// - LeanLinkEgressClock alone: release at the start time, limits in bytes and packets;
// - on a fabric, an RDMA 7:1 incast with DCQCN completes with marks and CNPs on clock ports,
//   with fewer events than on queue discs, and tracing every frame (PhyTxBegin sinks, which
//   make the devices schedule each start) changes no frame and no time (control: another
//   seed changes the digest); a TCP permutation completes on clock ports;
// - Egress=clock with LinkLayer=pfc, with LeanLinks=false, with SetQueueDisc and with
//   thresholds in two units is refused with one line.
// Tests: lean-link-egress-clock, lean-link-net-device

#include "clos/clos-wire-digest.h"

#include "ns3/boolean.h"
#include "ns3/clos-fabric-helper.h"
#include "ns3/clos-fabric.h"
#include "ns3/collective-permutation-helper.h"
#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/ipv4-header.h"
#include "ns3/lean-link-egress-clock.h"
#include "ns3/lean-link-helper.h"
#include "ns3/lean-link-net-device.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/ppp-header.h"
#include "ns3/queue-size.h"
#include "ns3/roce-helper.h"
#include "ns3/roce-nic.h"
#include "ns3/roce-qp.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

constexpr uint64_t RATE_BPS = 10000000000ull; //!< 10 Gb/s
constexpr int64_t DELAY_NS = 1000;            //!< propagation delay
constexpr uint32_t PAYLOAD = 1000;            //!< bytes handed to the device (IPv4 header in)
constexpr uint32_t FRAME = PAYLOAD + 2;       //!< on the wire: PPP header added
constexpr int64_t TX_NS = 802;                //!< 1002 B at 10 Gb/s = 801.6 ns, stored as 802

/// How one cable is built and driven.
struct CableOptions
{
    bool clock = true;              //!< Egress=Clock (else Queue)
    int64_t gapNs = 96;             //!< InterframeGap
    std::string maxSize = "100p";   //!< EgressMaxSize (Clock) or the device queue's MaxSize
    bool ecn = false;               //!< Clock: EcnEnabled
    uint64_t k = 0;                 //!< Clock: EcnKmin (and EcnKmax unless kmax is set)
    uint64_t kmax = 0;              //!< Clock: EcnKmax when > 0 (a ramp from k)
    double pmax = 1.0;              //!< Clock: EcnPmax
    int64_t stream = 5;             //!< Clock: the device's random stream
    uint8_t ecnCodepoint = 2;       //!< the frames' IPv4 ECN field (2: ECT(0), 0: Not-ECT)
    bool phyTxBegin = false;        //!< connect a PhyTxBegin sink
    bool phyTxEnd = false;          //!< connect a PhyTxEnd sink
    std::vector<int64_t> sendTimes; //!< when frames are handed to the sender (ns)
};

/// What one run of a cable saw.
struct CableRun
{
    std::vector<int64_t> starts;   //!< PhyTxBegin times at the sender (ns)
    std::vector<int64_t> ends;     //!< PhyTxEnd times at the sender (ns)
    std::vector<int64_t> arrivals; //!< receive-callback times at the peer (ns)
    std::vector<uint8_t> ecn;      //!< the ECN field of each frame received
    uint32_t drops = 0;            //!< MacTxDrop at the sender
    uint64_t marks = 0;            //!< EcnMark at the sender
    uint64_t events = 0;           //!< simulator events executed
};

/// \return an IPv4 packet of PAYLOAD bytes with ECN field \p ecn
Ptr<Packet>
MakeIpv4Packet(uint8_t ecn)
{
    Ptr<Packet> p = Create<Packet>(PAYLOAD - 20);
    Ipv4Header h;
    h.SetSource(Ipv4Address("198.18.0.1"));
    h.SetDestination(Ipv4Address("198.18.0.2"));
    h.SetProtocol(17);
    h.SetPayloadSize(PAYLOAD - 20);
    h.SetEcn(static_cast<Ipv4Header::EcnType>(ecn));
    p->AddHeader(h);
    return p;
}

CableRun
RunCable(const CableOptions& o)
{
    Ptr<Node> a = CreateObject<Node>();
    Ptr<Node> b = CreateObject<Node>();
    LeanLinkHelper h;
    h.SetDeviceAttribute("DataRate", DataRateValue(DataRate(RATE_BPS)));
    h.SetDeviceAttribute("InterframeGap", TimeValue(NanoSeconds(o.gapNs)));
    h.SetChannelAttribute("Delay", TimeValue(NanoSeconds(DELAY_NS)));
    if (o.clock)
    {
        h.SetDeviceAttribute("Egress", StringValue("Clock"));
        h.SetDeviceAttribute("EgressMaxSize", StringValue(o.maxSize));
        h.SetDeviceAttribute("EcnEnabled", BooleanValue(o.ecn));
        h.SetDeviceAttribute("EcnKmin", UintegerValue(o.k));
        h.SetDeviceAttribute("EcnKmax", UintegerValue(o.kmax > 0 ? o.kmax : o.k));
        h.SetDeviceAttribute("EcnPmax", DoubleValue(o.pmax));
    }
    else
    {
        h.SetQueue("ns3::DropTailQueue", "MaxSize", StringValue(o.maxSize));
    }
    NetDeviceContainer devices = h.Install(a, b);
    CableRun run;
    CableRun* r = &run;
    Ptr<NetDevice> sender = devices.Get(0);
    if (o.clock)
    {
        DynamicCast<LeanLinkNetDevice>(sender)->AssignStreams(o.stream);
    }
    if (o.phyTxBegin)
    {
        sender->TraceConnectWithoutContext(
            "PhyTxBegin",
            Callback<void, Ptr<const Packet>>([r](Ptr<const Packet>) {
                r->starts.push_back(Simulator::Now().GetNanoSeconds());
            }));
    }
    if (o.phyTxEnd)
    {
        sender->TraceConnectWithoutContext(
            "PhyTxEnd",
            Callback<void, Ptr<const Packet>>(
                [r](Ptr<const Packet>) { r->ends.push_back(Simulator::Now().GetNanoSeconds()); }));
    }
    sender->TraceConnectWithoutContext(
        "MacTxDrop",
        Callback<void, Ptr<const Packet>>([r](Ptr<const Packet>) { ++r->drops; }));
    sender->TraceConnectWithoutContext(
        "EcnMark",
        Callback<void, Ptr<const Packet>>([r](Ptr<const Packet>) { ++r->marks; }));
    devices.Get(1)->SetReceiveCallback(
        Callback<bool, Ptr<NetDevice>, Ptr<const Packet>, uint16_t, const Address&>(
            [r](Ptr<NetDevice>, Ptr<const Packet> p, uint16_t protocol, const Address&) {
                NS_ABORT_UNLESS(protocol == 0x0800 && p->GetSize() == PAYLOAD);
                Ipv4Header ip;
                p->PeekHeader(ip);
                r->arrivals.push_back(Simulator::Now().GetNanoSeconds());
                r->ecn.push_back(ip.GetEcn());
                return true;
            }));
    const uint8_t codepoint = o.ecnCodepoint;
    for (int64_t t : o.sendTimes)
    {
        Simulator::Schedule(NanoSeconds(t), [sender, codepoint]() {
            sender->Send(MakeIpv4Packet(codepoint), sender->GetBroadcast(), 0x0800);
        });
    }
    Simulator::Run();
    run.events = Simulator::GetEventCount();
    Simulator::Destroy();
    return run;
}

/// Frames on one cable: Egress=Clock against hand values and against Egress=Queue.
class LeanLinkEgressClockTimingTestCase : public TestCase
{
  public:
    LeanLinkEgressClockTimingTestCase()
        : TestCase("clock egress: frames start back to back with the gap and arrive as with the "
                   "device queue, one event per frame; control: another gap")
    {
    }

  private:
    void DoRun() override
    {
        NS_TEST_ASSERT_MSG_EQ(DataRate(RATE_BPS).CalculateBytesTxTime(FRAME).GetNanoSeconds(),
                              TX_NS,
                              "hand value of 1002 B at 10 Gb/s");
        CableOptions none;
        const uint64_t base = RunCable(none).events; // setup events alone

        CableOptions burst;
        burst.sendTimes.assign(5, 1000);
        const CableRun clock = RunCable(burst);
        CableOptions queueBurst = burst;
        queueBurst.clock = false;
        const CableRun queue = RunCable(queueBurst);
        NS_TEST_ASSERT_MSG_EQ(clock.arrivals.size(), 5, "five arrivals");
        for (uint32_t i = 0; i < 5; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(clock.arrivals[i],
                                  1000 + i * (TX_NS + 96) + TX_NS + DELAY_NS,
                                  "arrival: start (back to back with the gap) + tx + delay");
        }
        NS_TEST_EXPECT_MSG_EQ((clock.arrivals == queue.arrivals), true, "arrivals as Queue");
        std::printf("burst of 5: events clock %llu, queue %llu (setup %llu)\n",
                    static_cast<unsigned long long>(clock.events),
                    static_cast<unsigned long long>(queue.events),
                    static_cast<unsigned long long>(base));
        // By hand: 5 sends + 5 receives; Queue adds a completion per waiting frame (4).
        NS_TEST_EXPECT_MSG_EQ(clock.events - base, 10, "clock: send + receive per frame");
        NS_TEST_EXPECT_MSG_EQ(queue.events - base, 14, "queue: and a completion per waiting one");

        // Idle frames start when sent; one sent as the previous frame and its gap end too.
        CableOptions sparse;
        sparse.sendTimes = {1000, 1000 + TX_NS + 96, 5000, 9000};
        sparse.phyTxBegin = true;
        const CableRun idle = RunCable(sparse);
        NS_TEST_EXPECT_MSG_EQ((idle.starts == sparse.sendTimes), true, "idle: start when sent");

        // A start-of-frame sink sees the start times; PhyTxEnd the end plus the gap.
        CableOptions traced = burst;
        traced.phyTxBegin = true;
        traced.phyTxEnd = true;
        const CableRun seen = RunCable(traced);
        CableOptions queueTraced = traced;
        queueTraced.clock = false;
        const CableRun queueSeen = RunCable(queueTraced);
        NS_TEST_ASSERT_MSG_EQ(seen.starts.size(), 5, "PhyTxBegin per frame");
        NS_TEST_ASSERT_MSG_EQ(seen.ends.size(), 5, "PhyTxEnd per frame");
        NS_TEST_EXPECT_MSG_EQ(seen.starts[1], 1000 + TX_NS + 96, "second starts after the gap");
        NS_TEST_EXPECT_MSG_EQ(seen.ends[0], 1000 + TX_NS + 96, "end of frame and gap");
        NS_TEST_EXPECT_MSG_EQ((seen.starts == queueSeen.starts), true, "starts as Queue");
        NS_TEST_EXPECT_MSG_EQ((seen.ends == queueSeen.ends), true, "PhyTxEnd as Queue");
        NS_TEST_EXPECT_MSG_EQ((seen.arrivals == clock.arrivals), true, "traced: same arrivals");

        // Control: the same comparison fails when the gap differs.
        CableOptions noGap = burst;
        noGap.gapNs = 0;
        NS_TEST_EXPECT_MSG_EQ((RunCable(noGap).arrivals == queue.arrivals),
                              false,
                              "control: the comparison sees the gap");
    }
};

/// The backlog: drops under the limit and marks above K, by hand and against Egress=Queue.
class LeanLinkEgressClockBacklogTestCase : public TestCase
{
  public:
    LeanLinkEgressClockBacklogTestCase()
        : TestCase("clock egress: the frames not yet started are the queue (drops at the limit "
                   "as a device queue, CE above K); controls: Not-ECT, marking off, a drained "
                   "queue")
    {
    }

  private:
    void DoRun() override
    {
        // Ten frames at once: the first starts at once, frame k (k >= 1) finds k - 1 waiting.
        CableOptions burst;
        burst.sendTimes.assign(10, 1000);

        // 5 packets: frames 1..5 wait, 6..9 find five waiting and are dropped.
        CableOptions packets = burst;
        packets.maxSize = "5p";
        const CableRun p = RunCable(packets);
        NS_TEST_EXPECT_MSG_EQ(p.drops, 4, "5p: frames 6..9 dropped");
        NS_TEST_EXPECT_MSG_EQ(p.arrivals.size(), 6, "5p: six arrive");
        CableOptions queuePackets = packets;
        queuePackets.clock = false;
        const CableRun q = RunCable(queuePackets);
        NS_TEST_EXPECT_MSG_EQ(q.drops, p.drops, "a 5-packet device queue drops as many");
        NS_TEST_EXPECT_MSG_EQ((q.arrivals == p.arrivals), true, "and delivers the rest then");

        // 5,010 bytes = five frames of 1,002: the same four are dropped; 5,009 drops five.
        CableOptions bytes = burst;
        bytes.maxSize = "5010B";
        NS_TEST_EXPECT_MSG_EQ(RunCable(bytes).drops, 4, "5010B: frames 6..9 dropped");
        bytes.maxSize = "5009B";
        NS_TEST_EXPECT_MSG_EQ(RunCable(bytes).drops, 5, "5009B: frames 5..9 dropped");

        // K = 3,006 bytes (three frames): frame k is marked when (k - 1) x 1002 > 3006, k >= 5.
        CableOptions marking = burst;
        marking.maxSize = "1MB"; // K is in EgressMaxSize's unit
        marking.ecn = true;
        marking.k = 3 * FRAME;
        const CableRun m = RunCable(marking);
        NS_TEST_ASSERT_MSG_EQ(m.ecn.size(), 10, "all ten arrive");
        NS_TEST_EXPECT_MSG_EQ(m.marks, 5, "frames 5..9 marked");
        for (uint32_t k = 0; k < 10; ++k)
        {
            NS_TEST_EXPECT_MSG_EQ(unsigned{m.ecn[k]},
                                  (k >= 5 ? 3u : 2u),
                                  "CE exactly where more than K bytes wait");
        }
        CableOptions notEct = marking;
        notEct.ecnCodepoint = 0;
        NS_TEST_EXPECT_MSG_EQ(RunCable(notEct).marks, 0, "control: Not-ECT frames unmarked");
        CableOptions off = marking;
        off.ecn = false;
        NS_TEST_EXPECT_MSG_EQ(RunCable(off).marks, 0, "control: EcnEnabled=false marks none");
        // A second burst after the first has left finds an empty queue: five marks again.
        CableOptions twice = marking;
        twice.sendTimes.insert(twice.sendTimes.end(), 10, 100000);
        NS_TEST_EXPECT_MSG_EQ(RunCable(twice).marks, 10, "started frames leave the queue");
    }
};

/// The curve's ramp: the marking probability at a known backlog, and its draws.
class LeanLinkEgressClockRampTestCase : public TestCase
{
  public:
    LeanLinkEgressClockRampTestCase()
        : TestCase("clock egress: between Kmin and Kmax frames are marked with probability "
                   "Pmax (q - Kmin) over (Kmax - Kmin); same stream, same marks; control: Pmax 0.2")
    {
    }

  private:
    void DoRun() override
    {
        // Bursts of three frames 20 us apart: the first starts at once, the second finds
        // nothing waiting (q = 0 <= Kmin: never marked), the third finds one frame,
        // q = 1002 B, halfway up a ramp from 0 to 2004 B: marked with probability 0.5 x Pmax.
        CableOptions ramp;
        ramp.maxSize = "1MB";
        ramp.ecn = true;
        ramp.k = 0;
        ramp.kmax = 2 * FRAME;
        for (int64_t burst = 0; burst < 1000; ++burst)
        {
            ramp.sendTimes.insert(ramp.sendTimes.end(), 3, 1000 + burst * 20000);
        }
        const CableRun half = RunCable(ramp);
        NS_TEST_ASSERT_MSG_EQ(half.ecn.size(), 3000, "every frame arrives");
        uint32_t marked = 0;
        for (uint32_t i = 0; i < 3000; ++i)
        {
            if (half.ecn[i] == 3)
            {
                NS_TEST_EXPECT_MSG_EQ(i % 3, 2, "only the third frame of a burst is marked");
                ++marked;
            }
        }
        // Binomial(1000, 0.5): mean 500, standard deviation 15.8; +-5 sigma.
        NS_TEST_EXPECT_MSG_GT(marked, 420u, "about half the third frames marked");
        NS_TEST_EXPECT_MSG_LT(marked, 580u, "about half the third frames marked");
        NS_TEST_EXPECT_MSG_EQ(half.marks, marked, "EcnMark fired for each");
        NS_TEST_EXPECT_MSG_EQ((RunCable(ramp).ecn == half.ecn), true, "same stream, same marks");
        CableOptions otherStream = ramp;
        otherStream.stream = 6;
        NS_TEST_EXPECT_MSG_EQ((RunCable(otherStream).ecn == half.ecn),
                              false,
                              "another stream, other draws");
        // Control: Pmax 0.2 gives Binomial(1000, 0.1), mean 100: outside the band above.
        CableOptions low = ramp;
        low.pmax = 0.2;
        const uint64_t lowMarks = RunCable(low).marks;
        std::printf("ramp: %u of 1000 third frames marked at Pmax 1, %llu at Pmax 0.2\n",
                    marked,
                    static_cast<unsigned long long>(lowMarks));
        NS_TEST_EXPECT_MSG_LT(lowMarks, 420u, "control: Pmax 0.2 marks fewer");
        NS_TEST_EXPECT_MSG_GT(lowMarks, 50u, "control: but some (mean 100)");
    }
};

/// LeanLinkEgressClock alone.
class LeanLinkEgressClockUnitTestCase : public TestCase
{
  public:
    LeanLinkEgressClockUnitTestCase()
        : TestCase("LeanLinkEgressClock: a frame leaves the backlog at its start time; limits in "
                   "packets and bytes")
    {
    }

  private:
    void DoRun() override
    {
        LeanLinkEgressClock c;
        c.SetMaxSize(QueueSize("3p"));
        c.Admit(NanoSeconds(10), 100);
        c.Admit(NanoSeconds(20), 200);
        c.Admit(NanoSeconds(20), 300);
        NS_TEST_EXPECT_MSG_EQ(c.GetPackets(), 3, "three waiting");
        NS_TEST_EXPECT_MSG_EQ(c.GetBytes(), 600, "600 bytes");
        NS_TEST_EXPECT_MSG_EQ(c.Fits(1), false, "3p: full");
        c.Release(NanoSeconds(9));
        NS_TEST_EXPECT_MSG_EQ(c.GetPackets(), 3, "none started at 9 ns");
        c.Release(NanoSeconds(10));
        NS_TEST_EXPECT_MSG_EQ(c.GetPackets(), 2, "the first starts at 10 ns");
        NS_TEST_EXPECT_MSG_EQ(c.GetLength(), 2, "length in packets");
        NS_TEST_EXPECT_MSG_EQ(c.Fits(1), true, "room for one");
        c.SetMaxSize(QueueSize("600B"));
        NS_TEST_EXPECT_MSG_EQ(c.GetLength(), 500, "length in bytes");
        NS_TEST_EXPECT_MSG_EQ(c.Fits(100), true, "500 + 100 fits 600B");
        NS_TEST_EXPECT_MSG_EQ(c.Fits(101), false, "500 + 101 does not");
        c.Release(NanoSeconds(20));
        NS_TEST_EXPECT_MSG_EQ(c.GetBytes(), 0, "both start at 20 ns");
        for (uint32_t i = 0; i < 1000; ++i) // grows past its first capacity
        {
            c.Admit(NanoSeconds(30 + i), 1);
        }
        NS_TEST_EXPECT_MSG_EQ(c.GetPackets(), 1000, "a thousand waiting");
        c.Release(NanoSeconds(529));
        NS_TEST_EXPECT_MSG_EQ(c.GetPackets(), 500, "half started");
    }
};

/// What a fabric run gave.
struct FabricRun
{
    ClosWireDigest wire;    //!< frames started (with PhyTxBegin sinks)
    uint64_t delivered = 0; //!< bytes the responder QPs (or TCP sinks) received
    uint64_t marks = 0;     //!< CE marks of the clock ports
    uint64_t cnps = 0;      //!< CNPs the requesters received
    uint64_t events = 0;    //!< events executed
    int64_t lastNs = 0;     //!< when the last byte was delivered
};

constexpr uint64_t INCAST_BYTES = 7 * 300000; //!< seven senders, 300 kB each

/**
 * \param gpusPerLeaf GPUs (one per server) under each of the two leaves
 * \param spines spines
 * \param egress the fabric's Egress
 * \return a fabric helper for that shape
 */
Ptr<ClosFabricHelper>
TwoLeaves(uint32_t gpusPerLeaf, uint32_t spines, const std::string& egress)
{
    Ptr<ClosFabricHelper> helper = CreateObject<ClosFabricHelper>();
    helper->SetAttribute("Leaves", UintegerValue(2));
    helper->SetAttribute("ServersPerLeaf", UintegerValue(gpusPerLeaf));
    helper->SetAttribute("GpusPerServer", UintegerValue(1));
    helper->SetAttribute("Spines", UintegerValue(spines));
    helper->SetAttribute("Egress", StringValue(egress));
    return helper;
}

/// \return the CE marks of every clock port of the fabric
uint64_t
ClockMarks(Ptr<ClosFabric> fabric)
{
    uint64_t marks = 0;
    for (const ClusterLink& l : fabric->GetLinks())
    {
        if (Ptr<LeanLinkNetDevice> d = DynamicCast<LeanLinkNetDevice>(l.device))
        {
            marks += d->GetEcnMarks();
        }
    }
    return marks;
}

/// Sniffer sink of the digest.
void
RecordFrame(ClosWireDigest* wire, uint32_t link, Ptr<const Packet> frame)
{
    wire->Record(link, frame);
}

/**
 * An RDMA 7:1 incast (DCQCN, K = 20 KB) on 2 leaves x 4 GPUs and 4 spines.
 * \param egress the fabric's Egress
 * \param trace connect a PhyTxBegin sink to every link
 * \param stream the first random stream
 * \return what it gave
 */
FabricRun
RunIncast(const std::string& egress, bool trace, int64_t stream = 1)
{
    Ptr<ClosFabricHelper> helper = TwoLeaves(4, 4, egress);
    helper->SetAttribute("EcnThreshold", StringValue("20KB"));
    Ptr<ClosFabric> fabric = helper->Install();
    helper->AssignStreams(fabric, stream);
    FabricRun run;
    if (trace)
    {
        const auto& links = fabric->GetLinks();
        for (uint32_t id = 0; id < links.size(); ++id)
        {
            links[id].device->TraceConnectWithoutContext(
                "PhyTxBegin",
                MakeBoundCallback(&RecordFrame, &run.wire, id));
        }
    }
    RoceHelper rdma;
    rdma.SetNicAttribute("AckTimeout", StringValue("1ms"));
    rdma.SetNicAttribute("RateControl", StringValue("ns3::Dcqcn"));
    std::vector<Ptr<RoceNic>> nics = rdma.Install(fabric->GetGpus());
    FabricRun* r = &run;
    nics[0]->SetAcceptCallback(Callback<void, Ptr<RoceQp>, Ipv4Address>([r](Ptr<RoceQp> qp,
                                                                            Ipv4Address) {
        qp->SetDataCallback(Callback<void, Ptr<RoceQp>, uint32_t>([r](Ptr<RoceQp>, uint32_t bytes) {
            r->delivered += bytes;
            r->lastNs = Simulator::Now().GetNanoSeconds();
        }));
    }));
    for (uint32_t g = 1; g < fabric->GetGpuCount(); ++g)
    {
        nics[g]->Connect(fabric->GetGpuAddress(0))->Send(300000);
    }
    Simulator::Stop(MilliSeconds(20));
    Simulator::Run();
    run.events = Simulator::GetEventCount();
    run.marks = ClockMarks(fabric) + ClosFabricQueueDiscMarks(fabric);
    for (const Ptr<RoceNic>& nic : nics)
    {
        for (uint32_t q = 0; q < nic->GetNQps(); ++q)
        {
            Ptr<RoceQp> qp = nic->GetQp(RoceNic::FIRST_QPN + q);
            if (qp->GetRole() == RoceQp::Role::REQUESTER)
            {
                run.cnps += qp->GetCnps();
            }
        }
    }
    Simulator::Destroy();
    std::printf("incast egress=%s trace=%d stream=%lld: %llu B by %lld ns, %llu marks, %llu "
                "CNPs, %llu events, %llu frames, digest %016llx\n",
                egress.c_str(),
                trace,
                static_cast<long long>(stream),
                static_cast<unsigned long long>(run.delivered),
                static_cast<long long>(run.lastNs),
                static_cast<unsigned long long>(run.marks),
                static_cast<unsigned long long>(run.cnps),
                static_cast<unsigned long long>(run.events),
                static_cast<unsigned long long>(run.wire.frames),
                static_cast<unsigned long long>(run.wire.digest));
    return run;
}

/// Clock ports on a fabric: an RDMA incast with DCQCN, traced and not, and TCP.
class LeanLinkEgressClockFabricTestCase : public TestCase
{
  public:
    LeanLinkEgressClockFabricTestCase()
        : TestCase("clock ports: an RDMA 7:1 incast with DCQCN completes with marks and CNPs "
                   "and fewer events; tracing changes nothing (control: another seed); TCP "
                   "completes")
    {
    }

  private:
    void DoRun() override
    {
        const FabricRun clock = RunIncast("clock", false);
        const FabricRun queue = RunIncast("queue-disc", false);
        NS_TEST_EXPECT_MSG_EQ(clock.delivered, INCAST_BYTES, "the incast completed (clock)");
        NS_TEST_EXPECT_MSG_EQ(queue.delivered, INCAST_BYTES, "the incast completed (queue disc)");
        NS_TEST_EXPECT_MSG_GT(clock.marks, 0, "the clock ports marked CE");
        NS_TEST_EXPECT_MSG_GT(clock.cnps, 0, "the senders got CNPs");
        NS_TEST_EXPECT_MSG_LT(clock.events, queue.events, "fewer events than queue discs");
        // 2.1 MB through GPU 0's 100 Gb/s downlink take at least 168 us.
        NS_TEST_EXPECT_MSG_GT(clock.lastNs, 168000, "no faster than the bottleneck");

        const FabricRun traced = RunIncast("clock", true);
        const FabricRun tracedAgain = RunIncast("clock", true);
        NS_TEST_EXPECT_MSG_EQ(traced.lastNs, clock.lastNs, "traced: same completion time");
        NS_TEST_EXPECT_MSG_EQ(traced.marks, clock.marks, "traced: same marks");
        NS_TEST_EXPECT_MSG_EQ(traced.cnps, clock.cnps, "traced: same CNPs");
        NS_TEST_EXPECT_MSG_EQ(traced.wire.digest, tracedAgain.wire.digest, "same seed, same run");
        const FabricRun other = RunIncast("clock", true, 7);
        NS_TEST_EXPECT_MSG_NE(other.wire.digest, traced.wire.digest, "control: another seed");

        // TCP (DCTCP) flows between the leaves on clock ports.
        Ptr<ClosFabricHelper> helper = TwoLeaves(4, 2, "clock");
        Ptr<ClosFabric> fabric = helper->Install();
        helper->AssignStreams(fabric, 1);
        Ptr<CollectivePermutationHelper> tcp = CreateObject<CollectivePermutationHelper>();
        tcp->SetAttribute("FlowBytes", UintegerValue(2000000));
        tcp->Install(fabric, CollectivePermutationHelper::LeafShift(fabric, 1));
        Simulator::Stop(MilliSeconds(50));
        Simulator::Run();
        uint64_t bytes = 0;
        for (const auto& result : tcp->GetResults())
        {
            bytes += result.bytes;
        }
        Simulator::Destroy();
        NS_TEST_EXPECT_MSG_EQ(bytes, 8ull * 2000000, "every TCP flow completed");
    }
};

/// Egress=clock where it cannot go.
class LeanLinkEgressClockRefusedTestCase : public TestCase
{
  public:
    LeanLinkEgressClockRefusedTestCase()
        : TestCase("clock ports are refused with one line on pfc links, without lean links, "
                   "with a queue disc, with thresholds in two units")
    {
    }

  private:
    /// \return the message Install threw with \p set applied (empty: none)
    template <typename F>
    std::string Refusal(F set)
    {
        Ptr<ClosFabricHelper> helper = TwoLeaves(2, 2, "clock");
        set(helper);
        std::string what;
        try
        {
            helper->Install();
        }
        catch (const std::invalid_argument& e)
        {
            what = e.what();
        }
        Simulator::Destroy();
        return what;
    }

    void DoRun() override
    {
        NS_TEST_EXPECT_MSG_EQ(Refusal([](Ptr<ClosFabricHelper>) {}), "", "clock on p2p: fine");
        const std::string pfc = Refusal(
            [](Ptr<ClosFabricHelper> h) { h->SetAttribute("LinkLayer", StringValue("pfc")); });
        NS_TEST_EXPECT_MSG_NE(pfc.find("Egress=clock needs LinkLayer=p2p"),
                              std::string::npos,
                              "pfc refused: " << pfc);
        const std::string lean = Refusal(
            [](Ptr<ClosFabricHelper> h) { h->SetAttribute("LeanLinks", BooleanValue(false)); });
        NS_TEST_EXPECT_MSG_NE(lean.find("LeanLinks=true"), std::string::npos, "p2p refused");
        const std::string disc =
            Refusal([](Ptr<ClosFabricHelper> h) { h->SetQueueDisc("ns3::FifoQueueDisc"); });
        NS_TEST_EXPECT_MSG_NE(disc.find("SetQueueDisc"), std::string::npos, "queue disc refused");
        const std::string units = Refusal(
            [](Ptr<ClosFabricHelper> h) { h->SetAttribute("QueueSize", StringValue("100p")); });
        NS_TEST_EXPECT_MSG_NE(units.find("same unit"), std::string::npos, "units refused");
        for (const std::string& line : {pfc, lean, disc, units})
        {
            NS_TEST_EXPECT_MSG_EQ(line.find('\n'), std::string::npos, "one line");
        }
    }
};

class LeanLinkEgressClockTestSuite : public TestSuite
{
  public:
    LeanLinkEgressClockTestSuite()
        : TestSuite("lean-link-egress-clock", UNIT)
    {
        AddTestCase(new LeanLinkEgressClockUnitTestCase(), TestCase::QUICK);
        AddTestCase(new LeanLinkEgressClockTimingTestCase(), TestCase::QUICK);
        AddTestCase(new LeanLinkEgressClockBacklogTestCase(), TestCase::QUICK);
        AddTestCase(new LeanLinkEgressClockRampTestCase(), TestCase::QUICK);
        AddTestCase(new LeanLinkEgressClockRefusedTestCase(), TestCase::QUICK);
        AddTestCase(new LeanLinkEgressClockFabricTestCase(), TestCase::QUICK);
    }
};

/// The suite's registration.
LeanLinkEgressClockTestSuite g_vclosEgressClockTestSuite;

} // namespace

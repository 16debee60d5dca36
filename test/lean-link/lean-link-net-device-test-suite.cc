/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// LeanLinkNetDevice on one cable, against closed forms and against ns-3's
// PointToPointNetDevice built the same way: an idle link starts each frame when it is sent
// (one event per frame: the receive); a congested link sends queued frames back to back,
// every (size + 2) * 8 / rate + InterframeGap (control: without the gap the starts differ);
// a frame sent at the instant the last one ends starts then; PhyTxEnd fires at the
// frame's end plus the gap, as ns-3's; a frame a trace sink kept is not changed by the
// receiver; pcap files are DLT_PPP; every packet trace source fires for each frame as
// PointToPointNetDevice's does while a sink is connected, and not for a sink disconnected
// (the device skips sources without sinks); the receive callback's sender address follows
// a change of the peer's MAC address (the device keeps it built between changes).
// Tests: lean-link-net-device, lean-link-channel

#include "ns3/channel.h"
#include "ns3/data-rate.h"
#include "ns3/error-model.h"
#include "ns3/lean-link-helper.h"
#include "ns3/lean-link-net-device.h"
#include "ns3/mac48-address.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/point-to-point-helper.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/system-path.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <cstdio>
#include <fstream>
#include <map>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

constexpr uint64_t RATE_BPS = 10000000000ull; //!< 10 Gb/s
constexpr int64_t DELAY_NS = 1000;            //!< propagation delay
constexpr uint32_t PAYLOAD = 1000;            //!< bytes handed to the device
constexpr uint32_t FRAME = PAYLOAD + 2;       //!< on the wire: PPP header added

/// What one run of a cable saw.
struct CableRun
{
    std::vector<int64_t> starts;   //!< PhyTxBegin times at the sender (ns)
    std::vector<int64_t> ends;     //!< PhyTxEnd times at the sender (ns)
    std::vector<int64_t> arrivals; //!< receive-callback times at the peer (ns)
    uint64_t events = 0;           //!< simulator events executed
    uint32_t keptSize = 0;         //!< size of the first frame a PhyTxBegin sink kept
};

/**
 * \param lean LeanLinkNetDevice (else PointToPointNetDevice)
 * \param sendTimes when frames are handed to the sender (ns)
 * \param gapNs InterframeGap
 * \param phyTxEnd connect a PhyTxEnd sink
 * \return what the run saw
 */
CableRun
RunCable(bool lean, const std::vector<int64_t>& sendTimes, int64_t gapNs, bool phyTxEnd = false)
{
    Ptr<Node> a = CreateObject<Node>();
    Ptr<Node> b = CreateObject<Node>();
    NetDeviceContainer devices;
    if (lean)
    {
        LeanLinkHelper h;
        h.SetDeviceAttribute("DataRate", DataRateValue(DataRate(RATE_BPS)));
        h.SetDeviceAttribute("InterframeGap", TimeValue(NanoSeconds(gapNs)));
        h.SetChannelAttribute("Delay", TimeValue(NanoSeconds(DELAY_NS)));
        h.SetQueue("ns3::DropTailQueue", "MaxSize", StringValue("100p"));
        devices = h.Install(a, b);
    }
    else
    {
        PointToPointHelper h;
        h.SetDeviceAttribute("DataRate", DataRateValue(DataRate(RATE_BPS)));
        h.SetDeviceAttribute("InterframeGap", TimeValue(NanoSeconds(gapNs)));
        h.SetChannelAttribute("Delay", TimeValue(NanoSeconds(DELAY_NS)));
        h.SetQueue("ns3::DropTailQueue", "MaxSize", StringValue("100p"));
        devices = h.Install(a, b);
    }
    CableRun run;
    CableRun* r = &run;
    Ptr<Packet> kept;
    Ptr<Packet>* k = &kept;
    devices.Get(0)->TraceConnectWithoutContext(
        "PhyTxBegin",
        Callback<void, Ptr<const Packet>>([r, k](Ptr<const Packet> p) {
            r->starts.push_back(Simulator::Now().GetNanoSeconds());
            if (!*k)
            {
                *k = ConstCast<Packet>(p); // kept past the receive
            }
        }));
    if (phyTxEnd)
    {
        devices.Get(0)->TraceConnectWithoutContext(
            "PhyTxEnd",
            Callback<void, Ptr<const Packet>>(
                [r](Ptr<const Packet>) { r->ends.push_back(Simulator::Now().GetNanoSeconds()); }));
    }
    devices.Get(1)->SetReceiveCallback(
        Callback<bool, Ptr<NetDevice>, Ptr<const Packet>, uint16_t, const Address&>(
            [r](Ptr<NetDevice>, Ptr<const Packet> p, uint16_t protocol, const Address&) {
                NS_ABORT_UNLESS(protocol == 0x0800 && p->GetSize() == PAYLOAD);
                r->arrivals.push_back(Simulator::Now().GetNanoSeconds());
                return true;
            }));
    Ptr<NetDevice> sender = devices.Get(0);
    for (int64_t t : sendTimes)
    {
        Simulator::Schedule(NanoSeconds(t), [sender]() {
            sender->Send(Create<Packet>(PAYLOAD), sender->GetBroadcast(), 0x0800);
        });
    }
    Simulator::Run();
    run.events = Simulator::GetEventCount();
    run.keptSize = kept ? kept->GetSize() : 0;
    Simulator::Destroy();
    return run;
}

/// The packet trace sources of both device types (same names, same signature).
const std::vector<std::string> DEVICE_TRACES = {"MacTx",
                                                "MacTxDrop",
                                                "MacPromiscRx",
                                                "MacRx",
                                                "PhyTxBegin",
                                                "PhyTxEnd",
                                                "PhyTxDrop",
                                                "PhyRxEnd",
                                                "PhyRxDrop",
                                                "Sniffer",
                                                "PromiscSniffer"};

/// Trace sink: count a frame.
void
CountFrame(uint32_t* count, Ptr<const Packet>)
{
    ++*count;
}

/// Channel trace sink: count a frame.
void
CountCarried(uint32_t* count, Ptr<const Packet>, Ptr<NetDevice>, Ptr<NetDevice>, Time, Time)
{
    ++*count;
}

/// Frames each trace source reported, by "device/source", to a sink that stayed connected
/// ("kept") and to one connected and then disconnected ("gone").
struct TraceRun
{
    std::map<std::string, uint32_t> kept; //!< the connected sinks
    std::map<std::string, uint32_t> gone; //!< the disconnected sinks
    std::vector<Address> from;            //!< receive callback's sender address, per frame
};

/**
 * Six frames from device 0 to device 1 at 10 Gb/s with a 2-packet device queue: four at
 * 1 us (one on the wire, two queued, one dropped: MacTxDrop), one at 100 us and one at
 * 200 us (idle). Device 1 drops the second frame it receives (ReceiveListErrorModel:
 * PhyRxDrop) and has a promiscuous receive callback (MacPromiscRx). Device 0's MAC address
 * changes to 00:00:00:00:00:98 at 50 us (SetAddress) and to 00:00:00:00:00:99 at 150 us
 * (the Address attribute).
 * \param lean LeanLinkNetDevice (else PointToPointNetDevice)
 * \param changeAddress change device 0's address at 50 and 150 us
 * \return the counts
 */
TraceRun
RunTraces(bool lean, bool changeAddress)
{
    Ptr<Node> a = CreateObject<Node>();
    Ptr<Node> b = CreateObject<Node>();
    NetDeviceContainer devices;
    if (lean)
    {
        LeanLinkHelper h;
        h.SetDeviceAttribute("DataRate", StringValue("10Gbps"));
        h.SetQueue("ns3::DropTailQueue", "MaxSize", StringValue("2p"));
        devices = h.Install(a, b);
    }
    else
    {
        PointToPointHelper h;
        h.SetDeviceAttribute("DataRate", StringValue("10Gbps"));
        h.SetQueue("ns3::DropTailQueue", "MaxSize", StringValue("2p"));
        devices = h.Install(a, b);
    }
    Ptr<ReceiveListErrorModel> errors = CreateObject<ReceiveListErrorModel>();
    errors->SetList({1}); // the second frame received (counted from 0)
    devices.Get(1)->SetAttribute("ReceiveErrorModel", PointerValue(errors));
    TraceRun run;
    TraceRun* r = &run;
    devices.Get(1)->SetReceiveCallback(
        Callback<bool, Ptr<NetDevice>, Ptr<const Packet>, uint16_t, const Address&>(
            [r](Ptr<NetDevice>, Ptr<const Packet>, uint16_t, const Address& from) {
                r->from.push_back(from);
                return true;
            }));
    devices.Get(1)->SetPromiscReceiveCallback(
        Callback<bool,
                 Ptr<NetDevice>,
                 Ptr<const Packet>,
                 uint16_t,
                 const Address&,
                 const Address&,
                 NetDevice::PacketType>([](Ptr<NetDevice>,
                                           Ptr<const Packet>,
                                           uint16_t,
                                           const Address&,
                                           const Address&,
                                           NetDevice::PacketType) { return true; }));
    for (uint32_t d = 0; d < 2; ++d)
    {
        for (const std::string& name : DEVICE_TRACES)
        {
            const std::string key = std::to_string(d) + "/" + name;
            // (std::map keeps the counters in place.)
            devices.Get(d)->TraceConnectWithoutContext(
                name,
                MakeBoundCallback(&CountFrame, &run.kept[key]));
            NS_ABORT_UNLESS(devices.Get(d)->TraceConnectWithoutContext(
                name,
                MakeBoundCallback(&CountFrame, &run.gone[key])));
            NS_ABORT_UNLESS(devices.Get(d)->TraceDisconnectWithoutContext(
                name,
                MakeBoundCallback(&CountFrame, &run.gone[key])));
        }
    }
    Ptr<Channel> channel = devices.Get(0)->GetChannel();
    channel->TraceConnectWithoutContext("TxRxPointToPoint",
                                        MakeBoundCallback(&CountCarried, &run.kept["channel"]));
    channel->TraceConnectWithoutContext("TxRxPointToPoint",
                                        MakeBoundCallback(&CountCarried, &run.gone["channel"]));
    channel->TraceDisconnectWithoutContext("TxRxPointToPoint",
                                           MakeBoundCallback(&CountCarried, &run.gone["channel"]));
    Ptr<NetDevice> sender = devices.Get(0);
    for (int64_t t : {1, 1, 1, 1, 100, 200})
    {
        Simulator::Schedule(MicroSeconds(t), [sender]() {
            sender->Send(Create<Packet>(PAYLOAD), sender->GetBroadcast(), 0x0800);
        });
    }
    if (changeAddress)
    {
        Simulator::Schedule(MicroSeconds(50),
                            [sender]() { sender->SetAddress(Mac48Address("00:00:00:00:00:98")); });
        Simulator::Schedule(MicroSeconds(150), [sender]() {
            sender->SetAttribute("Address", Mac48AddressValue(Mac48Address("00:00:00:00:00:99")));
        });
    }
    Simulator::Run();
    Simulator::Destroy();
    return run;
}

} // namespace

/// Trace sources fire as PointToPointNetDevice's while a sink listens; skipped otherwise.
class LeanLinkLinkTraceTestCase : public TestCase
{
  public:
    LeanLinkLinkTraceTestCase()
        : TestCase("lean link: every packet trace source reports each frame as "
                   "PointToPointNetDevice's to a connected sink, none to a disconnected one "
                   "(control); the sender address follows an address change (control: none)")
    {
    }

  private:
    void DoRun() override
    {
        const TraceRun lean = RunTraces(true, true);
        const TraceRun p2p = RunTraces(false, true);
        // By hand: 6 frames handed over, 1 dropped by the queue, 5 on the wire, the second
        // of them lost at the receiver, 4 delivered.
        const std::map<std::string, uint32_t> expected = {
            {"0/MacTx", 6},
            {"0/MacTxDrop", 1},
            {"0/PhyTxBegin", 5},
            {"0/PhyTxEnd", 5},
            {"0/Sniffer", 5},
            {"0/PromiscSniffer", 5},
            {"1/PhyRxDrop", 1},
            {"1/PhyRxEnd", 4},
            {"1/Sniffer", 4},
            {"1/PromiscSniffer", 4},
            {"1/MacRx", 4},
            {"1/MacPromiscRx", 4},
            {"channel", 5},
        };
        for (const auto& [key, count] : lean.kept)
        {
            const auto e = expected.find(key);
            const uint32_t want = e == expected.end() ? 0 : e->second;
            NS_TEST_EXPECT_MSG_EQ(count, want, "lean " << key << ": frames by hand");
            NS_TEST_EXPECT_MSG_EQ(count, p2p.kept.at(key), "lean " << key << ": as p2p");
            NS_TEST_EXPECT_MSG_EQ(lean.gone.at(key), 0, "control: disconnected sink " << key);
        }
        NS_TEST_EXPECT_MSG_EQ(lean.kept.size(), 2 * DEVICE_TRACES.size() + 1, "every source");
        // Control of the control: the disconnected sinks would have counted as the others.
        uint32_t sum = 0;
        for (const auto& [key, count] : p2p.gone)
        {
            sum += count;
        }
        NS_TEST_EXPECT_MSG_EQ(sum, 0, "p2p: disconnected sinks see nothing either");

        // The receive callback's sender address: device 0's, and its new ones (the frames
        // delivered were sent at 1, 1, 100 and 200 us).
        const Address before = Mac48Address("00:00:00:00:00:01");
        const Address set = Mac48Address("00:00:00:00:00:98");
        const Address attribute = Mac48Address("00:00:00:00:00:99");
        NS_TEST_ASSERT_MSG_EQ(lean.from.size(), 4, "four frames delivered");
        NS_TEST_EXPECT_MSG_EQ((lean.from == p2p.from), true, "sender addresses as p2p");
        NS_TEST_EXPECT_MSG_EQ((lean.from[0] == before), true, "the helper's first address");
        NS_TEST_EXPECT_MSG_EQ((lean.from[2] == set), true, "SetAddress at 50 us");
        NS_TEST_EXPECT_MSG_EQ((lean.from[3] == attribute), true, "Address attribute at 150 us");
        const TraceRun same = RunTraces(true, false);
        NS_TEST_ASSERT_MSG_EQ(same.from.size(), 4, "control: four frames delivered");
        NS_TEST_EXPECT_MSG_EQ((same.from[2] == set), false, "control: no change, old address");
        NS_TEST_EXPECT_MSG_EQ((same.from[3] == attribute), false, "control: no change (2)");
    }
};

/// Queued frames go back to back; idle frames start when sent; both as ns-3's p2p device.
class LeanLinkLinkTimingTestCase : public TestCase
{
  public:
    LeanLinkLinkTimingTestCase()
        : TestCase("lean link: congested frames start every (size + 2) * 8 bits at the line rate + "
                   "gap, idle "
                   "ones when sent, as PointToPointNetDevice, with fewer events; control: no gap")
    {
    }

  private:
    void DoRun() override
    {
        // ns-3 DataRate::CalculateBytesTxTime: bytes * 8 / rate seconds, as a Time (1 ns
        // resolution here): 1002 B at 10 Gb/s = 801.6 ns, stored as 802 ns (Seconds() rounds).
        const int64_t tx = DataRate(RATE_BPS).CalculateBytesTxTime(FRAME).GetNanoSeconds();
        NS_TEST_ASSERT_MSG_EQ(tx, 802, "hand value of 1002 B at 10 Gb/s");
        const int64_t gap = 96;

        // Events a run spends on setup alone (node initialisation), subtracted below.
        const uint64_t base = RunCable(true, {}, gap).events;
        NS_TEST_EXPECT_MSG_EQ(base, RunCable(false, {}, gap).events, "same setup events");

        // Congested: five frames handed over at once.
        const std::vector<int64_t> burst(5, 1000);
        const CableRun lean = RunCable(true, burst, gap);
        const CableRun p2p = RunCable(false, burst, gap);
        NS_TEST_ASSERT_MSG_EQ(lean.starts.size(), 5, "five frames");
        NS_TEST_ASSERT_MSG_EQ(lean.arrivals.size(), 5, "five arrivals");
        for (uint32_t i = 0; i < 5; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(lean.starts[i], 1000 + i * (802 + 96), "back to back, gap");
            NS_TEST_EXPECT_MSG_EQ(lean.arrivals[i],
                                  1000 + i * (802 + 96) + 802 + DELAY_NS,
                                  "arrival: start + tx + delay");
        }
        NS_TEST_EXPECT_MSG_EQ((lean.starts == p2p.starts), true, "starts as p2p");
        NS_TEST_EXPECT_MSG_EQ((lean.arrivals == p2p.arrivals), true, "arrivals as p2p");
        std::printf("congested, 5 frames: events lean %llu, p2p %llu\n",
                    static_cast<unsigned long long>(lean.events),
                    static_cast<unsigned long long>(p2p.events));
        // By hand: 5 sends + 5 receives + 4 completions (one per frame that waited).
        NS_TEST_EXPECT_MSG_EQ(lean.events - base, 14, "lean: a completion only for waiting frames");
        NS_TEST_EXPECT_MSG_EQ(p2p.events - base, 15, "p2p: a TransmitComplete per frame");
        // Control: without the gap the same formula fails.
        const CableRun noGap = RunCable(true, burst, 0);
        NS_TEST_EXPECT_MSG_NE(noGap.starts[1], 1000 + 802 + 96, "control: the gap counts");
        NS_TEST_EXPECT_MSG_EQ(noGap.starts[1], 1000 + 802, "control: no gap, no wait");

        // Idle: frames far apart start when sent, and one sent exactly when the previous
        // frame and its gap end (1000 + 802 + 96 = 1898) starts then too.
        const std::vector<int64_t> sparse = {1000, 1898, 5000, 9000};
        const CableRun idle = RunCable(true, sparse, gap);
        const CableRun idleP2p = RunCable(false, sparse, gap);
        NS_TEST_EXPECT_MSG_EQ((idle.starts == sparse), true, "idle: start when sent");
        NS_TEST_EXPECT_MSG_EQ((idle.starts == idleP2p.starts), true, "idle: as p2p");
        NS_TEST_EXPECT_MSG_EQ((idle.arrivals == idleP2p.arrivals), true, "idle: arrivals as p2p");
        std::printf("idle, 4 frames: events lean %llu, p2p %llu\n",
                    static_cast<unsigned long long>(idle.events),
                    static_cast<unsigned long long>(idleP2p.events));
        NS_TEST_EXPECT_MSG_EQ(idle.events - base, 8, "lean: send + receive per frame");
        NS_TEST_EXPECT_MSG_EQ(idleP2p.events - base, 12, "p2p: send + TransmitComplete + receive");

        // PhyTxEnd: a sink makes the device fire it at each frame's end plus the gap.
        const CableRun ends = RunCable(true, burst, gap, true);
        const CableRun endsP2p = RunCable(false, burst, gap, true);
        NS_TEST_ASSERT_MSG_EQ(ends.ends.size(), 5, "PhyTxEnd per frame");
        NS_TEST_EXPECT_MSG_EQ(ends.ends[0], 1000 + 802 + 96, "end of frame and gap");
        NS_TEST_EXPECT_MSG_EQ((ends.ends == endsP2p.ends), true, "PhyTxEnd as p2p");
        NS_TEST_EXPECT_MSG_EQ((ends.starts == endsP2p.starts), true, "starts unchanged");

        // A frame a trace sink kept keeps its PPP header (the receiver copied it).
        NS_TEST_EXPECT_MSG_EQ(lean.keptSize, FRAME, "kept frame untouched by the receiver");
    }
};

/// Pcap of a lean device is a PPP capture.
class LeanLinkLinkPcapTestCase : public TestCase
{
  public:
    LeanLinkLinkPcapTestCase()
        : TestCase("lean link: pcap files have link type PPP (9) and one record per frame")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<Node> a = CreateObject<Node>();
        Ptr<Node> b = CreateObject<Node>();
        LeanLinkHelper h;
        h.SetDeviceAttribute("DataRate", StringValue("10Gbps"));
        NetDeviceContainer d = h.Install(a, b);
        const std::string file = CreateTempDirFilename("vclos-link.pcap");
        SystemPath::MakeDirectories(file.substr(0, file.rfind('/')));
        h.EnablePcap(file, d.Get(0), false, true);
        Ptr<NetDevice> sender = d.Get(0);
        for (int i = 0; i < 3; ++i)
        {
            Simulator::Schedule(MicroSeconds(1 + i), [sender]() {
                sender->Send(Create<Packet>(PAYLOAD), sender->GetBroadcast(), 0x0800);
            });
        }
        Simulator::Run();
        Simulator::Destroy();
        sender = nullptr;
        d = NetDeviceContainer(); // the last references: the sink closes the file
        std::ifstream in(file, std::ios::binary);
        std::vector<char> bytes((std::istreambuf_iterator<char>(in)), {});
        NS_TEST_EXPECT_MSG_EQ(bytes.size(), 24 + 3 * (16 + FRAME), "header + 3 records");
        if (bytes.size() < 24)
        {
            return;
        }
        uint32_t linkType = 0;
        for (int i = 3; i >= 0; --i)
        {
            linkType = (linkType << 8) | static_cast<uint8_t>(bytes[20 + i]);
        }
        NS_TEST_EXPECT_MSG_EQ(linkType, 9, "DLT_PPP");
    }
};

/// The lean link test suite.
class LeanLinkLinkTestSuite : public TestSuite
{
  public:
    LeanLinkLinkTestSuite()
        : TestSuite("lean-link-net-device", UNIT)
    {
        AddTestCase(new LeanLinkLinkTimingTestCase(), TestCase::QUICK);
        AddTestCase(new LeanLinkLinkPcapTestCase(), TestCase::QUICK);
        AddTestCase(new LeanLinkLinkTraceTestCase(), TestCase::QUICK);
    }
};

/// The suite's instance.
static LeanLinkLinkTestSuite g_vclosLinkTestSuite;

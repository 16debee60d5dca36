/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Lossless Ethernet (PfcNetDevice, PfcSwitchBuffer) under plain UDP: an incast
// with PFC loses nothing and finishes at the closed-form time, without PFC it drops; pauses
// propagate hop by hop and block a victim flow; ECN marks at p(q); a pcap holds a real PFC
// frame; bad attributes are refused; the fabric builds pfc links and keeps its tracker.
// Tests: pfc-net-device, pfc-switch-buffer, pfc-channel, pfc-helper, pfc-header
#include "ns3/boolean.h"
#include "ns3/clos-fabric-helper.h"
#include "ns3/clos-link-load-tracker.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/inet-socket-address.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/ipv4-global-routing-helper.h"
#include "ns3/pfc-helper.h"
#include "ns3/pfc-net-device.h"
#include "ns3/pfc-switch-buffer.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/seq-ts-header.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/uinteger.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <iterator>

using namespace ns3;

namespace
{

// Hand-computed wire figures (IBTA RoCEv2 annex A17), independent of the code under test.
constexpr uint32_t PAYLOAD = 1009;                 //!< UDP payload bytes
constexpr uint32_t QUEUED = PAYLOAD + 8 + 20 + 14; //!< UDP + IPv4 + Ethernet: 1051
constexpr uint32_t WIRE = QUEUED + 4 + 8 + 12;     //!< + FCS, preamble/SFD, IFG: 1075
constexpr double RATE_BPS = 100e9;                 //!< every link
const Time LINE_INTERVAL = NanoSeconds(86);        //!< 1075 B at 100 Gb/s, exactly
const Time DELAY = MicroSeconds(1);                //!< every cable
constexpr uint8_t DATA = 3;                        //!< the data priority (DSCP 0)
constexpr uint8_t TOS_ECT0 = 0x02;                 //!< DSCP 0, ECT(0)

/// A UDP receiver.
struct Sink
{
    uint64_t packets = 0;        //!< received
    uint64_t bytes = 0;          //!< payload bytes received
    Time last;                   //!< last arrival
    uint32_t seqFrom = 0;        //!< first sequence number counted for marks
    uint32_t seqTo = UINT32_MAX; //!< and the one after the last
    uint64_t counted = 0;        //!< packets with seq >= seqFrom
    uint64_t marked = 0;         //!< of those, CE
};

void
Receive(Sink* sink, Ptr<Socket> socket)
{
    Address from;
    while (Ptr<Packet> p = socket->RecvFrom(from))
    {
        ++sink->packets;
        sink->bytes += p->GetSize();
        sink->last = Simulator::Now();
        SeqTsHeader seq;
        p->PeekHeader(seq);
        SocketIpTosTag tos;
        if (seq.GetSeq() >= sink->seqFrom && seq.GetSeq() < sink->seqTo && p->PeekPacketTag(tos))
        {
            ++sink->counted;
            sink->marked += (tos.GetTos() & 0x03) == 0x03 ? 1 : 0;
        }
    }
}

void
Listen(Ptr<Node> node, uint16_t port, Sink* sink)
{
    Ptr<Socket> s = Socket::CreateSocket(node, UdpSocketFactory::GetTypeId());
    s->Bind(InetSocketAddress(Ipv4Address::GetAny(), port));
    s->SetIpRecvTos(true);
    s->SetRecvCallback(MakeBoundCallback(&Receive, sink));
}

void
SendOne(Ptr<Socket> s, uint32_t seq, uint32_t left, Time interval, uint64_t* sent)
{
    SeqTsHeader h;
    h.SetSeq(seq);
    Ptr<Packet> p = Create<Packet>(PAYLOAD - h.GetSerializedSize());
    p->AddHeader(h);
    s->Send(p);
    ++*sent;
    if (left > 1)
    {
        Simulator::Schedule(interval, &SendOne, s, seq + 1, left - 1, interval, sent);
    }
}

/// A constant-rate UDP flow of `count` packets, one every `interval` from `start`.
void
Flow(Ptr<Node> src,
     Ipv4Address dst,
     uint16_t port,
     uint8_t tos,
     uint32_t count,
     Time interval,
     Time start,
     uint64_t* sent)
{
    Ptr<Socket> s = Socket::CreateSocket(src, UdpSocketFactory::GetTypeId());
    s->Bind();
    s->Connect(InetSocketAddress(dst, port));
    s->SetIpTos(tos);
    Simulator::Schedule(start, &SendOne, s, 0, count, interval, sent);
}

/// Nodes joined by lossless links, each link its own /30, global routing.
struct Lab
{
    NodeContainer nodes;
    PfcHelper pfc;
    std::vector<NetDeviceContainer> links;
    Ipv4AddressHelper addresses;

    explicit Lab(uint32_t n)
    {
        nodes.Create(n);
        InternetStackHelper().Install(nodes);
        addresses.SetBase("10.1.0.0", "255.255.255.252");
        pfc.SetDeviceAttribute("DataRate", DataRateValue(DataRate(uint64_t(RATE_BPS))));
        pfc.SetDeviceAttribute("Mtu", UintegerValue(1500));
        pfc.SetChannelAttribute("Delay", TimeValue(DELAY));
    }

    Ptr<PfcSwitchBuffer> Switch(uint32_t i)
    {
        return pfc.InstallSwitchBuffer(nodes.Get(i));
    }

    /// \return link index; device 0 sits on a, 1 on b
    uint32_t Link(uint32_t a, uint32_t b)
    {
        links.push_back(pfc.Install(nodes.Get(a), nodes.Get(b)));
        addresses.Assign(links.back());
        addresses.NewNetwork();
        return links.size() - 1;
    }

    Ptr<PfcNetDevice> Dev(uint32_t link, uint32_t end)
    {
        return DynamicCast<PfcNetDevice>(links[link].Get(end));
    }

    /// \return a host's address (its only interface)
    Ipv4Address Addr(uint32_t i)
    {
        return nodes.Get(i)->GetObject<Ipv4>()->GetAddress(1, 0).GetLocal();
    }
};

/// \return drops at every switch buffer of a lab
uint64_t
BufferDrops(Lab& lab)
{
    uint64_t drops = 0;
    for (uint32_t i = 0; i < lab.nodes.GetN(); ++i)
    {
        if (auto b = lab.nodes.Get(i)->GetObject<PfcSwitchBuffer>())
        {
            drops += b->GetDrops();
        }
    }
    return drops;
}

void
CountDrop(uint64_t* drops, Ptr<const Packet>, uint32_t, uint8_t)
{
    ++*drops;
}

// ---------------------------------------------------------------------------------------
/// V5 / V6: 8-to-1 incast through one switch, each sender at line rate.
class IncastTestCase : public TestCase
{
  public:
    /// What differs between the runs.
    struct Config
    {
        std::string name;
        bool pfc;        //!< PfcEnabled
        bool expectLoss; //!< drops expected
        uint32_t quanta; //!< PauseQuanta (0: default)
        Time refresh;    //!< PauseRefresh (with quanta)
        bool xonXoff;    //!< PauseSemantics XonXoff at every device
    };

    explicit IncastTestCase(Config c)
        : TestCase(c.name),
          m_c(c)
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t n = 8;
        const uint32_t perSender = 500; // ~500 KB each (a validation experiment)
        Lab lab(n + 2);                 // senders 0..7, receiver 8, switch 9
        lab.pfc.SetBufferAttribute("BufferSize", UintegerValue(1 << 20));
        lab.pfc.SetBufferAttribute("PfcEnabled", BooleanValue(m_c.pfc));
        if (m_c.quanta > 0)
        {
            lab.pfc.SetBufferAttribute("PauseQuanta", UintegerValue(m_c.quanta));
            lab.pfc.SetBufferAttribute("PauseRefresh", TimeValue(m_c.refresh));
        }
        if (m_c.xonXoff)
        {
            lab.pfc.SetDeviceAttribute("PauseSemantics", StringValue("XonXoff"));
        }
        Ptr<PfcSwitchBuffer> buffer = lab.Switch(n + 1);
        for (uint32_t i = 0; i <= n; ++i)
        {
            lab.Link(i, n + 1); // link i: host i (end 0) - switch (end 1)
        }
        Ipv4GlobalRoutingHelper::PopulateRoutingTables();
        uint64_t traced = 0;
        buffer->TraceConnectWithoutContext("Drop", MakeBoundCallback(&CountDrop, &traced));
        const std::string pcap = CreateTempDirFilename("pfc-port0.pcap");
        const bool checkPcap = m_c.pfc && !m_c.expectLoss && m_c.quanta == 0;
        if (checkPcap)
        {
            lab.pfc.EnablePcap(pcap, lab.Dev(0, 1), false, true);
        }
        Sink sink;
        Listen(lab.nodes.Get(n), 9, &sink);
        uint64_t sent = 0;
        for (uint32_t i = 0; i < n; ++i)
        {
            Flow(lab.nodes.Get(i), lab.Addr(n), 9, 0, perSender, LINE_INTERVAL, Time(0), &sent);
        }
        Simulator::Stop(MilliSeconds(20));
        Simulator::Run();

        uint64_t nicDrops = 0;
        uint64_t pausesAtSenders = 0;
        uint64_t resumes = 0;
        for (uint32_t i = 0; i < n; ++i)
        {
            nicDrops += lab.Dev(i, 0)->GetDrops();
            pausesAtSenders += lab.Dev(i, 0)->GetPausesReceived(DATA);
            resumes += lab.Dev(i, 1)->GetResumesSent(DATA);
            if (!m_c.expectLoss)
            {
                NS_TEST_EXPECT_MSG_GT(lab.Dev(i, 1)->GetPausesSent(DATA),
                                      0,
                                      "switch port facing sender " << i << " sent no pause");
            }
        }
        NS_TEST_EXPECT_MSG_EQ(nicDrops, 0, "NICs drop nothing");
        NS_TEST_EXPECT_MSG_EQ(sent, uint64_t{n} * perSender, "every packet was sent");
        std::printf("%s: received %llu of %llu, dropped %llu, XOFF sent %llu (XON %llu), "
                    "received by senders %llu, last arrival %.3f us\n",
                    m_c.name.c_str(),
                    static_cast<unsigned long long>(sink.packets),
                    static_cast<unsigned long long>(sent),
                    static_cast<unsigned long long>(traced),
                    static_cast<unsigned long long>(buffer->GetPausesSent()),
                    static_cast<unsigned long long>(resumes),
                    static_cast<unsigned long long>(pausesAtSenders),
                    sink.last.GetSeconds() * 1e6);
        if (!m_c.expectLoss)
        {
            NS_TEST_EXPECT_MSG_EQ(buffer->GetDrops(), 0, "PFC: no drop");
            NS_TEST_EXPECT_MSG_EQ(sink.packets, sent, "PFC: every packet delivered");
            NS_TEST_EXPECT_MSG_EQ(sink.bytes, sent * PAYLOAD, "PFC: every byte delivered");
            NS_TEST_EXPECT_MSG_GT(pausesAtSenders, 0, "the sender NICs were paused");
            // Closed form: the bottleneck carries N * S wire bytes back to back; the first
            // bit reaches it after one serialization and one cable, the last one leaves it
            // one cable before the end. 4000 x 1075 B at 100 Gb/s = 344 us, + 2.086 us.
            const double expected = n * perSender * WIRE * 8.0 / RATE_BPS +
                                    (WIRE * 8.0 / RATE_BPS + 2 * DELAY.GetSeconds());
            const double measured = sink.last.GetSeconds();
            std::printf("  completion %.3f us, closed form %.3f us (%.3f%%)\n",
                        measured * 1e6,
                        expected * 1e6,
                        100.0 * (measured - expected) / expected);
            NS_TEST_EXPECT_MSG_LT(std::abs(measured - expected) / expected,
                                  0.02,
                                  "completion within 2% of the closed form");
            if (m_c.quanta > 0 && !m_c.xonXoff)
            {
                NS_TEST_EXPECT_MSG_GT(buffer->GetPausesSent(),
                                      2 * resumes,
                                      "short pauses were refreshed");
            }
        }
        else
        {
            NS_TEST_EXPECT_MSG_GT(buffer->GetDrops(), 0, "the incast drops");
            NS_TEST_EXPECT_MSG_EQ(traced, buffer->GetDrops(), "every drop traced");
            NS_TEST_EXPECT_MSG_EQ(sink.packets + traced, sent, "sent = received + drops");
            if (!m_c.pfc)
            {
                NS_TEST_EXPECT_MSG_EQ(pausesAtSenders, 0, "no PFC: no pause");
            }
        }
        Simulator::Destroy();
        if (checkPcap)
        {
            CheckPcap(pcap);
        }
    }

    /// The pcap is DLT_EN10MB and holds a frame with EtherType 0x8808 and opcode 0x0101.
    void CheckPcap(const std::string& file)
    {
        std::ifstream in(file, std::ios::binary);
        std::vector<uint8_t> b((std::istreambuf_iterator<char>(in)),
                               std::istreambuf_iterator<char>());
        NS_TEST_ASSERT_MSG_GT(b.size(), 24, "pcap written");
        auto le32 = [&b](std::size_t at) {
            return uint32_t{b[at]} | uint32_t{b[at + 1]} << 8 | uint32_t{b[at + 2]} << 16 |
                   uint32_t{b[at + 3]} << 24;
        };
        NS_TEST_EXPECT_MSG_EQ(le32(0), 0xa1b2c3d4u, "pcap magic (little-endian file)");
        NS_TEST_EXPECT_MSG_EQ(le32(20), 1u, "link type DLT_EN10MB");
        uint32_t pfcFrames = 0;
        uint32_t ipv4Frames = 0;
        for (std::size_t at = 24; at + 16 <= b.size();)
        {
            const uint32_t len = le32(at + 8);
            const std::size_t f = at + 16;
            if (f + len > b.size())
            {
                break;
            }
            const uint16_t type = static_cast<uint16_t>(b[f + 12] << 8 | b[f + 13]);
            if (len >= 16 && type == 0x8808 && b[f + 14] == 0x01 && b[f + 15] == 0x01 &&
                b[f] == 0x01 && b[f + 1] == 0x80 && b[f + 2] == 0xc2)
            {
                ++pfcFrames;
                NS_TEST_EXPECT_MSG_EQ(len, 60u, "PFC frame is 60 bytes + FCS");
            }
            ipv4Frames += type == 0x0800 ? 1 : 0;
            at = f + len;
        }
        NS_TEST_EXPECT_MSG_GT(pfcFrames, 0, "a PFC frame (0x8808, opcode 0x0101) in the pcap");
        NS_TEST_EXPECT_MSG_GT(ipv4Frames, 0, "IPv4 frames (0x0800) in the pcap");
    }

    Config m_c;
};

// ---------------------------------------------------------------------------------------
/// Where the first XOFF fires, against HPCC's SwitchMmu threshold formulas (switch-mmu.cc)
/// evaluated by hand.
class ThresholdTestCase : public TestCase
{
  public:
    ThresholdTestCase(bool dynamic, double alpha)
        : TestCase(dynamic ? "first XOFF at the dynamic threshold Q* (IEEE 802.1Qbb), alpha " +
                                 std::to_string(alpha)
                           : "first XOFF at the static threshold"),
          m_dynamic(dynamic),
          m_alpha(alpha)
    {
    }

  private:
    struct FirstXoff
    {
        Ptr<PfcSwitchBuffer> buffer;
        bool seen = false;
        uint64_t used = 0;    //!< buffer bytes then
        uint64_t pgBytes = 0; //!< the PG's bytes then
    };

    static void OnState(FirstXoff* f, uint32_t port, uint8_t priority, bool paused)
    {
        if (paused && !f->seen)
        {
            f->seen = true;
            f->used = f->buffer->GetUsedBytes();
            f->pgBytes = f->buffer->GetIngressBytes(port, priority);
        }
    }

    void DoRun() override
    {
        const uint32_t n = 8;
        Lab lab(n + 2);
        lab.pfc.SetBufferAttribute("BufferSize", UintegerValue(1 << 20));
        lab.pfc.SetBufferAttribute("Alpha", DoubleValue(m_alpha));
        if (!m_dynamic)
        {
            lab.pfc.SetBufferAttribute("ThresholdMode", StringValue("Static"));
            lab.pfc.SetBufferAttribute("StaticXoff", UintegerValue(30000));
            lab.pfc.SetBufferAttribute("StaticXon", UintegerValue(15000));
        }
        FirstXoff first;
        first.buffer = lab.Switch(n + 1);
        for (uint32_t i = 0; i <= n; ++i)
        {
            lab.Link(i, n + 1);
        }
        Ipv4GlobalRoutingHelper::PopulateRoutingTables();
        first.buffer->TraceConnectWithoutContext("PfcState", MakeBoundCallback(&OnState, &first));
        Sink sink;
        Listen(lab.nodes.Get(n), 9, &sink);
        uint64_t sent = 0;
        for (uint32_t i = 0; i < n; ++i)
        {
            Flow(lab.nodes.Get(i), lab.Addr(n), 9, 0, 500, LINE_INTERVAL, Time(0), &sent);
        }
        Simulator::Stop(MilliSeconds(20));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(first.seen, true, "an XOFF");
        NS_TEST_EXPECT_MSG_EQ(first.buffer->GetDrops(), 0, "lossless");
        NS_TEST_EXPECT_MSG_EQ(sink.packets, sent, "every packet delivered");
        const double frame = QUEUED;
        if (m_dynamic)
        {
            // Headroom per port 2 C d / 8 + 3 (1500 + 38) + 84 = 29,698 B; 9 ports: H =
            // 267,282, R = 9 x 4096 = 36,864, B' = 1,048,576 - H - R = 744,430. With the 8
            // PGs sharing equally, XOFF fires at sigma = alpha (B' - 8 sigma), i.e. sigma =
            // alpha B' / (1 + 8 alpha) (alpha = 1/8: S = Q* = N B' / (N + 2^3) = 372,215), and
            // the buffer holds 8 (sigma + 4096) bytes, within a frame per PG.
            auto at = [](double alpha) { return 8 * (alpha * 744430.0 / (1 + 8 * alpha) + 4096); };
            const double expected = at(m_alpha);
            std::printf("dynamic alpha %.3f: first XOFF with %llu bytes buffered, expected %.0f "
                        "(%.0f at alpha 1/8)\n",
                        m_alpha,
                        static_cast<unsigned long long>(first.used),
                        expected,
                        at(0.125));
            NS_TEST_EXPECT_MSG_LT(std::abs(first.used - expected), 8 * frame, "at Q*");
            if (m_alpha != 0.125)
            {
                // Control: the same check against the other alpha's Q* fails.
                NS_TEST_EXPECT_MSG_GT(std::abs(first.used - at(0.125)), 8 * frame, "control");
            }
        }
        else
        {
            // The PG holds its reserve (4096) + StaticXoff (30000), crossed by < one frame.
            const double expected = 4096 + 30000;
            std::printf("static: first XOFF with %llu bytes in the PG, expected %.0f\n",
                        static_cast<unsigned long long>(first.pgBytes),
                        expected);
            NS_TEST_EXPECT_MSG_GT_OR_EQ(first.pgBytes, expected, "at XOFF");
            NS_TEST_EXPECT_MSG_LT(first.pgBytes, expected + frame, "at XOFF");
        }
        Simulator::Destroy();
    }

    bool m_dynamic;
    double m_alpha;
};

// ---------------------------------------------------------------------------------------
/// The headroom absorbs what arrives after XOFF (IEEE 802.1Qbb), and too little loses.
class HeadroomTestCase : public TestCase
{
  public:
    explicit HeadroomTestCase(uint64_t headroom)
        : TestCase(headroom == 0 ? "default headroom absorbs the bytes in flight after XOFF"
                                 : "headroom of " + std::to_string(headroom) +
                                       " bytes is too small: drops (control)"),
          m_headroom(headroom)
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t n = 8;
        Lab lab(n + 2);
        lab.pfc.SetBufferAttribute("ThresholdMode", StringValue("Static"));
        lab.pfc.SetBufferAttribute("StaticXoff", UintegerValue(30000));
        lab.pfc.SetBufferAttribute("StaticXon", UintegerValue(15000));
        lab.pfc.SetBufferAttribute("Headroom", UintegerValue(m_headroom));
        Ptr<PfcSwitchBuffer> buffer = lab.Switch(n + 1);
        for (uint32_t i = 0; i <= n; ++i)
        {
            lab.Link(i, n + 1);
        }
        Ipv4GlobalRoutingHelper::PopulateRoutingTables();
        Sink sink;
        Listen(lab.nodes.Get(n), 9, &sink);
        uint64_t sent = 0;
        for (uint32_t i = 0; i < n; ++i)
        {
            Flow(lab.nodes.Get(i), lab.Addr(n), 9, 0, 500, LINE_INTERVAL, Time(0), &sent);
        }
        Simulator::Stop(MilliSeconds(20));
        Simulator::Run();
        // After XOFF a PG still receives what the upstream sends for two cable delays
        // (2 C d / 8 = 25,000 bytes at 100 Gb/s and 1 us) plus the frames already started.
        const double inFlight = 2 * RATE_BPS * DELAY.GetSeconds() / 8;
        std::printf("headroom %llu: most used %llu bytes (2Cd/8 = %.0f), drops %llu\n",
                    static_cast<unsigned long long>(buffer->GetHeadroom(0)),
                    static_cast<unsigned long long>(buffer->GetMaxHeadroomUsed()),
                    inFlight,
                    static_cast<unsigned long long>(buffer->GetDrops()));
        if (m_headroom == 0)
        {
            NS_TEST_EXPECT_MSG_EQ(buffer->GetDrops(), 0, "lossless");
            NS_TEST_EXPECT_MSG_EQ(sink.packets, sent, "every packet delivered");
            NS_TEST_EXPECT_MSG_GT(buffer->GetMaxHeadroomUsed(), inFlight, "in-flight bytes");
            NS_TEST_EXPECT_MSG_LT_OR_EQ(buffer->GetMaxHeadroomUsed(),
                                        buffer->GetHeadroom(0),
                                        "within the headroom");
        }
        else
        {
            NS_TEST_EXPECT_MSG_GT(buffer->GetDrops(), 0, "too little headroom loses");
            NS_TEST_EXPECT_MSG_EQ(sink.packets + buffer->GetDrops(), sent, "all accounted");
        }
        Simulator::Destroy();
    }

    uint64_t m_headroom;
};

// ---------------------------------------------------------------------------------------
/// A NIC told to pause (PfcNetDevice::SendPfc): the switch port stops for exactly the
/// XOFF-XON interval, the switch pauses the sender in turn, nothing is lost.
class NicPauseTestCase : public TestCase
{
  public:
    explicit NicPauseTestCase(bool pause)
        : TestCase(pause ? "a receiver NIC pauses its switch port for 50 us"
                         : "the same flow without the NIC pause (control)"),
          m_pause(pause)
    {
    }

  private:
    void DoRun() override
    {
        Lab lab(3); // 0 sender, 1 receiver, 2 switch
        lab.pfc.SetBufferAttribute("BufferSize", UintegerValue(1 << 20));
        lab.Switch(2);
        const uint32_t in = lab.Link(0, 2);
        const uint32_t out = lab.Link(1, 2);
        Ipv4GlobalRoutingHelper::PopulateRoutingTables();
        Ptr<PfcNetDevice> nic = lab.Dev(out, 0);
        if (m_pause)
        {
            Simulator::Schedule(MicroSeconds(20), &PfcNetDevice::SendPfc, nic, DATA, 0xFFFF);
            Simulator::Schedule(MicroSeconds(70), &PfcNetDevice::SendPfc, nic, DATA, 0);
        }
        Sink sink;
        Listen(lab.nodes.Get(1), 9, &sink);
        uint64_t sent = 0;
        const uint32_t count = 2000;
        Flow(lab.nodes.Get(0), lab.Addr(1), 9, 0, count, LINE_INTERVAL, Time(0), &sent);
        Simulator::Stop(MilliSeconds(5));
        Simulator::Run();
        // 2000 x 86 ns + one serialization + two cables = 174.086 us, plus the pause.
        const double expected =
            count * 86e-9 + 86e-9 + 2 * DELAY.GetSeconds() + (m_pause ? 50e-6 : 0);
        const Time paused = lab.Dev(out, 1)->GetPausedTime(DATA);
        std::printf("NIC pause %d: switch port paused %.3f us, sender paused %.3f us, done at "
                    "%.3f us (expected %.3f)\n",
                    m_pause,
                    paused.GetSeconds() * 1e6,
                    lab.Dev(in, 0)->GetPausedTime(DATA).GetSeconds() * 1e6,
                    sink.last.GetSeconds() * 1e6,
                    expected * 1e6);
        NS_TEST_EXPECT_MSG_EQ(sink.packets, sent, "lossless");
        NS_TEST_EXPECT_MSG_LT(std::abs(sink.last.GetSeconds() - expected) / expected,
                              0.005,
                              "completion delayed by the pause only");
        if (m_pause)
        {
            NS_TEST_EXPECT_MSG_EQ(nic->GetPausesSent(DATA), 1, "one XOFF");
            NS_TEST_EXPECT_MSG_EQ(nic->GetResumesSent(DATA), 1, "one XON");
            NS_TEST_EXPECT_MSG_LT(std::abs((paused - MicroSeconds(50)).GetNanoSeconds()),
                                  2,
                                  "paused from XOFF to XON");
            NS_TEST_EXPECT_MSG_GT(lab.Dev(in, 0)->GetPausesReceived(DATA),
                                  0,
                                  "the switch paused the sender in turn");
        }
        else
        {
            NS_TEST_EXPECT_MSG_EQ(paused, Time(0), "no pause");
        }
        Simulator::Destroy();
    }

    bool m_pause;
};

// ---------------------------------------------------------------------------------------
/**
 * Two hops: S1 - A - B - R, and (congested) 3 senders on B to R. B pauses its port facing
 * A, A's egress stops, A's queue fills and A pauses S1: propagation from the model alone.
 * A victim V on A sends to R2 on B (an uncongested port) through the same paused ingress.
 */
class PropagationTestCase : public TestCase
{
  public:
    explicit PropagationTestCase(bool congested)
        : TestCase(congested ? "pause propagates two hops upstream and blocks a victim flow"
                             : "no congestion: no pause, the victim runs at its rate (control)"),
          m_congested(congested)
    {
    }

  private:
    void DoRun() override
    {
        // 0 S1, 1-3 B1-B3, 4 R, 5 A, 6 B, 7 V, 8 R2
        Lab lab(9);
        lab.pfc.SetBufferAttribute("BufferSize", UintegerValue(1 << 20));
        lab.Switch(5);
        lab.Switch(6);
        const uint32_t s1a = lab.Link(0, 5);
        const uint32_t ab = lab.Link(5, 6);
        lab.Link(1, 6);
        lab.Link(2, 6);
        lab.Link(3, 6);
        lab.Link(4, 6);
        lab.Link(7, 5);
        lab.Link(8, 6);
        Ipv4GlobalRoutingHelper::PopulateRoutingTables();
        Sink sink;
        Sink victim;
        Listen(lab.nodes.Get(4), 9, &sink);
        Listen(lab.nodes.Get(8), 9, &victim);
        uint64_t sent = 0;
        uint64_t victimSent = 0;
        const uint32_t count = 1000;
        // S1 and V at half the line rate each: the A-B link alone is not congested.
        Flow(lab.nodes.Get(0), lab.Addr(4), 9, 0, 2 * count, LINE_INTERVAL * 2, Time(0), &sent);
        Flow(lab.nodes.Get(7), lab.Addr(8), 9, 0, count, LINE_INTERVAL * 2, Time(0), &victimSent);
        for (uint32_t i = 1; m_congested && i <= 3; ++i)
        {
            Flow(lab.nodes.Get(i), lab.Addr(4), 9, 0, 4 * count, LINE_INTERVAL, Time(0), &sent);
        }
        Simulator::Stop(MilliSeconds(50));
        Simulator::Run();
        const uint64_t bPausesA = lab.Dev(ab, 1)->GetPausesSent(DATA);
        const uint64_t aPaused = lab.Dev(ab, 0)->GetPausesReceived(DATA);
        const uint64_t aPausesS1 = lab.Dev(s1a, 1)->GetPausesSent(DATA);
        const uint64_t s1Paused = lab.Dev(s1a, 0)->GetPausesReceived(DATA);
        // Unblocked, the victim's last packet is sent 999 intervals of 2 x 86 ns after its
        // first and arrives three serializations (86 ns) and three cables (1 us) later.
        const double ideal = (count - 1) * 2 * 86e-9 + 3 * 86e-9 + 3 * DELAY.GetSeconds();
        const double victimTime = victim.last.GetSeconds();
        std::printf("%s: B->A pauses %llu, A paused %llu, A->S1 pauses %llu, S1 paused %llu, "
                    "A-B paused %.1f us; victim done at %.1f us (%.2fx its unblocked time)\n",
                    m_congested ? "congested" : "control",
                    static_cast<unsigned long long>(bPausesA),
                    static_cast<unsigned long long>(aPaused),
                    static_cast<unsigned long long>(aPausesS1),
                    static_cast<unsigned long long>(s1Paused),
                    lab.Dev(ab, 0)->GetPausedTime(DATA).GetMicroSeconds() * 1.0,
                    victimTime * 1e6,
                    victimTime / ideal);
        NS_TEST_EXPECT_MSG_EQ(BufferDrops(lab), 0, "lossless");
        NS_TEST_EXPECT_MSG_EQ(sink.packets, sent, "every packet to R delivered");
        NS_TEST_EXPECT_MSG_EQ(victim.packets, victimSent, "every victim packet delivered");
        if (m_congested)
        {
            NS_TEST_EXPECT_MSG_GT(bPausesA, 0, "B paused its ingress from A");
            NS_TEST_EXPECT_MSG_GT(aPaused, 0, "A's egress to B was paused");
            NS_TEST_EXPECT_MSG_GT(aPausesS1, 0, "A paused its ingress from S1 in turn");
            NS_TEST_EXPECT_MSG_GT(s1Paused, 0, "S1's NIC was paused");
            NS_TEST_EXPECT_MSG_GT(victimTime / ideal, 1.5, "the victim flow is slowed (HoL)");
        }
        else
        {
            NS_TEST_EXPECT_MSG_EQ(bPausesA + aPaused + aPausesS1 + s1Paused, 0, "no pause");
            NS_TEST_EXPECT_MSG_LT(std::abs(victimTime / ideal - 1),
                                  0.005,
                                  "the victim runs at its rate");
        }
        Simulator::Destroy();
    }

    bool m_congested;
};

// ---------------------------------------------------------------------------------------
/**
 * V1: a queue held at a steady q. Sender B adds M packets at line rate while sender A sends
 * at line rate for longer; once B stops, the switch egress to R holds M packets (M x 1051
 * bytes) and A's later packets see that queue. Their marked fraction is compared with p(q).
 */
class EcnTestCase : public TestCase
{
  public:
    struct Config
    {
        std::string name;
        uint64_t kmin;
        uint64_t kmax;
        double pmax;
        bool dequeue;
        uint8_t tos;
        bool requiresEct;
        double expected; //!< hand-computed p(q), < 0: not checked (see check)
    };

    explicit EcnTestCase(Config c)
        : TestCase("ECN V1: " + c.name),
          m_c(c)
    {
    }

    /// \return marked and counted packets of one run
    static std::pair<uint64_t, uint64_t> RunOnce(const Config& c, uint32_t runNumber)
    {
        RngSeedManager::SetSeed(1);
        RngSeedManager::SetRun(runNumber);
        const uint32_t m = 571; // q = 571 x 1051 = 600,121 bytes
        const uint32_t count = 6000;
        Lab lab(4); // 0 A, 1 B, 2 R, 3 switch
        lab.Switch(3);
        lab.Link(0, 3);
        lab.Link(1, 3);
        const uint32_t toR = lab.Link(2, 3);
        Ptr<PfcNetDevice> port = lab.Dev(toR, 1);
        port->SetAttribute("EcnEnabled", BooleanValue(true));
        port->SetAttribute("EcnKmin", UintegerValue(c.kmin));
        port->SetAttribute("EcnKmax", UintegerValue(c.kmax));
        port->SetAttribute("EcnPmax", DoubleValue(c.pmax));
        port->SetAttribute("MarkPoint", StringValue(c.dequeue ? "Dequeue" : "Enqueue"));
        port->SetAttribute("EcnRequiresEct", BooleanValue(c.requiresEct));
        port->AssignStreams(7);
        Ipv4GlobalRoutingHelper::PopulateRoutingTables();
        Sink sink;
        // Sent after B's burst, into the steady queue, and dequeued before A stops (the last
        // M packets leave a draining queue).
        sink.seqFrom = m + 20;
        sink.seqTo = count - m - 20;
        Sink other;
        Listen(lab.nodes.Get(2), 9, &sink);
        Listen(lab.nodes.Get(2), 10, &other);
        uint64_t sent = 0;
        Flow(lab.nodes.Get(0), lab.Addr(2), 9, c.tos, count, LINE_INTERVAL, Time(0), &sent);
        Flow(lab.nodes.Get(1), lab.Addr(2), 10, c.tos, m, LINE_INTERVAL, Time(0), &sent);
        Simulator::Stop(MilliSeconds(5));
        Simulator::Run();
        Simulator::Destroy();
        return {sink.marked, sink.counted};
    }

  private:
    void DoRun() override
    {
        auto [marked, counted] = RunOnce(m_c, 1);
        NS_TEST_ASSERT_MSG_EQ(counted, 6000 - 2 * 591, "every steady-state packet arrived");
        const double fraction = double(marked) / counted;
        const double p = m_c.expected;
        // 99% binomial interval (normal approximation; exact at p = 0 or 1).
        const double half = 2.576 * std::sqrt(p * (1 - p) / counted);
        std::printf("ECN %s: %llu of %llu marked = %.4f, p(q) = %.4f +- %.4f\n",
                    m_c.name.c_str(),
                    static_cast<unsigned long long>(marked),
                    static_cast<unsigned long long>(counted),
                    fraction,
                    p,
                    half);
        NS_TEST_EXPECT_MSG_LT_OR_EQ(std::abs(fraction - p), half, "marked fraction = p(q)");
        if (p > 0 && p < 1)
        {
            auto again = RunOnce(m_c, 1);
            NS_TEST_EXPECT_MSG_EQ(again.first, marked, "same seed, same marks");
        }
    }

    Config m_c;
};

// ---------------------------------------------------------------------------------------
/// Bad attributes are refused with one line; good ones are accepted (control).
class BadAttributeTestCase : public TestCase
{
  public:
    BadAttributeTestCase()
        : TestCase("bad attributes refused with one line")
    {
    }

  private:
    /// \return the message of what `f` threw ("" when it did not)
    template <typename F>
    static std::string Refusal(F f)
    {
        try
        {
            f();
        }
        catch (const std::invalid_argument& e)
        {
            return e.what();
        }
        return "";
    }

    void Expect(const std::string& message, const std::string& field)
    {
        NS_TEST_EXPECT_MSG_NE(message.find(field),
                              std::string::npos,
                              "refusal names " << field << ": '" << message << "'");
        NS_TEST_EXPECT_MSG_EQ(message.find('\n'), std::string::npos, "one line");
    }

    void DoRun() override
    {
        NodeContainer nodes;
        nodes.Create(2);
        {
            PfcHelper h;
            h.SetBufferAttribute("ThresholdMode", StringValue("Static"));
            h.SetBufferAttribute("StaticXoff", UintegerValue(10000));
            h.SetBufferAttribute("StaticXon", UintegerValue(20000));
            Expect(Refusal([&] { h.InstallSwitchBuffer(nodes.Get(0)); }), "StaticXon");
        }
        {
            PfcHelper h;
            h.SetDeviceAttribute("EcnKmin", UintegerValue(500000));
            h.SetDeviceAttribute("EcnKmax", UintegerValue(100000));
            Expect(Refusal([&] { h.Install(nodes.Get(0), nodes.Get(1)); }), "EcnKmin");
        }
        {
            PfcHelper h;
            h.SetDeviceAttribute("DscpMap", StringValue("48:9"));
            Expect(Refusal([&] { h.Install(nodes.Get(0), nodes.Get(1)); }), "DscpMap");
        }
        {
            Ptr<PfcNetDevice> d = CreateObject<PfcNetDevice>();
            NS_TEST_EXPECT_MSG_EQ(d->SetAttributeFailSafe("EcnPmax", DoubleValue(1.5)),
                                  false,
                                  "Pmax 1.5 refused");
            NS_TEST_EXPECT_MSG_EQ(d->SetAttributeFailSafe("EcnPmax", DoubleValue(-0.1)),
                                  false,
                                  "Pmax -0.1 refused");
            NS_TEST_EXPECT_MSG_EQ(d->SetAttributeFailSafe("EcnPmax", DoubleValue(0.3)),
                                  true,
                                  "Pmax 0.3 accepted (control)");
        }
        {
            NodeContainer sw;
            sw.Create(2);
            PfcHelper h;
            h.SetBufferAttribute("BufferSize", UintegerValue(20000)); // < one port's headroom
            h.InstallSwitchBuffer(sw.Get(0));
            Expect(Refusal([&] { h.Install(sw.Get(0), sw.Get(1)); }), "BufferSize");
        }
        {
            Ptr<ClosFabricHelper> f = CreateObject<ClosFabricHelper>();
            NS_TEST_EXPECT_MSG_EQ(f->SetAttributeFailSafe("LinkLayer", StringValue("infiniband")),
                                  false,
                                  "unknown LinkLayer refused");
            f->SetAttribute("LinkLayer", StringValue("pfc"));
            f->SetAttribute("OcsCount", UintegerValue(8));
            Expect(Refusal([&] { f->Install(); }), "LinkLayer=pfc");
        }
        {
            // Control: consistent attributes pass.
            NodeContainer sw;
            sw.Create(2);
            PfcHelper h;
            h.SetBufferAttribute("ThresholdMode", StringValue("Static"));
            h.SetBufferAttribute("StaticXoff", UintegerValue(20000));
            h.SetBufferAttribute("StaticXon", UintegerValue(10000));
            h.SetDeviceAttribute("DscpMap", StringValue("48:7,26:5"));
            h.InstallSwitchBuffer(sw.Get(0));
            NS_TEST_EXPECT_MSG_EQ(Refusal([&] { h.Install(sw.Get(0), sw.Get(1)); }),
                                  "",
                                  "consistent attributes accepted");
        }
        Simulator::Destroy();
    }
};

// ---------------------------------------------------------------------------------------
/// The fabric with LinkLayer pfc: a 3:1 UDP incast across leaves, lossless or lossy.
class FabricTestCase : public TestCase
{
  public:
    explicit FabricTestCase(bool pfc)
        : TestCase(pfc ? "fabric LinkLayer=pfc: lossless incast, tracker, pcap"
                       : "fabric LinkLayer=pfc, PfcEnabled=false: drops reach the tracker"),
          m_pfc(pfc)
    {
    }

  private:
    void DoRun() override
    {
        Ptr<ClosFabricHelper> helper = CreateObject<ClosFabricHelper>();
        helper->SetAttribute("LinkLayer", StringValue("pfc"));
        helper->SetAttribute("Leaves", UintegerValue(2));
        helper->SetAttribute("Spines", UintegerValue(2));
        helper->SetAttribute("ServersPerLeaf", UintegerValue(2));
        helper->SetAttribute("GpusPerServer", UintegerValue(1));
        helper->SetPfcBufferAttribute("BufferSize", UintegerValue(400000));
        helper->SetPfcBufferAttribute("PfcEnabled", BooleanValue(m_pfc));
        helper->SetPfcDeviceAttribute("EcnEnabled", BooleanValue(true));
        helper->SetPfcDeviceAttribute("EcnKmin", UintegerValue(10000));
        helper->SetPfcDeviceAttribute("EcnKmax", UintegerValue(20000));
        Ptr<ClosFabric> fabric = helper->Install();
        helper->AssignStreams(fabric, 1);
        Ptr<ClosLinkLoadTracker> tracker = CreateObject<ClosLinkLoadTracker>();
        tracker->Install(fabric);
        if (m_pfc)
        {
            helper->EnablePcap(CreateTempDirFilename("fabric"), fabric);
        }
        Sink sink;
        Listen(fabric->GetGpus().Get(0), 9, &sink);
        uint64_t sent = 0;
        const uint32_t count = 400;
        for (uint32_t g = 1; g < 4; ++g)
        {
            Flow(fabric->GetGpus().Get(g),
                 fabric->GetGpuAddress(0),
                 9,
                 TOS_ECT0,
                 count,
                 LINE_INTERVAL,
                 Time(0),
                 &sent);
        }
        Simulator::Stop(MilliSeconds(20));
        Simulator::Run();
        uint64_t drops = 0;
        uint64_t pauses = 0;
        for (auto* set : {&fabric->GetLeaves(), &fabric->GetSpines()})
        {
            for (uint32_t i = 0; i < set->GetN(); ++i)
            {
                Ptr<PfcSwitchBuffer> b = set->Get(i)->GetObject<PfcSwitchBuffer>();
                NS_TEST_ASSERT_MSG_NE(b, nullptr, "every switch has a buffer");
                drops += b->GetDrops();
                pauses += b->GetPausesSent();
            }
        }
        std::printf("fabric pfc=%d: sent %llu, received %llu, drops %llu (tracker %llu), "
                    "pauses %llu, flows tracked %zu\n",
                    m_pfc,
                    static_cast<unsigned long long>(sent),
                    static_cast<unsigned long long>(sink.packets),
                    static_cast<unsigned long long>(drops),
                    static_cast<unsigned long long>(tracker->GetTotalDrops()),
                    static_cast<unsigned long long>(pauses),
                    tracker->GetFlows().size());
        uint64_t nicMarks = 0;
        uint64_t switchMarks = 0;
        for (const ClusterLink& link : fabric->GetLinks())
        {
            const uint64_t marks = DynamicCast<PfcNetDevice>(link.device)->GetEcnMarks();
            (link.kind == ClusterLink::GPU_TO_LEAF ? nicMarks : switchMarks) += marks;
        }
        std::printf("  ECN marks: switch ports %llu, NICs %llu\n",
                    static_cast<unsigned long long>(switchMarks),
                    static_cast<unsigned long long>(nicMarks));
        NS_TEST_EXPECT_MSG_GT(switchMarks, 0, "switch ports mark");
        NS_TEST_EXPECT_MSG_EQ(nicMarks, 0, "NICs never mark");
        NS_TEST_EXPECT_MSG_EQ(tracker->GetFlows().size(), 3, "the tracker sees the 3 flows");
        NS_TEST_EXPECT_MSG_EQ(tracker->GetTotalDrops(), drops, "tracker counts the drops");
        if (m_pfc)
        {
            NS_TEST_EXPECT_MSG_EQ(drops, 0, "lossless");
            NS_TEST_EXPECT_MSG_GT(pauses, 0, "PFC fired");
            NS_TEST_EXPECT_MSG_EQ(sink.packets, sent, "every packet delivered");
            for (const auto& flow : tracker->GetFlows())
            {
                NS_TEST_EXPECT_MSG_EQ(flow.bytes, uint64_t{count} * (PAYLOAD + 28), "flow bytes");
            }
        }
        else
        {
            NS_TEST_EXPECT_MSG_GT(drops, 0, "lossy: drops");
            NS_TEST_EXPECT_MSG_EQ(sink.packets + drops, sent, "sent = received + drops");
        }
        Simulator::Destroy();
        if (m_pfc)
        {
            std::ifstream pcap(CreateTempDirFilename("fabric") + "-" +
                               std::to_string(fabric->GetGpus().Get(0)->GetId()) + "-1.pcap");
            NS_TEST_EXPECT_MSG_EQ(pcap.good(), true, "pcap of GPU 0's NIC written");
        }
    }

    bool m_pfc;
};

class VclosPfcTestSuite : public TestSuite
{
  public:
    VclosPfcTestSuite()
        : TestSuite("pfc-net-device", UNIT)
    {
        AddTestCase(new IncastTestCase({"V5: 8:1 incast with PFC: lossless, closed-form "
                                        "completion, pcap",
                                        true,
                                        false,
                                        0,
                                        Time(0),
                                        false}),
                    TestCase::QUICK);
        AddTestCase(new IncastTestCase({"V6: the same incast without PFC drops (negative "
                                        "control)",
                                        false,
                                        true,
                                        0,
                                        Time(0),
                                        false}),
                    TestCase::QUICK);
        // 200 quanta = 1.024 us at 100 Gb/s: refreshed every 0.512 us the pause holds;
        // refreshed only every 500 us it lapses and the headroom overflows; with XonXoff the
        // time is ignored and nothing is lost without refreshes.
        AddTestCase(new IncastTestCase({"short timed pauses, refreshed: lossless",
                                        true,
                                        false,
                                        200,
                                        NanoSeconds(512),
                                        false}),
                    TestCase::QUICK);
        AddTestCase(new IncastTestCase({"short timed pauses, not refreshed: drops (control)",
                                        true,
                                        true,
                                        200,
                                        MicroSeconds(500),
                                        false}),
                    TestCase::QUICK);
        AddTestCase(new IncastTestCase({"XonXoff pauses ignore the time: lossless",
                                        true,
                                        false,
                                        200,
                                        MicroSeconds(500),
                                        true}),
                    TestCase::QUICK);
        AddTestCase(new ThresholdTestCase(true, 0.125), TestCase::QUICK);
        AddTestCase(new ThresholdTestCase(true, 0.5), TestCase::QUICK);
        AddTestCase(new ThresholdTestCase(false, 0.125), TestCase::QUICK);
        AddTestCase(new HeadroomTestCase(0), TestCase::QUICK);
        AddTestCase(new HeadroomTestCase(20000), TestCase::QUICK);
        AddTestCase(new NicPauseTestCase(true), TestCase::QUICK);
        AddTestCase(new NicPauseTestCase(false), TestCase::QUICK);
        AddTestCase(new PropagationTestCase(true), TestCase::QUICK);
        AddTestCase(new PropagationTestCase(false), TestCase::QUICK);
        // q = 571 x 1051 = 600,121 B. p(q) = Pmax (q - Kmin) / (Kmax - Kmin), by hand.
        const double mid = 0.5 * (600121.0 - 100000) / 1000000;
        AddTestCase(
            new EcnTestCase(
                {"Kmin < q < Kmax, enqueue", 100000, 1100000, 0.5, false, TOS_ECT0, true, mid}),
            TestCase::QUICK);
        AddTestCase(
            new EcnTestCase(
                {"Kmin < q < Kmax, dequeue", 100000, 1100000, 0.5, true, TOS_ECT0, true, mid}),
            TestCase::QUICK);
        AddTestCase(new EcnTestCase({"q < Kmin", 700000, 1100000, 0.5, true, TOS_ECT0, true, 0.0}),
                    TestCase::QUICK);
        AddTestCase(new EcnTestCase({"q > Kmax", 100000, 500000, 0.5, true, TOS_ECT0, true, 1.0}),
                    TestCase::QUICK);
        AddTestCase(new EcnTestCase({"not ECT", 100000, 500000, 0.5, true, 0, true, 0.0}),
                    TestCase::QUICK);
        AddTestCase(
            new EcnTestCase(
                {"not ECT, EcnRequiresEct=false", 100000, 500000, 0.5, true, 0, false, 1.0}),
            TestCase::QUICK);
        AddTestCase(new EcnTestCase({"control class (DSCP 48) never marked",
                                     100000,
                                     500000,
                                     0.5,
                                     true,
                                     (48 << 2) | TOS_ECT0,
                                     true,
                                     0.0}),
                    TestCase::QUICK);
        AddTestCase(new BadAttributeTestCase(), TestCase::QUICK);
        AddTestCase(new FabricTestCase(true), TestCase::QUICK);
        AddTestCase(new FabricTestCase(false), TestCase::QUICK);
    }
};

VclosPfcTestSuite g_vclosPfcTestSuite;

} // namespace

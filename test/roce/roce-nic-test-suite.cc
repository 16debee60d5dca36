/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// RoCEv2 queue pairs (IBTA RoCEv2 annex A17) on real point-to-point links: a transfer
// arrives complete and in order in the time the header arithmetic predicts; go-back-N and
// the retransmission timer recover losses (and without the timer a lost tail stalls); the
// pcap holds UDP port 4791 and the BTH bytes where IBTA puts them; a rate controller
// paces the QP and hears the CNPs a CE-marking queue causes; runs repeat themselves.
// Tests: roce-nic, roce-qp, roce-header
#include "ns3/boolean.h"
#include "ns3/clos-fabric-helper.h"
#include "ns3/clos-fabric.h"
#include "ns3/cluster-flow-hash.h"
#include "ns3/collective-app.h"
#include "ns3/collective-helper.h"
#include "ns3/collective-tracker.h"
#include "ns3/config.h"
#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/error-model.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/ipv4-global-routing-helper.h"
#include "ns3/point-to-point-helper.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/pointer.h"
#include "ns3/queue-disc-container.h"
#include "ns3/queue-size.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/roce-helper.h"
#include "ns3/roce-rate-control.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/suite-run-status.h"
#include "ns3/test.h"
#include "ns3/traffic-control-helper.h"
#include "ns3/traffic-control-layer.h"
#include "ns3/uinteger.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <stdexcept>
#include <utility>
#include <vector>

using namespace ns3;

namespace
{

/// Header bytes of a WRITE MIDDLE/LAST packet on a point-to-point link, from the RoCEv2 annex, the
/// DCQCN paper and IEEE 802.1Qbb 1.1 (not from the code): PPP 2 + IPv4 20 + UDP 8 + BTH 12.
/// FIRST/ONLY add a RETH (16).
constexpr uint32_t HEADERS = 2 + 20 + 8 + 12;
constexpr uint32_t RETH = 16;
/// An ACK on the wire: PPP 2 + IPv4 20 + UDP 8 + BTH 12 + AETH 4.
constexpr uint32_t ACK_WIRE = 2 + 20 + 8 + 12 + 4;

/// NIC attributes as (name, value) strings.
using Attributes = std::vector<std::pair<std::string, std::string>>;

/// Two hosts a -> b (or a -> router -> b), one QP from a to b, and what b received.
struct Rig
{
    NodeContainer nodes;                             //!< a, b (and the router, last)
    NetDeviceContainer ab;                           //!< the first link's devices
    std::vector<Ptr<RoceNic>> nics;                  //!< on a and b
    Ptr<RoceQp> qp;                                  //!< requester on a
    Ptr<RoceQp> responder;                           //!< on b (accept callback)
    uint64_t delivered = 0;                          //!< data callback bytes
    uint64_t acked = 0;                              //!< send-complete callback bytes
    uint32_t accepts = 0;                            //!< accept callbacks
    Time done = Seconds(-1);                         //!< when acked reached the posted bytes
    std::vector<uint32_t> rxPsns;                    //!< PSNs of data packets b's device received
    std::vector<std::pair<int64_t, uint32_t>> txLog; //!< (ns, PSN) of every data packet sent
};

/// Builds a -- b at \p rate with \p delay; jumbo MTU; NICs with \p attributes.
void
BuildPair(Rig& rig, const std::string& rate, const Time& delay, const Attributes& attributes)
{
    rig.nodes.Create(2);
    PointToPointHelper link;
    link.SetDeviceAttribute("DataRate", StringValue(rate));
    link.SetDeviceAttribute("Mtu", UintegerValue(9000));
    link.SetChannelAttribute("Delay", TimeValue(delay));
    rig.ab = link.Install(rig.nodes);
    InternetStackHelper().Install(rig.nodes);
    Ipv4AddressHelper("10.0.0.0", "255.255.255.0").Assign(rig.ab);
}

/// Installs the NICs, connects a to b and hooks the callbacks.
void
ConnectRig(Rig& rig, const Attributes& attributes, Ipv4Address to)
{
    RoceHelper rdma;
    for (const auto& [name, value] : attributes)
    {
        rdma.SetNicAttribute(name, StringValue(value));
    }
    NodeContainer hosts(rig.nodes.Get(0), rig.nodes.Get(1));
    rig.nics = rdma.Install(hosts);
    Rig* r = &rig;
    rig.nics[1]->SetAcceptCallback(
        Callback<void, Ptr<RoceQp>, Ipv4Address>([r](Ptr<RoceQp> qp, Ipv4Address) {
            ++r->accepts;
            r->responder = qp;
            qp->SetDataCallback(Callback<void, Ptr<RoceQp>, uint32_t>(
                [r](Ptr<RoceQp>, uint32_t bytes) { r->delivered += bytes; }));
        }));
    rig.qp = rig.nics[0]->Connect(to);
    rig.qp->SetSendCompleteCallback(
        Callback<void, Ptr<RoceQp>, uint64_t>([r](Ptr<RoceQp> qp, uint64_t bytes) {
            r->acked += bytes;
            if (r->acked == qp->GetBytesPosted())
            {
                r->done = Simulator::Now();
            }
        }));
    rig.qp->TraceConnectWithoutContext("DataTx",
                                       MakeCallback(+[](Rig* r, uint32_t psn, uint32_t, bool) {
                                           r->txLog.emplace_back(Simulator::Now().GetNanoSeconds(),
                                                                 psn);
                                       }).Bind(r));
    // The PSN of every data packet b's device receives, read from the bytes.
    rig.ab.Get(1)->TraceConnectWithoutContext(
        "MacRx",
        MakeCallback(+[](Rig* r, Ptr<const Packet> packet) {
            // PPP 2, IPv4 20, UDP 8, then the BTH: opcode at 0, PSN at 9..11.
            uint8_t bytes[42];
            const uint32_t bth = 2 + 20 + 8;
            if (packet->CopyData(bytes, sizeof(bytes)) == sizeof(bytes) && bytes[bth] < 0x11)
            {
                r->rxPsns.push_back((bytes[bth + 9] << 16) | (bytes[bth + 10] << 8) |
                                    bytes[bth + 11]);
            }
        }).Bind(r));
}

/// b's device drops the data packets it receives with these indices (0 = first received).
void
DropReceived(Rig& rig, const std::list<uint32_t>& indices)
{
    Ptr<ReceiveListErrorModel> model = CreateObject<ReceiveListErrorModel>();
    model->SetList(indices);
    rig.ab.Get(1)->SetAttribute("ReceiveErrorModel", PointerValue(model));
}

/// Packets of a message of \p bytes with \p mtu payload.
uint64_t
Packets(uint64_t bytes, uint32_t mtu)
{
    return (bytes + mtu - 1) / mtu;
}

/// Closed form of a transfer's time (IBTA Vol. 1 ch. 9 overheads): every byte of every packet
/// at \p rate, plus the last packet's propagation and its ACK's way back.
double
ClosedFormSeconds(uint64_t bytes, uint32_t mtu, double rateBps, double delaySeconds)
{
    const uint64_t packets = Packets(bytes, mtu);
    const double wireBytes = bytes + double(packets) * HEADERS + RETH;
    return wireBytes * 8 / rateBps + 2 * delaySeconds + ACK_WIRE * 8 / rateBps;
}

/// A 10 MB message: complete, in order, bytes conserved, time = closed form within 2%.
class RoceRdmaTransferTest : public TestCase
{
  public:
    RoceRdmaTransferTest()
        : TestCase("a 10 MB WRITE arrives complete and in order in the closed-form time")
    {
    }

  private:
    /// \return the relative error of the measured time against the Mtu=4096 closed form
    double Run(uint32_t mtu, Rig& rig)
    {
        const uint64_t bytes = 10000000;
        BuildPair(rig, "100Gbps", MicroSeconds(1), {});
        ConnectRig(rig, {{"Mtu", std::to_string(mtu)}}, Ipv4Address("10.0.0.2"));
        rig.qp->Send(bytes);
        Simulator::Run();
        const double expected = ClosedFormSeconds(bytes, 4096, 100e9, 1e-6);
        const double error = std::abs(rig.done.GetSeconds() - expected) / expected;
        std::printf("Mtu=%u: %.3f us, closed form (Mtu 4096) %.3f us, error %.3f%%\n",
                    mtu,
                    rig.done.GetSeconds() * 1e6,
                    expected * 1e6,
                    error * 100);
        Simulator::Destroy();
        return error;
    }

    void DoRun() override
    {
        const uint64_t bytes = 10000000;
        Rig rig;
        const double error = Run(4096, rig);
        NS_TEST_ASSERT_MSG_EQ(rig.delivered, bytes, "every byte delivered");
        NS_TEST_ASSERT_MSG_EQ(rig.acked, bytes, "every byte acknowledged");
        NS_TEST_ASSERT_MSG_EQ(rig.accepts, 1, "one responder accepted");
        NS_TEST_ASSERT_MSG_EQ(rig.responder->GetBytesDelivered(), bytes, "responder count");
        NS_TEST_ASSERT_MSG_EQ(rig.qp->GetRetransmittedBytes(), 0, "nothing lost, nothing resent");
        NS_TEST_ASSERT_MSG_EQ(rig.rxPsns.size(), Packets(bytes, 4096), "one packet per 4096 B");
        for (uint32_t k = 0; k < rig.rxPsns.size(); ++k)
        {
            NS_TEST_ASSERT_MSG_EQ(rig.rxPsns[k], k, "PSNs arrive in order");
        }
        NS_TEST_ASSERT_MSG_LT(error, 0.02, "time matches the closed form within 2%");
        // Negative control: at Mtu=256 the headers cost 16%, and the same check fails.
        Rig small;
        const double smallError = Run(256, small);
        NS_TEST_ASSERT_MSG_EQ(small.delivered, bytes, "Mtu 256 also delivers everything");
        NS_TEST_ASSERT_MSG_GT(smallError, 0.02, "the check sees the header overhead");
    }
};

/// Go-back-N: one lost packet costs what the NAK's round trip lets through, exactly.
class RoceRdmaGoBackNTest : public TestCase
{
  public:
    RoceRdmaGoBackNTest()
        : TestCase("go-back-N: a single drop retransmits the predicted bytes; many drops heal")
    {
    }

  private:
    void DoRun() override
    {
        const uint64_t bytes = 1000000; // 245 packets
        const uint32_t lost = 100;
        {
            Rig rig;
            BuildPair(rig, "100Gbps", MicroSeconds(1), {});
            ConnectRig(rig, {}, Ipv4Address("10.0.0.2"));
            DropReceived(rig, {lost});
            rig.qp->Send(bytes);
            Simulator::Run();
            // By hand: packet lost+1 reaches b T + d after it left; the NAK is back T_ack + d
            // later. Packets lost+1+m left a at m*T, so m <= (T + 2d + T_ack) / T went out
            // before the NAK; go-back-N sends packets lost .. lost+1+mMax again.
            DataRate rate("100Gbps");
            const int64_t t = rate.CalculateBytesTxTime(4096 + HEADERS).GetNanoSeconds();
            const int64_t tAck = rate.CalculateBytesTxTime(ACK_WIRE).GetNanoSeconds();
            const int64_t window = t + 2 * 1000 + tAck;
            NS_TEST_ASSERT_MSG_NE(window % t, 0, "no tie between the NAK and a send");
            const uint64_t resent = 2 + window / t;
            std::printf("single drop: T=%ld ns, predicted %lu packets, resent %lu bytes\n",
                        static_cast<long>(t),
                        static_cast<unsigned long>(resent),
                        static_cast<unsigned long>(rig.qp->GetRetransmittedBytes()));
            NS_TEST_ASSERT_MSG_EQ(rig.delivered, bytes, "every byte delivered");
            NS_TEST_ASSERT_MSG_EQ(rig.acked, bytes, "every byte acknowledged");
            NS_TEST_ASSERT_MSG_EQ(rig.qp->GetNaks(), 1, "one NAK (the others suppressed)");
            NS_TEST_ASSERT_MSG_EQ(rig.responder->GetNaks(), 1, "the responder sent one");
            NS_TEST_ASSERT_MSG_EQ(rig.qp->GetTimeouts(), 0, "the NAK, not the timer");
            NS_TEST_ASSERT_MSG_EQ(rig.qp->GetRetransmittedBytes(),
                                  resent * 4096,
                                  "go-back-N resends the predicted packets");
            Simulator::Destroy();
        }
        {
            // NakSuppression=Interval (HPCC) with a 100 ns interval: every out-of-order arrival
            // (331 ns apart) NAKs again, so the same drop yields several NAKs, not one.
            Rig rig;
            BuildPair(rig, "100Gbps", MicroSeconds(1), {});
            ConnectRig(rig,
                       {{"NakSuppression", "Interval"}, {"NakInterval", "100ns"}},
                       Ipv4Address("10.0.0.2"));
            DropReceived(rig, {lost});
            rig.qp->Send(bytes);
            Simulator::Run();
            std::printf("NakSuppression=Interval: %lu NAKs, %lu bytes resent\n",
                        static_cast<unsigned long>(rig.responder->GetNaks()),
                        static_cast<unsigned long>(rig.qp->GetRetransmittedBytes()));
            NS_TEST_ASSERT_MSG_EQ(rig.delivered, bytes, "every byte delivered");
            NS_TEST_ASSERT_MSG_GT(rig.responder->GetNaks(), 1, "NAKs repeat in Interval mode");
            Simulator::Destroy();
        }
        {
            // Many drops, one of them a retransmission, across a PSN wrap.
            Rig rig;
            BuildPair(rig, "100Gbps", MicroSeconds(1), {});
            ConnectRig(rig,
                       {{"InitialPsn", std::to_string(0xFFFFFF - 30)}},
                       Ipv4Address("10.0.0.2"));
            DropReceived(rig, {10, 11, 29, 30, 31, 40, 41, 60, 200});
            rig.qp->Send(bytes);
            rig.qp->Send(12345);
            Simulator::Run();
            NS_TEST_ASSERT_MSG_EQ(rig.delivered, bytes + 12345, "every byte delivered");
            NS_TEST_ASSERT_MSG_EQ(rig.acked, bytes + 12345, "sent = received = acknowledged");
            NS_TEST_ASSERT_MSG_GT(rig.qp->GetRetransmittedBytes(), 0, "losses were resent");
            NS_TEST_ASSERT_MSG_EQ(rig.rxPsns.front(), 0xFFFFFF - 30, "the first PSN");
            Simulator::Destroy();
        }
    }
};

/// A lost last packet: only the retransmission timer recovers it.
class RoceRdmaTimeoutTest : public TestCase
{
  public:
    RoceRdmaTimeoutTest()
        : TestCase("a lost tail is recovered by the timer; without the timer it stalls")
    {
    }

  private:
    /// Runs a 100 kB message (25 packets) whose last packet b drops \p drops times.
    void Run(Rig& rig, const std::string& timeout, const std::string& retries, uint32_t drops)
    {
        BuildPair(rig, "100Gbps", MicroSeconds(1), {});
        ConnectRig(rig,
                   {{"AckTimeout", timeout}, {"RetryCount", retries}},
                   Ipv4Address("10.0.0.2"));
        std::list<uint32_t> indices;
        for (uint32_t k = 0; k < drops; ++k)
        {
            indices.push_back(24 + k); // the tail, then each of its retransmissions
        }
        DropReceived(rig, indices);
        rig.qp->Send(100000);
        Simulator::Run();
    }

    void DoRun() override
    {
        const uint64_t bytes = 100000;
        const uint32_t tail = bytes - 24 * 4096; // 1696
        {
            Rig rig;
            Run(rig, "100us", "7", 1);
            NS_TEST_ASSERT_MSG_EQ(rig.delivered, bytes, "the timer recovered the tail");
            NS_TEST_ASSERT_MSG_EQ(rig.qp->GetTimeouts(), 1, "one timeout");
            NS_TEST_ASSERT_MSG_EQ(rig.qp->GetNaks(), 0, "no NAK could report the tail");
            NS_TEST_ASSERT_MSG_EQ(rig.qp->GetRetransmittedBytes(), tail, "only the tail resent");
            NS_TEST_ASSERT_MSG_GT(rig.done, MicroSeconds(100), "completion waited for the timer");
            NS_TEST_ASSERT_MSG_LT(rig.done, MicroSeconds(115), "and not much longer");
            Simulator::Destroy();
        }
        {
            // Negative control: without the timer (AckTimeout=0) the same loss stalls for ever.
            Rig rig;
            Run(rig, "0s", "7", 1);
            NS_TEST_ASSERT_MSG_EQ(rig.delivered, bytes - tail, "the tail never arrives");
            NS_TEST_ASSERT_MSG_LT(rig.acked, bytes, "the message never completes");
            NS_TEST_ASSERT_MSG_EQ(rig.done, Seconds(-1), "no completion time");
            Simulator::Destroy();
        }
        {
            // RetryCount=2: the tail and its next two copies lost; the third timeout errors.
            Rig rig;
            Run(rig, "10us", "2", 10);
            NS_TEST_ASSERT_MSG_EQ(rig.qp->IsInError(), true, "the QP gave up");
            NS_TEST_ASSERT_MSG_EQ(rig.qp->GetTimeouts(), 3, "after RetryCount + 1 timeouts");
            NS_TEST_ASSERT_MSG_EQ(rig.delivered, bytes - tail, "the tail never arrived");
            Simulator::Destroy();
        }
    }
};

/// The retransmission timer restarts at every ACK that makes progress, and a QP keeps one
/// timer event in the simulator, not one per ACK (a cancelled ns-3 event stays in the
/// scheduler until its time).
class RoceRdmaLazyTimerTest : public TestCase
{
  public:
    RoceRdmaLazyTimerTest()
        : TestCase("the timer restarts at each ACK's progress; one timer event per QP, not per ACK")
    {
    }

  private:
    /// Sends \p bytes a -> b with AckTimeout \p timeout, runs until no event is left.
    /// \return the events executed
    uint64_t Events(uint64_t bytes, const std::string& timeout)
    {
        Rig rig;
        BuildPair(rig, "100Gbps", MicroSeconds(1), {});
        ConnectRig(rig, {{"AckTimeout", timeout}}, Ipv4Address("10.0.0.2"));
        rig.qp->Send(bytes);
        Simulator::Run();
        const uint64_t events = Simulator::GetEventCount();
        NS_TEST_EXPECT_MSG_EQ(rig.acked, bytes, "every byte acknowledged");
        NS_TEST_EXPECT_MSG_EQ(rig.qp->GetTimeouts(), 0, "no timeout on a lossless link");
        Simulator::Destroy();
        return events;
    }

    void DoRun() override
    {
        {
            // 25 packets, the last one lost: the timer expires AckTimeout after the last ACK
            // that made progress (packet 23's), not after the first packet armed it.
            Rig rig;
            BuildPair(rig, "100Gbps", MicroSeconds(1), {});
            ConnectRig(rig, {{"AckTimeout", "100us"}}, Ipv4Address("10.0.0.2"));
            DropReceived(rig, {24});
            Time lastProgress = Seconds(-1);
            Time timeoutAt = Seconds(-1);
            rig.qp->SetSendCompleteCallback(Callback<void, Ptr<RoceQp>, uint64_t>(
                [&lastProgress, &timeoutAt](Ptr<RoceQp>, uint64_t) {
                    if (timeoutAt.IsNegative())
                    {
                        lastProgress = Simulator::Now();
                    }
                }));
            rig.qp->TraceConnectWithoutContext("Timeout",
                                               Callback<void, uint32_t>([&timeoutAt](uint32_t) {
                                                   if (timeoutAt.IsNegative())
                                                   {
                                                       timeoutAt = Simulator::Now();
                                                   }
                                               }));
            rig.qp->Send(100000);
            Simulator::Run();
            const Time firstTx = NanoSeconds(rig.txLog.front().first);
            std::printf("first packet %.3f us, last progress %.3f us, timeout %.3f us\n",
                        firstTx.GetSeconds() * 1e6,
                        lastProgress.GetSeconds() * 1e6,
                        timeoutAt.GetSeconds() * 1e6);
            NS_TEST_ASSERT_MSG_EQ(rig.qp->GetTimeouts(), 1, "one timeout");
            NS_TEST_ASSERT_MSG_EQ(timeoutAt,
                                  lastProgress + MicroSeconds(100),
                                  "timeout = last progress + AckTimeout");
            // Control: the same check against the time the timer was first armed fails.
            NS_TEST_ASSERT_MSG_NE(timeoutAt,
                                  firstTx + MicroSeconds(100),
                                  "the deadline moved with the ACKs");
            Simulator::Destroy();
        }
        // Timer events = events with AckTimeout minus events without a timer. 1 MB (245
        // packets, an ACK each) completes in about 84 us < 100 us: the one event armed by
        // the first packet fires once, disarmed (one event per ACK would be 245). 10 MB
        // (2442 packets) takes T = the closed form, about 0.81 ms: the event fires about
        // every 100 us and moves to the deadline, so at most T / 100 us + 2 events.
        const uint64_t small = Events(1000000, "100us") - Events(1000000, "0s");
        const uint64_t large = Events(10000000, "100us") - Events(10000000, "0s");
        const double transfer = ClosedFormSeconds(10000000, 4096, 100e9, 1e-6);
        const auto bound = static_cast<uint64_t>(std::ceil(transfer / 100e-6)) + 2;
        std::printf("timer events: 1 MB %lu, 10 MB %lu (bound %lu, packets %lu)\n",
                    static_cast<unsigned long>(small),
                    static_cast<unsigned long>(large),
                    static_cast<unsigned long>(bound),
                    static_cast<unsigned long>(Packets(10000000, 4096)));
        NS_TEST_ASSERT_MSG_EQ(small, 1, "1 MB: one timer event, not one per ACK");
        NS_TEST_ASSERT_MSG_GT_OR_EQ(large, 1, "10 MB: the timer event exists");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(large, bound, "10 MB: about one per AckTimeout");
        // Control: the count does see timer events. With AckTimeout = 10 us the event fires
        // about every 10 us of the 0.81 ms: more than 50 of them (and still no timeout,
        // since an ACK comes back within 3 us).
        const uint64_t frequent = Events(10000000, "10us") - Events(10000000, "0s");
        NS_TEST_ASSERT_MSG_GT(frequent, 50, "a 10 us timer: dozens of events, counted");
    }
};

/// Reads a little-endian 32-bit value.
uint32_t
Le32(const std::vector<uint8_t>& d, std::size_t at)
{
    return d[at] | (d[at + 1] << 8) | (d[at + 2] << 16) | (uint32_t{d[at + 3]} << 24);
}

/// Reads a big-endian value of \p n bytes.
uint64_t
Be(const std::vector<uint8_t>& d, std::size_t at, std::size_t n)
{
    uint64_t v = 0;
    for (std::size_t k = 0; k < n; ++k)
    {
        v = (v << 8) | d[at + k];
    }
    return v;
}

/// The pcap of b's device: UDP port 4791, BTH/RETH/AETH bytes at IBTA's offsets.
class RoceRdmaPcapTest : public TestCase
{
  public:
    RoceRdmaPcapTest()
        : TestCase("the pcap holds UDP 4791 and byte-exact BTH, RETH and AETH")
    {
    }

  private:
    void DoRun() override
    {
        const std::string file = CreateTempDirFilename("vclos-rdma.pcap");
        const uint32_t first = 0x123456;
        uint16_t sport = 0;
        {
            Rig rig;
            BuildPair(rig, "100Gbps", MicroSeconds(1), {});
            ConnectRig(rig, {{"InitialPsn", std::to_string(first)}}, Ipv4Address("10.0.0.2"));
            PointToPointHelper().EnablePcap(file, rig.ab.Get(1), false, true);
            rig.qp->Send(10000); // FIRST 4096, MIDDLE 4096, LAST 1808
            sport = rig.qp->GetSourcePort();
            Simulator::Run();
            NS_TEST_ASSERT_MSG_EQ(rig.delivered, 10000, "delivered");
            Simulator::Destroy();
        }
        std::ifstream in(file, std::ios::binary);
        std::vector<uint8_t> d((std::istreambuf_iterator<char>(in)), {});
        NS_TEST_ASSERT_MSG_GT(d.size(), 24, "a pcap file");
        NS_TEST_ASSERT_MSG_EQ(Le32(d, 0), 0xa1b2c3d4, "pcap magic");
        NS_TEST_ASSERT_MSG_EQ(Le32(d, 20), 9, "link type PPP");
        // Records: data in (b receives), ACK out (b sends), by time.
        std::vector<std::vector<uint8_t>> records;
        for (std::size_t at = 24; at + 16 <= d.size();)
        {
            const uint32_t length = Le32(d, at + 8);
            records.emplace_back(d.begin() + at + 16, d.begin() + at + 16 + length);
            at += 16 + length;
        }
        // Expected Linux flow-label port of QPNs 2 and 2 (IBTA RoCEv2 annex A17), by hand:
        // 2*2 = 4; folds leave 4; 0xC000 | 4.
        NS_TEST_ASSERT_MSG_EQ(sport, 0xC004, "UDP source port from the flow label");
        std::vector<uint8_t> opcodes;
        uint32_t nextPsn = first;
        uint32_t acks = 0;
        for (const auto& r : records)
        {
            NS_TEST_ASSERT_MSG_EQ(Be(r, 0, 2), 0x0021, "PPP carries IPv4");
            NS_TEST_ASSERT_MSG_EQ(r[2 + 9], 17, "IP protocol UDP");
            const std::size_t udp = 2 + 20;
            const std::size_t bth = udp + 8;
            NS_TEST_ASSERT_MSG_EQ(Be(r, udp + 2, 2), 4791, "UDP destination port 4791");
            NS_TEST_ASSERT_MSG_EQ(Be(r, udp, 2), 0xC004, "UDP source port of the QP");
            NS_TEST_ASSERT_MSG_EQ(Be(r, bth + 2, 2), 0xFFFF, "P_Key");
            const uint8_t opcode = r[bth];
            const uint32_t psn = Be(r, bth + 9, 3);
            if (opcode == 0x11)
            {
                ++acks;
                NS_TEST_ASSERT_MSG_EQ(r[2 + 1], 48 << 2, "ACK: DSCP 48, not ECT");
                NS_TEST_ASSERT_MSG_EQ(r.size(), 2 + 20 + 8 + 12 + 4, "ACK: BTH + AETH");
                NS_TEST_ASSERT_MSG_EQ(psn, nextPsn - 1, "ACK carries the last PSN received");
                NS_TEST_ASSERT_MSG_EQ(r[bth + 12], 0x1F, "AETH syndrome ACK, unlimited credit");
                continue;
            }
            opcodes.push_back(opcode);
            NS_TEST_ASSERT_MSG_EQ(r[2 + 1], ((26 << 2) | 2), "data: DSCP 26, ECT(0)");
            NS_TEST_ASSERT_MSG_EQ(psn, nextPsn, "PSN in order from InitialPsn");
            NS_TEST_ASSERT_MSG_EQ(Be(r, bth + 5, 3), 2, "DestQP = the responder's QPN 2");
            ++nextPsn;
            if (opcode == 0x06)
            {
                NS_TEST_ASSERT_MSG_EQ(Be(r, bth + 12 + 12, 4), 10000, "RETH DMA length");
                NS_TEST_ASSERT_MSG_EQ(r.size(), 2 + 20 + 8 + 12 + 16 + 4096, "FIRST size");
                NS_TEST_ASSERT_MSG_EQ((r[bth + 8] & 0x80), 0, "FIRST: no AckReq");
            }
            if (opcode == 0x08)
            {
                NS_TEST_ASSERT_MSG_EQ(r.size(), 2 + 20 + 8 + 12 + 1808, "LAST size");
                NS_TEST_ASSERT_MSG_EQ((r[bth + 8] & 0x80), 0x80, "LAST: AckReq");
            }
        }
        NS_TEST_ASSERT_MSG_EQ(opcodes.size(), 3, "three data packets");
        NS_TEST_ASSERT_MSG_EQ(unsigned{opcodes[0]}, 0x06, "RDMA WRITE FIRST");
        NS_TEST_ASSERT_MSG_EQ(unsigned{opcodes[1]}, 0x07, "RDMA WRITE MIDDLE");
        NS_TEST_ASSERT_MSG_EQ(unsigned{opcodes[2]}, 0x08, "RDMA WRITE LAST");
        NS_TEST_ASSERT_MSG_EQ(acks, 3, "one ACK per packet (AckInterval 1)");
        std::remove(file.c_str());
    }
};

/// A test rate controller: a fixed rate, halved on each CNP; counts what it is told.
class RoceTestRateControl : public RoceRateControl
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::RoceTestRateControl")
                                .SetParent<RoceRateControl>()
                                .SetGroupName("Roce")
                                .AddConstructor<RoceTestRateControl>()
                                .AddAttribute("Rate",
                                              "The starting rate.",
                                              DataRateValue(DataRate("10Gbps")),
                                              MakeDataRateAccessor(&RoceTestRateControl::m_start),
                                              MakeDataRateChecker())
                                .AddAttribute("Halve",
                                              "Halve the rate on each CNP.",
                                              BooleanValue(false),
                                              MakeBooleanAccessor(&RoceTestRateControl::m_halve),
                                              MakeBooleanChecker());
        return tid;
    }

    void Start(DataRate) override
    {
        m_rate = m_start;
        ++starts;
    }

    DataRate GetRate() const override
    {
        return m_rate;
    }

    void NotifyCnp() override
    {
        ++cnps;
        if (m_halve && m_rate.GetBitRate() > 1000000000)
        {
            m_rate = DataRate(m_rate.GetBitRate() / 2);
        }
    }

    void NotifyBytesSent(uint32_t bytes) override
    {
        sent += bytes;
    }

    void Stop() override
    {
        ++stops;
    }

    uint32_t starts = 0; //!< Start calls
    uint32_t stops = 0;  //!< Stop calls
    uint32_t cnps = 0;   //!< NotifyCnp calls
    uint64_t sent = 0;   //!< bytes reported

  private:
    DataRate m_start;     //!< Rate attribute
    DataRate m_rate;      //!< current
    bool m_halve = false; //!< Halve attribute
};

NS_OBJECT_ENSURE_REGISTERED(RoceTestRateControl);

/// The QP paces at its controller's rate.
class RoceRdmaPacingTest : public TestCase
{
  public:
    RoceRdmaPacingTest()
        : TestCase("a rate controller paces the QP at 10 Gbps on a 100 Gbps link")
    {
    }

  private:
    void DoRun() override
    {
        const uint64_t bytes = 1000000;
        Rig rig;
        BuildPair(rig, "100Gbps", MicroSeconds(1), {});
        ConnectRig(rig, {{"RateControl", "ns3::RoceTestRateControl"}}, Ipv4Address("10.0.0.2"));
        rig.qp->Send(bytes);
        Simulator::Run();
        auto rc = DynamicCast<RoceTestRateControl>(rig.qp->GetRateControl());
        NS_TEST_ASSERT_MSG_NE(rc, nullptr, "the QP has the controller");
        NS_TEST_ASSERT_MSG_EQ(rig.delivered, bytes, "delivered");
        NS_TEST_ASSERT_MSG_EQ(rc->sent, bytes, "told every payload byte");
        NS_TEST_ASSERT_MSG_EQ(rc->starts, 1, "started once");
        NS_TEST_ASSERT_MSG_EQ(rc->stops, 1, "stopped when all was acknowledged");
        // Closed form at 10 Gb/s: packet k leaves at the sum of the previous wire sizes at
        // 10 Gb/s; the last one then crosses the 100 Gb/s link.
        const uint64_t packets = Packets(bytes, 4096);
        const double before =
            (bytes - (bytes - (packets - 1) * 4096) + (packets - 1) * HEADERS + RETH) * 8 / 10e9;
        const double lastWire = (bytes - (packets - 1) * 4096 + HEADERS) * 8 / 100e9;
        const double expected = before + lastWire + 2e-6 + ACK_WIRE * 8 / 100e9;
        std::printf("paced at 10 Gb/s: %.3f us, closed form %.3f us\n",
                    rig.done.GetSeconds() * 1e6,
                    expected * 1e6);
        NS_TEST_ASSERT_MSG_EQ_TOL(rig.done.GetSeconds(), expected, expected * 0.02, "10 Gb/s");
        Simulator::Destroy();
    }
};

/// ACKs count against the line rate: a NIC that sends and receives at once keeps its link's
/// backlog at about one data packet instead of piling up the ACKs' 1.1% share.
class RoceRdmaControlBytesTest : public TestCase
{
  public:
    RoceRdmaControlBytesTest()
        : TestCase("a NIC sending and acknowledging at once does not overrun its link")
    {
    }

  private:
    /// a <-> b, 10 MB each way, NICs with \p attributes.
    /// \return the largest backlog (device queue + queue disc) of b's link, in bytes
    uint32_t Run(const Attributes& attributes)
    {
        Rig rig;
        BuildPair(rig, "100Gbps", MicroSeconds(1), {});
        ConnectRig(rig, attributes, Ipv4Address("10.0.0.2"));
        Ptr<RoceQp> back = rig.nics[1]->Connect(Ipv4Address("10.0.0.1"));
        Ptr<NetDevice> device = rig.ab.Get(1);
        Ptr<QueueDisc> disc =
            rig.nodes.Get(1)->GetObject<TrafficControlLayer>()->GetRootQueueDiscOnDevice(device);
        NS_TEST_EXPECT_MSG_NE(disc, nullptr, "b's device has a root queue disc");

        // The backlog is the device queue's bytes plus the queue disc's, at every change.
        struct Backlog
        {
            uint32_t device = 0;
            uint32_t disc = 0;
            uint32_t max = 0;
        } backlog;

        Backlog* b = &backlog;
        DynamicCast<PointToPointNetDevice>(device)->GetQueue()->TraceConnectWithoutContext(
            "BytesInQueue",
            Callback<void, uint32_t, uint32_t>([b](uint32_t, uint32_t now) {
                b->device = now;
                b->max = std::max(b->max, b->device + b->disc);
            }));
        disc->TraceConnectWithoutContext(
            "BytesInQueue",
            Callback<void, uint32_t, uint32_t>([b](uint32_t, uint32_t now) {
                b->disc = now;
                b->max = std::max(b->max, b->device + b->disc);
            }));
        const uint64_t bytes = 10000000;
        rig.qp->Send(bytes);
        back->Send(bytes);
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(rig.delivered, bytes, "a -> b delivered");
        NS_TEST_EXPECT_MSG_EQ(back->GetBytesAcked(), bytes, "b -> a acknowledged");
        Simulator::Destroy();
        return backlog.max;
    }

    void DoRun() override
    {
        // By hand: a data packet takes 4096 + 42 + 2 = 4140 bytes on the wire (PPP in the
        // device's count: 4138 in the queues), an ACK 48 (46). Pacing data and ACKs together
        // leaves at most one data packet and the few ACKs sent during it queued: < 2 data
        // packets. Pacing data alone, the ACKs (one per data packet received, 46/4138 =
        // 1.1% of the line) pile up over the 2442 packets: about 2442 x 46 = 112 kB.
        const uint32_t bound = 2 * 4138;
        const uint32_t paced = Run({});
        std::printf("largest backlog of b's link: %u bytes (bound %u)\n", paced, bound);
        NS_TEST_ASSERT_MSG_LT(paced, bound, "data + ACKs within the line rate");
        // Control: a NIC pacing 1.1% above its link (LineRate 101.1 Gb/s on 100 Gb/s) fails
        // the same check, as the ACK bytes did when they were not counted.
        const uint32_t over = Run({{"LineRate", "101.1Gbps"}});
        std::printf("LineRate 101.1 Gb/s: largest backlog %u bytes\n", over);
        NS_TEST_ASSERT_MSG_GT(over, bound * 5, "pacing above the line rate builds a queue");
    }
};

/**
 * a -100G- r -10G- b with RED + ECN on the instantaneous queue (MinTh 5, MaxTh 15 packets,
 * 1000 packets, no hard drop)
 * on r's port to b; one QP from a to b with \p attributes sends \p bytes.
 * \return the largest backlog of r's queue towards b, in bytes
 */
uint32_t
RunDumbbell(Rig& rig, const Attributes& attributes, uint64_t bytes)
{
    rig.nodes.Create(3); // a, b, r
    PointToPointHelper fast;
    fast.SetDeviceAttribute("DataRate", StringValue("100Gbps"));
    fast.SetDeviceAttribute("Mtu", UintegerValue(9000));
    fast.SetChannelAttribute("Delay", TimeValue(MicroSeconds(1)));
    PointToPointHelper slow = fast;
    slow.SetDeviceAttribute("DataRate", StringValue("10Gbps"));
    // A one-packet device queue, so the backlog (and its marking) is RED's, not the device's.
    slow.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize", StringValue("1p"));
    rig.ab = fast.Install(rig.nodes.Get(0), rig.nodes.Get(2)); // a - r
    NetDeviceContainer rb = slow.Install(rig.nodes.Get(2), rig.nodes.Get(1));
    InternetStackHelper().Install(rig.nodes);
    TrafficControlHelper red;
    red.SetRootQueueDisc("ns3::RedQueueDisc",
                         "UseEcn",
                         BooleanValue(true),
                         "MinTh",
                         DoubleValue(5),
                         "MaxTh",
                         DoubleValue(15),
                         "MaxSize",
                         QueueSizeValue(QueueSize("1000p")),
                         "UseHardDrop",
                         BooleanValue(false),
                         "QW",
                         DoubleValue(1), // the instantaneous queue, as DCQCN marks
                         "LinkBandwidth",
                         StringValue("10Gbps"),
                         "LinkDelay",
                         StringValue("1us"));
    QueueDiscContainer discs = red.Install(rb.Get(0));
    uint32_t maxBacklog = 0;
    discs.Get(0)->TraceConnectWithoutContext(
        "BytesInQueue",
        Callback<void, uint32_t, uint32_t>(
            [&maxBacklog](uint32_t, uint32_t now) { maxBacklog = std::max(maxBacklog, now); }));
    Ipv4AddressHelper("10.0.0.0", "255.255.255.0").Assign(rig.ab);
    Ipv4AddressHelper("10.0.1.0", "255.255.255.0").Assign(rb);
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();
    ConnectRig(rig, attributes, Ipv4Address("10.0.1.2"));
    rig.qp->Send(bytes);
    Simulator::Run();
    return maxBacklog;
}

/// CE marks at a RED queue make the responder send CNPs, at most one per CnpInterval.
class RoceRdmaCnpTest : public TestCase
{
  public:
    RoceRdmaCnpTest()
        : TestCase("CE marks cause CNPs, rate-limited per CnpInterval; none without ECT")
    {
    }

  private:
    /// The dumbbell run with the test controller (which keeps 100 Gb/s).
    void Run(Rig& rig, bool ecn, uint64_t& cnpsAtRc, Time& span, const std::string& interval)
    {
        Config::SetDefault("ns3::RoceTestRateControl::Rate", StringValue("100Gbps"));
        RunDumbbell(rig,
                    {{"RateControl", "ns3::RoceTestRateControl"},
                     {"EcnCapable", ecn ? "true" : "false"},
                     {"CnpInterval", interval}},
                    2000000);
        auto rc = DynamicCast<RoceTestRateControl>(rig.qp->GetRateControl());
        cnpsAtRc = rc->cnps;
        span = rig.done;
    }

    void DoRun() override
    {
        {
            Rig rig;
            uint64_t atRc = 0;
            Time span;
            Run(rig, true, atRc, span, "50us");
            std::printf("ECN: %lu CNPs in %.1f us; CnpInterval 50 us allows %ld\n",
                        static_cast<unsigned long>(rig.qp->GetCnps()),
                        span.GetSeconds() * 1e6,
                        static_cast<long>(span.GetMicroSeconds() / 50 + 1));
            NS_TEST_ASSERT_MSG_EQ(rig.delivered, 2000000, "delivered");
            NS_TEST_ASSERT_MSG_GT(rig.responder->GetCnps(), 0, "CE marks caused CNPs");
            NS_TEST_ASSERT_MSG_EQ(rig.qp->GetCnps(), rig.responder->GetCnps(), "all arrived");
            NS_TEST_ASSERT_MSG_EQ(atRc, rig.qp->GetCnps(), "the controller heard each one");
            NS_TEST_ASSERT_MSG_LT_OR_EQ(rig.responder->GetCnps(),
                                        uint64_t(span.GetMicroSeconds() / 50 + 1),
                                        "at most one CNP per 50 us");
            Simulator::Destroy();
        }
        {
            // Negative control: not ECN-capable, RED cannot mark: no CNP at all.
            Rig rig;
            uint64_t atRc = 0;
            Time span;
            Run(rig, false, atRc, span, "50us");
            NS_TEST_ASSERT_MSG_EQ(rig.delivered, 2000000, "delivered (go-back-N)");
            NS_TEST_ASSERT_MSG_EQ(rig.responder->GetCnps(), 0, "no ECT, no CE, no CNP");
            Simulator::Destroy();
        }
        {
            // Negative control: CnpInterval=0 sends a CNP per CE packet, and the same
            // one-per-50-us check fails.
            Rig rig;
            uint64_t atRc = 0;
            Time span;
            Run(rig, true, atRc, span, "0s");
            std::printf("CnpInterval 0: %lu CNPs in %.1f us\n",
                        static_cast<unsigned long>(rig.responder->GetCnps()),
                        span.GetSeconds() * 1e6);
            NS_TEST_ASSERT_MSG_GT(rig.responder->GetCnps(),
                                  uint64_t(span.GetMicroSeconds() / 50 + 1),
                                  "unlimited CNPs break the 50 us bound");
            Simulator::Destroy();
        }
        Config::Reset();
    }
};

/// Bad attributes are refused with one line naming them.
class RoceRdmaBadAttributeTest : public TestCase
{
  public:
    RoceRdmaBadAttributeTest()
        : TestCase("bad NIC attributes are refused with one line")
    {
    }

  private:
    void DoRun() override
    {
        const std::vector<std::pair<Attributes, std::string>> cases = {
            {{{"Mtu", "1000"}}, "Mtu=1000"},
            {{{"Mtu", "8192"}}, "Mtu=8192"},
            {{{"Mtu", "9000"}}, "or set IbMtuOnly=false"},
            {{{"Mtu", "100"}, {"IbMtuOnly", "false"}}, "Mtu=100: must be 256 to 65479"},
            {{{"Mtu", "65480"}, {"IbMtuOnly", "false"}}, "Mtu=65480"},
            {{{"AckInterval", "0"}}, "AckInterval=0"},
            {{{"InitialPsn", "16777216"}}, "InitialPsn"},
            {{{"RateControl", "ns3::Object"}}, "RateControl=ns3::Object"},
            {{{"AckTimeout", "-1us"}}, "AckTimeout"},
        };
        for (const auto& [attributes, expected] : cases)
        {
            NodeContainer nodes;
            nodes.Create(1);
            InternetStackHelper().Install(nodes);
            RoceHelper rdma;
            for (const auto& [name, value] : attributes)
            {
                rdma.SetNicAttribute(name, StringValue(value));
            }
            std::string what;
            try
            {
                rdma.Install(nodes);
            }
            catch (const std::invalid_argument& e)
            {
                what = e.what();
            }
            NS_TEST_EXPECT_MSG_NE(what.find(expected), std::string::npos, what);
            NS_TEST_EXPECT_MSG_EQ(what.find('\n'), std::string::npos, "one line");
            NS_TEST_EXPECT_MSG_EQ(nodes.Get(0)->GetObject<RoceNic>(), nullptr, "nothing installed");
            Simulator::Destroy();
        }
        // A device MTU too small for the payload is refused, not fragmented.
        Rig rig;
        rig.nodes.Create(2);
        PointToPointHelper link; // Mtu 1500
        rig.ab = link.Install(rig.nodes);
        InternetStackHelper().Install(rig.nodes);
        Ipv4AddressHelper("10.0.0.0", "255.255.255.0").Assign(rig.ab);
        std::string what;
        try
        {
            RoceHelper().Install(rig.nodes);
        }
        catch (const std::invalid_argument& e)
        {
            what = e.what();
        }
        NS_TEST_EXPECT_MSG_NE(what.find("IP MTU of at least 4152"), std::string::npos, what);
        Simulator::Destroy();
    }
};

/// IbMtuOnly=false: SimAI's 9000-byte payloads (the HPCC simulator's switch buffer), segmented and
/// framed by hand.
class RoceRdmaJumboPayloadTest : public TestCase
{
  public:
    RoceRdmaJumboPayloadTest()
        : TestCase("IbMtuOnly=false sends 9000-byte payloads; the IP MTU must carry them")
    {
    }

  private:
    void DoRun() override
    {
        // 10 full packets and one of 1234 bytes.
        const uint64_t bytes = 10 * 9000 + 1234;
        Rig rig;
        BuildPair(rig, "100Gbps", MicroSeconds(1), {});
        for (uint32_t d = 0; d < 2; ++d)
        {
            rig.ab.Get(d)->SetMtu(9056); // IPv4 20 + UDP 8 + BTH 12 + RETH 16 + 9000
        }
        std::vector<uint32_t> frames; // sizes of a's data frames on the wire
        rig.ab.Get(0)->TraceConnectWithoutContext(
            "PhyTxBegin",
            MakeCallback(+[](std::vector<uint32_t>* f, Ptr<const Packet> p) {
                if (p->GetSize() > 100) // not an ACK
                {
                    f->push_back(p->GetSize());
                }
            }).Bind(&frames));
        ConnectRig(rig, {{"Mtu", "9000"}, {"IbMtuOnly", "false"}}, Ipv4Address("10.0.0.2"));
        rig.qp->Send(bytes);
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(rig.delivered, bytes, "every byte delivered");
        NS_TEST_EXPECT_MSG_EQ(rig.acked, bytes, "every byte acknowledged");
        // PPP 2 + IPv4 20 + UDP 8 + BTH 12 (+ RETH 16 on WRITE FIRST) + payload, padded to
        // a 4-byte multiple (PadCnt: 1234 -> 1236).
        std::vector<uint32_t> expected(11, 2 + 20 + 8 + 12 + 9000);
        expected.front() += 16;
        expected.back() = 2 + 20 + 8 + 12 + 1236;
        NS_TEST_EXPECT_MSG_EQ((frames == expected), true, "11 frames of the hand sizes");
        Simulator::Destroy();

        // Control: the same NICs on the fabric's default 9000-byte IP MTU are refused, by
        // the IP MTU they would need.
        Rig small;
        BuildPair(small, "100Gbps", MicroSeconds(1), {});
        std::string what;
        try
        {
            ConnectRig(small, {{"Mtu", "9000"}, {"IbMtuOnly", "false"}}, Ipv4Address("10.0.0.2"));
        }
        catch (const std::invalid_argument& e)
        {
            what = e.what();
        }
        NS_TEST_EXPECT_MSG_NE(what.find("IP MTU of at least 9056"), std::string::npos, what);
        Simulator::Destroy();
    }
};

/// Same seed, same run; another seed, another run (random losses).
class RoceRdmaDeterminismTest : public TestCase
{
  public:
    RoceRdmaDeterminismTest()
        : TestCase("same seed, same packets; another seed differs")
    {
    }

  private:
    std::vector<std::pair<int64_t, uint32_t>> Run(uint32_t run)
    {
        RngSeedManager::SetRun(run);
        Rig rig;
        BuildPair(rig, "100Gbps", MicroSeconds(1), {});
        ConnectRig(rig, {{"AckTimeout", "50us"}}, Ipv4Address("10.0.0.2"));
        Ptr<RateErrorModel> model = CreateObject<RateErrorModel>();
        model->SetAttribute("ErrorRate", DoubleValue(0.01));
        model->SetAttribute("ErrorUnit", StringValue("ERROR_UNIT_PACKET"));
        model->AssignStreams(0); // fixed stream: the run number alone picks the losses
        rig.ab.Get(1)->SetAttribute("ReceiveErrorModel", PointerValue(model));
        rig.qp->Send(2000000);
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(rig.delivered, 2000000, "delivered despite 1% loss");
        NS_TEST_EXPECT_MSG_GT(rig.qp->GetRetransmittedBytes(), 0, "some losses");
        Simulator::Destroy();
        return rig.txLog;
    }

    void DoRun() override
    {
        const auto first = Run(3);
        const auto again = Run(3);
        const auto other = Run(4);
        NS_TEST_ASSERT_MSG_EQ((first == again), true, "same seed, same sends and times");
        NS_TEST_ASSERT_MSG_EQ((first == other), false, "another seed, other losses");
        RngSeedManager::SetRun(1);
    }
};

/// QPs across a leaf-spine fabric: each is one ECMP flow on the spine its 5-tuple hashes to.
class RoceRdmaFabricTest : public TestCase
{
  public:
    RoceRdmaFabricTest()
        : TestCase("QPs cross the leaf-spine fabric, each on the spine its UDP port hashes to")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<ClosFabricHelper> helper = CreateObject<ClosFabricHelper>(); // 4 leaves, 8 spines
        Ptr<ClosFabric> fabric = helper->Install();
        RoceHelper rdma;
        auto nics = rdma.Install(fabric->GetGpus());
        const uint32_t src = 0;
        const uint32_t dst = fabric->GetGpuAt(2, 3); // another leaf
        uint64_t delivered = 0;
        nics[dst]->SetAcceptCallback(
            Callback<void, Ptr<RoceQp>, Ipv4Address>([&delivered](Ptr<RoceQp> qp, Ipv4Address) {
                qp->SetDataCallback(Callback<void, Ptr<RoceQp>, uint32_t>(
                    [&delivered](Ptr<RoceQp>, uint32_t bytes) { delivered += bytes; }));
            }));
        // Which spine each UDP source port's data crossed, from the bytes on leaf uplinks.
        std::map<uint16_t, std::set<uint32_t>> spinesBySport;
        for (uint32_t id = 0; id < fabric->GetLinks().size(); ++id)
        {
            const ClusterLink& link = fabric->GetLinks()[id];
            if (link.kind != ClusterLink::LEAF_TO_SPINE)
            {
                continue;
            }
            const uint32_t spine = link.to;
            link.device->TraceConnectWithoutContext(
                "PhyTxBegin",
                Callback<void, Ptr<const Packet>>([&spinesBySport, spine](Ptr<const Packet> p) {
                    uint8_t b[2 + 20 + 8 + 1];
                    if (p->CopyData(b, sizeof(b)) == sizeof(b) && b[2 + 9] == 17 &&
                        ((b[24] << 8) | b[25]) == 4791 && b[30] < 0x11)
                    {
                        spinesBySport[(b[22] << 8) | b[23]].insert(spine);
                    }
                }));
        }
        const uint32_t qps = 8;
        std::vector<Ptr<RoceQp>> requesters;
        for (uint32_t k = 0; k < qps; ++k)
        {
            requesters.push_back(nics[src]->Connect(fabric->GetGpuAddress(dst)));
            requesters.back()->Send(500000);
        }
        Simulator::Stop(MilliSeconds(50));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(delivered, qps * 500000, "every QP delivered everything");
        std::set<uint32_t> spinesUsed;
        std::set<uint16_t> ports;
        for (const auto& qp : requesters)
        {
            ports.insert(qp->GetSourcePort());
            ClusterFiveTuple tuple;
            tuple.srcAddress = fabric->GetGpuAddress(src).Get();
            tuple.dstAddress = fabric->GetGpuAddress(dst).Get();
            tuple.srcPort = qp->GetSourcePort();
            tuple.dstPort = 4791;
            tuple.protocol = 17;
            uint32_t predicted = UINT32_MAX;
            for (uint32_t id : fabric->TraceFlowPath(tuple))
            {
                if (fabric->GetLinks()[id].kind == ClusterLink::LEAF_TO_SPINE)
                {
                    predicted = fabric->GetLinks()[id].to;
                }
            }
            const auto& seen = spinesBySport[qp->GetSourcePort()];
            NS_TEST_ASSERT_MSG_EQ(seen.size(), 1, "one QP, one path");
            NS_TEST_ASSERT_MSG_EQ(*seen.begin(), predicted, "the spine the 5-tuple hash picks");
            spinesUsed.insert(predicted);
        }
        NS_TEST_ASSERT_MSG_EQ(ports.size(), qps, "each QP its own source port");
        NS_TEST_ASSERT_MSG_GT(spinesUsed.size(), 1, "QPs spread over spines");
        std::printf("fabric: %u QPs on %zu spines\n", qps, spinesUsed.size());
        Simulator::Destroy();
    }
};

/// A ring all-reduce over RDMA queue pairs moves the same bytes as over TCP and completes.
class RoceRdmaCollectiveTest : public TestCase
{
  public:
    RoceRdmaCollectiveTest()
        : TestCase("ring all-reduce over Transport=rdma: same bytes as tcp, completes")
    {
    }

  private:
    /// What one run gave.
    struct Outcome
    {
        bool complete = false;      //!< every rank ended both iterations
        std::vector<uint64_t> sent; //!< per rank
        std::vector<uint64_t> recv; //!< per rank
        Time collective;            //!< first iteration's collective time
        std::string failure;        //!< the run's failure, if any
    };

    Outcome Run(const std::string& transport, bool nics)
    {
        Ptr<ClosFabricHelper> fabricHelper = CreateObject<ClosFabricHelper>();
        fabricHelper->SetAttribute("Leaves", UintegerValue(4));
        fabricHelper->SetAttribute("Spines", UintegerValue(1));
        fabricHelper->SetAttribute("ServersPerLeaf", UintegerValue(1));
        fabricHelper->SetAttribute("GpusPerServer", UintegerValue(1));
        Ptr<ClosFabric> fabric = fabricHelper->Install();
        if (nics)
        {
            RoceHelper().Install(fabric->GetGpus());
        }
        Ptr<CollectiveHelper> helper = CreateObject<CollectiveHelper>();
        helper->SetAttribute("Algorithm", EnumValue(CLUSTER_RING));
        helper->SetAttribute("MessageBytes", UintegerValue(4000000));
        helper->SetAttribute("Iterations", UintegerValue(2));
        helper->SetAttribute("Transport", StringValue(transport));
        ApplicationContainer apps = helper->Install(fabric, {0, 1, 2, 3});
        Ptr<CollectiveTracker> tracker = CreateObject<CollectiveTracker>();
        tracker->Track("job", apps);
        Simulator::Run();
        Outcome outcome;
        outcome.failure = SuiteTakeRunFailure().value_or("");
        outcome.complete = tracker->IsComplete(0) && tracker->GetIterations(0).size() == 2;
        if (!tracker->GetIterations(0).empty())
        {
            const auto& first = tracker->GetIterations(0).front();
            outcome.collective = first.end - first.collectiveStart;
        }
        for (uint32_t r = 0; r < apps.GetN(); ++r)
        {
            auto app = DynamicCast<CollectiveApp>(apps.Get(r));
            outcome.sent.push_back(app->GetBytesSent());
            outcome.recv.push_back(app->GetBytesReceived());
        }
        Simulator::Destroy();
        return outcome;
    }

    void DoRun() override
    {
        const Outcome tcp = Run("tcp", false);
        const Outcome rdma = Run("rdma", true);
        std::printf("ring all-reduce, 4 ranks, 4 MB: collective %.1f us over TCP, %.1f us over "
                    "RDMA\n",
                    tcp.collective.GetSeconds() * 1e6,
                    rdma.collective.GetSeconds() * 1e6);
        NS_TEST_ASSERT_MSG_EQ(tcp.complete, true, "TCP completes");
        NS_TEST_ASSERT_MSG_EQ(rdma.complete, true, "RDMA completes: " << rdma.failure);
        for (uint32_t r = 0; r < 4; ++r)
        {
            // By hand: a flat ring of N=4 sends 2 (N-1)/N M = 6 MB per iteration per rank.
            NS_TEST_EXPECT_MSG_EQ(rdma.sent[r], 2 * 6000000, "rank " << r << " sent");
            NS_TEST_EXPECT_MSG_EQ(rdma.recv[r], 2 * 6000000, "rank " << r << " received");
            NS_TEST_EXPECT_MSG_EQ(rdma.sent[r], tcp.sent[r], "same bytes as TCP");
        }
        // Negative control: Transport=rdma without NICs stops the run with one line.
        const Outcome bare = Run("rdma", false);
        NS_TEST_ASSERT_MSG_EQ(bare.complete, false, "no NIC, no collective");
        NS_TEST_EXPECT_MSG_NE(bare.failure.find("needs a RoceNic"),
                              std::string::npos,
                              bare.failure);
    }
};

/// AckInterval: the responder ACKs every N in-order packets and the message's last one.
class RoceRdmaAckIntervalTest : public TestCase
{
  public:
    RoceRdmaAckIntervalTest()
        : TestCase("AckInterval=4 ACKs PSNs 3, 7 and the last (AckReq); 1 ACKs every packet")
    {
    }

  private:
    /// \return the PSNs of the ACKs a's device received for a 10-packet message
    std::vector<uint32_t> Acks(const std::string& interval)
    {
        Rig rig;
        BuildPair(rig, "100Gbps", MicroSeconds(1), {});
        ConnectRig(rig, {{"AckInterval", interval}}, Ipv4Address("10.0.0.2"));
        std::vector<uint32_t> psns;
        rig.ab.Get(0)->TraceConnectWithoutContext(
            "MacRx",
            Callback<void, Ptr<const Packet>>([&psns](Ptr<const Packet> packet) {
                uint8_t b[2 + 20 + 8 + 12 + 4];
                const uint32_t bth = 2 + 20 + 8;
                if (packet->CopyData(b, sizeof(b)) == sizeof(b) && b[bth] == 0x11)
                {
                    psns.push_back((b[bth + 9] << 16) | (b[bth + 10] << 8) | b[bth + 11]);
                }
            }));
        rig.qp->Send(10 * 4096);
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(rig.acked, 10 * 4096, "acknowledged");
        Simulator::Destroy();
        return psns;
    }

    void DoRun() override
    {
        const std::vector<uint32_t> every4 = Acks("4");
        NS_TEST_ASSERT_MSG_EQ((every4 == std::vector<uint32_t>{3, 7, 9}), true, "3, 7, 9");
        const std::vector<uint32_t> every1 = Acks("1");
        NS_TEST_ASSERT_MSG_EQ(every1.size(), 10, "AckInterval=1: one ACK per packet");
    }
};

/// Header bytes, PSN unwrapping and the source-port rule against hand-computed values.
class RoceRdmaWireFormatTest : public TestCase
{
  public:
    RoceRdmaWireFormatTest()
        : TestCase("BTH, AETH and CNP bytes, PSN unwrap and UDP source ports by hand")
    {
    }

  private:
    static std::vector<uint8_t> Bytes(Ptr<Packet> packet)
    {
        std::vector<uint8_t> b(packet->GetSize());
        packet->CopyData(b.data(), b.size());
        return b;
    }

    void DoRun() override
    {
        RoceBth bth;
        bth.opcode = RoceBth::RC_WRITE_ONLY;
        bth.solicited = true;
        bth.padCnt = 3;
        bth.becn = true;
        bth.destQp = 0xABCDEF;
        bth.ackReq = true;
        bth.psn = 0x123456;
        Ptr<Packet> p = Create<Packet>();
        p->AddHeader(bth);
        // OpCode; SE|PadCnt=3 (0x80|0x30); P_Key; BECN (0x40); DestQP; A (0x80); PSN.
        const std::vector<uint8_t>
            expected{0x0A, 0xB0, 0xFF, 0xFF, 0x40, 0xAB, 0xCD, 0xEF, 0x80, 0x12, 0x34, 0x56};
        NS_TEST_ASSERT_MSG_EQ((Bytes(p) == expected), true, "BTH bytes");
        RoceBth back;
        p->RemoveHeader(back);
        NS_TEST_ASSERT_MSG_EQ((back.destQp == 0xABCDEF && back.psn == 0x123456 && back.ackReq &&
                               back.becn && !back.fecn && back.solicited && back.padCnt == 3 &&
                               back.opcode == 0x0A && back.pKey == 0xFFFF),
                              true,
                              "BTH round trip");
        RoceAeth aeth;
        aeth.syndrome = RoceAeth::SYNDROME_NAK_SEQ;
        aeth.msn = 0x010203;
        Ptr<Packet> a = Create<Packet>();
        a->AddHeader(aeth);
        NS_TEST_ASSERT_MSG_EQ((Bytes(a) == std::vector<uint8_t>{0x60, 0x01, 0x02, 0x03}),
                              true,
                              "AETH: NAK sequence error 011 00000, MSN");
        Ptr<Packet> c = Create<Packet>();
        c->AddHeader(RoceCnpPadding());
        NS_TEST_ASSERT_MSG_EQ((Bytes(c) == std::vector<uint8_t>(16, 0)), true, "16 zero bytes");
        // Unwrap: the counter nearest the reference.
        const uint64_t wrap = uint64_t{1} << 24;
        NS_TEST_ASSERT_MSG_EQ(RoceQp::Unwrap(0, wrap + 0xFFFFFF), 2 * wrap, "forward wrap");
        NS_TEST_ASSERT_MSG_EQ(RoceQp::Unwrap(0xFFFFFF, 2 * wrap), 2 * wrap - 1, "behind");
        NS_TEST_ASSERT_MSG_EQ(RoceQp::Unwrap(5, wrap + 5), wrap + 5, "same");
        NS_TEST_ASSERT_MSG_EQ(RoceQp::Unwrap(100, wrap + 10), wrap + 100, "ahead");
        // Linux flow label -> UDP source port (IBTA RoCEv2 annex A17), by hand:
        // 17 x 4096 = 0x11000 (no bits above 20); low 14 bits 0x1000, high 6 bits 0x04:
        // 0x1000 ^ 0x04 = 0x1004, | 0xC000 = 0xD004.
        NS_TEST_ASSERT_MSG_EQ(RoceNic::SourcePort(17, 4096), 0xD004, "17 x 4096");
        NS_TEST_ASSERT_MSG_EQ(RoceNic::SourcePort(4096, 17), 0xD004, "symmetric");
        // Values from a separate implementation of the kernel's two functions (Python).
        NS_TEST_ASSERT_MSG_EQ(RoceNic::SourcePort(0x12345, 0x6789A), 0xFA58, "folds");
        NS_TEST_ASSERT_MSG_EQ(RoceNic::SourcePort(0xFFFFFF, 0xFFFFFE), 0xFF12, "largest");
    }
};

/// With DCQCN (the project's Dcqcn) as the rate controller, CNPs slow the QP down.
class RoceRdmaDcqcnTest : public TestCase
{
  public:
    RoceRdmaDcqcnTest()
        : TestCase("Dcqcn as RateControl: CNPs cut the rate and the bottleneck queue")
    {
    }

  private:
    void DoRun() override
    {
        const uint64_t bytes = 20000000;
        Rig dcqcn;
        const uint32_t withDcqcn = RunDumbbell(dcqcn, {{"RateControl", "ns3::Dcqcn"}}, bytes);
        const uint64_t cnps = dcqcn.qp->GetCnps();
        const Time doneDcqcn = dcqcn.done;
        const uint64_t delivered = dcqcn.delivered;
        Simulator::Destroy();
        // Negative control: the same transfer at line rate (no controller).
        Rig none;
        const uint32_t withoutDcqcn = RunDumbbell(none, {}, bytes);
        const Time doneNone = none.done;
        Simulator::Destroy();
        std::printf("DCQCN: %lu CNPs, max backlog %u B, %.1f us; line rate: max backlog %u B, "
                    "%.1f us (10 Gb/s takes %.1f us)\n",
                    static_cast<unsigned long>(cnps),
                    withDcqcn,
                    doneDcqcn.GetSeconds() * 1e6,
                    withoutDcqcn,
                    doneNone.GetSeconds() * 1e6,
                    bytes * 8 / 10e9 * 1e6);
        NS_TEST_ASSERT_MSG_EQ(delivered, bytes, "delivered with DCQCN");
        NS_TEST_ASSERT_MSG_GT(cnps, 0, "CNPs reached DCQCN");
        NS_TEST_ASSERT_MSG_LT(withDcqcn * 2, withoutDcqcn, "DCQCN keeps the queue far shorter");
    }
};

/// The suite.
class RoceRdmaTestSuite : public TestSuite
{
  public:
    RoceRdmaTestSuite()
        : TestSuite("roce-nic", UNIT)
    {
        AddTestCase(new RoceRdmaWireFormatTest, TestCase::QUICK);
        AddTestCase(new RoceRdmaTransferTest, TestCase::QUICK);
        AddTestCase(new RoceRdmaGoBackNTest, TestCase::QUICK);
        AddTestCase(new RoceRdmaTimeoutTest, TestCase::QUICK);
        AddTestCase(new RoceRdmaLazyTimerTest, TestCase::QUICK);
        AddTestCase(new RoceRdmaPcapTest, TestCase::QUICK);
        AddTestCase(new RoceRdmaAckIntervalTest, TestCase::QUICK);
        AddTestCase(new RoceRdmaPacingTest, TestCase::QUICK);
        AddTestCase(new RoceRdmaControlBytesTest, TestCase::QUICK);
        AddTestCase(new RoceRdmaCnpTest, TestCase::QUICK);
        AddTestCase(new RoceRdmaDcqcnTest, TestCase::QUICK);
        AddTestCase(new RoceRdmaBadAttributeTest, TestCase::QUICK);
        AddTestCase(new RoceRdmaJumboPayloadTest, TestCase::QUICK);
        AddTestCase(new RoceRdmaDeterminismTest, TestCase::QUICK);
        AddTestCase(new RoceRdmaFabricTest, TestCase::QUICK);
        AddTestCase(new RoceRdmaCollectiveTest, TestCase::QUICK);
    }
};

static RoceRdmaTestSuite g_vclosRdmaTestSuite; //!< the suite

} // namespace

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// DCQCN validation on a dumbbell (a validation experiment V2, V3): N RoCE senders -> switch -> one
// receiver, the switch's port to the receiver the bottleneck with RED/ECN marking on the
// instantaneous queue (DCQCN's congestion point), every requester QP paced by Dcqcn (paper
// profile).
// Two flows started together share the link fairly; a third joining later takes its third;
// the convergence time is measured. Negative control: the same runs at line rate (no rate
// control): the queue rides at the buffer instead of near DCQCN's fixed point q*.
// Tests: roce-dcqcn
#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/ipv4-global-routing-helper.h"
#include "ns3/point-to-point-helper.h"
#include "ns3/queue-disc-container.h"
#include "ns3/queue-disc.h"
#include "ns3/queue-size.h"
#include "ns3/roce-dcqcn.h"
#include "ns3/roce-helper.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/traffic-control-helper.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// Link rate of every link (the bottleneck is the switch's port to the receiver).
constexpr double LINK_BPS = 40e9;
/// DCQCN paper profile marking (DCQCN paper, section 3): Kmin 5 KB, Kmax 200 KB, Pmax 1%.
constexpr double KMIN = 5000;
constexpr double KMAX = 200000;
constexpr double PMAX = 0.01;
/// The switch buffer for the bottleneck port (bytes): where an uncontrolled queue ends.
constexpr uint32_t BUFFER = 1000000;
/// Wire bytes of a full WRITE MIDDLE packet (IBTA RoCEv2 annex A17, by hand): PPP 2 + IPv4 20 +
/// UDP 8 + BTH 12 + 4096 payload.
constexpr double WIRE = 2 + 20 + 8 + 12 + 4096;
/// Payload goodput of the bottleneck (bytes/s) when busy: C * 4096 / WIRE.
constexpr double GOODPUT = LINK_BPS / 8 * 4096 / WIRE;
/// Rate bins (per-flow rate in 1 ms bins, the suite's choice).
const Time BIN = MilliSeconds(1);
/// Queue samples.
const Time SAMPLE = MicroSeconds(10);

/// What a dumbbell run measured.
struct Outcome
{
    std::vector<std::vector<double>> rates; //!< [bin][flow] payload bytes/s
    std::vector<double> queue;              //!< RED backlog samples (bytes), every SAMPLE
    uint64_t cnps = 0;                      //!< CNPs the senders received
    uint64_t drops = 0;                     //!< packets the bottleneck dropped
    uint32_t errors = 0;                    //!< QPs in the error state at the end
    uint64_t timeouts = 0;                  //!< retransmission timeouts of all QPs
};

/// Jain's fairness index of \p x.
double
Jain(const std::vector<double>& x)
{
    double sum = 0;
    double squares = 0;
    for (double v : x)
    {
        sum += v;
        squares += v * v;
    }
    return squares > 0 ? sum * sum / (x.size() * squares) : 0;
}

/**
 * Runs the dumbbell until \p stop: flow k starts at \p starts[k]; with \p dcqcn each QP is
 * paced by Dcqcn with the paper profile, else it sends at line rate.
 */
Outcome
RunDumbbell(const std::vector<Time>& starts, const Time& stop, bool dcqcn)
{
    const uint32_t n = starts.size();
    NodeContainer senders;
    senders.Create(n);
    Ptr<Node> sw = CreateObject<Node>();
    Ptr<Node> receiver = CreateObject<Node>();
    PointToPointHelper link;
    link.SetDeviceAttribute("DataRate", DataRateValue(DataRate(uint64_t(LINK_BPS))));
    link.SetDeviceAttribute("Mtu", UintegerValue(9000));
    link.SetChannelAttribute("Delay", TimeValue(MicroSeconds(1)));
    std::vector<NetDeviceContainer> access;
    for (uint32_t k = 0; k < n; ++k)
    {
        access.push_back(link.Install(senders.Get(k), sw));
    }
    // A one-packet device queue under the disc, so the backlog (and its marking) is RED's.
    PointToPointHelper bottleneck = link;
    bottleneck.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize", StringValue("1p"));
    NetDeviceContainer down = bottleneck.Install(sw, receiver);
    InternetStackHelper().Install(senders);
    InternetStackHelper().Install(sw);
    InternetStackHelper().Install(receiver);
    // DCQCN's marking ([PAD]) on the instantaneous queue (QW = 1) in bytes:
    // p = Pmax (q - Kmin)/(Kmax - Kmin) between the thresholds (LInterm = 1/Pmax, per-byte
    // scaling by MeanPktSize = one full packet), every packet above Kmax (Gentle off, marked
    // rather than dropped), drops only at the buffer.
    TrafficControlHelper red;
    red.SetRootQueueDisc("ns3::RedQueueDisc",
                         "UseEcn",
                         BooleanValue(true),
                         "UseHardDrop",
                         BooleanValue(false),
                         "Gentle",
                         BooleanValue(false),
                         "QW",
                         DoubleValue(1),
                         "MinTh",
                         DoubleValue(KMIN),
                         "MaxTh",
                         DoubleValue(KMAX),
                         "LInterm",
                         DoubleValue(1 / PMAX),
                         "MeanPktSize",
                         UintegerValue(uint32_t(WIRE)),
                         "MaxSize",
                         QueueSizeValue(QueueSize(QueueSizeUnit::BYTES, BUFFER)),
                         "LinkBandwidth",
                         DataRateValue(DataRate(uint64_t(LINK_BPS))),
                         "LinkDelay",
                         TimeValue(MicroSeconds(1)));
    QueueDiscContainer discs = red.Install(down.Get(0));
    Ipv4AddressHelper address;
    for (uint32_t k = 0; k < n; ++k)
    {
        address.SetBase(Ipv4Address((10u << 24) | ((k + 1) << 8)), "255.255.255.0");
        address.Assign(access[k]);
    }
    address.SetBase("10.0.0.0", "255.255.255.0");
    address.Assign(down);
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();

    RoceHelper rdma;
    if (dcqcn)
    {
        rdma.SetNicAttribute("RateControl", StringValue("ns3::Dcqcn"));
        for (const auto& [name, value] : Dcqcn::GetProfile("paper", DataRate(uint64_t(LINK_BPS))))
        {
            Config::SetDefault("ns3::Dcqcn::" + name, StringValue(value));
        }
    }
    NodeContainer hosts(senders);
    hosts.Add(receiver);
    auto nics = rdma.Install(hosts);
    // Payload bytes delivered per flow, told apart by the sender's address.
    std::map<uint32_t, uint32_t> flowOf;
    for (uint32_t k = 0; k < n; ++k)
    {
        flowOf[(10u << 24) | ((k + 1) << 8) | 1] = k;
    }
    std::vector<uint64_t> delivered(n, 0);
    nics[n]->SetAcceptCallback(Callback<void, Ptr<RoceQp>, Ipv4Address>(
        [&delivered, &flowOf](Ptr<RoceQp> qp, Ipv4Address peer) {
            const uint32_t flow = flowOf.at(peer.Get());
            qp->SetDataCallback(Callback<void, Ptr<RoceQp>, uint32_t>(
                [&delivered, flow](Ptr<RoceQp>, uint32_t bytes) { delivered[flow] += bytes; }));
        }));
    std::vector<Ptr<RoceQp>> qps(n);
    for (uint32_t k = 0; k < n; ++k)
    {
        Simulator::Schedule(starts[k], [&qps, &nics, k]() {
            qps[k] = nics[k]->Connect(Ipv4Address("10.0.0.2"));
            qps[k]->Send(uint64_t(2000000000));
        });
    }
    Outcome outcome;
    std::vector<uint64_t> last(n, 0);
    const int64_t bins = stop.GetNanoSeconds() / BIN.GetNanoSeconds();
    for (int64_t b = 1; b <= bins; ++b)
    {
        Simulator::Schedule(BIN * b, [&outcome, &delivered, &last, n]() {
            std::vector<double> rate(n);
            for (uint32_t k = 0; k < n; ++k)
            {
                rate[k] = (delivered[k] - last[k]) / BIN.GetSeconds();
                last[k] = delivered[k];
            }
            outcome.rates.push_back(rate);
        });
    }
    Ptr<QueueDisc> disc = discs.Get(0);
    const int64_t samples = stop.GetNanoSeconds() / SAMPLE.GetNanoSeconds();
    for (int64_t s = 1; s <= samples; ++s)
    {
        Simulator::Schedule(SAMPLE * s,
                            [&outcome, disc]() { outcome.queue.push_back(disc->GetNBytes()); });
    }
    Simulator::Stop(stop + NanoSeconds(1));
    Simulator::Run();
    for (const auto& qp : qps)
    {
        outcome.cnps += qp ? qp->GetCnps() : 0;
        outcome.errors += qp && qp->IsInError() ? 1 : 0;
        outcome.timeouts += qp ? qp->GetTimeouts() : 0;
    }
    outcome.drops = disc->GetStats().nTotalDroppedPackets;
    Simulator::Destroy();
    Config::Reset();
    return outcome;
}

/// Mean of \p x over the indices [from, to).
double
Mean(const std::vector<double>& x, std::size_t from, std::size_t to)
{
    double sum = 0;
    for (std::size_t i = from; i < to; ++i)
    {
        sum += x[i];
    }
    return sum / (to - from);
}

/// Rates of the flows listed in \p flows, averaged over bins [from, to).
std::vector<double>
MeanRates(const Outcome& o, const std::vector<uint32_t>& flows, std::size_t from, std::size_t to)
{
    std::vector<double> mean;
    for (uint32_t f : flows)
    {
        double sum = 0;
        for (std::size_t b = from; b < to; ++b)
        {
            sum += o.rates[b][f];
        }
        mean.push_back(sum / (to - from));
    }
    return mean;
}

/**
 * Convergence time: the start of the first bin from which on (up to bin \p to) Jain's index
 * of \p flows stays >= 0.99, measured from bin \p from. \return -1 when it never holds.
 */
double
ConvergenceMs(const Outcome& o,
              const std::vector<uint32_t>& flows,
              std::size_t from,
              std::size_t to)
{
    int64_t first = -1;
    for (std::size_t b = from; b < to; ++b)
    {
        std::vector<double> x;
        for (uint32_t f : flows)
        {
            x.push_back(o.rates[b][f]);
        }
        if (Jain(x) >= 0.99)
        {
            first = first < 0 ? int64_t(b) : first;
        }
        else
        {
            first = -1;
        }
    }
    return first < 0 ? -1 : (first - int64_t(from)) * BIN.GetSeconds() * 1e3;
}

/**
 * The DCQCN fluid model's fixed point (a validation experiment V2, [PAD:dcqcn-stability.tex]),
 * computed here from [PAD]'s formula in packet units, not from the code:
 * p* = cuberoot(R_AI N^2 / (tau' C^2) (1/B + N/(T C))^2), q* = Kmin + (p* / Pmax)(Kmax - Kmin)
 * (Kmax when p* > Pmax). Paper profile: R_AI 40 Mb/s, tau' = T = 55 us, B = 10 MB.
 */
double
FixedPointQueue(uint32_t n)
{
    const double c = LINK_BPS / 8 / WIRE;
    const double rai = 40e6 / 8 / WIRE;
    const double b = 10e6 / WIRE;
    const double t = 55e-6;
    const double inner = 1 / b + n / (t * c);
    const double p = std::cbrt(rai * n * n / (t * c * c) * inner * inner);
    return p >= PMAX ? KMAX : KMIN + p / PMAX * (KMAX - KMIN);
}

/// Start times of the three-flow run: flows 1 and 2 at 0, flow 3 at JOIN.
const Time JOIN = MilliSeconds(30);
/// End of the run.
const Time STOP = MilliSeconds(150);

/// V3: convergence of two flows started together, then of three (one joining).
class RoceDcqcnConvergenceTest : public TestCase
{
  public:
    RoceDcqcnConvergenceTest()
        : TestCase("V3: two flows share C over 2, a third joining takes C over 3, Jain >= 0.99; "
                   "convergence time; without DCQCN the queue sits at the buffer")
    {
    }

  private:
    /// Prints and returns the checks of one run.
    void Check(const Outcome& o, bool dcqcn)
    {
        const char* name = dcqcn ? "DCQCN" : "no CC";
        const std::size_t join = JOIN.GetNanoSeconds() / BIN.GetNanoSeconds();
        const std::size_t end = o.rates.size();
        // Last 10 ms of each phase.
        const auto two = MeanRates(o, {0, 1}, join - 10, join);
        const auto three = MeanRates(o, {0, 1, 2}, end - 10, end);
        const double conv2 = ConvergenceMs(o, {0, 1}, 0, join);
        const double conv3 = ConvergenceMs(o, {0, 1, 2}, join, end);
        // Queue: mean over the last 10 ms of the two-flow phase.
        const std::size_t perBin = BIN.GetNanoSeconds() / SAMPLE.GetNanoSeconds();
        const double q2 = Mean(o.queue, (join - 10) * perBin, join * perBin);
        const double q3 = Mean(o.queue, (end - 10) * perBin, end * perBin);
        std::printf("%s: 2 flows %.3f %.3f Gb/s (C/2 = %.3f, Jain %.4f, converged after %.0f "
                    "ms); 3 flows %.3f %.3f %.3f Gb/s (C/3 = %.3f, Jain %.4f, converged %.0f ms "
                    "after the join); queue %.0f B (2 flows), %.0f B (3 flows), q* %.0f / %.0f "
                    "B; %lu CNPs, %lu drops, %lu timeouts, %u QPs in error\n",
                    name,
                    two[0] * 8e-9,
                    two[1] * 8e-9,
                    GOODPUT / 2 * 8e-9,
                    Jain(two),
                    conv2,
                    three[0] * 8e-9,
                    three[1] * 8e-9,
                    three[2] * 8e-9,
                    GOODPUT / 3 * 8e-9,
                    Jain(three),
                    conv3,
                    q2,
                    q3,
                    FixedPointQueue(2),
                    FixedPointQueue(3),
                    static_cast<unsigned long>(o.cnps),
                    static_cast<unsigned long>(o.drops),
                    static_cast<unsigned long>(o.timeouts),
                    o.errors);
        std::printf("%s rates (Gb/s) every 5th 1-ms bin:", name);
        for (std::size_t b = 0; b < end; b += 5)
        {
            std::printf(" [%zu]", b);
            for (double r : o.rates[b])
            {
                std::printf(" %.2f", r * 8e-9);
            }
        }
        std::printf("\n");
        m_two = two;
        m_three = three;
        m_conv2 = conv2;
        m_conv3 = conv3;
        m_q2 = q2;
        m_q3 = q3;
    }

    void DoRun() override
    {
        const std::vector<Time> starts{Seconds(0), Seconds(0), JOIN};
        const Outcome with = RunDumbbell(starts, STOP, true);
        Check(with, true);
        NS_TEST_ASSERT_MSG_GT(with.cnps, 0, "CNPs reached the senders");
        NS_TEST_EXPECT_MSG_GT_OR_EQ(Jain(m_two), 0.99, "two flows: Jain >= 0.99");
        for (double r : m_two)
        {
            NS_TEST_EXPECT_MSG_EQ_TOL(r, GOODPUT / 2, GOODPUT / 2 * 0.05, "within 5% of C/2");
        }
        NS_TEST_EXPECT_MSG_GT_OR_EQ(Jain(m_three), 0.99, "three flows: Jain >= 0.99");
        for (double r : m_three)
        {
            NS_TEST_EXPECT_MSG_EQ_TOL(r, GOODPUT / 3, GOODPUT / 3 * 0.10, "within 10% of C/3");
        }
        NS_TEST_EXPECT_MSG_GT_OR_EQ(m_conv3, 0, "the third flow converged");
        // The discriminating check: DCQCN holds the queue far below the buffer.
        NS_TEST_EXPECT_MSG_LT(m_q2, BUFFER * 0.5, "DCQCN: queue well below the buffer");
        NS_TEST_EXPECT_MSG_LT(m_q3, BUFFER * 0.5, "DCQCN: queue well below the buffer");
        NS_TEST_EXPECT_MSG_EQ(with.drops, 0, "DCQCN: no drop");
        // V2: the two-flow time-averaged queue within +-50% of the fluid fixed point q*.
        NS_TEST_EXPECT_MSG_EQ_TOL(m_q2, FixedPointQueue(2), FixedPointQueue(2) * 0.5, "V2 q*");

        // Negative control: line-rate senders (no rate control).
        const Outcome without = RunDumbbell(starts, STOP, false);
        Check(without, false);
        NS_TEST_EXPECT_MSG_GT(m_q2, BUFFER * 0.9, "no CC: the queue sits at the buffer");
        NS_TEST_EXPECT_MSG_GT(without.drops, 0, "no CC: the buffer overflows");
        NS_TEST_EXPECT_MSG_GT(m_q2, FixedPointQueue(2) * 1.5, "no CC: V2's check fails");
        // Without CC the first flow takes the link and the second starves (go-back-N after
        // each drop), so fairness fails too.
        NS_TEST_EXPECT_MSG_LT(Jain(m_two), 0.99, "no CC: two flows unfair");
        NS_TEST_EXPECT_MSG_LT(m_conv3, 0, "no CC: three flows never converge");
    }

    std::vector<double> m_two;   //!< last run's two-flow rates
    std::vector<double> m_three; //!< last run's three-flow rates
    double m_conv2 = 0;          //!< its two-flow convergence (ms)
    double m_conv3 = 0;          //!< its three-flow convergence (ms)
    double m_q2 = 0;             //!< its two-flow mean queue
    double m_q3 = 0;             //!< its three-flow mean queue
};

/// The suite.
class RoceDcqcnValidationTestSuite : public TestSuite
{
  public:
    RoceDcqcnValidationTestSuite()
        : TestSuite("roce-dcqcn-validation", UNIT)
    {
        AddTestCase(new RoceDcqcnConvergenceTest, TestCase::QUICK);
    }
};

static RoceDcqcnValidationTestSuite g_vclosDcqcnValidationTestSuite; //!< the suite

} // namespace

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The permutation scenario end to end: pinned flows reach line rate without conflicts,
// ECMP shows collisions, every byte sent is received or traced as dropped, and a run is
// reproducible from its seed.
// Tests: collective-permutation-helper
#include "ns3/clos-fabric-helper.h"
#include "ns3/clos-link-load-tracker.h"
#include "ns3/collective-permutation-helper.h"
#include "ns3/config.h"
#include "ns3/ipv4-l3-protocol.h"
#include "ns3/queue-size.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

using namespace ns3;

namespace
{

/// What a permutation run measured.
struct Outcome
{
    std::vector<CollectivePermutationHelper::FlowResult> flows; //!< per flow
    Time completion;                                            //!< permutation completion
    uint32_t maxFlowsPerLink = 0;                               //!< tracker
    double conflictingShare = 0;                                //!< tracker
    uint64_t drops = 0;                                         //!< packets dropped on links
    uint64_t droppedBytes = 0;                                  //!< their IP bytes
    uint64_t ipSentBytes = 0;                                   //!< IP bytes the GPUs sent
    uint64_t ipReceivedBytes = 0;                               //!< IP bytes the GPUs received
    uint64_t ipDroppedBytes = 0;                                //!< IP bytes dropped by IPv4 itself
    uint64_t events = 0;                                        //!< simulator events
};

/// Run the leaf-shift permutation on a fabric made by `helper`. Like any ns-3 model run
/// several times in one process, the salts need fixed streams to repeat.
Outcome
RunPermutation(Ptr<ClosFabricHelper> helper, bool pinned, uint64_t flowBytes)
{
    Ptr<ClosFabric> fabric = helper->Install();
    helper->AssignStreams(fabric, 0);
    auto pairs = CollectivePermutationHelper::LeafShift(fabric, 1);
    if (pinned)
    {
        CollectivePermutationHelper::PinBalanced(fabric, pairs);
    }
    Ptr<CollectivePermutationHelper> traffic = CreateObject<CollectivePermutationHelper>();
    traffic->SetAttribute("FlowBytes", UintegerValue(flowBytes));
    traffic->Install(fabric, pairs);
    Ptr<ClosLinkLoadTracker> tracker = CreateObject<ClosLinkLoadTracker>();
    tracker->Install(fabric);

    Outcome o;
    for (uint32_t g = 0; g < fabric->GetGpuCount(); ++g)
    {
        Ptr<Ipv4L3Protocol> ip = fabric->GetGpus().Get(g)->GetObject<Ipv4L3Protocol>();
        ip->TraceConnectWithoutContext(
            "Tx",
            Callback<void, Ptr<const Packet>, Ptr<Ipv4>, uint32_t>(
                [&o](Ptr<const Packet> p, Ptr<Ipv4>, uint32_t) { o.ipSentBytes += p->GetSize(); }));
        ip->TraceConnectWithoutContext("Rx",
                                       Callback<void, Ptr<const Packet>, Ptr<Ipv4>, uint32_t>(
                                           [&o](Ptr<const Packet> p, Ptr<Ipv4>, uint32_t) {
                                               o.ipReceivedBytes += p->GetSize();
                                           }));
    }
    Config::ConnectWithoutContext("/NodeList/*/$ns3::Ipv4L3Protocol/Drop",
                                  Callback<void,
                                           const Ipv4Header&,
                                           Ptr<const Packet>,
                                           Ipv4L3Protocol::DropReason,
                                           Ptr<Ipv4>,
                                           uint32_t>([&o](const Ipv4Header& h,
                                                          Ptr<const Packet> p,
                                                          Ipv4L3Protocol::DropReason,
                                                          Ptr<Ipv4>,
                                                          uint32_t) {
                                      o.ipDroppedBytes += h.GetSerializedSize() + p->GetSize();
                                  }));

    Simulator::Run();
    o.flows = traffic->GetResults();
    o.completion = traffic->GetCompletionTime();
    o.maxFlowsPerLink = tracker->GetMaxFlowsPerLink();
    o.conflictingShare = tracker->GetConflictingFlowShare();
    o.drops = tracker->GetTotalDrops();
    o.droppedBytes = tracker->GetTotalDroppedBytes();
    o.events = Simulator::GetEventCount();
    Simulator::Destroy();
    return o;
}

} // namespace

/// Pinned, collision-free paths: every flow near line rate, no link shared.
class CollectivePinnedLineRateTestCase : public TestCase
{
  public:
    CollectivePinnedLineRateTestCase()
        : TestCase("pinned flows reach at least 95% of line rate with zero conflicts")
    {
    }

  private:
    void DoRun() override
    {
        Outcome o = RunPermutation(CreateObject<ClosFabricHelper>(), true, 8000000);
        NS_TEST_ASSERT_MSG_EQ(o.flows.size(), 32, "32 flows");
        for (const auto& f : o.flows)
        {
            NS_TEST_EXPECT_MSG_EQ(f.complete, true, "flow " << f.src << "->" << f.dst << " done");
            NS_TEST_EXPECT_MSG_GT_OR_EQ(f.goodputBps,
                                        0.95 * 100e9,
                                        "flow " << f.src << "->" << f.dst << " goodput");
        }
        NS_TEST_EXPECT_MSG_EQ(o.maxFlowsPerLink, 1, "one flow per link");
        NS_TEST_EXPECT_MSG_EQ(o.conflictingShare, 0.0, "no conflicting flow");
        NS_TEST_EXPECT_MSG_EQ(o.drops, 0, "no drops");
    }
};

/// Pinned paths on an oversubscribed fabric share links as PinnedLinkLoad derives.
class CollectivePinnedOversubscribedTestCase : public TestCase
{
  public:
    CollectivePinnedOversubscribedTestCase()
        : TestCase("pinned flows at 2:1 share links as PinnedLinkLoad says")
    {
    }

  private:
    void DoRun() override
    {
        // By hand: k flows per leaf round-robin over n spines (loads per spine in brackets).
        struct Case
        {
            uint32_t k, n, most;
            double share;
        };

        for (const Case& c : {Case{8, 8, 1, 0.0},     // [1 x8]
                              Case{8, 4, 2, 1.0},     // [2 2 2 2]
                              Case{8, 3, 3, 1.0},     // [3 3 2]
                              Case{4, 3, 2, 0.5},     // [2 1 1]: 2 of 4 share
                              Case{6, 4, 2, 4.0 / 6}, // [2 2 1 1]: 4 of 6 share
                              Case{1, 4, 1, 0.0}})
        {
            auto load = CollectivePermutationHelper::PinnedLinkLoad(c.k, c.n);
            NS_TEST_EXPECT_MSG_EQ(load.maxFlowsPerLink, c.most, "k=" << c.k << " n=" << c.n);
            NS_TEST_EXPECT_MSG_EQ_TOL(load.conflictingShare,
                                      c.share,
                                      1e-12,
                                      "k=" << c.k << " n=" << c.n);
        }
        // And a run: 4 leaves x 8 GPUs over 4 spines.
        Ptr<ClosFabricHelper> helper = CreateObject<ClosFabricHelper>();
        helper->SetAttribute("Spines", UintegerValue(4));
        Outcome o = RunPermutation(helper, true, 500000);
        NS_TEST_EXPECT_MSG_EQ(o.maxFlowsPerLink, 2, "two flows per spine link");
        NS_TEST_EXPECT_MSG_EQ(o.conflictingShare, 1.0, "every flow shares");
    }
};

/// Per-flow ECMP on the same permutation collides and is slower.
class CollectiveEcmpCollisionTestCase : public TestCase
{
  public:
    CollectiveEcmpCollisionTestCase()
        : TestCase("per-flow ECMP collides on the same permutation and finishes later")
    {
    }

  private:
    void DoRun() override
    {
        RngSeedManager::SetRun(1);
        Outcome pinned = RunPermutation(CreateObject<ClosFabricHelper>(), true, 2000000);
        Outcome ecmp = RunPermutation(CreateObject<ClosFabricHelper>(), false, 2000000);
        NS_TEST_EXPECT_MSG_GT(ecmp.conflictingShare, 0.0, "conflicts under ECMP");
        NS_TEST_EXPECT_MSG_GT(ecmp.maxFlowsPerLink, 1, "a link carries several flows");
        NS_TEST_EXPECT_MSG_GT(ecmp.completion, pinned.completion, "ECMP finishes later");
        for (const auto& f : ecmp.flows)
        {
            NS_TEST_EXPECT_MSG_EQ(f.complete, true, "every ECMP flow completes");
        }
    }
};

/// IP bytes sent by the GPUs = bytes received by the GPUs + bytes traced as dropped,
/// here with drop-tail queues small enough to drop.
class CollectiveConservationTestCase : public TestCase
{
  public:
    CollectiveConservationTestCase()
        : TestCase("bytes sent = bytes received + traced drops, with drops forced")
    {
    }

  private:
    void DoRun() override
    {
        RngSeedManager::SetRun(1);
        Ptr<ClosFabricHelper> helper = CreateObject<ClosFabricHelper>();
        helper->SetAttribute("EcnThreshold", QueueSizeValue(QueueSize("0B")));
        helper->SetAttribute("QueueSize", QueueSizeValue(QueueSize("40KB")));
        Outcome o = RunPermutation(helper, false, 1000000);
        NS_TEST_ASSERT_MSG_GT(o.drops, 0, "the small queues did drop");
        NS_TEST_EXPECT_MSG_EQ(o.ipSentBytes,
                              o.ipReceivedBytes + o.droppedBytes + o.ipDroppedBytes,
                              "sent = received + dropped");
        for (const auto& f : o.flows)
        {
            NS_TEST_EXPECT_MSG_EQ(f.bytes, 1000000, "TCP delivered every byte despite drops");
        }
    }
};

/// The same seed gives the same run, to the event.
class CollectiveDeterminismTestCase : public TestCase
{
  public:
    CollectiveDeterminismTestCase()
        : TestCase("same RngRun, same results; another RngRun, other salts")
    {
    }

  private:
    void DoRun() override
    {
        RngSeedManager::SetRun(5);
        Outcome a = RunPermutation(CreateObject<ClosFabricHelper>(), false, 1000000);
        Outcome b = RunPermutation(CreateObject<ClosFabricHelper>(), false, 1000000);
        NS_TEST_EXPECT_MSG_EQ(a.events, b.events, "same event count");
        NS_TEST_EXPECT_MSG_EQ(a.completion, b.completion, "same completion time");
        for (std::size_t i = 0; i < a.flows.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(a.flows[i].lastRx, b.flows[i].lastRx, "same flow " << i);
        }
        RngSeedManager::SetRun(6);
        Outcome c = RunPermutation(CreateObject<ClosFabricHelper>(), false, 1000000);
        NS_TEST_EXPECT_MSG_NE(a.events, c.events, "another run differs");
        RngSeedManager::SetRun(1);
    }
};

/// \ingroup collective-tests
class CollectivePermutationTestSuite : public TestSuite
{
  public:
    CollectivePermutationTestSuite()
        : TestSuite("collective-permutation-helper", SYSTEM)
    {
        AddTestCase(new CollectivePinnedLineRateTestCase, TestCase::QUICK);
        AddTestCase(new CollectivePinnedOversubscribedTestCase, TestCase::QUICK);
        AddTestCase(new CollectiveEcmpCollisionTestCase, TestCase::QUICK);
        AddTestCase(new CollectiveConservationTestCase, TestCase::QUICK);
        AddTestCase(new CollectiveDeterminismTestCase, TestCase::QUICK);
    }
};

static CollectivePermutationTestSuite g_vclosPermutationTestSuite; //!< the suite

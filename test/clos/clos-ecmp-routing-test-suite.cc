/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Switch routing: pins are honoured, a TCP connection never splits across paths, the
// switches' own view of a flow's path matches what the links saw, spraying is what it says.
// Tests: clos-ecmp-routing, clos-link-load-tracker
#include "ns3/clos-ecmp-routing.h"
#include "ns3/clos-fabric-helper.h"
#include "ns3/clos-link-load-tracker.h"
#include "ns3/collective-permutation-helper.h"
#include "ns3/enum.h"
#include "ns3/inet-socket-address.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/test.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/uinteger.h"

#include <set>

using namespace ns3;

namespace
{

/// The leaf uplinks (spines) and spine downlinks a tracked flow used.
struct FabricHops
{
    std::set<uint32_t> spinesUp;   //!< spines reached from the source leaf
    std::set<uint32_t> spinesDown; //!< spines it came down from
};

FabricHops
HopsOf(Ptr<ClosFabric> fabric, const ClosLinkLoadTracker::FlowLoad& flow)
{
    FabricHops hops;
    for (uint32_t id : flow.links)
    {
        const ClusterLink& l = fabric->GetLinks()[id];
        if (l.kind == ClusterLink::LEAF_TO_SPINE)
        {
            hops.spinesUp.insert(l.to);
        }
        if (l.kind == ClusterLink::SPINE_TO_LEAF)
        {
            hops.spinesDown.insert(l.from);
        }
    }
    return hops;
}

/// A fabric with small TCP flows over a leaf-shift permutation, tracked.
struct TrackedRun
{
    Ptr<ClosFabric> fabric;
    Ptr<ClosLinkLoadTracker> tracker;
    std::vector<CollectivePermutationHelper::Pair> pairs;
};

TrackedRun
Prepare(Ptr<ClosFabricHelper> helper, bool countAcks)
{
    TrackedRun run;
    run.fabric = helper->Install();
    run.pairs = CollectivePermutationHelper::LeafShift(run.fabric, 1);
    Ptr<CollectivePermutationHelper> traffic = CreateObject<CollectivePermutationHelper>();
    traffic->SetAttribute("FlowBytes", UintegerValue(300000));
    traffic->Install(run.fabric, run.pairs);
    run.tracker = CreateObject<ClosLinkLoadTracker>();
    run.tracker->SetAttribute("IgnorePureAcks", BooleanValue(!countAcks));
    run.tracker->Install(run.fabric);
    return run;
}

} // namespace

/// Pinned pairs and sources take their spine, whatever the hash says.
class ClosPinnedPathsTestCase : public TestCase
{
  public:
    ClosPinnedPathsTestCase()
        : TestCase("pinned pairs and sources take the pinned spine")
    {
    }

  private:
    void DoRun() override
    {
        TrackedRun run = Prepare(CreateObject<ClosFabricHelper>(), false);
        // Force a collision the hash would rarely make: every flow of leaf 0 through
        // spine 5 (pair pins), and every other GPU pinned by source to spine (index % 3).
        std::map<uint32_t, uint32_t> expectedSpine;
        for (const auto& [src, dst] : run.pairs)
        {
            if (run.fabric->GetLeafOfGpu(src) == 0)
            {
                run.fabric->PinPairToSpine(src, dst, 5);
                expectedSpine[src] = 5;
            }
            else
            {
                run.fabric->PinSourceToSpine(src, run.fabric->GetIndexInLeaf(src) % 3);
                expectedSpine[src] = run.fabric->GetIndexInLeaf(src) % 3;
            }
        }
        // A pair pin wins over a source pin.
        run.fabric->PinSourceToSpine(0, 7);
        Simulator::Run();
        const auto& flows = run.tracker->GetFlows();
        NS_TEST_ASSERT_MSG_EQ(flows.size(), run.pairs.size(), "one data flow per pair");
        for (const auto& flow : flows)
        {
            uint32_t src = run.fabric->GetGpuId(Ipv4Address(flow.tuple.srcAddress));
            FabricHops hops = HopsOf(run.fabric, flow);
            NS_TEST_ASSERT_MSG_EQ(hops.spinesUp.size(), 1, "one uplink");
            NS_TEST_EXPECT_MSG_EQ(*hops.spinesUp.begin(), expectedSpine[src], "pinned spine");
            NS_TEST_EXPECT_MSG_EQ((hops.spinesDown == hops.spinesUp),
                                  true,
                                  "down from the same spine");
            auto predicted = run.fabric->TraceFlowPath(flow.tuple);
            NS_TEST_EXPECT_MSG_EQ((predicted == flow.links), true, "TraceFlowPath agrees");
        }
        NS_TEST_EXPECT_MSG_EQ(run.tracker->GetLinkLoad(run.fabric->GetLeafUplinks(0)[5]).flows,
                              8,
                              "all of leaf 0 on spine 5");
        Simulator::Destroy();
    }
};

/// Under per-flow ECMP each TCP connection (data and ACKs) keeps one path.
class ClosTcpNeverSplitTestCase : public TestCase
{
  public:
    ClosTcpNeverSplitTestCase()
        : TestCase("per-flow ECMP never splits a TCP connection, and uses several spines")
    {
    }

  private:
    void DoRun() override
    {
        TrackedRun run = Prepare(CreateObject<ClosFabricHelper>(), true);
        Simulator::Run();
        std::set<uint32_t> spinesUsed;
        uint32_t flows = 0;
        for (const auto& flow : run.tracker->GetFlows())
        {
            if (run.fabric->GetGpuId(Ipv4Address(flow.tuple.srcAddress)) < 0)
            {
                continue;
            }
            ++flows;
            FabricHops hops = HopsOf(run.fabric, flow);
            NS_TEST_ASSERT_MSG_EQ(hops.spinesUp.size(), 1, "a flow uses exactly one uplink");
            NS_TEST_EXPECT_MSG_EQ((hops.spinesDown == hops.spinesUp),
                                  true,
                                  "and comes down that spine");
            NS_TEST_EXPECT_MSG_EQ(flow.links.size(), 4, "GPU-leaf-spine-leaf-GPU");
            auto predicted = run.fabric->TraceFlowPath(flow.tuple);
            NS_TEST_EXPECT_MSG_EQ((predicted == flow.links), true, "TraceFlowPath agrees");
            spinesUsed.insert(*hops.spinesUp.begin());
        }
        // 32 data flows and 32 ACK flows (the tracker counts ACKs here).
        NS_TEST_EXPECT_MSG_EQ(flows, 64, "data and ACK directions of 32 connections");
        NS_TEST_EXPECT_MSG_GT(spinesUsed.size(), 4, "the hash spreads flows over spines");
        Simulator::Destroy();
    }
};

/// PerPacketSpray (labelled as such) does spread one connection over several spines.
class ClosSprayTestCase : public TestCase
{
  public:
    ClosSprayTestCase()
        : TestCase("PerPacketSpray sends one flow over several spines")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<ClosFabricHelper> helper = CreateObject<ClosFabricHelper>();
        helper->SetRoutingAttribute("Mode", EnumValue(ClosEcmpRouting::PER_PACKET_SPRAY));
        TrackedRun run = Prepare(helper, false);
        Simulator::Run();
        for (const auto& flow : run.tracker->GetFlows())
        {
            NS_TEST_EXPECT_MSG_GT(HopsOf(run.fabric, flow).spinesUp.size(), 1, "sprayed");
        }
        Simulator::Destroy();
    }
};

/// Salts come from the random stream: reproducible, and different per stream.
class ClosSaltTestCase : public TestCase
{
  public:
    ClosSaltTestCase()
        : TestCase("per-switch salts are reproducible from the seed and differ per switch")
    {
    }

  private:
    std::vector<uint32_t> Salts(int64_t stream)
    {
        Ptr<ClosFabricHelper> helper = CreateObject<ClosFabricHelper>();
        Ptr<ClosFabric> f = helper->Install();
        helper->AssignStreams(f, stream);
        std::vector<uint32_t> salts;
        for (uint32_t l = 0; l < f->GetLeafCount(); ++l)
        {
            salts.push_back(f->GetLeafRouting(l)->GetSalt());
        }
        for (uint32_t s = 0; s < f->GetSpineCount(); ++s)
        {
            salts.push_back(f->GetSpineRouting(s)->GetSalt());
        }
        Simulator::Destroy();
        return salts;
    }

    void DoRun() override
    {
        RngSeedManager::SetSeed(1);
        RngSeedManager::SetRun(3);
        auto a = Salts(7);
        auto b = Salts(7);
        auto c = Salts(8);
        NS_TEST_EXPECT_MSG_EQ((a == b), true, "same seed, run and stream: same salts");
        NS_TEST_EXPECT_MSG_EQ((a == c), false, "another stream: other salts");
        NS_TEST_EXPECT_MSG_EQ(std::set<uint32_t>(a.begin(), a.end()).size(),
                              a.size(),
                              "every switch has its own salt");
        RngSeedManager::SetRun(4);
        NS_TEST_EXPECT_MSG_EQ((Salts(7) == a), false, "another RngRun: other salts");
        RngSeedManager::SetRun(1);
    }
};

/// A packet to an address outside the fabric is dropped by a spine, and traced.
class ClosNoRouteTestCase : public TestCase
{
  public:
    ClosNoRouteTestCase()
        : TestCase("no route: packets are dropped once, without looping, and traced")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<ClosFabric> f = CreateObject<ClosFabricHelper>()->Install();
        uint32_t noRoute = 0;
        for (uint32_t s = 0; s < f->GetSpineCount(); ++s)
        {
            f->GetSpineRouting(s)->TraceConnectWithoutContext(
                "NoRoute",
                Callback<void, Ptr<const Packet>, const Ipv4Header&>(
                    [&noRoute](Ptr<const Packet>, const Ipv4Header&) { ++noRoute; }));
        }
        Ptr<Socket> tx = Socket::CreateSocket(f->GetGpus().Get(0), UdpSocketFactory::GetTypeId());
        Simulator::Schedule(MicroSeconds(1), [tx]() {
            tx->SendTo(Create<Packet>(64), 0, InetSocketAddress(Ipv4Address("10.200.0.1"), 9));
        });
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(noRoute, 1, "dropped once, at a spine");
        Simulator::Destroy();
    }
};

/// The tracker's notion of sharing: overlapping active periods, split at IdleGap.
class ClosTrackerIdleGapTestCase : public TestCase
{
  public:
    ClosTrackerIdleGapTestCase()
        : TestCase("tracker: a flow idle for longer than IdleGap shares nothing meanwhile")
    {
    }

  private:
    /// \param idleGap the tracker's IdleGap \return the conflicting share it reports
    double ConflictsWith(Time idleGap)
    {
        Ptr<ClosFabric> f = CreateObject<ClosFabricHelper>()->Install();
        f->PinSourceToSpine(0, 2);
        f->PinSourceToSpine(1, 2);
        Ptr<ClosLinkLoadTracker> tracker = CreateObject<ClosLinkLoadTracker>();
        tracker->SetAttribute("IdleGap", TimeValue(idleGap));
        tracker->Install(f);
        // Flow A (GPU 0 -> 8) at 10 us and 500 us; flow B (GPU 1 -> 9) at 200 us, through
        // the same uplink: B falls in A's silence.
        std::vector<std::pair<uint32_t, Time>> sends = {{0, MicroSeconds(10)},
                                                        {1, MicroSeconds(200)},
                                                        {0, MicroSeconds(500)}};
        std::vector<Ptr<Socket>> sockets;
        for (uint32_t g : {0u, 1u, 8u, 9u}) // senders, and receivers (no ICMP unreachable)
        {
            sockets.push_back(
                Socket::CreateSocket(f->GetGpus().Get(g), UdpSocketFactory::GetTypeId()));
            sockets.back()->Bind(InetSocketAddress(Ipv4Address::GetAny(), 9));
        }
        for (const auto& [src, when] : sends)
        {
            Ptr<Socket> s = sockets[src];
            Ipv4Address dst = f->GetGpuAddress(src + 8);
            Simulator::Schedule(when, [s, dst]() {
                s->SendTo(Create<Packet>(1000), 0, InetSocketAddress(dst, 9));
            });
        }
        Simulator::Run();
        double share = tracker->GetConflictingFlowShare();
        NS_TEST_EXPECT_MSG_EQ(tracker->GetFlows().size(), 2, "two flows");
        Simulator::Destroy();
        return share;
    }

    void DoRun() override
    {
        NS_TEST_EXPECT_MSG_EQ(ConflictsWith(MicroSeconds(100)), 0.0, "A was idle while B sent");
        NS_TEST_EXPECT_MSG_EQ(ConflictsWith(Seconds(1)), 1.0, "without the gap, both conflict");
    }
};

/// \ingroup clos-tests
class ClosRoutingTestSuite : public TestSuite
{
  public:
    ClosRoutingTestSuite()
        : TestSuite("clos-ecmp-routing", UNIT)
    {
        AddTestCase(new ClosPinnedPathsTestCase, TestCase::QUICK);
        AddTestCase(new ClosTcpNeverSplitTestCase, TestCase::QUICK);
        AddTestCase(new ClosSprayTestCase, TestCase::QUICK);
        AddTestCase(new ClosSaltTestCase, TestCase::QUICK);
        AddTestCase(new ClosNoRouteTestCase, TestCase::QUICK);
        AddTestCase(new ClosTrackerIdleGapTestCase, TestCase::QUICK);
    }
};

static ClosRoutingTestSuite g_vclosRoutingTestSuite; //!< the suite

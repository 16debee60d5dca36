/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// FluidEngine: max-min rates and equal-share rates against cases worked out by hand,
// completion times by hand, bytes conserved, determinism, locality of the recomputation, and
// a randomized comparison of the incremental engine with a global progressive filling
// written independently here (with a negative control: a wrong reference is caught).
// Tests: fluid-engine
#include "../suite-error-of.h"

#include "ns3/cluster-topology.h"
#include "ns3/fluid-engine.h"

#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <map>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

constexpr double G = 1e9; //!< 1 Gbit/s

/// Start flows (paths given), settle the rates, return them in Gbit/s.
std::vector<double>
RatesOf(const std::vector<double>& capacitiesGbps,
        const std::vector<std::vector<uint32_t>>& paths,
        FluidEngine::Sharing sharing)
{
    std::vector<double> caps;
    for (double c : capacitiesGbps)
    {
        caps.push_back(c * G);
    }
    FluidEngine engine(caps, sharing);
    std::vector<FluidEngine::FlowId> ids;
    for (const auto& p : paths)
    {
        ids.push_back(engine.StartFlow(p, 1e9, 0));
    }
    engine.UpdateRates();
    std::vector<double> rates;
    for (auto id : ids)
    {
        rates.push_back(engine.GetRate(id) / G);
    }
    return rates;
}

/// Expect two rate vectors (Gbit/s) to agree to 1e-9 relative.
void
ExpectRates(const std::vector<double>& got, const std::vector<double>& expected)
{
    ASSERT_EQ(got.size(), expected.size());
    for (std::size_t i = 0; i < got.size(); ++i)
    {
        EXPECT_NEAR(got[i], expected[i], 1e-9 * expected[i]) << "flow " << i;
    }
}

using Sharing = FluidEngine::Sharing;

} // namespace

TEST(FluidEngine, OneBottleneck)
{
    // Link 0 (90 Gbit/s) is shared by three flows that each also cross a private 1000 Gbit/s
    // link: 90 / 3 = 30 each, in both models.
    const std::vector<double> caps = {90, 1000, 1000, 1000};
    const std::vector<std::vector<uint32_t>> paths = {{1, 0}, {2, 0}, {3, 0}};
    ExpectRates(RatesOf(caps, paths, Sharing::MAX_MIN), {30, 30, 30});
    ExpectRates(RatesOf(caps, paths, Sharing::EQUAL_SHARE), {30, 30, 30});
}

TEST(FluidEngine, ParkingLot)
{
    // Links A=0, B=1, C=2 of 100 Gbit/s. The long flow crosses all three; A and C have one
    // short flow each, B two. Max-min: B is the bottleneck at 100/3 for its three flows; A's
    // and C's short flows take what the long flow leaves, 100 - 100/3 = 200/3.
    // Equal share: the long flow gets min(100/2, 100/3, 100/2) = 100/3, A's and C's short
    // flows 100/2 = 50 (capacity the long flow cannot use stays idle).
    const std::vector<double> caps = {100, 100, 100};
    const std::vector<std::vector<uint32_t>> paths = {{0, 1, 2}, {0}, {1}, {1}, {2}};
    ExpectRates(RatesOf(caps, paths, Sharing::MAX_MIN),
                {100.0 / 3, 200.0 / 3, 100.0 / 3, 100.0 / 3, 200.0 / 3});
    ExpectRates(RatesOf(caps, paths, Sharing::EQUAL_SHARE),
                {100.0 / 3, 50, 100.0 / 3, 100.0 / 3, 50});
}

TEST(FluidEngine, ChainWhereModelsDiffer)
{
    // l1 = 30, l2 = 100, l3 = 200 Gbit/s; f1 on l1, f2 on l1 l2, f3 on l2 l3, f4 on l3.
    // Max-min: l1 saturates first at 15 (f1, f2). l2 has 85 left for f3 alone, l3 200 / 2 =
    // 100 for f3 and f4: l2 is next, f3 = 85; f4 takes the rest of l3, 200 - 85 = 115.
    // Equal share: f1 = f2 = 30/2 = 15, f3 = min(100/2, 200/2) = 50, f4 = 200/2 = 100.
    const std::vector<double> caps = {30, 100, 200};
    const std::vector<std::vector<uint32_t>> paths = {{0}, {0, 1}, {1, 2}, {2}};
    ExpectRates(RatesOf(caps, paths, Sharing::MAX_MIN), {15, 15, 85, 115});
    ExpectRates(RatesOf(caps, paths, Sharing::EQUAL_SHARE), {15, 15, 50, 100});
}

TEST(FluidEngine, EqualShareIsTheAuthorsFormulaOnAFabric)
{
    // 2 leaves x 2 servers x 2 GPUs, 2 spines, 100 Gbit/s NICs and fabric, 1000 intra-server.
    ClusterTopologyConfig c;
    c.leaves = 2;
    c.spines = 2;
    c.serversPerLeaf = 2;
    c.gpusPerServer = 2;
    ClusterTopology topo(c);
    auto path = [&](uint32_t s, uint32_t d, uint32_t spine) {
        ClusterPath p = topo.GetPath(s, d, spine);
        return std::vector<uint32_t>(p.begin(), p.end());
    };
    // 0->4, 1->5, 2->6 through spine 0: three flows on leaf0's uplink 0 and on spine 0's
    // downlink to leaf 1, so c_max = 3: 100/3 each. 3->7 through spine 1 alone: 100.
    // 0->2 (same leaf): GPU 0's NIC carries 2 flows, GPU 2's downlink 1: c_max = 2: 50.
    // 4->5 (same server): 1000 / 1.
    const std::vector<std::vector<uint32_t>> paths =
        {path(0, 4, 0), path(1, 5, 0), path(2, 6, 0), path(3, 7, 1), path(0, 2, 0), path(4, 5, 0)};
    std::vector<double> caps = topo.GetLinkCapacities();
    for (double& x : caps)
    {
        x /= G;
    }
    ExpectRates(RatesOf(caps, paths, Sharing::EQUAL_SHARE),
                {100.0 / 3, 100.0 / 3, 100.0 / 3, 100, 50, 1000});
    // Max-min differs only where capacity is left: 0->2 gets 100 - 100/3 on GPU 0's NIC.
    ExpectRates(RatesOf(caps, paths, Sharing::MAX_MIN),
                {100.0 / 3, 100.0 / 3, 100.0 / 3, 100, 200.0 / 3, 1000});
}

TEST(FluidEngine, CompletionTimesByHand)
{
    for (Sharing sharing : {Sharing::MAX_MIN, Sharing::EQUAL_SHARE})
    {
        // Link 0: 8 Gbit/s = 1e9 B/s; link 1: 8 Gbit/s. Numbers chosen to be exact in binary.
        FluidEngine engine({8 * G, 8 * G}, sharing);
        std::map<uint64_t, double> finished;
        engine.SetFinishHandler([&](FluidEngine::FlowId, uint64_t tag) {
            finished[tag] = engine.GetNow();
            if (tag == 1)
            {
                // A's finish starts C (1e9 B) on link 0 at t = 2.
                engine.StartFlow({0}, 1e9, 3);
            }
        });
        // A = 1e9 B and B = 2e9 B share link 0: 5e8 B/s each, A ends at 2 s. B has 1e9 B
        // left and shares with C from 2 s: both end at 2 + 1e9 / 5e8 = 4 s.
        engine.StartFlow({0}, 1e9, 1);
        engine.StartFlow({0}, 2e9, 2);
        // A timer at 0.5 s starts D = 1e9 B on link 1, alone at 1e9 B/s until E = 1e9 B
        // joins at 1 s: D has 5e8 B left at 5e8 B/s and ends at 2 s; E sends 5e8 B by then
        // and its last 5e8 B alone at 1e9 B/s: it ends at 2.5 s.
        engine.Schedule(0.5, [&] { engine.StartFlow({1}, 1e9, 4); });
        engine.Schedule(1.0, [&] { engine.StartFlow({1}, 1e9, 5); });
        engine.Run();
        ASSERT_EQ(finished.size(), 5u);
        EXPECT_EQ(finished[1], 2.0);
        EXPECT_EQ(finished[2], 4.0);
        EXPECT_EQ(finished[3], 4.0);
        EXPECT_EQ(finished[4], 2.0);
        EXPECT_EQ(finished[5], 2.5);
        // Instants: 0.5 and 1 (timers), 2 (A and D), 2.5 (E), 4 (B and C together).
        // Starting A and B from outside at t = 0 is not an event.
        EXPECT_EQ(engine.GetStats().instants, 5u);
        EXPECT_EQ(engine.GetStats().flowsFinished, 5u);
        EXPECT_EQ(engine.GetStats().bytesFinished, 6e9);
        EXPECT_EQ(engine.GetActiveFlowCount(), 0u);
    }
}

namespace
{

/// Run the engine, whose flows are tagged 1..n, and expect flow k to finish k-th, at
/// expected[k] (1e-9 relative).
void
ExpectFinishesInOrder(FluidEngine& engine, uint32_t n, const std::vector<double>& expected)
{
    std::vector<double> finish(n + 1, -1);
    std::vector<uint64_t> order;
    engine.SetFinishHandler([&](FluidEngine::FlowId, uint64_t tag) {
        finish[tag] = engine.GetNow();
        order.push_back(tag);
    });
    engine.Run();
    ASSERT_EQ(order.size(), n);
    for (uint32_t k = 1; k <= n; ++k)
    {
        EXPECT_EQ(order[k - 1], k);
        EXPECT_NEAR(finish[k], expected[k], 1e-9 * expected[k]) << "flow " << k;
    }
}

} // namespace

TEST(FluidEngine, ManyRateChangesOnOneLink)
{
    // n flows of sizes k * S (k = 1..n) on one link of capacity C B/s, all started at 0:
    // every finish re-rates all the others, so the completion heap holds many superseded
    // entries (and is rebuilt from the live ones more than once). By hand: while n - k + 1
    // flows are left, each gets C / (n - k + 1), and the k-th finishes S (n - k + 1) / C after
    // the (k-1)-th: t_k = (S / C) * sum_{j=1..k} (n - j + 1).
    constexpr uint32_t n = 3000;
    constexpr double S = 1e6;
    constexpr double C = 1e9; // 8 Gbit/s
    std::vector<double> expected(n + 1, 0);
    for (uint32_t k = 1; k <= n; ++k)
    {
        expected[k] = expected[k - 1] + S * (n - k + 1) / C;
    }
    for (Sharing sharing : {Sharing::MAX_MIN, Sharing::EQUAL_SHARE})
    {
        FluidEngine engine({8 * C}, sharing);
        for (uint32_t k = n; k >= 1; --k) // started largest first: ids do not give the order
        {
            engine.StartFlow({0}, k * S, k);
        }
        ExpectFinishesInOrder(engine, n, expected);
        // n starts then n - 1 re-rates after each finish: far more entries than flows.
        EXPECT_GT(engine.GetStats().heapUpdates, 100u * n);
    }
}

TEST(FluidEngine, ManyRateDropsThenRisesOnOneLink)
{
    // n flows of S bytes join one link of capacity C B/s one by one, d apart: each start
    // slows every flow already there (their finishes move later), then the finishes speed
    // them up again. By hand: flow k (started at (k-1)d) has sent sum_{j=k-1..n-2} dC/(j+1)
    // when the last one joins at T = (n-1)d; the rest, r_k, grows with k, and the k-th
    // finishes at T + sum_{j=1..k} (r_j - r_{j-1}) (n - j + 1) / C.
    constexpr uint32_t n = 2000;
    constexpr double S = 1e6;
    constexpr double C = 1e9;
    constexpr double d = 1e-7;
    std::vector<double> rest(n + 1, 0);
    std::vector<double> expected(n + 1, (n - 1) * d);
    for (uint32_t k = 1; k <= n; ++k)
    {
        double sent = 0;
        for (uint32_t j = k - 1; j + 2 <= n; ++j)
        {
            sent += d * C / (j + 1);
        }
        rest[k] = S - sent;
        expected[k] =
            (k == 1 ? (n - 1) * d : expected[k - 1]) + (rest[k] - rest[k - 1]) * (n - k + 1) / C;
    }
    for (Sharing sharing : {Sharing::MAX_MIN, Sharing::EQUAL_SHARE})
    {
        FluidEngine engine({8 * C}, sharing);
        for (uint32_t k = 1; k <= n; ++k)
        {
            engine.Schedule((k - 1) * d, [&engine, k] { engine.StartFlow({0}, S, k); });
        }
        ExpectFinishesInOrder(engine, n, expected);
    }
}

TEST(FluidEngine, OrderAtOneInstantAndSlotReuse)
{
    // Link 0: 8 Gbit/s = 1e9 B/s. Flows X (tag 1) and Y (tag 2), 1e9 B each, end together at
    // 2 s; timers T1 then T2 are due at 2 s too. Documented order: finishes by ascending id,
    // then timers in scheduling order.
    FluidEngine engine({8 * G}, Sharing::MAX_MIN);
    std::vector<std::string> order;
    std::vector<FluidEngine::FlowId> startedInHandler;
    engine.SetFinishHandler([&](FluidEngine::FlowId id, uint64_t tag) {
        order.push_back("flow" + std::to_string(tag));
        // The finishing flow's id is not handed out again while its handler runs.
        if (tag == 1)
        {
            const FluidEngine::FlowId z = engine.StartFlow({0}, 1e9, 3);
            EXPECT_NE(z, id);
            startedInHandler.push_back(z);
            // Started at t = 2: no rate until the instant ends.
            EXPECT_EQ(engine.GetRate(z), 0.0);
        }
    });
    const FluidEngine::FlowId x = engine.StartFlow({0}, 1e9, 1);
    const FluidEngine::FlowId y = engine.StartFlow({0}, 1e9, 2);
    ASSERT_LT(x, y);
    engine.Schedule(2.0, [&] { order.push_back("T1"); });
    engine.Schedule(2.0, [&] { order.push_back("T2"); });
    engine.UpdateRates();
    EXPECT_EQ(engine.GetRate(x), 4 * G);
    EXPECT_EQ(engine.GetFinishTime(y), 2.0);
    ASSERT_TRUE(engine.Step());
    EXPECT_EQ(engine.GetNow(), 2.0);
    EXPECT_EQ(order, (std::vector<std::string>{"flow1", "flow2", "T1", "T2"}));
    // After the instant, the flow started in the handler runs alone at the full 8 Gbit/s,
    // and finished flows' ids are free again.
    ASSERT_EQ(startedInHandler.size(), 1u);
    EXPECT_EQ(engine.GetRate(startedInHandler[0]), 8 * G);
    EXPECT_FALSE(engine.IsActive(y));
    const FluidEngine::FlowId reused = engine.StartFlow({0}, 1e9, 4);
    EXPECT_TRUE(reused == x || reused == y);
    engine.Run();
    EXPECT_EQ(engine.GetNow(), 4.0); // two flows of 1e9 B at 5e8 B/s each from t = 2
    EXPECT_EQ(engine.GetActiveFlowCount(), 0u);
}

TEST(FluidEngine, ConflictingFlowMeasure)
{
    for (Sharing sharing : {Sharing::MAX_MIN, Sharing::EQUAL_SHARE})
    {
        // On the small fabric: three flows through spine 0 share leaf 0's uplink 0 (3), GPU
        // 0's NIC carries 0->4 and 0->2 (2 for 0->2), 3->7 through spine 1 shares nothing.
        ClusterTopologyConfig c;
        c.leaves = 2;
        c.spines = 2;
        c.serversPerLeaf = 2;
        c.gpusPerServer = 2;
        ClusterTopology topo(c);
        FluidEngine engine(topo.GetLinkCapacities(), sharing);
        auto start = [&](uint32_t s, uint32_t d, uint32_t spine) {
            ClusterPath p = topo.GetPath(s, d, spine);
            return engine.StartFlow(p.links.data(), p.size, 1e9, 0);
        };
        std::vector<FluidEngine::FlowId> ids = {start(0, 4, 0),
                                                start(1, 5, 0),
                                                start(2, 6, 0),
                                                start(3, 7, 1),
                                                start(0, 2, 0)};
        engine.UpdateRates();
        std::vector<uint32_t> got;
        for (auto id : ids)
        {
            got.push_back(engine.GetMaxSharing(id));
        }
        EXPECT_EQ(got, (std::vector<uint32_t>{3, 3, 3, 1, 2}));
    }
    for (Sharing sharing : {Sharing::MAX_MIN, Sharing::EQUAL_SHARE})
    {
        // Over time: A (1e9 B) alone on link 0 from 0; B (1e8 B) joins at 0.5 s and leaves;
        // C alone on link 1. Read in the finish handlers.
        FluidEngine engine({8 * G, 8 * G}, sharing);
        std::map<uint64_t, std::pair<double, uint32_t>> seen; // tag -> (start, max sharing)
        engine.SetFinishHandler([&](FluidEngine::FlowId id, uint64_t tag) {
            seen[tag] = {engine.GetStartTime(id), engine.GetMaxSharing(id)};
        });
        engine.StartFlow({0}, 1e9, 1);
        engine.StartFlow({1}, 1e9, 3);
        engine.Schedule(0.5, [&] { engine.StartFlow({0}, 1e8, 2); });
        engine.Run();
        EXPECT_EQ(seen[1], std::make_pair(0.0, 2u));
        EXPECT_EQ(seen[2], std::make_pair(0.5, 2u));
        EXPECT_EQ(seen[3], std::make_pair(0.0, 1u));
        // Outside its handler a finished flow is refused.
        EXPECT_NE(ErrorOf<std::invalid_argument>([&] { engine.GetMaxSharing(0); }), "");
    }
}

// Watched-limited flows, by hand. Links: 0 and 1 are NICs (10 and 10 units), 2 a watched
// core link. (a) Two flows from different NICs over core capacity 10: each gets 5, set by
// the core: both limited. (b) The same with core capacity 40: the NICs set 10 each, the core
// is shared but not binding: neither limited. (c) Two flows from one NIC (capacity 10) over
// core 10: the NIC (lower id, same share 5) freezes them first: not limited; with the NIC at
// 20 the core binds: limited. The negative control is (b) and (c) first half: sharing alone
// does not count.
TEST(FluidEngine, WatchedLimitedByHand)
{
    for (Sharing sharing : {Sharing::MAX_MIN, Sharing::EQUAL_SHARE})
    {
        auto run = [&](std::vector<double> capacities, std::vector<std::vector<uint32_t>> paths) {
            FluidEngine engine(capacities, sharing);
            engine.SetWatchedLinks({false, false, true});
            std::vector<FluidEngine::FlowId> ids;
            for (const auto& p : paths)
            {
                ids.push_back(engine.StartFlow(p, 1e9, 0));
            }
            engine.UpdateRates();
            std::vector<bool> limited;
            for (auto id : ids)
            {
                limited.push_back(engine.IsWatchedLimited(id));
            }
            return limited;
        };
        EXPECT_EQ(run({80, 80, 80}, {{0, 2}, {1, 2}}), (std::vector<bool>{true, true}));
        EXPECT_EQ(run({80, 80, 320}, {{0, 2}, {1, 2}}), (std::vector<bool>{false, false}));
        EXPECT_EQ(run({80, 80, 80}, {{0, 2}, {0, 2}}), (std::vector<bool>{false, false}));
        EXPECT_EQ(run({160, 80, 80}, {{0, 2}, {0, 2}}), (std::vector<bool>{true, true}));
    }
}

// AdvanceTo runs every instant up to t and moves the clock: a flow started next starts at t.
TEST(FluidEngine, AdvanceToMovesTheClock)
{
    FluidEngine engine({8e9}, Sharing::MAX_MIN); // 1e9 B/s
    std::vector<double> finished;
    engine.SetFinishHandler(
        [&](FluidEngine::FlowId, uint64_t) { finished.push_back(engine.GetNow()); });
    engine.StartFlow({0}, 1e9, 1); // alone: ends at 1 s
    EXPECT_DOUBLE_EQ(engine.GetNextTime(), 1.0);
    engine.AdvanceTo(0.5); // nothing ends yet
    EXPECT_TRUE(finished.empty());
    EXPECT_DOUBLE_EQ(engine.GetNow(), 0.5);
    engine.StartFlow({0}, 0.25e9, 2);            // shares from 0.5 s: both at 0.5e9 B/s
    EXPECT_DOUBLE_EQ(engine.GetNextTime(), 1.0); // the new one: 0.25e9 / 0.5e9 = 0.5 s
    engine.AdvanceTo(2.0);                       // first ends 1.0 + 0.25e9/1e9 = 1.25 s
    ASSERT_EQ(finished.size(), 2u);
    EXPECT_DOUBLE_EQ(finished[0], 1.0);
    EXPECT_DOUBLE_EQ(finished[1], 1.25);
    EXPECT_DOUBLE_EQ(engine.GetNow(), 2.0);
    EXPECT_NE(ErrorOf<std::invalid_argument>([&] { engine.AdvanceTo(1.0); }), ""); // the past
}

// Reset mid-run (flows in flight on a shared link, a timer pending) gives an engine that
// runs the same flows exactly as a new one: the hand-computed times of AdvanceToMovesTheClock.
TEST(FluidEngine, ResetForgetsFlowsTimersAndTime)
{
    FluidEngine engine({8e9, 8e9}, Sharing::MAX_MIN); // 1e9 B/s each
    std::vector<double> finished;
    engine.SetFinishHandler(
        [&](FluidEngine::FlowId, uint64_t) { finished.push_back(engine.GetNow()); });
    bool timerRan = false;
    engine.StartFlow({0, 1}, 4e9, 7);
    engine.StartFlow({0}, 4e9, 8);
    engine.Schedule(3.0, [&] { timerRan = true; });
    engine.AdvanceTo(1.0);
    ASSERT_EQ(engine.GetLinkFlowCount(0), 2u); // control: mid-run, both in flight
    engine.Reset();
    EXPECT_EQ(engine.GetLinkFlowCount(0), 0u);
    EXPECT_EQ(engine.GetLinkFlowCount(1), 0u);
    EXPECT_EQ(engine.GetActiveFlowCount(), 0u);
    EXPECT_DOUBLE_EQ(engine.GetNow(), 0.0);
    EXPECT_EQ(engine.GetStats().flowsStarted, 0u);
    engine.StartFlow({0}, 1e9, 1);
    engine.AdvanceTo(0.5);
    engine.StartFlow({0}, 0.25e9, 2);
    engine.Run();
    EXPECT_FALSE(timerRan); // the pending timer went with the reset
    ASSERT_EQ(finished.size(), 2u);
    EXPECT_DOUBLE_EQ(finished[0], 1.0);
    EXPECT_DOUBLE_EQ(finished[1], 1.25);
}

TEST(FluidEngine, RecomputesOnlyTheTouchedComponent)
{
    // Links 0 and 1 each carry 10 flows; no flow crosses both, so they are two components.
    FluidEngine engine({100 * G, 100 * G}, Sharing::MAX_MIN);
    for (uint32_t i = 0; i < 10; ++i)
    {
        engine.StartFlow({0}, 1e12, 0);
        engine.StartFlow({1}, 1e12, 0);
    }
    engine.UpdateRates();
    EXPECT_EQ(engine.GetStats().flowsRerated, 20u);
    // One more flow on link 0 at 0.5 s: link 0's 11 flows are re-rated, link 1's are not.
    FluidEngine::FlowId extra = 0;
    engine.Schedule(0.5, [&] { extra = engine.StartFlow({0}, 1e12, 0); });
    ASSERT_TRUE(engine.Step());
    EXPECT_EQ(engine.GetStats().flowsRerated, 31u);
    EXPECT_NEAR(engine.GetRate(extra), 100 * G / 11, 1e-3);
    // A flow joining the components re-rates both (21 + 1).
    engine.Schedule(0, [&] { engine.StartFlow({0, 1}, 1e12, 0); });
    ASSERT_TRUE(engine.Step());
    EXPECT_EQ(engine.GetStats().flowsRerated, 31u + 22u);
}

namespace
{

/// A global progressive filling, written independently of the engine: every round, the
/// links with the smallest fair share freeze all their unfrozen flows at that share.
/// \param caps capacities \param paths one path per active flow \param ignoreLink a link
/// whose capacity is ignored (a deliberately wrong reference), or -1
std::vector<double>
NaiveMaxMin(const std::vector<double>& caps,
            const std::vector<std::vector<uint32_t>>& paths,
            int ignoreLink = -1)
{
    std::vector<double> rate(paths.size(), -1);
    std::vector<double> left = caps;
    if (ignoreLink >= 0)
    {
        left[ignoreLink] = 1e30;
    }
    std::size_t frozen = 0;
    while (frozen < paths.size())
    {
        std::vector<int> unfrozenOn(caps.size(), 0);
        for (std::size_t f = 0; f < paths.size(); ++f)
        {
            if (rate[f] < 0)
            {
                for (uint32_t l : paths[f])
                {
                    ++unfrozenOn[l];
                }
            }
        }
        double best = 1e300;
        for (std::size_t l = 0; l < caps.size(); ++l)
        {
            if (unfrozenOn[l] > 0)
            {
                best = std::min(best, left[l] / unfrozenOn[l]);
            }
        }
        std::vector<bool> saturated(caps.size(), false);
        for (std::size_t l = 0; l < caps.size(); ++l)
        {
            saturated[l] = unfrozenOn[l] > 0 && left[l] / unfrozenOn[l] <= best * (1 + 1e-12);
        }
        for (std::size_t f = 0; f < paths.size(); ++f)
        {
            if (rate[f] >= 0)
            {
                continue;
            }
            bool hit = false;
            for (uint32_t l : paths[f])
            {
                hit = hit || saturated[l];
            }
            if (hit)
            {
                rate[f] = best;
                ++frozen;
                for (uint32_t l : paths[f])
                {
                    left[l] -= best;
                }
            }
        }
    }
    return rate;
}

/// The authors' formula: min over the path of capacity / flows on the link.
std::vector<double>
NaiveEqualShare(const std::vector<double>& caps, const std::vector<std::vector<uint32_t>>& paths)
{
    std::vector<int> on(caps.size(), 0);
    for (const auto& p : paths)
    {
        for (uint32_t l : p)
        {
            ++on[l];
        }
    }
    std::vector<double> rate;
    for (const auto& p : paths)
    {
        double r = 1e300;
        for (uint32_t l : p)
        {
            r = std::min(r, caps[l] / on[l]);
        }
        rate.push_back(r);
    }
    return rate;
}

/// What one randomized run observed.
struct Observed
{
    std::vector<std::pair<double, uint64_t>> finishes; //!< (time, tag) in finish order
    uint64_t instants = 0;                             //!< instants checked
    uint64_t mismatches = 0;    //!< instants where the engine differed from the reference
    uint64_t wrongCaught = 0;   //!< instants where the wrong reference differed from the engine
    double worstBytesError = 0; //!< max over flows of |integral of rate - bytes| / bytes
};

/// A random workload; after every instant compare every active flow's rate with the
/// reference computed from scratch, and integrate the rates to check bytes.
Observed
RandomRun(uint32_t seed, Sharing sharing, bool onFabric = false)
{
    std::mt19937_64 rng(seed);
    // Either 24 links of random capacities with random paths, or a small oversubscribed
    // fabric (4 leaves x 2 servers x 2 GPUs, 2 spines) with random GPU pairs and spines.
    ClusterTopologyConfig config;
    config.leaves = 4;
    config.serversPerLeaf = 2;
    config.gpusPerServer = 2;
    config.spines = 2;
    const ClusterTopology topo(config);
    const uint32_t links = onFabric ? topo.GetLinkCount() : 24;
    std::vector<double> caps = topo.GetLinkCapacities();
    if (!onFabric)
    {
        caps.clear();
        for (uint32_t l = 0; l < links; ++l)
        {
            caps.push_back(std::uniform_int_distribution<int>(1, 8)(rng) * 12.5 * G);
        }
    }
    FluidEngine engine(caps, sharing);

    struct Rec
    {
        std::vector<uint32_t> path;
        double bytes;
        double sent = 0;
    };

    std::map<uint64_t, Rec> active; // by tag
    std::map<uint64_t, FluidEngine::FlowId> idOf;
    uint64_t nextTag = 0;
    Observed obs;
    auto start = [&](std::mt19937_64& r) {
        std::vector<uint32_t> path;
        if (onFabric)
        {
            std::uniform_int_distribution<uint32_t> gpu(0, topo.GetGpus() - 1);
            const uint32_t src = gpu(r);
            uint32_t dst = gpu(r);
            dst = dst == src ? (dst + 1) % topo.GetGpus() : dst;
            const ClusterPath p = topo.GetPath(src, dst, r() % 2);
            path.assign(p.begin(), p.end());
        }
        else
        {
            const uint32_t len = std::uniform_int_distribution<uint32_t>(1, 4)(r);
            std::vector<uint32_t> all(links);
            for (uint32_t l = 0; l < links; ++l)
            {
                all[l] = l;
            }
            std::shuffle(all.begin(), all.end(), r);
            path.assign(all.begin(), all.begin() + len);
        }
        const double bytes = std::uniform_real_distribution<double>(1e6, 1e9)(r);
        const uint64_t tag = nextTag++;
        active[tag] = Rec{path, bytes};
        idOf[tag] = engine.StartFlow(path, bytes, tag);
    };
    // Rates are constant between instants: rateOf holds each active flow's rate (bit/s)
    // since the instant `last`; a flow is credited rate * elapsed at the next instant.
    double last = 0;
    std::map<uint64_t, double> rateOf;
    engine.SetFinishHandler([&](FluidEngine::FlowId, uint64_t tag) {
        obs.finishes.emplace_back(engine.GetNow(), tag);
        const Rec& r = active.at(tag);
        auto it = rateOf.find(tag);
        const double sent =
            r.sent + (it == rateOf.end() ? 0 : it->second / 8 * (engine.GetNow() - last));
        obs.worstBytesError = std::max(obs.worstBytesError, std::fabs(sent - r.bytes) / r.bytes);
        active.erase(tag);
        idOf.erase(tag);
        // A third of the finishes start a follow-up flow (a collective's next step).
        if (tag % 3 == 0 && nextTag < 400)
        {
            start(rng);
        }
    });
    double t = 0;
    for (uint32_t i = 0; i < 250; ++i)
    {
        t += std::exponential_distribution<double>(1000.0)(rng);
        engine.Schedule(t, [&] { start(rng); });
    }
    while (true)
    {
        const bool more = engine.Step();
        const double now = engine.GetNow();
        for (auto& [tag, rec] : active)
        {
            auto it = rateOf.find(tag);
            if (it != rateOf.end())
            {
                rec.sent += it->second / 8 * (now - last);
            }
        }
        last = now;
        if (!more)
        {
            break;
        }
        // Compare the engine's rates with the references, computed from scratch.
        std::vector<std::vector<uint32_t>> paths;
        std::vector<double> got;
        rateOf.clear();
        for (auto& [tag, rec] : active)
        {
            paths.push_back(rec.path);
            const double r = engine.GetRate(idOf.at(tag));
            got.push_back(r);
            rateOf[tag] = r;
        }
        if (paths.empty())
        {
            continue;
        }
        ++obs.instants;
        const std::vector<double> ref =
            sharing == Sharing::MAX_MIN ? NaiveMaxMin(caps, paths) : NaiveEqualShare(caps, paths);
        const std::vector<double> wrong =
            sharing == Sharing::MAX_MIN ? NaiveEqualShare(caps, paths) : NaiveMaxMin(caps, paths);
        bool mismatch = false;
        bool caught = false;
        for (std::size_t i = 0; i < got.size(); ++i)
        {
            mismatch = mismatch || std::fabs(got[i] - ref[i]) > 1e-9 * ref[i];
            caught = caught || std::fabs(got[i] - wrong[i]) > 1e-9 * wrong[i];
        }
        obs.mismatches += mismatch;
        obs.wrongCaught += caught;
    }
    return obs;
}

} // namespace

TEST(FluidEngine, IncrementalEqualsGlobalProgressiveFilling)
{
    for (uint32_t seed = 1; seed <= 5; ++seed)
    {
        Observed o = RandomRun(seed, Sharing::MAX_MIN);
        EXPECT_GT(o.instants, 300u) << "seed " << seed;
        EXPECT_EQ(o.mismatches, 0u) << "seed " << seed;
        // Negative control: the check can fail; the equal-share formula differs at many
        // instants from max-min on the same flows.
        EXPECT_GT(o.wrongCaught, o.instants / 4) << "seed " << seed;
    }
}

TEST(FluidEngine, IncrementalEqualsGlobalOnAFabric)
{
    // The same comparison with the fabric's structure: NICs, oversubscribed core links and
    // 10x faster intra-server links, random pairs and spines (ECMP-like collisions).
    for (Sharing sharing : {Sharing::MAX_MIN, Sharing::EQUAL_SHARE})
    {
        for (uint32_t seed = 1; seed <= 3; ++seed)
        {
            Observed o = RandomRun(seed, sharing, true);
            EXPECT_GT(o.instants, 300u) << "seed " << seed;
            EXPECT_EQ(o.mismatches, 0u) << "seed " << seed;
            EXPECT_GT(o.wrongCaught, o.instants / 4) << "seed " << seed;
            EXPECT_LT(o.worstBytesError, 1e-9) << "seed " << seed;
        }
    }
}

TEST(FluidEngine, IncrementalEqualShareEqualsTheFormula)
{
    for (uint32_t seed = 1; seed <= 5; ++seed)
    {
        Observed o = RandomRun(seed, Sharing::EQUAL_SHARE);
        EXPECT_GT(o.instants, 300u) << "seed " << seed;
        EXPECT_EQ(o.mismatches, 0u) << "seed " << seed;
        EXPECT_GT(o.wrongCaught, o.instants / 4) << "seed " << seed;
    }
}

TEST(FluidEngine, WrongReferenceIsCaught)
{
    // A reference that forgets one link's capacity disagrees with the engine on a case
    // where that link is the bottleneck: the comparison is not vacuous.
    const std::vector<double> caps = {30 * G, 100 * G, 200 * G};
    const std::vector<std::vector<uint32_t>> paths = {{0}, {0, 1}, {1, 2}, {2}};
    std::vector<double> got = RatesOf({30, 100, 200}, paths, Sharing::MAX_MIN);
    std::vector<double> right = NaiveMaxMin(caps, paths);
    std::vector<double> wrong = NaiveMaxMin(caps, paths, 0);
    for (std::size_t i = 0; i < got.size(); ++i)
    {
        EXPECT_NEAR(got[i] * G, right[i], 1e-6);
    }
    EXPECT_GT(std::fabs(got[0] * G - wrong[0]), 1e9);
}

TEST(FluidEngine, BytesConserved)
{
    for (Sharing sharing : {Sharing::MAX_MIN, Sharing::EQUAL_SHARE})
    {
        Observed o = RandomRun(11, sharing);
        EXPECT_LT(o.worstBytesError, 1e-9);
    }
}

TEST(FluidEngine, SameInputsSameOutputs)
{
    for (Sharing sharing : {Sharing::MAX_MIN, Sharing::EQUAL_SHARE})
    {
        Observed a = RandomRun(7, sharing);
        Observed b = RandomRun(7, sharing);
        ASSERT_GT(a.finishes.size(), 250u);
        EXPECT_EQ(a.finishes, b.finishes); // exact times, same order
        Observed c = RandomRun(8, sharing);
        EXPECT_NE(a.finishes, c.finishes); // control: another seed differs
    }
}

TEST(FluidEngine, BadInputRefusedWithOneLine)
{
    EXPECT_NE(ErrorOf<std::invalid_argument>([] { FluidEngine e({}, Sharing::MAX_MIN); }), "");
    EXPECT_NE(ErrorOf<std::invalid_argument>([] {
                  FluidEngine e({1e9, 0}, Sharing::MAX_MIN);
              }).find("link 1 capacity must be > 0"),
              std::string::npos);
    FluidEngine e({1e9, 1e9}, Sharing::MAX_MIN);
    auto err = [&](auto f) { return ErrorOf<std::invalid_argument>(f); };
    EXPECT_NE(err([&] { e.StartFlow(std::vector<uint32_t>{}, 1, 0); }).find("path of 0 links"),
              std::string::npos);
    EXPECT_NE(err([&] { e.StartFlow({2}, 1, 0); }).find("no link 2"), std::string::npos);
    EXPECT_NE(err([&] { e.StartFlow({1, 1}, 1, 0); }).find("link 1 twice"), std::string::npos);
    EXPECT_NE(err([&] { e.StartFlow({0}, 0, 0); }).find("bytes must be > 0"), std::string::npos);
    EXPECT_NE(err([&] { e.StartFlow({0}, NAN, 0); }).find("bytes must be > 0"), std::string::npos);
    EXPECT_NE(err([&] { e.Schedule(-1, [] {}); }).find("delay must be >= 0"), std::string::npos);
    EXPECT_NE(err([&] { e.GetRate(0); }).find("flow 0 is not active"), std::string::npos);
    EXPECT_EQ(e.GetActiveFlowCount(), 0u); // nothing half-started
}

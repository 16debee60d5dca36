/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// OCS-vClos stage 4 for one shape, on hand-built states: the solution worked out by hand
// (with and without an idle circuit to reuse), a refusal when a spine lacks idle ports
// (proven, no node visited) and a refusal when the node budget cuts the search (not proven).
// Tests: cluster-ocs-clos-search
#include "ns3/cluster-ocs-clos-search.h"
#include "ns3/cluster-ocs-state.h"
#include "ns3/cluster-state.h"

#include <gtest/gtest.h>

using namespace ns3;

using Ocss = std::vector<uint32_t>;

// 3 leaves of one server x 2 GPUs, 2 OCSs, 2 spines with one port on each OCS, all idle.
// Shape 2 x 2: each leaf holds one virtual leaf (a whole free server, 2 idle uplinks), so
// the first two leaves in best-fit order (equal: lowest index) are taken: 0 and 1. Spines
// (equal: lowest index) 0 then 1. Spine 0: leaf 0 takes the lowest OCS, 0; leaf 1 then
// OCS 1 (spine 0's only port on OCS 0 is taken). Spine 1: each leaf's one unused uplink.
TEST(ClusterOcsClosSearch, FindsTheCircuitsOfATwoByTwoClos)
{
    ClusterState cs(3, 1, 2, 1);
    ClusterOcsState ocs(3, 2, 2, 1);
    EXPECT_EQ(ClusterOcsVirtualLeavesOf(cs, ocs, 0, 2), 1u);
    ClusterOcsClosSearch search(cs, ocs, 2, 2, 1000);
    ASSERT_TRUE(search.Run());
    const auto& sol = search.GetSolution();
    ASSERT_EQ(sol.groups.size(), 2u);
    EXPECT_EQ(sol.groups[0].leaf, 0u);
    EXPECT_EQ(sol.groups[0].count, 1u);
    EXPECT_EQ(sol.groups[1].leaf, 1u);
    EXPECT_EQ(sol.groups[1].count, 1u);
    EXPECT_EQ(sol.spines, (Ocss{0, 1}));
    ASSERT_EQ(sol.ocsOf.size(), 2u);
    EXPECT_EQ(sol.ocsOf[0][0], Ocss{0});
    EXPECT_EQ(sol.ocsOf[0][1], Ocss{1});
    EXPECT_EQ(sol.ocsOf[1][0], Ocss{1});
    EXPECT_EQ(sol.ocsOf[1][1], Ocss{0});
    EXPECT_FALSE(search.WasCut());
}

// An idle circuit from leaf 0's uplink 1 to spine 0 (kept by a finished job): spine 0 now
// takes leaf 0's OCS 1 (reuse first), so leaf 1 gets OCS 0, and spine 1 the other uplinks.
TEST(ClusterOcsClosSearch, PrefersAnIdleCircuitToTheSpine)
{
    ClusterState cs(3, 1, 2, 1);
    ClusterOcsState ocs(3, 2, 2, 1);
    ocs.Book(9, {{0, 1, false, 0, 1}});
    ocs.Release(9, true);
    ClusterOcsClosSearch search(cs, ocs, 2, 2, 1000);
    ASSERT_TRUE(search.Run());
    const auto& sol = search.GetSolution();
    EXPECT_EQ(sol.spines, (Ocss{0, 1}));
    EXPECT_EQ(sol.ocsOf[0][0], Ocss{1});
    EXPECT_EQ(sol.ocsOf[0][1], Ocss{0});
    EXPECT_EQ(sol.ocsOf[1][0], Ocss{0});
    EXPECT_EQ(sol.ocsOf[1][1], Ocss{1});
}

// Control: a job holds spine 1's port on OCS 0 (through leaf 2's uplink 0). Only spine 0
// has m = 2 idle ports, n = 2 spines are needed: refused at once, proven, no node visited.
TEST(ClusterOcsClosSearch, RefusesWhenTooFewSpinesHaveIdlePorts)
{
    ClusterState cs(3, 1, 2, 1);
    ClusterOcsState ocs(3, 2, 2, 1);
    ocs.Book(9, {{2, 0, false, 1, 0}});
    EXPECT_EQ(ClusterOcsBestFitSpines(ocs, 2), Ocss{0});
    ClusterOcsClosSearch search(cs, ocs, 2, 2, 1000);
    EXPECT_FALSE(search.Run());
    EXPECT_FALSE(search.WasCut());
    EXPECT_EQ(search.GetNodes(), 0u);
}

// Control: a budget of one node cuts both passes before any spine is chosen; the refusal is
// then reported as not proven.
TEST(ClusterOcsClosSearch, RefusesUnprovenWhenTheBudgetCutsIt)
{
    ClusterState cs(3, 1, 2, 1);
    ClusterOcsState ocs(3, 2, 2, 1);
    ClusterOcsClosSearch search(cs, ocs, 2, 2, 1);
    EXPECT_FALSE(search.Run());
    EXPECT_TRUE(search.WasCut());
}

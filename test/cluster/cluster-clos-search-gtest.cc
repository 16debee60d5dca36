/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The static vClos search for one shape m x n, on a hand-built cluster: the best leaves it
// finds, worked out by hand, and a control where a busy link leaves too few leaves.
// Tests: cluster-clos-search
#include "ns3/cluster-clos-search.h"
#include "ns3/cluster-state.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{

/**
 * 4 leaves of 2 servers x 2 GPUs, 2 spines. Leaf 0: server 0 busy (free 2, one whole free
 * server). Leaf 1: GPU 4 and its link to spine 1 busy (free 3, one free link). Leaf 2: idle
 * (free 4). Leaf 3: GPU 12 busy (free 3, one whole free server).
 */
ClusterState
FourLeaves()
{
    ClusterState cs(4, 2, 2, 2);
    cs.Allocate(1, {0, 1}, {});
    cs.Allocate(2, {4}, {{1, 1}});
    cs.Allocate(3, {12}, {});
    return cs;
}

} // namespace

// m = 2, n = 2 on whole servers: leaf 1 has one free link and cannot take part; leaves 0, 3
// and 2 (ranks 0, 1, 2: free GPUs 2, 3, 4) each offer a whole free server and both spines.
// The cheapest two are leaves 0 and 3: 2 + 3 = 5 free GPUs.
TEST(ClusterClosSearch, FindsTheTwoLeavesWithFewestFreeGpus)
{
    ClusterState cs = FourLeaves();
    EXPECT_EQ(ClusterUsableGpusOfLeaf(cs, 1, true), 2u);
    EXPECT_EQ(ClusterUsableGpusOfLeaf(cs, 1, false), 3u);
    ClusterClosSearch search(cs, 2, 2, 1000, true);
    const auto& best = search.Run();
    ASSERT_TRUE(best.found);
    EXPECT_EQ(best.cost, 5u);
    ASSERT_EQ(best.leafRanks.size(), 2u);
    EXPECT_EQ(search.LeafOfRank(best.leafRanks[0]), 0u);
    EXPECT_EQ(search.LeafOfRank(best.leafRanks[1]), 3u);
    EXPECT_EQ(search.MaskOfRank(best.leafRanks[1]).count(), 2u);
    EXPECT_FALSE(search.WasCut());
    EXPECT_GE(search.GetNodes(), 1u);
}

// Control: m = 4 needs every leaf, and leaf 1's link to spine 1 is busy: no solution, and
// the refusal is proven (not cut). With that link free the same search succeeds.
TEST(ClusterClosSearch, RefusesWhenABusyLinkLeavesTooFewLeaves)
{
    ClusterState cs = FourLeaves();
    ClusterClosSearch search(cs, 4, 2, 1000, true);
    EXPECT_FALSE(search.Run().found);
    EXPECT_FALSE(search.WasCut());

    ClusterState free(4, 2, 2, 2);
    free.Allocate(1, {0, 1}, {});
    free.Allocate(2, {4}, {});
    free.Allocate(3, {12}, {});
    ClusterClosSearch control(free, 4, 2, 1000, true);
    const auto& best = control.Run();
    ASSERT_TRUE(best.found);
    EXPECT_EQ(best.cost, 2u + 3u + 4u + 3u);
}

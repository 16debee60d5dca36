/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The fluid plan of a collective: connections and the share of the message each carries.
// Tests: fluid-collective
#include "ns3/cluster-collective-schedule.h"
#include "ns3/fluid-collective.h"

#include <gtest/gtest.h>

using namespace ns3;

TEST(FluidCollectivePlan, ConnectionTotalsOfAFlatRing)
{
    // A flat ring of N ranks: rank i sends 2(N-1) steps of M/N to rank i+1, over one
    // connection each: N connections of 2(N-1) steps carrying 2(N-1)/N of the message.
    constexpr uint32_t N = 5;
    ClusterCollectiveShape shape;
    shape.algorithm = CLUSTER_FLAT_RING;
    const FluidCollectivePlan plan(shape, N);
    ASSERT_EQ(plan.GetConnectionTotals().size(), N);
    for (const auto& total : plan.GetConnectionTotals())
    {
        EXPECT_EQ(total.steps, 2 * (N - 1));
        EXPECT_NEAR(total.share, 2.0 * (N - 1) / N, 1e-12);
    }
}

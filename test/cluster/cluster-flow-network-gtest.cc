/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The max-flow network of the OCS-vClos stages: a small network whose maximum flow and
// flow per edge are worked out by hand, and a network without a path (flow 0).
// Tests: cluster-flow-network
#include "ns3/cluster-flow-network.h"

#include <gtest/gtest.h>

using namespace ns3;

// Source 0, sink 3; 0->1 (2), 0->2 (1), 1->2 (1), 1->3 (1), 2->3 (2). The cut {0->1, 0->2}
// carries 3; node 1 then sends its 2 over both of its edges (capacity 1 each), and node 2
// passes 1 + 1 on to the sink: the maximum flow is unique.
TEST(ClusterFlowNetwork, FindsTheMaximumFlowAndTheFlowPerEdge)
{
    ClusterFlowNetwork net(4);
    const auto s1 = net.AddEdge(0, 1, 2);
    const auto s2 = net.AddEdge(0, 2, 1);
    const auto e12 = net.AddEdge(1, 2, 1);
    const auto e13 = net.AddEdge(1, 3, 1);
    const auto e23 = net.AddEdge(2, 3, 2);
    EXPECT_EQ(net.Run(0, 3), 3);
    EXPECT_EQ(net.Flow(s1), 2);
    EXPECT_EQ(net.Flow(s2), 1);
    EXPECT_EQ(net.Flow(e12), 1);
    EXPECT_EQ(net.Flow(e13), 1);
    EXPECT_EQ(net.Flow(e23), 2);
}

// Control: the same edges without 1->3 and 2->3 leave the sink unreachable.
TEST(ClusterFlowNetwork, CarriesNothingWithoutAPathToTheSink)
{
    ClusterFlowNetwork net(4);
    const auto s1 = net.AddEdge(0, 1, 2);
    net.AddEdge(0, 2, 1);
    net.AddEdge(1, 2, 1);
    EXPECT_EQ(net.Run(0, 3), 0);
    EXPECT_EQ(net.Flow(s1), 0);
}

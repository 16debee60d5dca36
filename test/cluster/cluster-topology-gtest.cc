/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// ClusterTopology: dense and unique link ids, paths written out by hand on a small fabric, the
// two 8,192-GPU configurations of the authors' RapidNetSim runs accepted, bad configurations
// refused with one line.
// Tests: cluster-topology
#include "../suite-error-of.h"

#include "ns3/cluster-topology.h"

#include <gtest/gtest.h>
#include <set>
#include <stdexcept>
#include <vector>

using namespace ns3;

namespace
{

/// 2 leaves x 2 servers x 2 GPUs, 2 spines: G = 8, U = 2, 40 links.
ClusterTopologyConfig
Small()
{
    ClusterTopologyConfig c;
    c.leaves = 2;
    c.spines = 2;
    c.serversPerLeaf = 2;
    c.gpusPerServer = 2;
    return c;
}

/// \return the path's link ids as a vector
std::vector<uint32_t>
Ids(const ClusterPath& p)
{
    return std::vector<uint32_t>(p.begin(), p.end());
}

} // namespace

TEST(ClusterTopology, LinkIdsAreDenseAndUnique)
{
    for (uint32_t gpusPerServer : {1u, 2u, 4u})
    {
        ClusterTopologyConfig c = Small();
        c.leaves = 3;
        c.spines = 5;
        c.gpusPerServer = gpusPerServer;
        ClusterTopology t(c);
        const uint32_t g = 3 * 2 * gpusPerServer;
        const uint32_t expected = 2 * g + 2 * 3 * 5 + (gpusPerServer > 1 ? 2 * g : 0);
        ASSERT_EQ(t.GetLinkCount(), expected);
        // Every getter's id, once each, covering 0..count-1.
        std::multiset<uint32_t> ids;
        for (uint32_t gpu = 0; gpu < g; ++gpu)
        {
            ids.insert(t.GetNicUp(gpu));
            ids.insert(t.GetNicDown(gpu));
            if (gpusPerServer > 1)
            {
                ids.insert(t.GetIntraUp(gpu));
                ids.insert(t.GetIntraDown(gpu));
            }
        }
        for (uint32_t leaf = 0; leaf < 3; ++leaf)
        {
            for (uint32_t port = 0; port < 5; ++port)
            {
                ids.insert(t.GetLeafUp(leaf, port));
                ids.insert(t.GetLeafDown(leaf, port));
            }
        }
        ASSERT_EQ(ids.size(), expected);
        ASSERT_EQ(std::set<uint32_t>(ids.begin(), ids.end()).size(), expected) << "duplicate id";
        EXPECT_EQ(*ids.begin(), 0u);
        EXPECT_EQ(*ids.rbegin(), expected - 1);
        // And each link describes what its getter named.
        for (uint32_t gpu = 0; gpu < g; ++gpu)
        {
            EXPECT_EQ(t.GetLink(t.GetNicUp(gpu)).kind, ClusterTopology::LinkKind::GPU_TO_LEAF);
            EXPECT_EQ(t.GetLink(t.GetNicUp(gpu)).gpu, gpu);
            EXPECT_EQ(t.GetLink(t.GetNicDown(gpu)).kind, ClusterTopology::LinkKind::LEAF_TO_GPU);
            EXPECT_EQ(t.GetLink(t.GetNicDown(gpu)).leaf, gpu / (2 * gpusPerServer));
        }
        EXPECT_EQ(t.GetLink(t.GetLeafDown(2, 4)).kind, ClusterTopology::LinkKind::LEAF_DOWN);
        EXPECT_EQ(t.GetLink(t.GetLeafDown(2, 4)).leaf, 2u);
        EXPECT_EQ(t.GetLink(t.GetLeafDown(2, 4)).port, 4u);
    }
}

TEST(ClusterTopology, IdsAndPathsByHand)
{
    ClusterTopology t(Small());
    // Layout: NIC up 0-7, NIC down 8-15, leaf up 16-19, leaf down 20-23, intra 24-31, 32-39.
    ASSERT_EQ(t.GetLinkCount(), 40u);
    EXPECT_EQ(t.GetLeafUp(1, 0), 18u);
    EXPECT_EQ(t.GetLeafDown(0, 1), 21u);
    EXPECT_EQ(t.GetIntraUp(0), 24u);
    EXPECT_EQ(t.GetIntraDown(1), 33u);
    EXPECT_EQ(t.GetLinkName(17), "leaf0->spine1");
    EXPECT_EQ(t.GetLinkName(22), "spine0->leaf1");
    EXPECT_EQ(t.GetLinkName(14), "leaf1->gpu6");
    EXPECT_EQ(t.GetLinkName(33), "server0->gpu1");

    // GPU 6 = leaf 1, server 3 (1 in its leaf), local 0, index 2 under leaf 1.
    EXPECT_EQ(t.GetLeafOfGpu(6), 1u);
    EXPECT_EQ(t.GetServerOfGpu(6), 3u);
    EXPECT_EQ(t.GetLocalIndex(6), 0u);
    EXPECT_EQ(t.GetLocalIndex(7), 1u);
    EXPECT_EQ(t.GetIndexInLeaf(6), 2u);
    EXPECT_EQ(t.GetGpuAt(1, 2), 6u);
    EXPECT_EQ(t.GetGpuAt(0, 3), 3u);

    // Same server: the intra-server links.
    ClusterPath p = t.GetPath(0, 1, 7);
    EXPECT_EQ(p.kind, ClusterPathKind::INTRA_SERVER);
    EXPECT_EQ(Ids(p), (std::vector<uint32_t>{24, 33}));
    // Same leaf, other server: NIC up, NIC down; the spine is ignored.
    p = t.GetPath(0, 2, 99);
    EXPECT_EQ(p.kind, ClusterPathKind::SAME_LEAF);
    EXPECT_EQ(Ids(p), (std::vector<uint32_t>{0, 10}));
    // Other leaf through spine 1 and spine 0.
    p = t.GetPath(1, 6, 1);
    EXPECT_EQ(p.kind, ClusterPathKind::VIA_CORE);
    EXPECT_EQ(Ids(p), (std::vector<uint32_t>{1, 17, 23, 14}));
    EXPECT_EQ(Ids(t.GetPath(5, 2, 0)), (std::vector<uint32_t>{5, 18, 20, 10}));
    // Same GPU: no link.
    EXPECT_EQ(t.GetPath(3, 3, 0).kind, ClusterPathKind::SAME_GPU);
    EXPECT_EQ(t.GetPath(3, 3, 0).size, 0u);
    // Delays: 500 + 1000 + 1000 + 500 ns, and 100 + 100 ns.
    EXPECT_EQ(t.GetPathDelayNs(t.GetPath(1, 6, 1)), 3000u);
    EXPECT_EQ(t.GetPathDelayNs(t.GetPath(0, 1, 0)), 200u);
    // Capacities: NICs and fabric 100 Gbit/s, intra-server 1000 Gbit/s.
    std::vector<double> c = t.GetLinkCapacities();
    EXPECT_EQ(c[0], 100e9);
    EXPECT_EQ(c[17], 100e9);
    EXPECT_EQ(c[39], 1000e9);

    // One GPU per server: no intra-server links, neighbours go through the leaf.
    ClusterTopologyConfig one = Small();
    one.gpusPerServer = 1;
    ClusterTopology t1(one);
    EXPECT_EQ(t1.GetLinkCount(), 4u + 4u + 4u + 4u);
    EXPECT_EQ(Ids(t1.GetPath(0, 1, 0)), (std::vector<uint32_t>{0, 5}));
    EXPECT_EQ(t1.GetPath(0, 1, 0).kind, ClusterPathKind::SAME_LEAF);

    // OCS layer: ports name OCSs; the two ends may use different ports.
    ClusterTopologyConfig ocs = Small();
    ocs.ocsCount = 2;
    ocs.spinePorts = 4;
    ClusterTopology to(ocs);
    EXPECT_EQ(to.GetSpinePortsPerOcs(), 2u);
    EXPECT_EQ(Ids(to.GetPathVia(1, 6, 0, 1)), (std::vector<uint32_t>{1, 16, 23, 14}));
    EXPECT_EQ(to.GetLinkName(16), "leaf0->ocs0");
    EXPECT_NE(ErrorOf<std::logic_error>([&] { to.GetPath(1, 6, 0); }), "");
}

TEST(ClusterTopology, SpecConfigurationsOf8192Gpus)
{
    // static_routing: 128 leaves x 128 ports (64 down, 64 up), 64 spines x 128 ports.
    ClusterTopologyConfig s;
    s.leaves = 128;
    s.serversPerLeaf = 16;
    s.gpusPerServer = 4;
    s.spines = 64;
    s.leafPorts = 128;
    s.spinePorts = 128;
    ClusterTopology ts(s);
    EXPECT_EQ(ts.GetGpus(), 8192u);
    EXPECT_EQ(ts.GetLinkCount(), 4u * 8192 + 2u * 128 * 64);
    // oxc_vclos: 256 leaves x 64 ports (32 / 32), 128 spines x 64 ports, 32 OCSs.
    ClusterTopologyConfig o;
    o.leaves = 256;
    o.serversPerLeaf = 8;
    o.gpusPerServer = 4;
    o.spines = 128;
    o.leafPorts = 64;
    o.spinePorts = 64;
    o.ocsCount = 32;
    ClusterTopology to(o);
    EXPECT_EQ(to.GetGpus(), 8192u);
    EXPECT_EQ(to.GetUplinksPerLeaf(), 32u);
    EXPECT_EQ(to.GetSpinePortsPerOcs(), 2u);
    // The same switches without the OCS layer would need 128 uplinks per leaf.
    o.ocsCount = 0;
    EXPECT_EQ(ClusterTopology::Check(o),
              "LeafPorts=64 cannot hold the 32 GPU downlinks plus 128 spine uplinks");
}

TEST(ClusterTopology, BadInputRefusedWithOneLine)
{
    struct Case
    {
        void (*change)(ClusterTopologyConfig&);
        std::string expected;
    };

    const std::vector<Case> cases = {
        {[](ClusterTopologyConfig& c) { c.leaves = 0; }, "Leaves must be 1 to 1024 (got 0)"},
        {[](ClusterTopologyConfig& c) { c.leaves = 1025; }, "Leaves must be 1 to 1024 (got 1025)"},
        {[](ClusterTopologyConfig& c) { c.spines = 0; }, "Spines must be 1 to 1024 (got 0)"},
        {[](ClusterTopologyConfig& c) { c.serversPerLeaf = 0; }, "ServersPerLeaf must be 1"},
        {[](ClusterTopologyConfig& c) { c.gpusPerServer = 65; }, "GpusPerServer must be 1 to 64"},
        {[](ClusterTopologyConfig& c) { c.nicRateBps = 0; }, "NicDataRate must be 1 to"},
        {[](ClusterTopologyConfig& c) { c.fabricRateBps = 0; }, "FabricDataRate must be 1 to"},
        {[](ClusterTopologyConfig& c) { c.intraServerRateBps = 0; }, "IntraServerDataRate"},
        {[](ClusterTopologyConfig& c) { c.fabricDelayNs = 2000000000; }, "FabricDelay must be"},
        {[](ClusterTopologyConfig& c) { c.leafPorts = 7; },
         "LeafPorts=7 cannot hold the 4 GPU downlinks plus 4 spine uplinks"},
        {[](ClusterTopologyConfig& c) { c.spinePorts = 1; },
         "SpinePorts=1 cannot hold one downlink to each of the 2 leaves"},
        {[](ClusterTopologyConfig& c) {
             c.ocsCount = 3;
             c.spinePorts = 4;
         },
         "SpinePorts=4 must be a positive multiple of OcsCount=3"},
        {[](ClusterTopologyConfig& c) {
             c.leaves = 1024;
             c.serversPerLeaf = 1024;
             c.gpusPerServer = 64;
         },
         "GPUs exceeds 131072"},
        {[](ClusterTopologyConfig& c) {
             c.serversPerLeaf = 1024;
             c.gpusPerServer = 4;
         },
         "a leaf would need 4100 ports (4096 GPU downlinks plus 4 spine uplinks), at most 4096"},
    };
    for (const Case& k : cases)
    {
        ClusterTopologyConfig c = Small();
        c.spines = 4;
        k.change(c);
        std::string e = ErrorOf<std::invalid_argument>([&] { ClusterTopology t(c); });
        EXPECT_NE(e.find(k.expected), std::string::npos) << "got: " << e;
        EXPECT_EQ(e.find('\n'), std::string::npos) << e;
        EXPECT_EQ(e.rfind("ClusterTopology: ", 0), 0u) << e;
    }
    // Out-of-range questions throw std::out_of_range.
    ClusterTopology t(Small());
    EXPECT_NE(ErrorOf<std::out_of_range>([&] { t.GetPath(0, 8, 0); }), "");
    EXPECT_NE(ErrorOf<std::out_of_range>([&] { t.GetPath(0, 6, 2); }), "");
    EXPECT_NE(ErrorOf<std::out_of_range>([&] { t.GetLink(40); }), "");
    EXPECT_NE(ErrorOf<std::out_of_range>([&] { t.GetLeafUp(2, 0); }), "");
    EXPECT_NE(ErrorOf<std::out_of_range>([&] { t.GetGpuAt(0, 4); }), "");
    ClusterTopologyConfig one = Small();
    one.gpusPerServer = 1;
    ClusterTopology t1(one);
    EXPECT_NE(ErrorOf<std::out_of_range>([&] { t1.GetIntraUp(0); }), "");
}

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// FluidBurst against FluidEngine (EQUAL_SHARE) on the same flows, all started at
// time 0: finish times, bytes left and flags must be equal bit for bit.
// Tests: fluid-burst
#include "ns3/cluster-topology.h"
#include "ns3/fluid-burst.h"
#include "ns3/fluid-engine.h"

#include <gtest/gtest.h>
#include <random>

using namespace ns3;

namespace
{

/// Random flows on a 4-leaf, 2-spine fabric (leaf uplinks shared), all started at 0.
struct Burst
{
    std::vector<ClusterPath> paths;
    std::vector<double> bytes;
};

ClusterTopologyConfig
Config()
{
    ClusterTopologyConfig c;
    c.leaves = 4;
    c.spines = 2;
    c.serversPerLeaf = 2;
    c.gpusPerServer = 2;
    return c;
}

Burst
RandomBurst(const ClusterTopology& topology, uint32_t seed, bool equalBytes)
{
    std::mt19937 rng(seed);
    std::uniform_int_distribution<uint32_t> gpu(0, topology.GetGpus() - 1);
    std::uniform_int_distribution<uint32_t> spine(0, topology.GetSpines() - 1);
    std::uniform_int_distribution<uint32_t> size(1, 4);
    Burst b;
    const uint32_t flows = 20 + seed % 40;
    while (b.paths.size() < flows)
    {
        const uint32_t src = gpu(rng);
        const uint32_t dst = gpu(rng);
        if (src == dst)
        {
            continue;
        }
        b.paths.push_back(topology.GetPath(src, dst, spine(rng)));
        b.bytes.push_back(equalBytes ? 1e6 : 1e6 * size(rng));
    }
    return b;
}

std::vector<bool>
CoreLinks(const ClusterTopology& topology)
{
    std::vector<bool> core(topology.GetLinkCount());
    for (uint32_t l = 0; l < core.size(); ++l)
    {
        const auto kind = topology.GetLink(l).kind;
        core[l] = kind == ClusterTopology::LinkKind::LEAF_UP ||
                  kind == ClusterTopology::LinkKind::LEAF_DOWN;
    }
    return core;
}

/// The engine's view of the same burst, run up to `until`.
FluidBurst::Result
EngineRun(const ClusterTopology& topology, const Burst& b, double until)
{
    FluidEngine engine(topology.GetLinkCapacities(), FluidEngine::Sharing::EQUAL_SHARE);
    engine.SetWatchedLinks(CoreLinks(topology));
    FluidBurst::Result r;
    const std::size_t n = b.paths.size();
    r.finish.assign(n, std::numeric_limits<double>::infinity());
    r.remaining.assign(n, 0);
    r.maxSharing.assign(n, 0);
    r.watchedLimited.assign(n, 0);
    engine.SetFinishHandler([&](FluidEngine::FlowId id, uint64_t f) {
        r.finish[f] = engine.GetNow();
        r.maxSharing[f] = engine.GetMaxSharing(id);
        r.watchedLimited[f] = engine.IsWatchedLimited(id);
    });
    std::vector<FluidEngine::FlowId> ids;
    for (std::size_t f = 0; f < n; ++f)
    {
        ids.push_back(engine.StartFlow(b.paths[f].links.data(), b.paths[f].size, b.bytes[f], f));
    }
    engine.AdvanceTo(until == std::numeric_limits<double>::infinity() ? 1e9 : until);
    for (std::size_t f = 0; f < n; ++f)
    {
        if (engine.IsActive(ids[f]))
        {
            r.remaining[f] = engine.GetRemainingBytes(ids[f]);
            r.maxSharing[f] = engine.GetMaxSharing(ids[f]);
            r.watchedLimited[f] = engine.IsWatchedLimited(ids[f]);
        }
    }
    r.complete = true;
    return r;
}

/// \return the first difference, or "" when equal bit for bit
std::string
Difference(const FluidBurst::Result& a, const FluidBurst::Result& b)
{
    for (std::size_t f = 0; f < a.finish.size(); ++f)
    {
        if (a.finish[f] != b.finish[f] || a.remaining[f] != b.remaining[f] ||
            a.maxSharing[f] != b.maxSharing[f] || a.watchedLimited[f] != b.watchedLimited[f])
        {
            return "flow " + std::to_string(f) + ": finish " + std::to_string(a.finish[f]) +
                   " vs " + std::to_string(b.finish[f]);
        }
    }
    return "";
}

} // namespace

TEST(FluidBurst, SameAsTheEngineBitForBit)
{
    const ClusterTopology topology(Config());
    uint32_t watchedLimitedSeen = 0;
    for (uint32_t seed = 1; seed <= 60; ++seed)
    {
        const Burst b = RandomBurst(topology, seed, seed % 2 == 0);
        const auto burst = FluidBurst::Run(topology.GetLinkCapacities(),
                                           CoreLinks(topology),
                                           b.paths,
                                           b.bytes,
                                           std::numeric_limits<double>::infinity(),
                                           1000);
        ASSERT_TRUE(burst.complete) << "seed " << seed;
        const auto engine = EngineRun(topology, b, std::numeric_limits<double>::infinity());
        EXPECT_EQ(Difference(burst, engine), "") << "seed " << seed;
        EXPECT_EQ(burst.end, *std::max_element(engine.finish.begin(), engine.finish.end()));
        for (uint8_t w : burst.watchedLimited)
        {
            watchedLimitedSeen += w;
        }
        // Up to a time in the middle: what is left in flight.
        std::vector<double> sorted = engine.finish;
        std::sort(sorted.begin(), sorted.end());
        const double until = sorted[sorted.size() / 2] * 0.999;
        const auto partial = FluidBurst::Run(topology.GetLinkCapacities(),
                                             CoreLinks(topology),
                                             b.paths,
                                             b.bytes,
                                             until,
                                             1000);
        EXPECT_EQ(Difference(partial, EngineRun(topology, b, until)), "")
            << "seed " << seed << " up to " << until;
    }
    EXPECT_GT(watchedLimitedSeen, 0u) << "the bursts exercise conflicts on the core";
}

// Negative control: the same comparison tells a burst on a fabric 0.1% slower apart.
TEST(FluidBurst, ComparisonCatchesADifferentFabric)
{
    const ClusterTopology topology(Config());
    const Burst b = RandomBurst(topology, 7, true);
    std::vector<double> slower = topology.GetLinkCapacities();
    for (double& c : slower)
    {
        c *= 0.999;
    }
    const auto burst = FluidBurst::Run(slower,
                                       CoreLinks(topology),
                                       b.paths,
                                       b.bytes,
                                       std::numeric_limits<double>::infinity(),
                                       1000);
    EXPECT_NE(Difference(burst, EngineRun(topology, b, std::numeric_limits<double>::infinity())),
              "");
}

TEST(FluidBurst, GivesUpAfterMaxInstantsAndRefusesBadInput)
{
    const ClusterTopology topology(Config());
    Burst b;
    for (uint32_t i = 0; i < 10; ++i) // ten sizes on one NIC: ten instants
    {
        b.paths.push_back(topology.GetPath(0, 4 + i % 4, 0));
        b.bytes.push_back(1e6 * (i + 1));
    }
    const auto capacities = topology.GetLinkCapacities();
    const auto core = CoreLinks(topology);
    const double inf = std::numeric_limits<double>::infinity();
    EXPECT_FALSE(FluidBurst::Run(capacities, core, b.paths, b.bytes, inf, 9).complete);
    const auto enough = FluidBurst::Run(capacities, core, b.paths, b.bytes, inf, 10);
    EXPECT_TRUE(enough.complete);
    EXPECT_EQ(enough.instants, 10u);
    b.bytes[3] = 0;
    EXPECT_THROW(FluidBurst::Run(capacities, core, b.paths, b.bytes, inf, 10),
                 std::invalid_argument);
}

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Collective schedules without a simulator: bytes per rank, and that every schedule runs to
// completion under data-driven progress (no deadlock, no lost or extra byte).
// Tests: cluster-collective-schedule
#include "ns3/cluster-collective-schedule.h"

#include <gtest/gtest.h>
#include <map>
#include <numeric>
#include <set>

using namespace ns3;

namespace
{

/// Bytes each rank sends in total.
std::vector<uint64_t>
SentPerRank(const std::vector<ClusterRankSchedule>& plan)
{
    std::vector<uint64_t> sent;
    for (const auto& steps : plan)
    {
        uint64_t total = 0;
        for (const auto& s : steps)
        {
            total += s.sendBytes;
        }
        sent.push_back(total);
    }
    return sent;
}

/**
 * Runs a schedule abstractly: per directed pair a FIFO byte stream; a send is posted once
 * every receive it depends on is done; a receive completes once its bytes are in the stream.
 * Returns true when every step completed and every stream was consumed exactly.
 */
bool
RunsToCompletion(const std::vector<ClusterRankSchedule>& plan)
{
    const auto n = static_cast<uint32_t>(plan.size());
    std::vector<std::size_t> posted(n, 0);
    std::vector<std::size_t> received(n, 0);
    std::map<std::pair<uint32_t, uint32_t>, uint64_t> inStream; // (from, to) -> bytes waiting
    bool progress = true;
    while (progress)
    {
        progress = false;
        for (uint32_t i = 0; i < n; ++i)
        {
            while (posted[i] < plan[i].size())
            {
                const auto& s = plan[i][posted[i]];
                bool ready = true;
                for (uint32_t d : s.dependsOn)
                {
                    EXPECT_LT(d, posted[i]) << "a step depends on a later one";
                    ready = ready && received[i] > d;
                }
                if (!ready)
                {
                    break;
                }
                if (s.sendPeer >= 0)
                {
                    EXPECT_LT(static_cast<uint32_t>(s.sendPeer), n);
                    EXPECT_NE(static_cast<uint32_t>(s.sendPeer), i);
                    inStream[{i, static_cast<uint32_t>(s.sendPeer)}] += s.sendBytes;
                }
                ++posted[i];
                progress = true;
            }
            while (received[i] < plan[i].size())
            {
                const auto& s = plan[i][received[i]];
                if (s.recvPeer >= 0)
                {
                    uint64_t& waiting = inStream[{static_cast<uint32_t>(s.recvPeer), i}];
                    if (waiting < s.recvBytes)
                    {
                        break;
                    }
                    waiting -= s.recvBytes;
                }
                ++received[i];
                progress = true;
            }
        }
    }
    for (uint32_t i = 0; i < n; ++i)
    {
        if (posted[i] != plan[i].size() || received[i] != plan[i].size())
        {
            return false;
        }
    }
    for (const auto& [pair, bytes] : inStream)
    {
        if (bytes != 0)
        {
            return false;
        }
    }
    return true;
}

struct Case
{
    ClusterCollectiveAlgorithm algorithm;
    uint32_t ranks;
    uint32_t gpusPerServer;
};

class ClusterCollectiveScheduleCase : public ::testing::TestWithParam<Case>
{
};

} // namespace

TEST_P(ClusterCollectiveScheduleCase, CompletesForAwkwardSizes)
{
    const Case& c = GetParam();
    for (uint64_t m : {1ull, 7ull, 1000ull, 1000003ull, 104857600ull})
    {
        auto plan = ClusterBuildCollectiveSchedule(c.algorithm, c.ranks, m, c.gpusPerServer);
        ASSERT_EQ(plan.size(), c.ranks);
        EXPECT_TRUE(RunsToCompletion(plan))
            << ClusterCollectiveAlgorithmName(c.algorithm) << " N=" << c.ranks << " M=" << m;
    }
}

TEST_P(ClusterCollectiveScheduleCase, EveryRankSendsWhatTheAlgorithmDefines)
{
    const Case& c = GetParam();
    const uint32_t n = c.ranks;
    const uint64_t m = 240ull * 1024 * 1024 * 3; // divisible by every N tested and by 2^k
    auto sent = SentPerRank(ClusterBuildCollectiveSchedule(c.algorithm, n, m, c.gpusPerServer));
    if (c.algorithm == CLUSTER_RING)
    {
        return;
    }
    for (uint32_t i = 0; i < n; ++i)
    {
        uint64_t expected = 0;
        switch (c.algorithm)
        {
        case CLUSTER_FLAT_RING:
            expected = 2 * (n - 1) * (m / n);
            break;
        case CLUSTER_RING: // covered by RingFamilyBytesByHand
            break;
        case CLUSTER_HIERARCHICAL_RING: {
            uint64_t g = c.gpusPerServer;
            uint64_t s = n / g;
            expected = 2 * (g - 1) * (m / g) + 2 * (s - 1) * (m / g / s);
            break;
        }
        case CLUSTER_HALVING_DOUBLING: {
            uint32_t p = 1;
            while (p * 2 <= n)
            {
                p *= 2;
            }
            uint64_t core = 2 * (p - 1) * (m / p);
            bool hasExtra = i < n - p;
            expected = i >= p ? m : core + (hasExtra ? m : 0);
            break;
        }
        case CLUSTER_ALL_TO_ALL:
            expected = (n - 1) * m;
            break;
        }
        EXPECT_EQ(sent[i], expected)
            << ClusterCollectiveAlgorithmName(c.algorithm) << " N=" << n << " rank " << i;
    }
}

INSTANTIATE_TEST_SUITE_P(Algorithms,
                         ClusterCollectiveScheduleCase,
                         ::testing::Values(Case{CLUSTER_FLAT_RING, 2, 1},
                                           Case{CLUSTER_FLAT_RING, 3, 1},
                                           Case{CLUSTER_FLAT_RING, 4, 1},
                                           Case{CLUSTER_FLAT_RING, 6, 1},
                                           Case{CLUSTER_FLAT_RING, 8, 1},
                                           Case{CLUSTER_FLAT_RING, 16, 1},
                                           Case{CLUSTER_HIERARCHICAL_RING, 2, 1},
                                           Case{CLUSTER_HIERARCHICAL_RING, 4, 2},
                                           Case{CLUSTER_HIERARCHICAL_RING, 6, 2},
                                           Case{CLUSTER_HIERARCHICAL_RING, 6, 3},
                                           Case{CLUSTER_HIERARCHICAL_RING, 8, 4},
                                           Case{CLUSTER_HIERARCHICAL_RING, 16, 4},
                                           Case{CLUSTER_HIERARCHICAL_RING, 16, 8},
                                           Case{CLUSTER_RING, 6, 0},
                                           Case{CLUSTER_RING, 12, 4},
                                           Case{CLUSTER_RING, 16, 4},
                                           Case{CLUSTER_RING, 24, 8},
                                           Case{CLUSTER_HALVING_DOUBLING, 2, 1},
                                           Case{CLUSTER_HALVING_DOUBLING, 3, 1},
                                           Case{CLUSTER_HALVING_DOUBLING, 4, 1},
                                           Case{CLUSTER_HALVING_DOUBLING, 6, 1},
                                           Case{CLUSTER_HALVING_DOUBLING, 8, 1},
                                           Case{CLUSTER_HALVING_DOUBLING, 16, 1},
                                           Case{CLUSTER_ALL_TO_ALL, 2, 1},
                                           Case{CLUSTER_ALL_TO_ALL, 3, 1},
                                           Case{CLUSTER_ALL_TO_ALL, 6, 1},
                                           Case{CLUSTER_ALL_TO_ALL, 16, 1}),
                         [](const ::testing::TestParamInfo<Case>& info) {
                             std::string name =
                                 ClusterCollectiveAlgorithmName(info.param.algorithm) + "_N" +
                                 std::to_string(info.param.ranks) + "_g" +
                                 std::to_string(info.param.gpusPerServer);
                             for (auto& ch : name)
                             {
                                 ch = ch == '-' ? '_' : ch;
                             }
                             return name;
                         });

TEST(ClusterCollectiveSchedule, RingStepsArePermutations)
{
    // Every step of a ring is a permutation: each rank sends to one and receives from one.
    auto plan = ClusterBuildCollectiveSchedule(CLUSTER_FLAT_RING, 8, 8000);
    for (std::size_t k = 0; k < plan[0].size(); ++k)
    {
        std::vector<int> receivers(8, 0);
        for (uint32_t i = 0; i < 8; ++i)
        {
            receivers[plan[i][k].sendPeer]++;
            EXPECT_EQ(plan[i][k].sendPeer, static_cast<int32_t>((i + 1) % 8));
        }
        EXPECT_EQ(std::count(receivers.begin(), receivers.end(), 1), 8);
    }
    EXPECT_EQ(plan[0].size(), 14u);
    EXPECT_TRUE(plan[0][0].dependsOn.empty());
    for (uint32_t k = 1; k < plan[0].size(); ++k)
    {
        EXPECT_EQ(plan[0][k].dependsOn, std::vector<uint32_t>{k - 1}) << "step " << k;
    }
}

/// Per-rank bytes of RapidNetSim's ring family (ring.py), worked out by hand with
/// M = 720720 (divisible by every chunk count used): flat ring 2(N-1)M/N, hierarchical ring
/// 2(g-1)M/g + 2(s-1)M/(gs), fusion pairs: P = 2^floor(log2 N) core ranks; core rank j < N-P
/// also sends the M-byte result back, extra rank P+j sends its M bytes.
TEST(ClusterCollectiveSchedule, RingFamilyBytesByHand)
{
    const uint64_t m = 720720;

    struct Expectation
    {
        ClusterCollectiveAlgorithm algorithm;
        uint32_t ranks;
        uint32_t gpusPerServer;
        std::vector<uint64_t> sent; // per rank
    };

    auto repeat = [](std::initializer_list<std::pair<uint32_t, uint64_t>> runs) {
        std::vector<uint64_t> out;
        for (const auto& [count, bytes] : runs)
        {
            out.insert(out.end(), count, bytes);
        }
        return out;
    };
    const std::vector<Expectation> cases = {
        // One server of 8: flat ring, 2*7*M/8.
        {CLUSTER_RING, 8, 8, repeat({{8, 1261260}})},
        // One server of 6 (not a power of two, but one server): flat ring, 2*5*M/6.
        {CLUSTER_RING, 6, 6, repeat({{6, 1201200}})},
        // 4 servers of 4: hierarchical, 2*3*M/4 + 2*3*M/16 = 1081080 + 270270.
        {CLUSTER_RING, 16, 4, repeat({{16, 1351350}})},
        // 3 servers of 4 (N = 12): core 8 = 2 servers, hierarchical 2*3*M/4 + 2*1*M/8 =
        // 1081080 + 180180; ranks 0-3 also return M; extras 8-11 send M.
        {CLUSTER_RING, 12, 4, repeat({{4, 1261260 + m}, {4, 1261260}, {4, m}})},
        // 4 servers of 3 (N = 12): the core of 8 is not whole servers: flat ring 2*7*M/8.
        {CLUSTER_RING, 12, 3, repeat({{4, 1261260 + m}, {4, 1261260}, {4, m}})},
        // Unequal servers (4 + 2): core of 4, flat ring 2*3*M/4 = 1081080.
        {CLUSTER_RING, 6, 0, repeat({{2, 1081080 + m}, {2, 1081080}, {2, m}})},
        // Flat ring over 12: 2*11*M/12.
        {CLUSTER_FLAT_RING, 12, 4, repeat({{12, 1321320}})},
        // Halving-doubling over 12: core 8, 2*7*M/8.
        {CLUSTER_HALVING_DOUBLING, 12, 1, repeat({{4, 1261260 + m}, {4, 1261260}, {4, m}})},
    };
    for (const auto& c : cases)
    {
        auto plan = ClusterBuildCollectiveSchedule(c.algorithm, c.ranks, m, c.gpusPerServer);
        EXPECT_EQ(SentPerRank(plan), c.sent) << ClusterCollectiveAlgorithmName(c.algorithm)
                                             << " N=" << c.ranks << " g=" << c.gpusPerServer;
        EXPECT_TRUE(RunsToCompletion(plan)) << ClusterCollectiveAlgorithmName(c.algorithm)
                                            << " N=" << c.ranks << " g=" << c.gpusPerServer;
    }
}

/// Who each send waits for, by hand from what the data is.
TEST(ClusterCollectiveSchedule, DependenciesByHand)
{
    using Deps = std::vector<uint32_t>;
    // Halving-doubling over 4: rank 0 receives in every step; reduce-scatter round 1 sends
    // data reduced with round 0's receive, the all-gather rounds send ranges reduced by both
    // rounds and gathered by the earlier all-gather round.
    auto hd = ClusterBuildCollectiveSchedule(CLUSTER_HALVING_DOUBLING, 4, 4000);
    ASSERT_EQ(hd[0].size(), 4u);
    EXPECT_EQ(hd[0][0].dependsOn, Deps{});
    EXPECT_EQ(hd[0][1].dependsOn, (Deps{0}));
    EXPECT_EQ(hd[0][2].dependsOn, (Deps{0, 1}));
    EXPECT_EQ(hd[0][3].dependsOn, (Deps{0, 1, 2}));

    // Halving-doubling over 6: rank 0 first receives rank 4's M bytes (step 0); every core
    // send needs them; the result sent back (step 5) needs every receive.
    auto fused = ClusterBuildCollectiveSchedule(CLUSTER_HALVING_DOUBLING, 6, 6000);
    ASSERT_EQ(fused[0].size(), 6u);
    EXPECT_EQ(fused[0][0].recvPeer, 4);
    EXPECT_EQ(fused[0][1].dependsOn, (Deps{0}));
    EXPECT_EQ(fused[0][2].dependsOn, (Deps{0, 1}));
    EXPECT_EQ(fused[0][4].dependsOn, (Deps{0, 1, 2, 3}));
    EXPECT_EQ(fused[0][5].sendPeer, 4);
    EXPECT_EQ(fused[0][5].dependsOn, (Deps{0, 1, 2, 3, 4}));
    ASSERT_EQ(fused[4].size(), 2u);
    EXPECT_EQ(fused[4][0].sendPeer, 0);
    EXPECT_EQ(fused[4][0].dependsOn, Deps{});
    EXPECT_EQ(fused[4][1].recvPeer, 0);
    // Rank 2 has no partner: its first send waits for nothing.
    EXPECT_EQ(fused[2][0].dependsOn, Deps{});

    // Ring family over 12 in servers of 4: rank 0's ring steps need the previous step and
    // rank 8's bytes (step 0).
    auto ring = ClusterBuildCollectiveSchedule(CLUSTER_RING, 12, 12000, 4);
    EXPECT_EQ(ring[0][1].dependsOn, (Deps{0}));
    EXPECT_EQ(ring[0][2].dependsOn, (Deps{0, 1}));
    EXPECT_EQ(ring[0][5].dependsOn, (Deps{0, 4}));

    // All-to-all: each rank sends its own data; no send waits.
    for (const auto& rank : ClusterBuildCollectiveSchedule(CLUSTER_ALL_TO_ALL, 5, 100))
    {
        for (const auto& step : rank)
        {
            EXPECT_EQ(step.dependsOn, Deps{});
        }
    }
}

TEST(ClusterCollectiveSchedule, RefusesBadInput)
{
    EXPECT_THROW(ClusterBuildCollectiveSchedule(CLUSTER_RING, 1, 100), std::invalid_argument);
    EXPECT_THROW(ClusterBuildCollectiveSchedule(CLUSTER_RING, 4, 0), std::invalid_argument);
    EXPECT_THROW(ClusterBuildCollectiveSchedule(CLUSTER_HIERARCHICAL_RING, 6, 100, 4),
                 std::invalid_argument);
    ClusterCollectiveAlgorithm a;
    EXPECT_FALSE(ClusterParseCollectiveAlgorithm("butterfly", a));
    EXPECT_TRUE(ClusterParseCollectiveAlgorithm("halving-doubling", a));
    EXPECT_EQ(a, CLUSTER_HALVING_DOUBLING);
    EXPECT_TRUE(ClusterParseCollectiveAlgorithm("flat-ring", a));
    EXPECT_EQ(a, CLUSTER_FLAT_RING);
}

/// Sends between leaves that join GPUs of unequal index in their leaf, ranks in leaf-major
/// order with perLeaf ranks on each leaf (balanced routing, as the suite reads it,
/// needs none).
uint32_t
UnequalIndexHops(const std::vector<ClusterRankSchedule>& plan, uint32_t perLeaf)
{
    uint32_t hops = 0;
    for (uint32_t i = 0; i < plan.size(); ++i)
    {
        for (const auto& step : plan[i])
        {
            auto peer = static_cast<uint32_t>(step.sendPeer);
            bool crosses = step.sendPeer >= 0 && peer / perLeaf != i / perLeaf;
            hops += crosses && peer % perLeaf != i % perLeaf ? 1 : 0;
        }
    }
    return hops;
}

/// Directed rank pairs whose sends cross leaves (perLeaf ranks on each leaf, leaf-major).
std::size_t
CrossLeafPairs(const std::vector<ClusterRankSchedule>& plan, uint32_t perLeaf)
{
    std::set<std::pair<uint32_t, int32_t>> pairs;
    for (uint32_t i = 0; i < plan.size(); ++i)
    {
        for (const auto& step : plan[i])
        {
            if (step.sendPeer >= 0 && static_cast<uint32_t>(step.sendPeer) / perLeaf != i / perLeaf)
            {
                pairs.insert({i, step.sendPeer});
            }
        }
    }
    return pairs.size();
}

TEST(ClusterCollectiveSchedule, RingFamilyCrossesLeavesBetweenEqualIndexes)
{
    // Leaves holding 2 servers of the job: N = 12 in servers of 2 (3 leaves x 4), N = 24 in
    // servers of 4 (3 leaves x 8), N = 16 in servers of 2 (4 leaves x 4). Fusion pairs and
    // the inter-server ring both join equal indexes; halving-doubling too.
    struct Layout
    {
        uint32_t ranks;
        uint32_t gpusPerServer;
        uint32_t serversPerLeaf;
    };

    for (const Layout& l : {Layout{12, 2, 2}, Layout{24, 4, 2}, Layout{16, 2, 2}})
    {
        const uint32_t perLeaf = l.gpusPerServer * l.serversPerLeaf;
        auto ring = ClusterBuildCollectiveSchedule(CLUSTER_RING,
                                                   l.ranks,
                                                   1 << 20,
                                                   l.gpusPerServer,
                                                   l.serversPerLeaf);
        EXPECT_EQ(UnequalIndexHops(ring, perLeaf), 0u) << "ring N=" << l.ranks;
        EXPECT_TRUE(RunsToCompletion(ring)) << "ring N=" << l.ranks;
        auto hd = ClusterBuildCollectiveSchedule(CLUSTER_HALVING_DOUBLING, l.ranks, 1 << 20);
        EXPECT_EQ(UnequalIndexHops(hd, perLeaf), 0u) << "halving-doubling N=" << l.ranks;
        // Control: the servers in plain order (j -> j+1) hop from the last server of a leaf
        // to the first of the next, between unequal indexes.
        auto plain =
            ClusterBuildCollectiveSchedule(CLUSTER_RING, l.ranks, 1 << 20, l.gpusPerServer);
        EXPECT_GT(UnequalIndexHops(plain, perLeaf), 0u) << "plain order N=" << l.ranks;
        // The snake leaves each leaf as often as the plain order does.
        EXPECT_EQ(CrossLeafPairs(ring, perLeaf), CrossLeafPairs(plain, perLeaf)) << "N=" << l.ranks;
    }
    // One GPU per server, 8 per leaf, 32 GPUs (the all-reduce benchmark's shape): the ring
    // leaves each of the 4 leaves once, from index 7 or 0 to the same index.
    {
        auto ring = ClusterBuildCollectiveSchedule(CLUSTER_RING, 32, 1 << 20, 1, 8);
        EXPECT_EQ(UnequalIndexHops(ring, 8), 0u);
        EXPECT_EQ(CrossLeafPairs(ring, 8), 4u);
    }
}

// ClusterScheduleLayout is a cache key: shapes it maps together must build the same schedules,
// and shapes it keeps apart must not all be alike (negative control: the ring's grouping
// changes its schedule, so dropping it from the key would be wrong).
TEST(ClusterCollectiveSchedule, LayoutKeyKeepsWhatTheScheduleReads)
{
    auto same = [](const std::vector<ClusterRankSchedule>& a,
                   const std::vector<ClusterRankSchedule>& b) {
        if (a.size() != b.size())
        {
            return false;
        }
        for (std::size_t r = 0; r < a.size(); ++r)
        {
            if (a[r].size() != b[r].size())
            {
                return false;
            }
            for (std::size_t s = 0; s < a[r].size(); ++s)
            {
                const auto& x = a[r][s];
                const auto& y = b[r][s];
                if (x.sendPeer != y.sendPeer || x.sendBytes != y.sendBytes ||
                    x.recvPeer != y.recvPeer || x.recvBytes != y.recvBytes ||
                    x.dependsOn != y.dependsOn)
                {
                    return false;
                }
            }
        }
        return true;
    };
    const uint32_t ranks = 24;
    const std::vector<std::pair<uint32_t, uint32_t>> layouts{{1, 1},
                                                             {2, 3},
                                                             {4, 2},
                                                             {8, 1},
                                                             {4, 3}};
    uint32_t keptApartButDiffer = 0;
    for (auto algorithm : {CLUSTER_RING,
                           CLUSTER_FLAT_RING,
                           CLUSTER_HIERARCHICAL_RING,
                           CLUSTER_HALVING_DOUBLING,
                           CLUSTER_ALL_TO_ALL})
    {
        for (const auto& [g1, h1] : layouts)
        {
            for (const auto& [g2, h2] : layouts)
            {
                ClusterCollectiveShape a{algorithm, g1, h1};
                ClusterCollectiveShape b{algorithm, g2, h2};
                const auto ka = ClusterScheduleLayout(a);
                const auto kb = ClusterScheduleLayout(b);
                const auto sa = ClusterBuildCollectiveSchedule(algorithm, ranks, 1000, g1, h1);
                const auto sb = ClusterBuildCollectiveSchedule(algorithm, ranks, 1000, g2, h2);
                if (ka.gpusPerServer == kb.gpusPerServer && ka.serversPerLeaf == kb.serversPerLeaf)
                {
                    EXPECT_TRUE(same(sa, sb)) << ClusterCollectiveAlgorithmName(algorithm) << " "
                                              << g1 << "x" << h1 << " vs " << g2 << "x" << h2;
                }
                else
                {
                    keptApartButDiffer += same(sa, sb) ? 0 : 1;
                }
            }
        }
    }
    EXPECT_GT(keptApartButDiffer, 0u);
}

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "cluster-collective-schedule.h"

#include "ns3/suite-check.h"

#include <algorithm>

namespace ns3
{

namespace
{

/// Bytes of chunk j when m bytes are split into n chunks differing by at most one byte.
uint64_t
ChunkBytes(uint64_t m, uint32_t n, uint32_t j)
{
    return m / n + (j < m % n ? 1 : 0);
}

/// Steps of a rank that have a receive, from `from` on.
std::vector<uint32_t>
ReceivesOf(const ClusterRankSchedule& steps, uint32_t from = 0)
{
    std::vector<uint32_t> out;
    for (auto k = from; k < steps.size(); ++k)
    {
        if (steps[k].recvPeer >= 0)
        {
            out.push_back(k);
        }
    }
    return out;
}

/// Append a ring step: its send needs the rank's previous step (the chunk arrived there).
void
AppendRingStep(std::vector<ClusterRankSchedule>& plan, uint32_t rank, ClusterCollectiveStep step)
{
    if (!plan[rank].empty() && plan[rank].back().recvPeer >= 0)
    {
        step.dependsOn = {static_cast<uint32_t>(plan[rank].size() - 1)};
    }
    plan[rank].push_back(step);
}

/// One direction of a ring over `members`: reduce-scatter (first) or all-gather steps of m.
void
AppendRingPhase(std::vector<ClusterRankSchedule>& plan,
                const std::vector<uint32_t>& members,
                uint64_t m,
                bool reduceScatter)
{
    const auto n = static_cast<uint32_t>(members.size());
    for (uint32_t k = 0; n >= 2 && k + 1 < n; ++k)
    {
        for (uint32_t p = 0; p < n; ++p)
        {
            // Reduce-scatter: send chunk p-k, receive p-1-k; all-gather: send p+1-k, receive p-k.
            uint32_t sendChunk = (p + n + (reduceScatter ? 0 : 1) - k % n) % n;
            uint32_t recvChunk = (sendChunk + n - 1) % n;
            ClusterCollectiveStep s;
            s.sendPeer = static_cast<int32_t>(members[(p + 1) % n]);
            s.sendBytes = ChunkBytes(m, n, sendChunk);
            s.recvPeer = static_cast<int32_t>(members[(p + n - 1) % n]);
            s.recvBytes = ChunkBytes(m, n, recvChunk);
            AppendRingStep(plan, members[p], s);
        }
    }
}

/// Ring all-reduce of m bytes over `members`.
void
AppendRing(std::vector<ClusterRankSchedule>& plan, const std::vector<uint32_t>& members, uint64_t m)
{
    AppendRingPhase(plan, members, m, true);
    AppendRingPhase(plan, members, m, false);
}

/// A halving-doubling step: its send needs every earlier receive of the rank (the range it
/// sends was reduced, or gathered, by all of them).
void
AppendHalvingDoublingStep(std::vector<ClusterRankSchedule>& plan,
                          uint32_t rank,
                          ClusterCollectiveStep step)
{
    step.dependsOn = ReceivesOf(plan[rank]);
    plan[rank].push_back(step);
}

/// Recursive halving then doubling over ranks 0..p-1 (p a power of two).
void
AppendHalvingDoubling(std::vector<ClusterRankSchedule>& plan, uint32_t p, uint64_t m)
{
    uint32_t rounds = 0;
    while ((1u << rounds) < p)
    {
        ++rounds;
    }
    // ranges[i][r]: the range rank i holds before reduce-scatter round r.
    std::vector<std::vector<std::pair<uint64_t, uint64_t>>> ranges(p);
    for (uint32_t i = 0; i < p; ++i)
    {
        uint64_t lo = 0;
        uint64_t hi = m;
        for (uint32_t r = 0; r < rounds; ++r)
        {
            ranges[i].emplace_back(lo, hi);
            uint64_t mid = lo + (hi - lo) / 2;
            bool upper = ((i >> r) & 1u) != 0;
            (upper ? lo : hi) = mid;
        }
        ranges[i].emplace_back(lo, hi);
    }
    auto kept = [&](uint32_t i, uint32_t r) {
        return ranges[i][r + 1].second - ranges[i][r + 1].first;
    };
    auto whole = [&](uint32_t i, uint32_t r) { return ranges[i][r].second - ranges[i][r].first; };
    for (uint32_t r = 0; r < rounds; ++r) // reduce-scatter: send the half given away
    {
        for (uint32_t i = 0; i < p; ++i)
        {
            uint32_t partner = i ^ (1u << r);
            ClusterCollectiveStep s;
            s.sendPeer = static_cast<int32_t>(partner);
            s.sendBytes = whole(i, r) - kept(i, r);
            s.recvPeer = static_cast<int32_t>(partner);
            s.recvBytes = kept(i, r);
            AppendHalvingDoublingStep(plan, i, s);
        }
    }
    for (uint32_t r = rounds; r-- > 0;) // all-gather: the same rounds in reverse
    {
        for (uint32_t i = 0; i < p; ++i)
        {
            uint32_t partner = i ^ (1u << r);
            ClusterCollectiveStep s;
            s.sendPeer = static_cast<int32_t>(partner);
            s.sendBytes = kept(i, r);
            s.recvPeer = static_cast<int32_t>(partner);
            s.recvBytes = whole(i, r) - kept(i, r);
            AppendHalvingDoublingStep(plan, i, s);
        }
    }
}

/**
 * Hierarchical ring (Ring2D) over ranks 0..n-1 in whole servers of g consecutive ranks. The
 * inter-server ring visits the servers in order (server j -> j+1), or, with h > 1 servers per
 * leaf (leaf-major, h consecutive servers on each leaf), leaf by leaf in a snake: the servers
 * of leaf 0 forwards, those of leaf 1 backwards, leaf 2 forwards, ... Every hop between leaves
 * then joins servers at the same position in their leaf, i.e. GPUs of equal index in their
 * leaf (and so does the hop that closes the ring when the number of leaves is even), and the
 * ring still crosses leaves only once per leaf.
 */
void
AppendHierarchicalRing(std::vector<ClusterRankSchedule>& plan,
                       uint32_t n,
                       uint64_t m,
                       uint32_t g,
                       uint32_t h = 1)
{
    const uint32_t servers = n / g;
    std::vector<uint32_t> order; // servers in ring order
    if (h > 1 && servers % h == 0)
    {
        for (uint32_t leaf = 0; leaf < servers / h; ++leaf)
        {
            for (uint32_t k = 0; k < h; ++k)
            {
                order.push_back(leaf * h + (leaf % 2 == 0 ? k : h - 1 - k));
            }
        }
    }
    else
    {
        for (uint32_t s = 0; s < servers; ++s)
        {
            order.push_back(s);
        }
    }
    auto local = [&](uint32_t s) {
        std::vector<uint32_t> members(g);
        for (uint32_t a = 0; a < g; ++a)
        {
            members[a] = s * g + a;
        }
        return members;
    };
    for (uint32_t s = 0; s < servers; ++s)
    {
        AppendRingPhase(plan, local(s), m, true);
    }
    for (uint32_t a = 0; a < g; ++a)
    {
        // After the reduce-scatter, local index a holds chunk (a + 1) mod g.
        std::vector<uint32_t> peers;
        for (uint32_t s : order)
        {
            peers.push_back(s * g + a);
        }
        AppendRing(plan, peers, g > 1 ? ChunkBytes(m, g, (a + 1) % g) : m);
    }
    for (uint32_t s = 0; s < servers; ++s)
    {
        AppendRingPhase(plan, local(s), m, false);
    }
}

/**
 * Fusion pairs around a core of ranks 0..core-1: each extra rank core + j sends its M bytes
 * to rank j, appendCore() builds the core's collective, then j sends the result back. Every
 * send of j in the core also needs the partner's bytes; the result needs every receive.
 */
template <typename AppendCore>
void
AppendFusedCore(std::vector<ClusterRankSchedule>& plan,
                uint32_t ranks,
                uint32_t core,
                uint64_t m,
                AppendCore appendCore)
{
    for (uint32_t j = 0; j + core < ranks; ++j)
    {
        ClusterCollectiveStep out;
        out.sendPeer = static_cast<int32_t>(j);
        out.sendBytes = m;
        plan[core + j].push_back(out);
        ClusterCollectiveStep in;
        in.recvPeer = static_cast<int32_t>(core + j);
        in.recvBytes = m;
        plan[j].push_back(in);
    }
    appendCore();
    for (uint32_t j = 0; j + core < ranks; ++j)
    {
        for (auto k = static_cast<uint32_t>(1); k < plan[j].size(); ++k)
        {
            auto& deps = plan[j][k].dependsOn;
            if (plan[j][k].sendPeer >= 0 && std::find(deps.begin(), deps.end(), 0u) == deps.end())
            {
                deps.insert(deps.begin(), 0u); // the partner's bytes, received in step 0
            }
        }
        ClusterCollectiveStep out;
        out.sendPeer = static_cast<int32_t>(core + j);
        out.sendBytes = m;
        out.dependsOn = ReceivesOf(plan[j]);
        plan[j].push_back(out);
        ClusterCollectiveStep in;
        in.recvPeer = static_cast<int32_t>(j);
        in.recvBytes = m;
        plan[core + j].push_back(in);
    }
}

} // namespace

uint32_t
ClusterEqualRuns(const std::vector<uint32_t>& gpus,
                 const std::function<uint32_t(uint32_t)>& groupOf)
{
    uint32_t perGroup = 0;
    uint32_t run = 1;
    for (std::size_t r = 1; r <= gpus.size(); ++r)
    {
        if (r < gpus.size() && groupOf(gpus[r]) == groupOf(gpus[r - 1]))
        {
            ++run;
            continue;
        }
        if (perGroup != 0 && perGroup != run)
        {
            return 0;
        }
        perGroup = run;
        run = 1;
    }
    return perGroup;
}

ClusterCollectiveShape
ClusterShapeCollective(ClusterCollectiveAlgorithm requested,
                       const std::vector<uint32_t>& rankGpus,
                       const std::function<uint32_t(uint32_t)>& serverOf,
                       const std::function<uint32_t(uint32_t)>& leafOf)
{
    ClusterCollectiveShape shape;
    shape.gpusPerServer = ClusterEqualRuns(rankGpus, serverOf);
    const uint32_t perLeaf = ClusterEqualRuns(rankGpus, leafOf);
    shape.serversPerLeaf = shape.gpusPerServer > 0 && perLeaf % shape.gpusPerServer == 0
                               ? std::max(perLeaf / shape.gpusPerServer, 1u)
                               : 1;
    shape.algorithm = requested;
    if (requested == CLUSTER_HIERARCHICAL_RING && shape.gpusPerServer == 0)
    {
        shape.algorithm = CLUSTER_RING;
    }
    return shape;
}

std::vector<ClusterRankSchedule>
ClusterBuildCollectiveSchedule(ClusterCollectiveAlgorithm algorithm,
                               uint32_t ranks,
                               uint64_t messageBytes,
                               uint32_t gpusPerServer,
                               uint32_t serversPerLeaf)
{
    SUITE_REQUIRE(ranks >= 2,
                  std::invalid_argument,
                  "a collective needs at least 2 ranks (got " << ranks << ")");
    SUITE_REQUIRE(messageBytes >= 1, std::invalid_argument, "message size must be at least 1 byte");
    std::vector<ClusterRankSchedule> plan(ranks);
    std::vector<uint32_t> all(ranks);
    for (uint32_t i = 0; i < ranks; ++i)
    {
        all[i] = i;
    }
    uint32_t core = 1; // P = 2^floor(log2 N)
    while (core <= ranks / 2)
    {
        core *= 2;
    }
    switch (algorithm)
    {
    case CLUSTER_FLAT_RING:
        AppendRing(plan, all, messageBytes);
        break;
    case CLUSTER_RING: {
        const uint32_t g = gpusPerServer;
        if (g >= ranks)
        {
            AppendRing(plan, all, messageBytes); // one server: the flat ring
            break;
        }
        AppendFusedCore(plan, ranks, core, messageBytes, [&]() {
            if (g >= 1 && core > g && core % g == 0)
            {
                AppendHierarchicalRing(plan, core, messageBytes, g, serversPerLeaf);
            }
            else
            {
                AppendRing(plan,
                           std::vector<uint32_t>(all.begin(), all.begin() + core),
                           messageBytes);
            }
        });
        break;
    }
    case CLUSTER_HIERARCHICAL_RING: {
        uint32_t g = gpusPerServer;
        SUITE_REQUIRE(g >= 1 && ranks % g == 0,
                      std::invalid_argument,
                      "hierarchical ring needs whole servers: " << ranks << " ranks are not a "
                                                                << "multiple of " << g
                                                                << " GPUs per server");
        AppendHierarchicalRing(plan, ranks, messageBytes, g);
        break;
    }
    case CLUSTER_HALVING_DOUBLING:
        AppendFusedCore(plan, ranks, core, messageBytes, [&]() {
            AppendHalvingDoubling(plan, core, messageBytes);
        });
        break;
    case CLUSTER_ALL_TO_ALL: // each rank sends its own data: no send waits for a receive
        for (uint32_t r = 0; r + 1 < ranks; ++r)
        {
            for (uint32_t i = 0; i < ranks; ++i)
            {
                ClusterCollectiveStep s;
                s.sendPeer = static_cast<int32_t>((i + r + 1) % ranks);
                s.sendBytes = messageBytes;
                s.recvPeer = static_cast<int32_t>((i + ranks - r - 1) % ranks);
                s.recvBytes = messageBytes;
                plan[i].push_back(s);
            }
        }
        break;
    default:
        SUITE_REQUIRE(false, std::invalid_argument, "unknown collective algorithm " << algorithm);
    }
    return plan;
}

ClusterCollectiveShape
ClusterScheduleLayout(const ClusterCollectiveShape& shape)
{
    ClusterCollectiveShape layout = shape;
    switch (shape.algorithm)
    {
    case CLUSTER_RING: // both
        break;
    case CLUSTER_HIERARCHICAL_RING: // GPUs per server only
        layout.serversPerLeaf = 0;
        break;
    default: // flat ring, halving-doubling, all-to-all: neither
        layout.gpusPerServer = 0;
        layout.serversPerLeaf = 0;
        break;
    }
    return layout;
}

bool
ClusterParseCollectiveAlgorithm(const std::string& name, ClusterCollectiveAlgorithm& algorithm)
{
    for (auto a : {CLUSTER_RING,
                   CLUSTER_FLAT_RING,
                   CLUSTER_HIERARCHICAL_RING,
                   CLUSTER_HALVING_DOUBLING,
                   CLUSTER_ALL_TO_ALL})
    {
        if (name == ClusterCollectiveAlgorithmName(a))
        {
            algorithm = a;
            return true;
        }
    }
    return false;
}

std::string
ClusterCollectiveAlgorithmName(ClusterCollectiveAlgorithm algorithm)
{
    switch (algorithm)
    {
    case CLUSTER_RING:
        return "ring";
    case CLUSTER_FLAT_RING:
        return "flat-ring";
    case CLUSTER_HIERARCHICAL_RING:
        return "hierarchical-ring";
    case CLUSTER_HALVING_DOUBLING:
        return "halving-doubling";
    case CLUSTER_ALL_TO_ALL:
        return "all-to-all";
    }
    return "unknown";
}

} // namespace ns3

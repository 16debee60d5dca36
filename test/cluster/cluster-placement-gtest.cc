/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Cluster state and placement policies without a simulator: invariants over random
// allocate/release sequences, the vClos m x n shape and balanced routing, exactness of the
// vClos search against brute force on small clusters, determinism and bad input.
// Tests: cluster-placement, cluster-state
#include "../suite-error-of.h"

#include "ns3/cluster-placement.h"
#include "ns3/cluster-state.h"
#include "ns3/cluster-topology.h"
#include "ns3/object-factory.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <bitset>
#include <gtest/gtest.h>
#include <map>
#include <random>
#include <set>

using namespace ns3;

namespace
{

/// Check one placement against the state it was made for (before Allocate).
void
CheckPlacement(const ClusterState& state,
               const ClusterPlacementPolicy& policy,
               const ClusterPlacement& p,
               uint32_t n)
{
    ASSERT_EQ(p.gpus.size(), n);
    ASSERT_EQ(p.uplinkSpine.size(), n);
    ASSERT_TRUE(std::is_sorted(p.gpus.begin(), p.gpus.end()));
    ASSERT_TRUE(std::adjacent_find(p.gpus.begin(), p.gpus.end()) == p.gpus.end());
    for (uint32_t g : p.gpus)
    {
        ASSERT_EQ(state.GetGpuOwner(g), ClusterState::NO_JOB) << "GPU " << g << " is held";
    }
    const uint32_t perLeaf = state.GetGpusPerLeaf();
    std::map<uint32_t, std::vector<uint32_t>> byLeaf;
    for (uint32_t g : p.gpus)
    {
        byLeaf[g / perLeaf].push_back(g);
    }
    ASSERT_EQ(p.m, byLeaf.size());
    if (policy.GetName() != "vclos")
    {
        EXPECT_TRUE(p.links.empty());
        for (std::size_t i = 0; i < p.gpus.size(); ++i)
        {
            int32_t want = policy.GetName().rfind("ecmp", 0) == 0
                               ? -1
                               : static_cast<int32_t>((p.gpus[i] % perLeaf) % state.GetSpines());
            EXPECT_EQ(p.uplinkSpine[i], want);
        }
        return;
    }
    if (p.m == 1)
    {
        EXPECT_TRUE(p.links.empty()) << "a single-leaf job reserves no link";
        EXPECT_TRUE(p.spines.empty());
        EXPECT_EQ(p.n, n);
        for (int32_t s : p.uplinkSpine)
        {
            EXPECT_EQ(s, -1);
        }
        return;
    }
    // m x n virtual Clos: n GPUs on each of m leaves, n spines, all m*n links free.
    ASSERT_EQ(p.m * p.n, n);
    ASSERT_EQ(p.spines.size(), p.n);
    ASSERT_TRUE(std::is_sorted(p.spines.begin(), p.spines.end()));
    ASSERT_TRUE(std::adjacent_find(p.spines.begin(), p.spines.end()) == p.spines.end());
    ASSERT_EQ(p.links.size(), p.m * p.n);
    std::set<std::pair<uint32_t, uint32_t>> links;
    for (const auto& l : p.links)
    {
        EXPECT_EQ(state.GetLinkOwner(l.leaf, l.spine), ClusterState::NO_JOB);
        links.insert({l.leaf, l.spine});
    }
    EXPECT_EQ(links.size(), p.links.size());
    std::size_t i = 0;
    for (const auto& [leaf, gpus] : byLeaf)
    {
        ASSERT_EQ(gpus.size(), p.n) << "leaf " << leaf;
        for (uint32_t a = 0; a < p.n; ++a, ++i)
        {
            // Balanced routing: local index a goes up through the a-th spine.
            EXPECT_EQ(p.uplinkSpine[i], static_cast<int32_t>(p.spines[a]));
        }
        for (uint32_t s : p.spines)
        {
            EXPECT_EQ(links.count({leaf, s}), 1u);
        }
    }
}

/// Balanced-routing property on the booked state: for every ordered pair of the job's
/// leaves and every local index a, leaf -> spine_a and spine_a -> leaf' belong to the job.
void
CheckBalancedRouting(const ClusterState& state, const ClusterPlacement& p)
{
    if (p.m < 2 || p.spines.empty()) // single leaf, or a baseline without reserved links
    {
        return;
    }
    std::set<uint32_t> leaves;
    for (uint32_t g : p.gpus)
    {
        leaves.insert(state.GetLeafOfGpu(g));
    }
    for (uint32_t src : leaves)
    {
        for (uint32_t dst : leaves)
        {
            if (src == dst)
            {
                continue;
            }
            for (uint32_t a = 0; a < p.n; ++a)
            {
                EXPECT_EQ(state.GetLinkOwner(src, p.spines[a]), p.jobId);
                EXPECT_EQ(state.GetLinkOwner(dst, p.spines[a]), p.jobId);
            }
        }
    }
}

/// Random allocate/release sequence; \return a digest of every placement made
std::vector<std::vector<uint32_t>>
RandomSequence(const ClusterPlacementPolicy& policy,
               ClusterState state,
               uint32_t seed,
               uint32_t steps,
               const std::vector<uint32_t>& sizes)
{
    std::mt19937 rng(seed);
    std::vector<std::vector<uint32_t>> digest;
    std::vector<uint64_t> running;
    uint64_t nextJob = 1;
    uint32_t placed = 0;
    uint32_t waited = 0;
    for (uint32_t step = 0; step < steps; ++step)
    {
        if (running.empty() || rng() % 100 < 60)
        {
            uint32_t n = sizes[rng() % sizes.size()];
            auto p = policy.Place(state, nextJob, n);
            if (p)
            {
                CheckPlacement(state, policy, *p, n);
                state.Allocate(p->jobId, p->gpus, p->links);
                CheckBalancedRouting(state, *p);
                running.push_back(nextJob);
                std::vector<uint32_t> d(p->gpus);
                for (const auto& l : p->links)
                {
                    d.push_back(1000000 + l.leaf * 100 + l.spine);
                }
                digest.push_back(d);
                ++placed;
            }
            else
            {
                ++waited;
                digest.push_back({});
            }
            ++nextJob;
        }
        else
        {
            std::size_t k = rng() % running.size();
            state.Release(running[k]);
            running.erase(running.begin() + static_cast<std::ptrdiff_t>(k));
        }
        state.CheckInvariants();
        if (::testing::Test::HasFatalFailure())
        {
            return digest;
        }
    }
    EXPECT_GT(placed, steps / 10) << policy.GetName();
    EXPECT_GT(waited, 0u) << policy.GetName() << ": the sequence never loaded the cluster";
    for (uint64_t j : running)
    {
        state.Release(j);
    }
    EXPECT_TRUE(state.IsIdle());
    for (uint32_t l = 0; l < state.GetLeaves(); ++l)
    {
        EXPECT_EQ(state.GetFreeLinksOfLeaf(l), state.GetSpines());
        EXPECT_EQ(state.GetFreeGpusOfLeaf(l), state.GetGpusPerLeaf());
    }
    return digest;
}

const char* POLICIES[] = {"ecmp",
                          "source-routing",
                          "ecmp-first-fit",
                          "ecmp-best-fit",
                          "source-routing-first-fit",
                          "source-routing-best-fit",
                          "vclos"};

} // namespace

TEST(ClusterPlacementClusterState, AllocateReleaseAndQueries)
{
    ClusterState s(2, 2, 2, 3);
    EXPECT_EQ(s.GetGpus(), 8u);
    EXPECT_TRUE(s.IsIdle());
    s.Allocate(7, {5, 4, 0}, {{1, 2}, {0, 2}});
    EXPECT_EQ(s.GetFreeGpus(), 5u);
    EXPECT_EQ(s.GetFreeGpusOfLeaf(0), 3u);
    EXPECT_EQ(s.GetFreeGpusOfLeaf(1), 2u);
    EXPECT_EQ(s.GetFreeGpusOfServer(1, 0), 0u);
    EXPECT_EQ(s.GetFreeLinks(0).to_ulong(), 0b011u);
    EXPECT_EQ(s.GetFreeLinksOfSpine(2), 0u);
    EXPECT_EQ(s.GetFreeLinksOfLeaf(1), 2u);
    EXPECT_EQ(s.GetGpuOwner(4), 7u);
    EXPECT_EQ(s.GetLinkOwner(1, 2), 7u);
    EXPECT_EQ(s.GetJobGpus(7), (std::vector<uint32_t>{0, 4, 5}));
    EXPECT_FALSE(s.IsIdle());
    s.CheckInvariants();
    s.Release(7);
    EXPECT_TRUE(s.IsIdle());
    s.CheckInvariants();
}

TEST(ClusterPlacementClusterState, DoubleBookingThrowsAndChangesNothing)
{
    ClusterState s(2, 1, 2, 2);
    s.Allocate(1, {0}, {{0, 0}});
    EXPECT_NE(ErrorOf<std::logic_error>([&] { s.Allocate(2, {0}, {}); }).find("held by job 1"),
              std::string::npos);
    EXPECT_NE(ErrorOf<std::logic_error>([&] {
                  s.Allocate(2, {1}, {{0, 0}});
              }).find("link leaf0-spine0 is held by job 1"),
              std::string::npos);
    EXPECT_NE(ErrorOf<std::logic_error>([&] {
                  s.Allocate(2, {1, 1}, {});
              }).find("twice"),
              std::string::npos);
    EXPECT_NE(ErrorOf<std::logic_error>([&] {
                  s.Allocate(2, {1}, {{1, 1}, {1, 1}});
              }).find("twice"),
              std::string::npos);
    EXPECT_NE(ErrorOf<std::logic_error>([&] { s.Allocate(1, {3}, {}); }).find("already"),
              std::string::npos);
    EXPECT_NE(ErrorOf<std::out_of_range>([&] { s.Allocate(2, {4}, {}); }).find("outside"),
              std::string::npos);
    EXPECT_NE(ErrorOf<std::logic_error>([&] { s.Release(2); }).find("job 2"), std::string::npos);
    EXPECT_EQ(s.GetFreeGpus(), 3u);
    EXPECT_EQ(s.GetJobCount(), 1u);
    s.CheckInvariants();
}

TEST(ClusterPlacementBadInput, OneLineErrorsNamingTheField)
{
    auto zeroSpines = ErrorOf<std::invalid_argument>([] { ClusterState(4, 2, 4, 0); });
    EXPECT_NE(zeroSpines.find("Spines"), std::string::npos) << zeroSpines;
    EXPECT_EQ(zeroSpines.find('\n'), std::string::npos);
    EXPECT_NE(ErrorOf<std::invalid_argument>([] { ClusterState(0, 2, 4, 4); }).find("Leaves"),
              std::string::npos);
    EXPECT_NE(
        ErrorOf<std::invalid_argument>([] { ClusterState(2, 0, 4, 4); }).find("ServersPerLeaf"),
        std::string::npos);
    EXPECT_NE(
        ErrorOf<std::invalid_argument>([] { ClusterState(2, 2, 0, 4); }).find("GpusPerServer"),
        std::string::npos);
    EXPECT_NE(ErrorOf<std::invalid_argument>([] {
                  ClusterState(2, 2, 4, CLUSTER_MAX_SPINES + 1);
              }).find("at most 256"),
              std::string::npos);
    ClusterState s(2, 2, 4, 8);
    for (const char* name : POLICIES)
    {
        auto policy = ClusterCreatePlacementPolicy(name);
        auto zero = ErrorOf<std::invalid_argument>([&] { policy->Place(s, 1, 0); });
        EXPECT_NE(zero.find("job GPUs"), std::string::npos) << name << ": " << zero;
        auto big = ErrorOf<std::invalid_argument>([&] { policy->Place(s, 1, 17); });
        EXPECT_NE(big.find("job GPUs (17) exceed the cluster's 16 GPUs"), std::string::npos)
            << name << ": " << big;
        EXPECT_EQ(big.find('\n'), std::string::npos);
    }
    EXPECT_NE(ErrorOf<std::invalid_argument>([] {
                  ClusterCreatePlacementPolicy("ilp");
              }).find("unknown policy 'ilp'"),
              std::string::npos);
    EXPECT_NE(ErrorOf<std::invalid_argument>([] { VclosPolicy(0); }).find("MaxSearchNodes"),
              std::string::npos);
}

// Policies by TypeId: each name of the one table builds an object of its TypeId whose own
// name, derived from its attribute values, is the table's (the table cannot set an attribute
// the policy does not read); a policy set up through its TypeId and Attributes places as the
// one built by name (the same GPUs on a part-booked cluster); a bad attribute value is refused
// by the checker. Control: the same placement with the other Fit differs.
TEST(ClusterPlacementPolicyNames, TypeIdsAndAttributes)
{
    std::set<std::string> names;
    for (const auto& entry : ClusterPlacementPolicyNames())
    {
        names.insert(entry.name);
        Ptr<ClusterPlacementPolicy> policy = ClusterCreatePlacementPolicy(entry.name);
        EXPECT_EQ(policy->GetInstanceTypeId().GetName(), entry.typeId) << entry.name;
        EXPECT_EQ(policy->GetName(), entry.name);
    }
    EXPECT_EQ(names.size(), ClusterPlacementPolicyNames().size());
    for (const char* name : POLICIES)
    {
        EXPECT_EQ(names.count(name), 1U) << name;
    }
    EXPECT_EQ(names.count("ocs-vclos"), 1U);

    ClusterState state(2, 4, 2, 4);
    state.Allocate(7, {2}, {}); // one GPU of server 1: first fit takes server 0, best fit 1
    auto placeWith = [&state](const std::string& fit) {
        ObjectFactory factory("ns3::ClusterPackingPolicy");
        factory.Set("Fit", StringValue(fit));
        factory.Set("Routing", StringValue("ecmp"));
        return factory.Create<ClusterPlacementPolicy>()->Place(state, 1, 1)->gpus;
    };
    EXPECT_EQ(placeWith("best-fit"),
              ClusterCreatePlacementPolicy("ecmp-best-fit")->Place(state, 1, 1)->gpus);
    EXPECT_EQ(placeWith("first-fit"),
              ClusterCreatePlacementPolicy("ecmp-first-fit")->Place(state, 1, 1)->gpus);
    EXPECT_NE(placeWith("best-fit"), placeWith("first-fit")); // control: Fit is read
    Ptr<ClusterPlacementPolicy> vclos = ClusterCreatePlacementPolicy("vclos");
    EXPECT_FALSE(vclos->SetAttributeFailSafe("MaxSearchNodes", UintegerValue(0)));
    EXPECT_FALSE(vclos->SetAttributeFailSafe("Fit", StringValue("best-fit")));
    EXPECT_TRUE(vclos->SetAttributeFailSafe("MaxSearchNodes", UintegerValue(1)));
    auto unknown = ErrorOf<std::invalid_argument>([] { ClusterCreatePlacementPolicy("ilp"); });
    EXPECT_NE(unknown.find("unknown policy 'ilp' (ecmp, source-routing"), std::string::npos)
        << unknown;
}

TEST(VclosPolicy, SingleLeafBestFitAndWholeLeafClos)
{
    ClusterState s(4, 1, 4, 4);
    VclosPolicy vclos;
    auto a = vclos.Place(s, 1, 8);
    ASSERT_TRUE(a);
    EXPECT_EQ(a->m, 2u);
    EXPECT_EQ(a->n, 4u);
    EXPECT_EQ(a->gpus, (std::vector<uint32_t>{0, 1, 2, 3, 4, 5, 6, 7}));
    EXPECT_EQ(a->spines, (std::vector<uint32_t>{0, 1, 2, 3}));
    EXPECT_EQ(a->uplinkSpine, (std::vector<int32_t>{0, 1, 2, 3, 0, 1, 2, 3}));
    s.Allocate(a->jobId, a->gpus, a->links);
    auto b = vclos.Place(s, 2, 2);
    ASSERT_TRUE(b);
    EXPECT_EQ(b->gpus, (std::vector<uint32_t>{8, 9}));
    EXPECT_TRUE(b->links.empty());
    s.Allocate(b->jobId, b->gpus, b->links);
    auto c = vclos.Place(s, 3, 2); // best fit: leaf 2 (2 free) rather than leaf 3 (4 free)
    ASSERT_TRUE(c);
    EXPECT_EQ(c->gpus, (std::vector<uint32_t>{10, 11}));
    s.Allocate(c->jobId, c->gpus, c->links);
    auto d = vclos.Place(s, 4, 3);
    ASSERT_TRUE(d);
    EXPECT_EQ(d->gpus, (std::vector<uint32_t>{12, 13, 14}));
    s.Allocate(d->jobId, d->gpus, d->links);
    EXPECT_FALSE(vclos.Place(s, 5, 2)) << "one GPU free: the job waits";
}

TEST(VclosPolicy, LinksFragmentationMakesTheJobWait)
{
    // 2 leaves of 2 GPUs, 2 spines. A job holding leaf0-spine0 and leaf1-spine0 leaves
    // spine 1 free on both leaves; holding leaf0-spine0 and leaf1-spine1 leaves no common one.
    VclosPolicy vclos;
    ClusterState s(2, 1, 2, 2);
    s.Allocate(1, {0, 2}, {{0, 0}, {1, 0}});
    auto p = vclos.Place(s, 2, 2);
    ASSERT_TRUE(p);
    EXPECT_EQ(p->gpus, (std::vector<uint32_t>{1, 3}));
    EXPECT_EQ(p->spines, (std::vector<uint32_t>{1}));
    EXPECT_EQ(p->uplinkSpine, (std::vector<int32_t>{1, 1}));

    ClusterState t(2, 1, 2, 2);
    t.Allocate(1, {0, 2}, {{0, 0}, {1, 1}});
    EXPECT_FALSE(vclos.Place(t, 2, 2)) << "GPUs are free but no spine is free on both leaves";
    // The packing baselines do not look at links.
    EXPECT_TRUE(ClusterCreatePlacementPolicy("ecmp-best-fit")->Place(t, 2, 1));
}

TEST(ClusterPackingPolicy, FirstFitAndBestFit)
{
    ClusterState s(2, 2, 4, 4);
    s.Allocate(1, {0, 1, 2}, {});  // server 0: 1 free
    s.Allocate(2, {4, 5}, {});     // server 1: 2 free
    s.Allocate(3, {8, 9, 10}, {}); // server 2 (leaf 1): 1 free
    auto first = ClusterCreatePlacementPolicy("ecmp-first-fit");
    auto best = ClusterCreatePlacementPolicy("source-routing-best-fit");
    EXPECT_EQ(first->Place(s, 4, 1)->gpus, (std::vector<uint32_t>{3}));
    EXPECT_EQ(first->Place(s, 4, 2)->gpus, (std::vector<uint32_t>{6, 7}));
    EXPECT_EQ(best->Place(s, 4, 2)->gpus, (std::vector<uint32_t>{6, 7}));
    auto five = best->Place(s, 4, 5); // whole server 3 + tightest server holding 1
    ASSERT_TRUE(five);
    EXPECT_EQ(five->gpus, (std::vector<uint32_t>{3, 12, 13, 14, 15}));
    EXPECT_EQ(five->uplinkSpine, (std::vector<int32_t>{3, 0, 1, 2, 3}));
    EXPECT_FALSE(best->Place(s, 4, 8)) << "only one whole free server";
}

TEST(ClusterPlacementRandom, InvariantsHoldForEveryPolicy)
{
    const std::vector<uint32_t> sizes{1, 2, 3, 4, 6, 8, 12, 16, 24, 32};
    for (const char* name : POLICIES)
    {
        auto policy = ClusterCreatePlacementPolicy(name);
        for (uint32_t seed = 1; seed <= 10; ++seed)
        {
            SCOPED_TRACE(std::string(name) + " seed " + std::to_string(seed));
            // 1:1 (8 GPUs per leaf, 8 spines) and oversubscribed (4 spines).
            RandomSequence(*policy, ClusterState(8, 2, 4, 8), seed, 3000, sizes);
            RandomSequence(*policy, ClusterState(12, 2, 4, 4), seed, 3000, sizes);
            if (HasFatalFailure())
            {
                return;
            }
        }
    }
}

TEST(ClusterPlacementRandom, DeterministicForAFixedSeed)
{
    const std::vector<uint32_t> sizes{1, 2, 4, 8, 16, 24};
    for (const char* name : POLICIES)
    {
        auto policy = ClusterCreatePlacementPolicy(name);
        auto a = RandomSequence(*policy, ClusterState(8, 2, 4, 8), 42, 1000, sizes);
        auto b = RandomSequence(*policy, ClusterState(8, 2, 4, 8), 42, 1000, sizes);
        EXPECT_EQ(a, b) << name;
        auto c = RandomSequence(*policy, ClusterState(8, 2, 4, 8), 43, 1000, sizes);
        EXPECT_NE(a, c) << name;
    }
}

/// The vClos shapes of LumosCore's StaticPlacementer, written independently of the policy: m leaves
/// (2 <= m <= L, fewest first) with n = N / m a power of two, n <= GPUs per leaf and n <= spines.
std::vector<uint32_t>
SpecShapes(const ClusterState& s, uint32_t gpus)
{
    std::vector<uint32_t> ns;
    for (uint32_t m = 2; m <= s.GetLeaves(); ++m)
    {
        uint32_t n = gpus / m;
        if (gpus % m == 0 && (n & (n - 1)) == 0 && n <= s.GetGpusPerLeaf() && n <= s.GetSpines())
        {
            ns.push_back(n);
        }
    }
    return ns;
}

/// Brute force: over those shapes (fewest leaves first) and all leaf and spine subsets,
/// the least total free GPUs of m leaves holding a free m x n Clos; -1 when none. With whole
/// servers: only n that are multiples of the server size (when N has any), on free servers.
int64_t
BruteForceCost(const ClusterState& s, uint32_t gpus, uint32_t& nOut, bool wholeServers)
{
    const uint32_t L = s.GetLeaves();
    const uint32_t g = s.GetGpusPerServer();
    bool whole = false;
    for (uint32_t n : SpecShapes(s, gpus))
    {
        whole = whole || (wholeServers && n % g == 0);
    }
    auto usable = [&](uint32_t leaf) {
        uint32_t u = 0;
        for (uint32_t k = 0; k < s.GetServersPerLeaf(); ++k)
        {
            u += !whole ? s.GetFreeGpusOfServer(leaf, k)
                        : (s.GetFreeGpusOfServer(leaf, k) == g ? g : 0);
        }
        return u;
    };
    for (uint32_t n : SpecShapes(s, gpus))
    {
        uint32_t m = gpus / n;
        if (whole && n % g != 0)
        {
            continue;
        }
        int64_t best = -1;
        for (uint32_t leaves = 0; leaves < (1u << L); ++leaves)
        {
            if (std::bitset<32>(leaves).count() != m)
            {
                continue;
            }
            ClusterSpineSet common;
            common.set();
            int64_t cost = 0;
            bool ok = true;
            for (uint32_t l = 0; l < L; ++l)
            {
                if ((leaves >> l) & 1u)
                {
                    ok = ok && usable(l) >= n;
                    common &= s.GetFreeLinks(l);
                    cost += s.GetFreeGpusOfLeaf(l);
                }
            }
            // Some n-subset of spines is free on all chosen leaves iff |common| >= n.
            if (ok && common.count() >= n && (best < 0 || cost < best))
            {
                best = cost;
            }
        }
        if (best >= 0)
        {
            nOut = n;
            return best;
        }
    }
    return -1;
}

TEST(VclosPolicy, SearchIsExactAgainstBruteForce)
{
    std::mt19937 rng(5);
    VclosPolicy wholeServers;
    VclosPolicy anyServers(20000, false);
    uint32_t compared = 0;
    uint32_t feasible = 0;
    for (uint32_t trial = 0; trial < 900; ++trial)
    {
        const uint32_t busy = 25 + 20 * (trial % 3); // 25%, 45% or 65% of GPUs and links
        // Two shapes: 4 GPUs per leaf and 6 spines, or 8 GPUs per leaf and 10 spines.
        const bool wide = trial % 2 == 1;
        const uint32_t perLeaf = wide ? 8 : 4;
        const uint32_t spines = wide ? 10 : 6;
        ClusterState s(8, 2, perLeaf / 2, spines);
        // Random occupation: GPUs and links held by filler jobs, regardless of shape.
        uint64_t job = 1;
        for (uint32_t l = 0; l < 8; ++l)
        {
            std::vector<uint32_t> gpus;
            std::vector<ClusterLeafSpineLink> links;
            for (uint32_t k = 0; k < perLeaf; ++k)
            {
                if (rng() % 100 < busy)
                {
                    gpus.push_back(l * perLeaf + k);
                }
            }
            for (uint32_t sp = 0; sp < spines; ++sp)
            {
                if (rng() % 100 < busy)
                {
                    links.push_back({l, sp});
                }
            }
            if (!gpus.empty())
            {
                s.Allocate(job++, gpus, links);
            }
        }
        for (uint32_t gpus : {2u, 4u, 6u, 8u, 9u, 12u, 16u, 20u, 24u})
        {
            bool fitsOneLeaf = false;
            for (uint32_t l = 0; l < 8; ++l)
            {
                fitsOneLeaf = fitsOneLeaf || (gpus <= perLeaf && s.GetFreeGpusOfLeaf(l) >= gpus);
            }
            if (fitsOneLeaf || gpus > s.GetFreeGpus())
            {
                continue;
            }
            for (bool whole : {true, false})
            {
                const VclosPolicy& vclos = whole ? wholeServers : anyServers;
                uint32_t n = 0;
                int64_t want = BruteForceCost(s, gpus, n, whole);
                auto p = vclos.Place(s, 99, gpus);
                ++compared;
                ASSERT_EQ(p.has_value(), want >= 0)
                    << "trial " << trial << " N " << gpus << " whole " << whole;
                if (!p)
                {
                    continue;
                }
                ++feasible;
                EXPECT_TRUE(p->provenBest);
                EXPECT_EQ(p->n, n);
                int64_t cost = 0;
                for (uint32_t g = 0; g < p->gpus.size(); g += p->n)
                {
                    cost += s.GetFreeGpusOfLeaf(s.GetLeafOfGpu(p->gpus[g]));
                }
                EXPECT_EQ(cost, want) << "trial " << trial << " N " << gpus << " whole " << whole;
                CheckPlacement(s, vclos, *p, gpus);
                // Whole servers: every server the job touches is entirely the job's.
                const uint32_t per = s.GetGpusPerServer();
                if (whole && p->n % per == 0)
                {
                    std::map<uint32_t, uint32_t> onServer;
                    for (uint32_t gpu : p->gpus)
                    {
                        ++onServer[s.GetLeafOfGpu(gpu) * s.GetServersPerLeaf() +
                                   s.GetServerOfGpu(gpu)];
                    }
                    for (const auto& [server, count] : onServer)
                    {
                        EXPECT_EQ(count, per) << "trial " << trial << " N " << gpus;
                    }
                }
            }
        }
    }
    EXPECT_GT(compared, 1800u);
    EXPECT_GT(feasible, 300u);
    EXPECT_LT(feasible, compared);
}

TEST(VclosPolicy, SearchBudgetFallbackStaysValid)
{
    // A budget cut either keeps the best placement found so far or makes the job wait; it
    // never returns an invalid or partial placement.
    const std::vector<uint32_t> sizes{4, 6, 8, 12, 16, 24};
    for (uint64_t budget : {1u, 2u, 5u})
    {
        SCOPED_TRACE("budget " + std::to_string(budget));
        VclosPolicy vclos(budget);
        RandomSequence(vclos, ClusterState(8, 2, 4, 8), 11, 2000, sizes);
    }
}

TEST(VclosPolicy, SpecShapesOnSixteenLeaves)
{
    // A cluster of 16 leaves x 8 GPUs (2 servers x 4), 8 spines. As StaticPlacementer: N = 18 is
    // 9 leaves x 2 GPUs (not 3 x 6: two flows on one leaf-spine link in halving-doubling).
    ClusterState idle(16, 2, 4, 8);
    VclosPolicy vclos;
    auto p = vclos.Place(idle, 1, 18);
    ASSERT_TRUE(p);
    EXPECT_EQ(p->m, 9u);
    EXPECT_EQ(p->n, 2u);
    CheckPlacement(idle, vclos, *p, 18);
    // Every size 1..128 on the idle cluster: placeable exactly when it fits one leaf or has a
    // vClos shape; a placement spanning leaves uses the fewest leaves of such a shape, with
    // whole servers when the size has a shape of whole servers.
    uint32_t never = 0;
    for (uint32_t gpus = 1; gpus <= 128; ++gpus)
    {
        SCOPED_TRACE("N " + std::to_string(gpus));
        auto shapes = SpecShapes(idle, gpus);
        bool want = gpus <= 8 || !shapes.empty();
        never += want ? 0 : 1;
        EXPECT_EQ(vclos.CanEverPlace(idle, gpus), want);
        auto q = vclos.Place(idle, 1, gpus);
        ASSERT_EQ(q.has_value(), want);
        if (!q || gpus <= 8)
        {
            continue;
        }
        uint32_t first = shapes.front();
        for (uint32_t n : shapes)
        {
            if (n % 4 == 0)
            {
                first = n; // whole servers first
                break;
            }
        }
        EXPECT_EQ(q->n, first);
        EXPECT_EQ(q->m * q->n, gpus);
        CheckPlacement(idle, vclos, *q, gpus);
    }
    // Sizes with no vClos shape (odd part above 16, or e.g. 50 = 25 x 2, 68 = 17 x 4) never run.
    EXPECT_EQ(never, 88u);
    EXPECT_FALSE(vclos.CanEverPlace(idle, 17));
    EXPECT_FALSE(vclos.CanEverPlace(idle, 21));
    EXPECT_TRUE(vclos.CanEverPlace(idle, 24));  // 3 x 8
    EXPECT_TRUE(vclos.CanEverPlace(idle, 128)); // 16 x 8
}

TEST(VclosPolicy, MoreThanSixtyFourSpines)
{
    // 3 leaves of 64 GPUs, 140 spines. A filler job holds the links of leaves 0 and 1 to
    // spines 0..69: a 2 x 64 job must use 64 of the spines 70..139 (beyond one 64-bit word).
    ClusterState s(3, 1, 64, 140);
    std::vector<ClusterLeafSpineLink> held;
    for (uint32_t sp = 0; sp < 70; ++sp)
    {
        held.push_back({0, sp});
        held.push_back({1, sp});
    }
    s.Allocate(1, {128}, held); // one GPU of leaf 2, so leaves 0 and 1 are the best fit
    EXPECT_EQ(s.GetFreeLinksOfLeaf(0), 70u);
    VclosPolicy vclos;
    auto p = vclos.Place(s, 2, 128);
    ASSERT_TRUE(p);
    EXPECT_EQ(p->m, 2u);
    EXPECT_EQ(p->n, 64u);
    for (uint32_t sp : p->spines)
    {
        EXPECT_GE(sp, 70u);
    }
    CheckPlacement(s, vclos, *p, 128);
    s.Allocate(p->jobId, p->gpus, p->links);
    CheckBalancedRouting(s, *p);
    s.CheckInvariants();
    EXPECT_EQ(s.GetFreeLinksOfLeaf(0), 6u);
}

TEST(VclosPolicy, FailureCauses)
{
    VclosPolicy vclos;
    // GPUs suffice, links do not: 2 leaves x 2 GPUs, 2 spines; one free GPU per leaf, but
    // leaf0-spine0 and leaf1-spine1 are held, so no spine is free on both leaves.
    ClusterState net(2, 1, 2, 2);
    net.Allocate(1, {0, 2}, {{0, 0}, {1, 1}});
    EXPECT_FALSE(vclos.Place(net, 2, 2));
    EXPECT_EQ(vclos.Diagnose(net, 2), ClusterPlacementFailure::NETWORK_FRAGMENTATION);
    // Negative control: the same links held, but only one GPU free.
    ClusterState shortGpus(2, 1, 2, 2);
    shortGpus.Allocate(1, {0, 2, 3}, {{0, 0}, {1, 1}});
    EXPECT_FALSE(vclos.Place(shortGpus, 2, 2));
    EXPECT_EQ(vclos.Diagnose(shortGpus, 2), ClusterPlacementFailure::GPUS);
    // Every link free, 5 GPUs free, but no two leaves with a whole free server of 2 GPUs.
    ClusterState servers(2, 2, 2, 2);
    servers.Allocate(1, {0, 2, 4}, {});
    EXPECT_FALSE(vclos.Place(servers, 2, 4));
    EXPECT_EQ(vclos.Diagnose(servers, 4), ClusterPlacementFailure::GPU_FRAGMENTATION);
    EXPECT_EQ(ClusterPlacementFailureName(ClusterPlacementFailure::NETWORK_FRAGMENTATION),
              "network-fragmentation");
    // Baselines reserve no link: the free-GPU layout is the cause.
    auto ecmp = ClusterCreatePlacementPolicy("ecmp");
    EXPECT_EQ(ecmp->Diagnose(shortGpus, 2), ClusterPlacementFailure::GPUS);
    EXPECT_EQ(ecmp->Diagnose(servers, 4), ClusterPlacementFailure::GPU_FRAGMENTATION);
}

TEST(ClusterMultiClusterPolicy, HandWorkedPlacements)
{
    // 4 leaves x 2 servers x 4 GPUs, 4 spines: 4 sub-clusters of 2 servers (one leaf each).
    ClusterState s(4, 2, 4, 4);
    auto ecmp = ClusterCreatePlacementPolicy("ecmp");
    auto sr = ClusterCreatePlacementPolicy("source-routing");
    auto firstFit = ClusterCreatePlacementPolicy("ecmp-first-fit");
    EXPECT_EQ(ecmp->GetName(), "ecmp");
    EXPECT_EQ(sr->GetName(), "source-routing");
    s.Allocate(1, {0}, {});    // server 0: 3 free
    s.Allocate(2, {4, 5}, {}); // server 1: 2 free
    // N = 2: servers by free GPUs ascending: server 1 (2 free) first; first fit takes server 0.
    EXPECT_EQ(ecmp->Place(s, 3, 2)->gpus, (std::vector<uint32_t>{6, 7}));
    EXPECT_EQ(firstFit->Place(s, 3, 2)->gpus, (std::vector<uint32_t>{1, 2}));
    EXPECT_EQ(sr->Place(s, 3, 2)->uplinkSpine, (std::vector<int32_t>{2, 3}));
    EXPECT_EQ(ecmp->Place(s, 3, 2)->uplinkSpine, (std::vector<int32_t>{-1, -1}));
    // N = 3: server 0 (3 free) is the tightest that holds it.
    EXPECT_EQ(ecmp->Place(s, 3, 3)->gpus, (std::vector<uint32_t>{1, 2, 3}));
    // N = 6: sub-cluster 0 has 5 free GPUs; sub-cluster 1 (GPUs 8-15): one whole server
    // (8-11) and 2 GPUs on the next server.
    EXPECT_EQ(ecmp->Place(s, 3, 6)->gpus, (std::vector<uint32_t>{8, 9, 10, 11, 12, 13}));
    // N = 8 never spans sub-clusters: leaves 1 and 2 each keep one whole free server.
    s.Allocate(4, {12}, {});
    s.Allocate(5, {16}, {});
    s.Allocate(6, {24, 28}, {});
    EXPECT_TRUE(firstFit->Place(s, 7, 8)) << "first fit spans sub-clusters";
    EXPECT_FALSE(ecmp->Place(s, 7, 8));
    EXPECT_EQ(ecmp->Diagnose(s, 8), ClusterPlacementFailure::GPU_FRAGMENTATION);
    // A job larger than a sub-cluster (8 GPUs) never runs under RapidNetSim's baselines.
    ClusterState idle(4, 2, 4, 4);
    EXPECT_TRUE(ecmp->CanEverPlace(idle, 8));
    EXPECT_FALSE(ecmp->CanEverPlace(idle, 9));
    EXPECT_FALSE(sr->CanEverPlace(idle, 32));
    EXPECT_TRUE(firstFit->CanEverPlace(idle, 32));
}

TEST(VclosPolicy, SingleLeafJobsUseAsFewServersAsPacking)
{
    // 2 leaves x 2 servers x 4 GPUs, 4 spines. Leaf 0: 2 + 2 free GPUs (4, the best fit);
    // leaf 1: a wholly free server and 1 free GPU. A 4-GPU job takes leaf 1's free server
    // rather than 2 GPUs on each of leaf 0's servers, as packing would; 3 GPUs likewise.
    ClusterState s(2, 2, 4, 4);
    s.Allocate(1, {0, 1, 4, 5, 12, 13, 14}, {});
    VclosPolicy vclos;
    auto four = vclos.Place(s, 2, 4);
    ASSERT_TRUE(four);
    EXPECT_EQ(four->gpus, (std::vector<uint32_t>{8, 9, 10, 11}));
    EXPECT_EQ(four->m, 1u);
    auto three = vclos.Place(s, 2, 3);
    ASSERT_TRUE(three);
    EXPECT_EQ(three->gpus, (std::vector<uint32_t>{8, 9, 10}));
    // 2 GPUs fit one server of leaf 0 (the best fit): unchanged.
    EXPECT_EQ(vclos.Place(s, 2, 2)->gpus, (std::vector<uint32_t>{2, 3}));
    // Without whole servers the old rule: best-fit leaf 0, split over its two servers.
    VclosPolicy split(20000, false);
    EXPECT_EQ(split.Place(s, 2, 4)->gpus, (std::vector<uint32_t>{2, 3, 6, 7}));
}

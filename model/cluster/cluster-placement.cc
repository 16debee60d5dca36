/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "cluster-placement.h"

#include "cluster-clos-search.h"
#include "cluster-ocs-placement.h"
#include "cluster-topology.h"

#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/object-factory.h"
#include "ns3/string.h"
#include "ns3/suite-check.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(ClusterPlacementPolicy);
NS_OBJECT_ENSURE_REGISTERED(ClusterPackingPolicy);
NS_OBJECT_ENSURE_REGISTERED(ClusterMultiClusterPolicy);
NS_OBJECT_ENSURE_REGISTERED(VclosPolicy);

namespace
{

/// The free GPUs of one server, ascending, at most `count` of them.
std::vector<uint32_t>
FreeGpusOfServer(const ClusterState& state, uint32_t leaf, uint32_t server, uint32_t count)
{
    std::vector<uint32_t> out;
    for (uint32_t k = 0; k < state.GetGpusPerServer() && out.size() < count; ++k)
    {
        uint32_t gpu = state.GetGpuId(leaf, server, k);
        if (state.GetGpuOwner(gpu) == ClusterState::NO_JOB)
        {
            out.push_back(gpu);
        }
    }
    return out;
}

/**
 * A packing placement from (global server, GPUs) pairs: the GPUs ascending, m and n, and
 * the uplinks (ECMP: -1; source routing: GPU index in its leaf mod S).
 */
ClusterPlacement
MakePackedPlacement(const ClusterState& state,
                    uint64_t jobId,
                    const std::vector<std::pair<uint32_t, uint32_t>>& take,
                    ClusterPackingPolicy::Routing routing)
{
    const uint32_t spl = state.GetServersPerLeaf();
    ClusterPlacement p;
    p.jobId = jobId;
    for (const auto& [s, count] : take)
    {
        auto part = FreeGpusOfServer(state, s / spl, s % spl, count);
        p.gpus.insert(p.gpus.end(), part.begin(), part.end());
    }
    std::sort(p.gpus.begin(), p.gpus.end());
    const uint32_t perLeaf = state.GetGpusPerLeaf();
    std::vector<uint32_t> onLeaf(state.GetLeaves(), 0);
    for (uint32_t gpu : p.gpus)
    {
        uint32_t leaf = gpu / perLeaf;
        p.m += onLeaf[leaf] == 0 ? 1 : 0;
        p.n = std::max(p.n, ++onLeaf[leaf]);
        p.uplinkSpine.push_back(routing == ClusterPackingPolicy::ECMP_ROUTING
                                    ? -1
                                    : static_cast<int32_t>((gpu % perLeaf) % state.GetSpines()));
    }
    return p;
}

/**
 * Whether a leaf holds `count` GPUs on as few servers as the packing baselines use:
 * floor(count / g) wholly free servers and the remaining count mod g GPUs on one more server.
 */
bool
FitsOnFewestServers(const ClusterState& state, uint32_t leaf, uint32_t count)
{
    const uint32_t g = state.GetGpusPerServer();
    const uint32_t whole = count / g;
    const uint32_t rem = count % g;
    uint32_t wholeFree = 0;
    bool remainder = false; // a server not wholly free with >= rem free GPUs
    for (uint32_t s = 0; s < state.GetServersPerLeaf(); ++s)
    {
        uint32_t f = state.GetFreeGpusOfServer(leaf, s);
        wholeFree += f == g ? 1 : 0;
        remainder = remainder || (rem > 0 && f < g && f >= rem);
    }
    return wholeFree >= whole && (rem == 0 || remainder || wholeFree > whole);
}

} // namespace

std::string
ClusterPlacementFailureName(ClusterPlacementFailure cause)
{
    switch (cause)
    {
    case ClusterPlacementFailure::GPUS:
        return "gpus";
    case ClusterPlacementFailure::GPU_FRAGMENTATION:
        return "gpu-fragmentation";
    case ClusterPlacementFailure::NETWORK_FRAGMENTATION:
        return "network-fragmentation";
    case ClusterPlacementFailure::CIRCUITS:
        return "circuits";
    }
    return "unknown";
}

TypeId
ClusterPlacementPolicy::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::ClusterPlacementPolicy").SetParent<Object>().SetGroupName("Cluster");
    return tid;
}

void
ClusterPlacementPolicy::Bind(const ClusterTopology& topology)
{
    if (topology.HasOcs())
    {
        const std::string bad = ClusterOcsFullWiringCheck(topology);
        SUITE_REQUIRE(bad.empty(),
                      std::invalid_argument,
                      "placement: policy '" << GetName()
                                            << "' needs a fixed circuit layout: " << bad);
    }
}

std::optional<ClusterJobAllocation>
ClusterPlacementPolicy::Allocate(ClusterState& state, const ClusterJobRequest& job)
{
    std::optional<ClusterPlacement> p = Place(state, job.id, job.gpus);
    if (!p)
    {
        return std::nullopt;
    }
    state.Allocate(job.id, p->gpus, p->links);
    return ClusterJobAllocation{p->gpus, p->uplinkSpine, {}, {}, 0};
}

void
ClusterPlacementPolicy::Release(ClusterState& state, const ClusterJobRequest& job)
{
    state.Release(job.id);
}

std::shared_ptr<const ClusterOcsState>
ClusterPlacementPolicy::GetCircuitState() const
{
    return nullptr;
}

Time
ClusterPlacementPolicy::GetStartDelay(const ClusterJobAllocation& allocation) const
{
    return Time(0);
}

ClusterPlacementFailure
ClusterPlacementPolicy::Diagnose(const ClusterState& state, uint32_t gpus) const
{
    return gpus > state.GetFreeGpus() ? ClusterPlacementFailure::GPUS
                                      : ClusterPlacementFailure::GPU_FRAGMENTATION;
}

bool
ClusterPlacementPolicy::CanEverPlace(const ClusterState& shape, uint32_t gpus) const
{
    if (gpus == 0 || gpus > shape.GetGpus())
    {
        return false;
    }
    ClusterState idle(shape.GetLeaves(),
                      shape.GetServersPerLeaf(),
                      shape.GetGpusPerServer(),
                      shape.GetSpines());
    return Place(idle, 0, gpus).has_value();
}

void
ClusterPlacementPolicy::CheckJobSize(const ClusterState& state, uint32_t gpus)
{
    SUITE_REQUIRE(gpus > 0, std::invalid_argument, "placement: job GPUs must be at least 1");
    SUITE_REQUIRE(gpus <= state.GetGpus(),
                  std::invalid_argument,
                  "placement: job GPUs (" << gpus << ") exceed the cluster's " << state.GetGpus()
                                          << " GPUs");
}

std::vector<uint32_t>
ClusterPlacementPolicy::PickGpusInLeaf(const ClusterState& state, uint32_t leaf, uint32_t count)
{
    const uint32_t g = state.GetGpusPerServer();
    const uint32_t servers = state.GetServersPerLeaf();
    std::vector<bool> used(servers, false);
    std::vector<uint32_t> out;
    uint32_t rem = count;
    while (rem > 0)
    {
        int32_t pick = -1;
        auto freeOf = [&](uint32_t s) { return state.GetFreeGpusOfServer(leaf, s); };
        uint32_t want = std::min(rem, g);
        // Tightest server holding `want` (a whole free one when want = g).
        for (uint32_t s = 0; s < servers; ++s)
        {
            if (!used[s] && freeOf(s) >= want &&
                (pick < 0 || freeOf(s) < freeOf(static_cast<uint32_t>(pick))))
            {
                pick = static_cast<int32_t>(s);
            }
        }
        // Else the server with most free GPUs (lowest index on ties).
        for (uint32_t s = 0; pick < 0 && s < servers; ++s)
        {
            if (!used[s] && freeOf(s) > 0)
            {
                pick = static_cast<int32_t>(s);
            }
        }
        for (uint32_t s = 0; pick >= 0 && freeOf(static_cast<uint32_t>(pick)) < want && s < servers;
             ++s)
        {
            if (!used[s] && freeOf(s) > freeOf(static_cast<uint32_t>(pick)))
            {
                pick = static_cast<int32_t>(s);
            }
        }
        SUITE_REQUIRE(pick >= 0,
                      std::logic_error,
                      "placement: leaf " << leaf << " has fewer than " << count << " free GPUs");
        used[pick] = true;
        auto gpus = FreeGpusOfServer(state, leaf, static_cast<uint32_t>(pick), rem);
        rem -= static_cast<uint32_t>(gpus.size());
        out.insert(out.end(), gpus.begin(), gpus.end());
    }
    std::sort(out.begin(), out.end());
    return out;
}

TypeId
ClusterPackingPolicy::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::ClusterPackingPolicy")
            .SetParent<ClusterPlacementPolicy>()
            .SetGroupName("Cluster")
            .AddConstructor<ClusterPackingPolicy>()
            .AddAttribute("Fit",
                          "Server choice: first fit (lowest-numbered servers) or best fit "
                          "(tightest servers and leaves)",
                          EnumValue(FIRST_FIT),
                          MakeEnumAccessor(&ClusterPackingPolicy::m_fit),
                          MakeEnumChecker(FIRST_FIT, "first-fit", BEST_FIT, "best-fit"))
            .AddAttribute("Routing",
                          "Uplinks: ecmp (hashed) or source-routing (GPU index mod spines)",
                          EnumValue(ECMP_ROUTING),
                          MakeEnumAccessor(&ClusterPackingPolicy::m_routing),
                          MakeEnumChecker(ECMP_ROUTING, "ecmp", SOURCE_ROUTING, "source-routing"));
    return tid;
}

ClusterPackingPolicy::ClusterPackingPolicy()
    : ClusterPackingPolicy(FIRST_FIT, ECMP_ROUTING)
{
}

ClusterPackingPolicy::ClusterPackingPolicy(Fit fit, Routing routing)
    : m_fit(fit),
      m_routing(routing)
{
}

std::optional<ClusterPlacement>
ClusterPackingPolicy::Place(const ClusterState& state, uint64_t jobId, uint32_t gpus) const
{
    CheckJobSize(state, gpus);
    if (gpus > state.GetFreeGpus())
    {
        return std::nullopt;
    }
    const uint32_t g = state.GetGpusPerServer();
    const uint32_t spl = state.GetServersPerLeaf();
    const uint32_t servers = state.GetLeaves() * spl;
    auto freeOf = [&](uint32_t s) { return state.GetFreeGpusOfServer(s / spl, s % spl); };
    std::vector<bool> chosen(servers, false);
    // One server with `want` free GPUs, not yet chosen: first or best fit; -1 if none.
    auto pickOne = [&](uint32_t want) {
        int64_t pick = -1;
        for (uint32_t s = 0; s < servers; ++s)
        {
            if (chosen[s] || freeOf(s) < want)
            {
                continue;
            }
            if (m_fit == FIRST_FIT)
            {
                return static_cast<int64_t>(s);
            }
            if (pick < 0 || freeOf(s) < freeOf(static_cast<uint32_t>(pick)))
            {
                pick = s;
            }
        }
        return pick;
    };
    std::vector<std::pair<uint32_t, uint32_t>> take; // (server, GPUs)
    uint32_t whole = gpus > g ? gpus / g : 0;
    uint32_t rem = gpus > g ? gpus % g : gpus;
    if (whole > 0)
    {
        std::vector<uint32_t> empty;
        for (uint32_t s = 0; s < servers; ++s)
        {
            if (freeOf(s) == g)
            {
                empty.push_back(s);
            }
        }
        if (empty.size() < whole)
        {
            return std::nullopt;
        }
        if (m_fit == BEST_FIT)
        {
            std::stable_sort(empty.begin(), empty.end(), [&](uint32_t a, uint32_t b) {
                return state.GetFreeGpusOfLeaf(a / spl) < state.GetFreeGpusOfLeaf(b / spl);
            });
        }
        for (uint32_t i = 0; i < whole; ++i)
        {
            chosen[empty[i]] = true;
            take.emplace_back(empty[i], g);
        }
    }
    if (rem > 0)
    {
        int64_t s = pickOne(rem);
        if (s < 0)
        {
            return std::nullopt;
        }
        take.emplace_back(static_cast<uint32_t>(s), rem);
    }
    return MakePackedPlacement(state, jobId, take, m_routing);
}

std::string
ClusterPackingPolicy::GetName() const
{
    return std::string(m_routing == ECMP_ROUTING ? "ecmp" : "source-routing") +
           (m_fit == FIRST_FIT ? "-first-fit" : "-best-fit");
}

TypeId
ClusterMultiClusterPolicy::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::ClusterMultiClusterPolicy")
            .SetParent<ClusterPlacementPolicy>()
            .SetGroupName("Cluster")
            .AddConstructor<ClusterMultiClusterPolicy>()
            .AddAttribute("Routing",
                          "Uplinks: ecmp (hashed) or source-routing (GPU index mod spines)",
                          EnumValue(ClusterPackingPolicy::ECMP_ROUTING),
                          MakeEnumAccessor(&ClusterMultiClusterPolicy::m_routing),
                          MakeEnumChecker(ClusterPackingPolicy::ECMP_ROUTING,
                                          "ecmp",
                                          ClusterPackingPolicy::SOURCE_ROUTING,
                                          "source-routing"))
            .AddAttribute("SubClusters",
                          "Contiguous server ranges a job never spans (the authors': 4)",
                          UintegerValue(4),
                          MakeUintegerAccessor(&ClusterMultiClusterPolicy::m_subClusters),
                          MakeUintegerChecker<uint32_t>(1));
    return tid;
}

ClusterMultiClusterPolicy::ClusterMultiClusterPolicy()
    : ClusterMultiClusterPolicy(ClusterPackingPolicy::ECMP_ROUTING)
{
}

ClusterMultiClusterPolicy::ClusterMultiClusterPolicy(ClusterPackingPolicy::Routing routing,
                                                     uint32_t subClusters)
    : m_routing(routing),
      m_subClusters(subClusters)
{
    SUITE_REQUIRE(subClusters > 0,
                  std::invalid_argument,
                  "multi-cluster placement: SubClusters must be at least 1");
}

std::optional<ClusterPlacement>
ClusterMultiClusterPolicy::Place(const ClusterState& state, uint64_t jobId, uint32_t gpus) const
{
    CheckJobSize(state, gpus);
    if (gpus > state.GetFreeGpus())
    {
        return std::nullopt;
    }
    const uint32_t g = state.GetGpusPerServer();
    const uint32_t spl = state.GetServersPerLeaf();
    const uint32_t servers = state.GetLeaves() * spl;
    const uint32_t clusters = std::min(m_subClusters, servers);
    auto freeOf = [&](uint32_t s) { return state.GetFreeGpusOfServer(s / spl, s % spl); };
    std::vector<uint32_t> order;
    for (uint32_t c = 0; c < clusters; ++c)
    {
        // Servers [first, last): the first (servers mod clusters) ranges one server larger.
        const uint32_t base = servers / clusters;
        const uint32_t extra = servers % clusters;
        const uint32_t first = c * base + std::min(c, extra);
        const uint32_t last = first + base + (c < extra ? 1 : 0);
        if (uint64_t(last - first) * g < gpus)
        {
            continue;
        }
        order.clear();
        uint32_t freeHere = 0;
        for (uint32_t s = first; s < last; ++s)
        {
            order.push_back(s);
            freeHere += freeOf(s);
        }
        if (freeHere < gpus)
        {
            continue;
        }
        std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
            return freeOf(a) < freeOf(b);
        });
        std::vector<std::pair<uint32_t, uint32_t>> take; // (server, GPUs)
        const uint32_t whole = gpus > g ? gpus / g : 0;
        const uint32_t rem = gpus > g ? gpus % g : gpus;
        for (uint32_t s : order)
        {
            if (take.size() < whole && freeOf(s) == g)
            {
                take.emplace_back(s, g);
            }
        }
        if (take.size() < whole)
        {
            continue;
        }
        if (rem > 0)
        {
            bool found = false;
            for (uint32_t s : order)
            {
                bool taken = std::any_of(take.begin(), take.end(), [s](const auto& t) {
                    return t.first == s;
                });
                if (!taken && freeOf(s) >= rem)
                {
                    take.emplace_back(s, rem);
                    found = true;
                    break;
                }
            }
            if (!found)
            {
                continue;
            }
        }
        return MakePackedPlacement(state, jobId, take, m_routing);
    }
    return std::nullopt;
}

std::string
ClusterMultiClusterPolicy::GetName() const
{
    return m_routing == ClusterPackingPolicy::ECMP_ROUTING ? "ecmp" : "source-routing";
}

TypeId
VclosPolicy::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::VclosPolicy")
            .SetParent<ClusterPlacementPolicy>()
            .SetGroupName("Cluster")
            .AddConstructor<VclosPolicy>()
            .AddAttribute("MaxSearchNodes",
                          "Search nodes allowed per candidate n (the best found is used when "
                          "the budget cuts the search)",
                          UintegerValue(20000),
                          MakeUintegerAccessor(&VclosPolicy::m_maxSearchNodes),
                          MakeUintegerChecker<uint64_t>(1))
            .AddAttribute("WholeServers",
                          "A job that spans leaves takes whole servers (vClos paper, 4.4)",
                          BooleanValue(true),
                          MakeBooleanAccessor(&VclosPolicy::m_wholeServers),
                          MakeBooleanChecker());
    return tid;
}

VclosPolicy::VclosPolicy(uint64_t maxSearchNodes, bool wholeServers)
    : m_maxSearchNodes(maxSearchNodes),
      m_wholeServers(wholeServers)
{
    SUITE_REQUIRE(maxSearchNodes > 0,
                  std::invalid_argument,
                  "vclos placement: MaxSearchNodes must be at least 1");
}

std::optional<ClusterPlacement>
VclosPolicy::Place(const ClusterState& state, uint64_t jobId, uint32_t gpus) const
{
    CheckJobSize(state, gpus);
    if (gpus > state.GetFreeGpus())
    {
        return std::nullopt;
    }
    ClusterPlacement p;
    p.jobId = jobId;
    const uint32_t perLeaf = state.GetGpusPerLeaf();
    if (gpus <= perLeaf)
    {
        int64_t pick = -1;
        for (uint32_t l = 0; l < state.GetLeaves(); ++l)
        {
            uint32_t f = state.GetFreeGpusOfLeaf(l);
            if (f >= gpus && (!m_wholeServers || FitsOnFewestServers(state, l, gpus)) &&
                (pick < 0 || f < state.GetFreeGpusOfLeaf(pick)))
            {
                pick = l;
            }
        }
        if (pick >= 0)
        {
            p.gpus = PickGpusInLeaf(state, static_cast<uint32_t>(pick), gpus);
            p.uplinkSpine.assign(gpus, -1);
            p.m = 1;
            p.n = gpus;
            return p;
        }
    }
    bool whole = false;
    for (uint32_t n : GetShapes(state, gpus, m_wholeServers, whole))
    {
        if (SearchClos(state, gpus / n, n, whole, p))
        {
            p.jobId = jobId;
            return p;
        }
    }
    return std::nullopt;
}

bool
VclosPolicy::SearchClos(const ClusterState& state,
                        uint32_t m,
                        uint32_t n,
                        bool wholeServers,
                        ClusterPlacement& result) const
{
    ClusterClosSearch search(state, m, n, m_maxSearchNodes, wholeServers);
    const auto& best = search.Run();
    result.searchNodes += search.GetNodes();
    if (!best.found)
    {
        return false;
    }
    result.provenBest = !search.WasCut();
    // Leaves in index order; spines: free on all of them, fewest free links first.
    std::vector<uint32_t> leaves;
    ClusterSpineSet common;
    common.set();
    for (uint32_t r : best.leafRanks)
    {
        leaves.push_back(search.LeafOfRank(r));
        common &= search.MaskOfRank(r);
    }
    std::sort(leaves.begin(), leaves.end());
    std::vector<uint32_t> candidates;
    for (uint32_t s = 0; s < state.GetSpines(); ++s)
    {
        if (common.test(s))
        {
            candidates.push_back(s);
        }
    }
    std::stable_sort(candidates.begin(), candidates.end(), [&state](uint32_t a, uint32_t b) {
        return state.GetFreeLinksOfSpine(a) < state.GetFreeLinksOfSpine(b);
    });
    SUITE_REQUIRE(candidates.size() >= n,
                  std::logic_error,
                  "vclos placement: search returned leaves with too few common spines");
    result.spines.assign(candidates.begin(), candidates.begin() + n);
    std::sort(result.spines.begin(), result.spines.end());
    result.gpus.clear();
    result.links.clear();
    result.uplinkSpine.clear();
    for (uint32_t leaf : leaves)
    {
        auto part = PickGpusInLeaf(state, leaf, n);
        for (uint32_t a = 0; a < n; ++a)
        {
            result.gpus.push_back(part[a]);
            result.uplinkSpine.push_back(static_cast<int32_t>(result.spines[a]));
            result.links.push_back({leaf, result.spines[a]});
        }
    }
    result.m = m;
    result.n = n;
    return true;
}

std::string
VclosPolicy::GetName() const
{
    return "vclos";
}

std::vector<uint32_t>
VclosPolicy::GetShapes(const ClusterState& state, uint32_t gpus, bool wholeServers, bool& whole)
{
    uint32_t odd = gpus;
    while (odd > 0 && odd % 2 == 0)
    {
        odd /= 2;
    }
    const uint32_t g = state.GetGpusPerServer();
    const uint32_t nMax = std::min(state.GetGpusPerLeaf(), state.GetSpines());
    std::vector<uint32_t> shapes;
    std::vector<uint32_t> wholeShapes;
    // m = odd * 2^k divides N; 64-bit so that doubling never wraps.
    for (uint64_t m = odd; m >= 1 && m <= state.GetLeaves() && m <= gpus; m *= 2)
    {
        const auto n = static_cast<uint32_t>(gpus / m);
        if (m < 2 || n > nMax)
        {
            continue;
        }
        shapes.push_back(n);
        if (n % g == 0)
        {
            wholeShapes.push_back(n);
        }
    }
    whole = wholeServers && !wholeShapes.empty();
    return whole ? wholeShapes : shapes;
}

ClusterPlacementFailure
VclosPolicy::Diagnose(const ClusterState& state, uint32_t gpus) const
{
    if (gpus > state.GetFreeGpus())
    {
        return ClusterPlacementFailure::GPUS;
    }
    bool whole = false;
    for (uint32_t n : GetShapes(state, gpus, m_wholeServers, whole))
    {
        uint32_t leaves = 0;
        for (uint32_t l = 0; l < state.GetLeaves(); ++l)
        {
            leaves += ClusterUsableGpusOfLeaf(state, l, whole) >= n ? 1 : 0;
        }
        if (leaves >= gpus / n)
        {
            return ClusterPlacementFailure::NETWORK_FRAGMENTATION;
        }
    }
    return ClusterPlacementFailure::GPU_FRAGMENTATION;
}

const std::vector<ClusterPlacementPolicyName>&
ClusterPlacementPolicyNames()
{
    static const std::vector<ClusterPlacementPolicyName> names = {
        {"ecmp", "ns3::ClusterMultiClusterPolicy", {{"Routing", "ecmp"}}},
        {"source-routing", "ns3::ClusterMultiClusterPolicy", {{"Routing", "source-routing"}}},
        {"ecmp-first-fit",
         "ns3::ClusterPackingPolicy",
         {{"Fit", "first-fit"}, {"Routing", "ecmp"}}},
        {"ecmp-best-fit", "ns3::ClusterPackingPolicy", {{"Fit", "best-fit"}, {"Routing", "ecmp"}}},
        {"source-routing-first-fit",
         "ns3::ClusterPackingPolicy",
         {{"Fit", "first-fit"}, {"Routing", "source-routing"}}},
        {"source-routing-best-fit",
         "ns3::ClusterPackingPolicy",
         {{"Fit", "best-fit"}, {"Routing", "source-routing"}}},
        {"vclos", "ns3::VclosPolicy", {}},
        {"ocs-vclos", "ns3::VclosOcsPolicy", {}},
    };
    return names;
}

Ptr<ClusterPlacementPolicy>
ClusterCreatePlacementPolicy(const std::string& name)
{
    const auto& names = ClusterPlacementPolicyNames();
    auto it =
        std::find_if(names.begin(), names.end(), [&name](const auto& n) { return n.name == name; });
    if (it == names.end())
    {
        std::string known;
        for (const auto& n : names)
        {
            known += (known.empty() ? "" : ", ") + n.name;
        }
        SUITE_REQUIRE(false,
                      std::invalid_argument,
                      "placement: unknown policy '" << name << "' (" << known << ")");
    }
    ObjectFactory factory(it->typeId);
    for (const auto& [attribute, value] : it->values)
    {
        factory.Set(attribute, StringValue(value));
    }
    return factory.Create<ClusterPlacementPolicy>();
}

Ptr<ClusterPlacementPolicy>
ClusterCreatePlacementPolicy(const std::string& name, const ClusterTopology& topology)
{
    Ptr<ClusterPlacementPolicy> policy = ClusterCreatePlacementPolicy(name);
    policy->Bind(topology);
    return policy;
}

} // namespace ns3

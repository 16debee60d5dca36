/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "cluster-ocs-placement.h"

#include "cluster-flow-network.h"
#include "cluster-topology.h"

#include "ns3/boolean.h"
#include "ns3/suite-check.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <limits>
#include <map>
#include <numeric>
#include <tuple>

namespace ns3
{

namespace
{

/// One circuit wanted: a leaf uplink to a spine (port chosen later).
struct LeafSpinePick
{
    uint32_t leaf;  //!< leaf
    uint32_t ocs;   //!< its uplink
    uint32_t spine; //!< spine
};

/**
 * Turn leaf-spine picks into circuits with concrete spine ports: first the ports whose idle
 * circuit already joins the leaf uplink, then unconnected idle ports, then any idle port.
 * \return the circuits, in the order of the picks; `reused` counts the first kind
 */
std::vector<ClusterOcsCircuit>
ChooseSpinePorts(const ClusterOcsState& ocs,
                 const std::vector<LeafSpinePick>& picks,
                 uint32_t& reused)
{
    const uint32_t perOcs = ocs.GetSpinePortsPerOcs();
    std::vector<ClusterOcsCircuit> out(picks.size());
    std::vector<bool> done(picks.size(), false);
    std::map<std::pair<uint32_t, uint32_t>, bool> taken; // (spine, port)
    reused = 0;
    for (std::size_t i = 0; i < picks.size(); ++i)
    {
        const auto& p = picks[i];
        auto c = ocs.GetCircuitAtUplink(p.leaf, p.ocs);
        if (c && !c->toLeaf && c->peer == p.spine)
        {
            out[i] = *c;
            done[i] = true;
            taken[{p.spine, c->peerPort}] = true;
            ++reused;
        }
    }
    for (bool connectedToo : {false, true})
    {
        for (std::size_t i = 0; i < picks.size(); ++i)
        {
            const auto& p = picks[i];
            for (uint32_t q = p.ocs * perOcs; !done[i] && q < (p.ocs + 1) * perOcs; ++q)
            {
                if (ocs.GetSpinePortOwner(p.spine, q) == ClusterOcsState::NO_JOB &&
                    !taken.count({p.spine, q}) &&
                    (connectedToo || !ocs.IsSpinePortConnected(p.spine, q)))
                {
                    out[i] = ClusterOcsCircuit{p.leaf, p.ocs, false, p.spine, q};
                    done[i] = true;
                    taken[{p.spine, q}] = true;
                }
            }
        }
    }
    for (bool d : done)
    {
        SUITE_REQUIRE(d, std::logic_error, "ocs placement: a spine ran out of idle ports");
    }
    return out;
}

/// Odd part of n.
uint32_t
OddPart(uint32_t n)
{
    while (n > 0 && n % 2 == 0)
    {
        n /= 2;
    }
    return n;
}

/// Stage-4 shapes: the n of each m x n, m = odd part of N times 2^k, 2 <= n <= nMax, m >= 2.
std::vector<uint32_t>
OcsShapes(uint32_t gpus, uint32_t nMax)
{
    const uint32_t odd = OddPart(gpus);
    std::vector<uint32_t> shapes;
    for (uint64_t m = odd; m >= 1 && m <= gpus; m *= 2)
    {
        const auto n = static_cast<uint32_t>(gpus / m);
        if (m >= 2 && n >= 2 && n <= nMax)
        {
            shapes.push_back(n);
        }
    }
    return shapes;
}

/// Circuits between leaves a and b among the OCSs `common` that a leaf pair can reuse.
uint32_t
ReusableLeafCircuits(const ClusterOcsState& ocs,
                     uint32_t a,
                     uint32_t b,
                     const ClusterOcsSet& common)
{
    uint32_t reuse = 0;
    for (uint32_t k = 0; k < ocs.GetOcsCount(); ++k)
    {
        if (common.test(k))
        {
            auto c = ocs.GetCircuitAtUplink(a, k);
            reuse += c && c->toLeaf && c->peer == b ? 1 : 0;
        }
    }
    return reuse;
}

/**
 * Stage 2's leaves (lower index first): over all pairs of leaves that hold a virtual leaf of
 * `half` GPUs and share `half` OCSs with both uplinks idle, the fewest free GPUs on the two,
 * then the most reusable leaf-leaf circuits; std::nullopt when no pair qualifies.
 */
std::optional<std::pair<uint32_t, uint32_t>>
BestLeafPair(const ClusterState& state, const ClusterOcsState& ocs, uint32_t half)
{
    std::vector<uint32_t> leaves;
    for (uint32_t l : ClusterOcsBestFitLeaves(state))
    {
        if (ClusterOcsVirtualLeavesOf(state, ocs, l, half) >= 1)
        {
            leaves.push_back(l);
        }
    }
    std::optional<std::pair<uint32_t, uint32_t>> best;
    uint64_t bestCost = std::numeric_limits<uint64_t>::max();
    uint32_t bestReuse = 0;
    for (std::size_t i = 0; i < leaves.size(); ++i)
    {
        const uint32_t a = leaves[i];
        if (i + 1 < leaves.size() &&
            uint64_t(state.GetFreeGpusOfLeaf(a)) + state.GetFreeGpusOfLeaf(leaves[i + 1]) >
                bestCost)
        {
            break;
        }
        for (std::size_t j = i + 1; j < leaves.size(); ++j)
        {
            const uint32_t b = leaves[j];
            const uint64_t cost = uint64_t(state.GetFreeGpusOfLeaf(a)) + state.GetFreeGpusOfLeaf(b);
            if (cost > bestCost)
            {
                break;
            }
            ClusterOcsSet common = ocs.GetIdleUplinks(a) & ocs.GetIdleUplinks(b);
            if (common.count() < half)
            {
                continue;
            }
            const uint32_t reuse = ReusableLeafCircuits(ocs, a, b, common);
            if (cost < bestCost || reuse > bestReuse)
            {
                bestCost = cost;
                bestReuse = reuse;
                best = std::make_pair(std::min(a, b), std::max(a, b));
            }
        }
    }
    return best;
}

/**
 * The `half` OCSs of a leaf pair's circuits, ascending: those with a reusable idle circuit
 * between a and b first, then the lowest other OCSs idle on both; `reused` counts the first.
 */
std::vector<uint32_t>
LeafPairOcss(const ClusterOcsState& ocs, uint32_t a, uint32_t b, uint32_t half, uint32_t& reused)
{
    ClusterOcsSet common = ocs.GetIdleUplinks(a) & ocs.GetIdleUplinks(b);
    std::vector<uint32_t> ocsList;
    for (int pass = 0; pass < 2; ++pass)
    {
        for (uint32_t k = 0; k < ocs.GetOcsCount() && ocsList.size() < half; ++k)
        {
            if (!common.test(k))
            {
                continue;
            }
            auto c = ocs.GetCircuitAtUplink(a, k);
            bool reuse = c && c->toLeaf && c->peer == b;
            if (reuse == (pass == 0))
            {
                ocsList.push_back(k);
                reused += reuse ? 1 : 0;
            }
        }
    }
    std::sort(ocsList.begin(), ocsList.end());
    return ocsList;
}

/// Stage 3's leaves: those with a free GPU and an idle uplink, best fit first.
std::vector<uint32_t>
LeavesWithIdleUplinks(const ClusterState& state, const ClusterOcsState& ocs)
{
    std::vector<uint32_t> leaves;
    for (uint32_t l : ClusterOcsBestFitLeaves(state))
    {
        if (state.GetFreeGpusOfLeaf(l) > 0 && ocs.GetIdleUplinkCount(l) > 0)
        {
            leaves.push_back(l);
        }
    }
    return leaves;
}

/**
 * Stage 3's max flow through one spine from the first `prefix` of `leaves`, capped at N:
 * source -> leaf (min(free GPUs, idle uplinks)) -> OCS (its idle uplink, 1) -> sink (the
 * spine's idle ports on that OCS).
 * \param[out] picks if not null: the (leaf, OCS, spine) arcs that carry flow
 * \return the flow
 */
long
OneSpineFlow(const ClusterState& state,
             const ClusterOcsState& ocs,
             const std::vector<uint32_t>& leaves,
             uint32_t gpus,
             uint32_t spine,
             std::size_t prefix,
             std::vector<LeafSpinePick>* picks)
{
    const uint32_t k = ocs.GetOcsCount();
    const auto np = static_cast<uint32_t>(prefix);
    ClusterFlowNetwork net(np + k + 3);
    const uint32_t top = np + k;
    const uint32_t src = top + 1;
    const uint32_t sink = top + 2;
    net.AddEdge(top, src, gpus);
    for (uint32_t o = 0; o < k; ++o)
    {
        uint32_t c = ocs.GetIdleSpinePorts(spine, o);
        if (c > 0)
        {
            net.AddEdge(np + o, sink, c);
        }
    }
    std::vector<std::tuple<uint32_t, uint32_t, std::size_t>> arcs; // (leaf, ocs, edge)
    for (uint32_t i = 0; i < np; ++i)
    {
        const uint32_t l = leaves[i];
        net.AddEdge(src, i, std::min(state.GetFreeGpusOfLeaf(l), ocs.GetIdleUplinkCount(l)));
        for (uint32_t o = 0; o < k; ++o)
        {
            if (ocs.IsUplinkIdle(l, o) && ocs.GetIdleSpinePorts(spine, o) > 0)
            {
                arcs.emplace_back(l, o, net.AddEdge(i, np + o, 1));
            }
        }
    }
    long f = net.Run(top, sink);
    for (const auto& [l, o, e] : arcs)
    {
        if (picks != nullptr && net.Flow(e) > 0)
        {
            picks->push_back({l, o, spine});
        }
    }
    return f;
}

/// The shortest prefix of `leaves` (at least 1) through which `spine` carries N, when the
/// whole list does: binary search.
std::size_t
ShortestPrefix(const ClusterState& state,
               const ClusterOcsState& ocs,
               const std::vector<uint32_t>& leaves,
               uint32_t gpus,
               uint32_t spine)
{
    std::size_t lo = 1;
    std::size_t hi = leaves.size();
    while (lo < hi)
    {
        std::size_t mid = (lo + hi) / 2;
        if (OneSpineFlow(state, ocs, leaves, gpus, spine, mid, nullptr) >= static_cast<long>(gpus))
        {
            hi = mid;
        }
        else
        {
            lo = mid + 1;
        }
    }
    return lo;
}

/// Sort a placement's per-GPU arrays by GPU id.
void
SortByGpu(ClusterOcsPlacement& p)
{
    std::vector<std::size_t> idx(p.placement.gpus.size());
    std::iota(idx.begin(), idx.end(), 0);
    std::sort(idx.begin(), idx.end(), [&p](std::size_t a, std::size_t b) {
        return p.placement.gpus[a] < p.placement.gpus[b];
    });
    auto permute = [&idx](auto& v) {
        auto copy = v;
        for (std::size_t i = 0; i < idx.size(); ++i)
        {
            v[i] = copy[idx[i]];
        }
    };
    permute(p.placement.gpus);
    permute(p.placement.uplinkSpine);
    permute(p.uplinkOcs);
    permute(p.virtualLeaf);
}

} // namespace

std::string
ClusterOcsStageName(ClusterOcsStage stage)
{
    switch (stage)
    {
    case ClusterOcsStage::SINGLE_LEAF:
        return "single-leaf";
    case ClusterOcsStage::LEAF_PAIR:
        return "leaf-pair";
    case ClusterOcsStage::ONE_SPINE:
        return "one-spine";
    case ClusterOcsStage::VIRTUAL_CLOS:
        return "virtual-clos";
    }
    return "unknown";
}

NS_OBJECT_ENSURE_REGISTERED(VclosOcsPolicy);

TypeId
VclosOcsPolicy::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::VclosOcsPolicy")
            .SetParent<ClusterPlacementPolicy>()
            .SetGroupName("Cluster")
            .AddConstructor<VclosOcsPolicy>()
            .AddAttribute("MaxSearchNodes",
                          "Stage-4 search nodes allowed per shape",
                          UintegerValue(5000),
                          MakeUintegerAccessor(&VclosOcsPolicy::m_maxSearchNodes),
                          MakeUintegerChecker<uint64_t>(1))
            .AddAttribute("ReconfigurationDelay",
                          "How long a job whose booking set up at least one new circuit waits "
                          "between its placement (GPUs and circuits held) and its start: the "
                          "OCSs' reconfiguration time (0: circuits are instant)",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&VclosOcsPolicy::m_reconfigurationDelay),
                          MakeTimeChecker(Seconds(0), Seconds(3600)))
            .AddAttribute("KeepIdleCircuits",
                          "A finished job's circuits stay set up (idle) and a later job may "
                          "reuse them without a reconfiguration; a booking that needs their "
                          "ports tears them down",
                          BooleanValue(false),
                          MakeBooleanAccessor(&VclosOcsPolicy::m_keepIdleCircuits),
                          MakeBooleanChecker());
    return tid;
}

VclosOcsPolicy::VclosOcsPolicy()
    : m_ocsCount(0),
      m_spines(0),
      m_perOcs(0),
      m_maxSearchNodes(5000),
      m_keepIdleCircuits(false),
      m_reconfigurationDelay(Seconds(0))
{
}

void
VclosOcsPolicy::Bind(const ClusterTopology& topology)
{
    SUITE_REQUIRE(topology.HasOcs(),
                  std::invalid_argument,
                  "placement: policy 'ocs-vclos' needs an OCS layer (OcsCount > 0)");
    m_ocsCount = topology.GetUplinksPerLeaf();
    m_spines = topology.GetSpines();
    m_perOcs = topology.GetSpinePortsPerOcs();
    m_circuits = std::make_shared<ClusterOcsState>(topology);
}

std::optional<ClusterJobAllocation>
VclosOcsPolicy::Allocate(ClusterState& state, const ClusterJobRequest& job)
{
    SUITE_REQUIRE(m_circuits, std::logic_error, "VclosOcsPolicy: Bind before Allocate");
    std::optional<ClusterOcsPlacement> p = Place(state, *m_circuits, job.id, job.gpus);
    if (!p)
    {
        return std::nullopt;
    }
    const ClusterOcsBookingReport report = m_circuits->Book(job.id, p->circuits);
    state.Allocate(job.id, p->placement.gpus, {});
    ClusterJobAllocation allocation;
    allocation.gpus = p->placement.gpus;
    allocation.uplinkSpine = p->placement.uplinkSpine;
    allocation.uplinkPort = p->uplinkOcs;
    allocation.virtualLeaf = p->virtualLeaf;
    allocation.circuitsSetUp = report.setUp;
    return allocation;
}

void
VclosOcsPolicy::Release(ClusterState& state, const ClusterJobRequest& job)
{
    state.Release(job.id);
    if (m_circuits && m_circuits->HasJob(job.id))
    {
        m_circuits->Release(job.id, m_keepIdleCircuits);
    }
}

ClusterPlacementFailure
VclosOcsPolicy::Diagnose(const ClusterState& state, uint32_t gpus) const
{
    SUITE_REQUIRE(m_circuits, std::logic_error, "VclosOcsPolicy: Bind before Diagnose");
    return Diagnose(state, *m_circuits, gpus);
}

std::shared_ptr<const ClusterOcsState>
VclosOcsPolicy::GetCircuitState() const
{
    return m_circuits;
}

Time
VclosOcsPolicy::GetStartDelay(const ClusterJobAllocation& allocation) const
{
    return allocation.circuitsSetUp > 0 ? m_reconfigurationDelay : Time(0);
}

VclosOcsPolicy::VclosOcsPolicy(uint32_t ocsCount,
                               uint32_t spines,
                               uint32_t spinePortsPerOcs,
                               uint64_t maxSearchNodes)
    : m_ocsCount(ocsCount),
      m_spines(spines),
      m_perOcs(spinePortsPerOcs),
      m_maxSearchNodes(maxSearchNodes),
      m_keepIdleCircuits(false),
      m_reconfigurationDelay(Seconds(0))
{
    ClusterOcsState check(1, ocsCount, spines, spinePortsPerOcs); // validates the shape
    SUITE_REQUIRE(maxSearchNodes > 0,
                  std::invalid_argument,
                  "ocs-vclos placement: MaxSearchNodes must be at least 1");
}

std::string
VclosOcsPolicy::GetName() const
{
    return "ocs-vclos";
}

std::vector<uint32_t>
VclosOcsPolicy::GetShapes(const ClusterState& state, uint32_t gpus) const
{
    return OcsShapes(gpus, std::min({state.GetGpusPerLeaf(), m_ocsCount, m_spines}));
}

std::optional<ClusterPlacement>
VclosOcsPolicy::Place(const ClusterState& state, uint64_t jobId, uint32_t gpus) const
{
    ClusterOcsState idle(state.GetLeaves(), m_ocsCount, m_spines, m_perOcs);
    auto p = Place(state, idle, jobId, gpus);
    if (!p)
    {
        return std::nullopt;
    }
    return p->placement;
}

ClusterPlacementFailure
VclosOcsPolicy::Diagnose(const ClusterState& state, const ClusterOcsState& ocs, uint32_t gpus) const
{
    CheckJobSize(state, gpus);
    if (gpus > state.GetFreeGpus())
    {
        return ClusterPlacementFailure::GPUS;
    }
    ClusterOcsState idle(ocs.GetLeaves(),
                         ocs.GetOcsCount(),
                         ocs.GetSpines(),
                         ocs.GetSpinePortsPerOcs());
    return Place(state, idle, 0, gpus) ? ClusterPlacementFailure::CIRCUITS
                                       : ClusterPlacementFailure::GPU_FRAGMENTATION;
}

std::optional<ClusterOcsPlacement>
VclosOcsPolicy::Place(const ClusterState& state,
                      const ClusterOcsState& ocs,
                      uint64_t jobId,
                      uint32_t gpus,
                      ClusterOcsSearchStats* stats) const
{
    CheckJobSize(state, gpus);
    SUITE_REQUIRE(ocs.GetLeaves() == state.GetLeaves(),
                  std::invalid_argument,
                  "ocs-vclos placement: the circuit state has "
                      << ocs.GetLeaves() << " leaves, the cluster " << state.GetLeaves());
    SUITE_REQUIRE(ocs.GetOcsCount() == m_ocsCount && ocs.GetSpines() == m_spines &&
                      ocs.GetSpinePortsPerOcs() == m_perOcs,
                  std::invalid_argument,
                  "ocs-vclos placement: the circuit state is not the policy's OCS layer ("
                      << m_ocsCount << " OCSs, " << m_spines << " spines, " << m_perOcs
                      << " ports per spine per OCS)");
    if (stats != nullptr)
    {
        *stats = ClusterOcsSearchStats();
    }
    if (gpus > state.GetFreeGpus())
    {
        return std::nullopt;
    }
    if (auto single = PlaceSingleLeaf(state, jobId, gpus))
    {
        return single;
    }
    if (auto pair = PlaceLeafPair(state, ocs, jobId, gpus))
    {
        return pair;
    }
    if (auto oneSpine = PlaceOneSpine(state, ocs, jobId, gpus))
    {
        return oneSpine;
    }
    return PlaceVirtualClos(state, ocs, jobId, gpus, m_maxSearchNodes, stats);
}

std::optional<ClusterOcsPlacement>
VclosOcsPolicy::PlaceSingleLeaf(const ClusterState& state, uint64_t jobId, uint32_t gpus)
{
    CheckJobSize(state, gpus);
    if (gpus > state.GetGpusPerLeaf())
    {
        return std::nullopt;
    }
    // vClos's own single-leaf rule (its multi-leaf search is cut at once by the budget of
    // one node and its answer ignored).
    auto single = VclosPolicy(1).Place(state, jobId, gpus);
    if (!single || single->m != 1)
    {
        return std::nullopt;
    }
    ClusterOcsPlacement out;
    out.placement = *single;
    out.placement.searchNodes = 0;
    out.placement.provenBest = true;
    out.stage = ClusterOcsStage::SINGLE_LEAF;
    out.uplinkOcs.assign(gpus, -1);
    out.virtualLeaf.assign(gpus, 0);
    return out;
}

std::optional<ClusterOcsPlacement>
VclosOcsPolicy::PlaceLeafPair(const ClusterState& state,
                              const ClusterOcsState& ocs,
                              uint64_t jobId,
                              uint32_t gpus)
{
    CheckJobSize(state, gpus);
    const uint32_t half = gpus / 2;
    if (gpus % 2 != 0 || half > state.GetGpusPerLeaf() || half > ocs.GetOcsCount())
    {
        return std::nullopt;
    }
    const auto pair = BestLeafPair(state, ocs, half);
    if (!pair)
    {
        return std::nullopt;
    }
    const auto [a, b] = *pair;
    ClusterOcsPlacement out;
    out.placement.jobId = jobId;
    const std::vector<uint32_t> ocsList = LeafPairOcss(ocs, a, b, half, out.reusedCircuits);
    const auto ga = PickGpusInLeaf(state, a, half);
    const auto gb = PickGpusInLeaf(state, b, half);
    for (uint32_t x = 0; x < half; ++x)
    {
        const uint32_t k = ocsList[x];
        out.circuits.push_back(ClusterOcsCircuit{a, k, true, b, k});
        for (uint32_t gpu : {ga[x], gb[x]})
        {
            out.placement.gpus.push_back(gpu);
            out.placement.uplinkSpine.push_back(-1);
            out.uplinkOcs.push_back(static_cast<int32_t>(k));
            out.virtualLeaf.push_back(gpu == ga[x] ? 0 : 1);
        }
    }
    out.placement.m = 2;
    out.placement.n = half;
    out.stage = ClusterOcsStage::LEAF_PAIR;
    SortByGpu(out);
    return out;
}

std::optional<ClusterOcsPlacement>
VclosOcsPolicy::PlaceOneSpine(const ClusterState& state,
                              const ClusterOcsState& ocs,
                              uint64_t jobId,
                              uint32_t gpus)
{
    CheckJobSize(state, gpus);
    if (gpus > ocs.GetOcsCount() * ocs.GetSpinePortsPerOcs())
    {
        return std::nullopt;
    }
    const std::vector<uint32_t> leaves = LeavesWithIdleUplinks(state, ocs);
    for (uint32_t spine : ClusterOcsBestFitSpines(ocs, gpus))
    {
        if (OneSpineFlow(state, ocs, leaves, gpus, spine, leaves.size(), nullptr) <
            static_cast<long>(gpus))
        {
            continue;
        }
        const std::size_t prefix = ShortestPrefix(state, ocs, leaves, gpus, spine);
        std::vector<LeafSpinePick> picks;
        OneSpineFlow(state, ocs, leaves, gpus, spine, prefix, &picks);
        std::stable_sort(picks.begin(), picks.end(), [](const auto& x, const auto& y) {
            return x.leaf < y.leaf;
        });
        ClusterOcsPlacement out;
        out.placement.jobId = jobId;
        out.circuits = ChooseSpinePorts(ocs, picks, out.reusedCircuits);
        for (std::size_t i = 0; i < picks.size();)
        {
            std::size_t j = i;
            while (j < picks.size() && picks[j].leaf == picks[i].leaf)
            {
                ++j;
            }
            auto g = PickGpusInLeaf(state, picks[i].leaf, static_cast<uint32_t>(j - i));
            for (std::size_t x = i; x < j; ++x)
            {
                out.placement.gpus.push_back(g[x - i]);
                out.placement.uplinkSpine.push_back(static_cast<int32_t>(spine));
                out.uplinkOcs.push_back(static_cast<int32_t>(picks[x].ocs));
            }
            i = j;
        }
        out.placement.m = gpus;
        out.placement.n = 1;
        out.placement.spines = {spine};
        out.stage = ClusterOcsStage::ONE_SPINE;
        out.virtualLeaf.resize(out.placement.gpus.size());
        SortByGpu(out);
        // Virtual leaves numbered in GPU order.
        std::iota(out.virtualLeaf.begin(), out.virtualLeaf.end(), 0);
        return out;
    }
    return std::nullopt;
}

std::optional<ClusterOcsPlacement>
VclosOcsPolicy::PlaceVirtualClos(const ClusterState& state,
                                 const ClusterOcsState& ocs,
                                 uint64_t jobId,
                                 uint32_t gpus,
                                 uint64_t maxSearchNodes,
                                 ClusterOcsSearchStats* stats)
{
    CheckJobSize(state, gpus);
    ClusterOcsSearchStats local;
    ClusterOcsSearchStats& st = stats != nullptr ? *stats : local;
    st = ClusterOcsSearchStats();
    const uint32_t nMax = std::min({state.GetGpusPerLeaf(), ocs.GetOcsCount(), ocs.GetSpines()});
    for (uint32_t n : OcsShapes(gpus, nMax))
    {
        const uint32_t m = gpus / n;
        ClusterOcsClosSearch search(state, ocs, m, n, maxSearchNodes);
        const bool found = search.Run();
        st.searchNodes += search.GetNodes();
        st.cut = st.cut || search.WasCut();
        if (found)
        {
            ClusterOcsPlacement out = VirtualClosPlacement(state, ocs, search.GetSolution(), n);
            out.placement.jobId = jobId;
            out.placement.searchNodes = st.searchNodes;
            out.placement.provenBest = !st.cut;
            return out;
        }
    }
    return std::nullopt;
}

ClusterOcsPlacement
VclosOcsPolicy::VirtualClosPlacement(const ClusterState& state,
                                     const ClusterOcsState& ocs,
                                     const ClusterOcsClosSearch::Solution& sol,
                                     uint32_t n)
{
    ClusterOcsPlacement out;
    // Spines ascending; GPU a of each virtual leaf goes up to spines[a], over the circuit
    // the search chose for that spine (its position t in search order).
    std::vector<uint32_t> spines = sol.spines;
    std::sort(spines.begin(), spines.end());
    std::vector<LeafSpinePick> picks;
    uint32_t vleaf = 0;
    for (std::size_t gi = 0; gi < sol.groups.size(); ++gi)
    {
        const auto& grp = sol.groups[gi];
        auto g = PickGpusInLeaf(state, grp.leaf, grp.count * n);
        for (uint32_t copy = 0; copy < grp.count; ++copy, ++vleaf)
        {
            for (uint32_t a = 0; a < n; ++a)
            {
                const uint32_t spine = spines[a];
                const std::size_t t =
                    std::find(sol.spines.begin(), sol.spines.end(), spine) - sol.spines.begin();
                const uint32_t k = sol.ocsOf[t][gi][copy];
                out.placement.gpus.push_back(g[copy * n + a]);
                out.placement.uplinkSpine.push_back(static_cast<int32_t>(spine));
                out.uplinkOcs.push_back(static_cast<int32_t>(k));
                out.virtualLeaf.push_back(vleaf);
                picks.push_back({grp.leaf, k, spine});
            }
        }
    }
    out.circuits = ChooseSpinePorts(ocs, picks, out.reusedCircuits);
    out.placement.m = vleaf;
    out.placement.n = n;
    out.placement.spines = spines;
    out.stage = ClusterOcsStage::VIRTUAL_CLOS;
    SortByGpu(out);
    return out;
}

} // namespace ns3

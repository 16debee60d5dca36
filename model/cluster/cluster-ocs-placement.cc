/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "cluster-ocs-placement.h"

#include "cluster-topology.h"

#include "ns3/boolean.h"
#include "ns3/suite-check.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/push_relabel_max_flow.hpp>
#include <limits>
#include <map>
#include <numeric>
#include <tuple>

namespace ns3
{

namespace
{

/// A small max-flow network on Boost.Graph (push-relabel).
class FlowNetwork
{
  public:
    /// \param nodes node count
    explicit FlowNetwork(uint32_t nodes)
        : m_graph(nodes)
    {
    }

    /**
     * \brief Add an edge and its reverse.
     * \param u tail \param v head \param capacity capacity
     * \return the edge's index, for Flow()
     */
    std::size_t AddEdge(uint32_t u, uint32_t v, long capacity)
    {
        auto cap = boost::get(boost::edge_capacity, m_graph);
        auto rev = boost::get(boost::edge_reverse, m_graph);
        Edge e = boost::add_edge(u, v, m_graph).first;
        Edge r = boost::add_edge(v, u, m_graph).first;
        cap[e] = capacity;
        cap[r] = 0;
        rev[e] = r;
        rev[r] = e;
        m_edges.push_back(e);
        return m_edges.size() - 1;
    }

    /// \param s source \param t sink \return the maximum flow
    long Run(uint32_t s, uint32_t t)
    {
        return boost::push_relabel_max_flow(m_graph, s, t);
    }

    /// \param index an edge index from AddEdge \return the flow on it after Run()
    long Flow(std::size_t index) const
    {
        const Edge e = m_edges[index];
        return boost::get(boost::edge_capacity, m_graph, e) -
               boost::get(boost::edge_residual_capacity, m_graph, e);
    }

  private:
    using Traits = boost::adjacency_list_traits<boost::vecS, boost::vecS, boost::directedS>;
    using Edge = Traits::edge_descriptor;
    using Graph = boost::adjacency_list<
        boost::vecS,
        boost::vecS,
        boost::directedS,
        boost::no_property,
        boost::property<boost::edge_capacity_t,
                        long,
                        boost::property<boost::edge_residual_capacity_t,
                                        long,
                                        boost::property<boost::edge_reverse_t, Edge>>>>;

    Graph m_graph;             //!< the network
    std::vector<Edge> m_edges; //!< forward edges by index
};

/// Wholly free servers of a leaf.
uint32_t
WholeFreeServers(const ClusterState& state, uint32_t leaf)
{
    uint32_t count = 0;
    for (uint32_t s = 0; s < state.GetServersPerLeaf(); ++s)
    {
        count += state.GetFreeGpusOfServer(leaf, s) == state.GetGpusPerServer() ? 1 : 0;
    }
    return count;
}

/**
 * Virtual leaves of n GPUs a leaf can hold: n / g wholly free servers each when g divides n,
 * else n free GPUs each; and n idle uplinks each.
 */
uint32_t
VirtualLeavesOf(const ClusterState& state, const ClusterOcsState& ocs, uint32_t leaf, uint32_t n)
{
    const uint32_t g = state.GetGpusPerServer();
    const uint32_t gpus =
        n % g == 0 ? WholeFreeServers(state, leaf) * g : state.GetFreeGpusOfLeaf(leaf);
    return std::min(gpus, ocs.GetIdleUplinkCount(leaf)) / n;
}

/// Leaves in best-fit order: fewest free GPUs first, then index.
std::vector<uint32_t>
BestFitLeaves(const ClusterState& state)
{
    std::vector<uint32_t> leaves(state.GetLeaves());
    std::iota(leaves.begin(), leaves.end(), 0);
    std::stable_sort(leaves.begin(), leaves.end(), [&state](uint32_t a, uint32_t b) {
        return state.GetFreeGpusOfLeaf(a) < state.GetFreeGpusOfLeaf(b);
    });
    return leaves;
}

/// Spines with at least `ports` idle ports, fewest idle ports first (best fit), then index.
std::vector<uint32_t>
BestFitSpines(const ClusterOcsState& ocs, uint32_t ports)
{
    std::vector<uint32_t> spines;
    for (uint32_t s = 0; s < ocs.GetSpines(); ++s)
    {
        if (ocs.GetIdleSpinePortsOfSpine(s) >= ports)
        {
            spines.push_back(s);
        }
    }
    std::stable_sort(spines.begin(), spines.end(), [&ocs](uint32_t a, uint32_t b) {
        return ocs.GetIdleSpinePortsOfSpine(a) < ocs.GetIdleSpinePortsOfSpine(b);
    });
    return spines;
}

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

/**
 * Stage 4 for one shape m x n: depth-first search over virtual leaves per leaf, spines and
 * circuits (see VclosOcsPolicy).
 */
class OcsClosSearch
{
  public:
    /// A leaf holding `count` virtual leaves of the job.
    struct Group
    {
        uint32_t leaf;  //!< the leaf
        uint32_t count; //!< virtual leaves on it
    };

    /// The solution: groups, and per chosen spine the OCSs of each group.
    struct Solution
    {
        std::vector<Group> groups;                             //!< leaves used
        std::vector<uint32_t> spines;                          //!< spines, in search order
        std::vector<std::vector<std::vector<uint32_t>>> ocsOf; //!< [spine][group] -> OCSs
    };

    OcsClosSearch(const ClusterState& state,
                  const ClusterOcsState& ocs,
                  uint32_t m,
                  uint32_t n,
                  uint64_t budget)
        : m_ocs(ocs),
          m_m(m),
          m_n(n),
          m_budget(budget)
    {
        for (uint32_t leaf : BestFitLeaves(state))
        {
            uint32_t cap = VirtualLeavesOf(state, ocs, leaf, n);
            if (cap > 0)
            {
                m_leaves.push_back(leaf);
                m_cap.push_back(std::min(cap, m));
            }
        }
        m_suffix.assign(m_leaves.size() + 1, 0);
        for (std::size_t i = m_leaves.size(); i-- > 0;)
        {
            m_suffix[i] = m_suffix[i + 1] + m_cap[i];
        }
    }

    /// \return true when a solution was found (then GetSolution())
    bool Run()
    {
        // Leaf-independent necessary condition: n spines with m idle ports each.
        if (m_suffix[0] < m_m || BestFitSpines(m_ocs, m_m).size() < m_n)
        {
            return false;
        }
        // Best-fit spines first, with half the budget; when that is cut, the emptiest spines
        // first with the rest (the search is exhaustive either way when not cut).
        const uint64_t total = m_budget;
        m_budget = std::max<uint64_t>(1, total / 2);
        if (LeafDfs(0, m_m))
        {
            return true;
        }
        if (!m_cut)
        {
            return false; // proven: no solution
        }
        m_wasCut = true;
        m_cut = false;
        m_budget = total;
        m_emptiestFirst = true;
        m_sol = Solution();
        return LeafDfs(0, m_m);
    }

    /// \return the solution
    const Solution& GetSolution() const
    {
        return m_sol;
    }

    /// \return nodes visited
    uint64_t GetNodes() const
    {
        return m_nodes;
    }

    /// \return true when the budget cut the search
    bool WasCut() const
    {
        return m_cut || m_wasCut;
    }

  private:
    /// Count a node; \return false when the budget is spent
    bool Tick()
    {
        if (++m_nodes > m_budget)
        {
            m_cut = true;
        }
        return !m_cut;
    }

    /// Choose virtual leaves per leaf, best-fit leaves first, as many per leaf as fit.
    bool LeafDfs(std::size_t i, uint32_t remaining)
    {
        if (remaining == 0)
        {
            return NetworkSearch();
        }
        if (i >= m_leaves.size() || m_suffix[i] < remaining || !Tick())
        {
            return false;
        }
        for (uint32_t v = std::min(m_cap[i], remaining) + 1; v-- > 0;)
        {
            if (v > 0)
            {
                m_sol.groups.push_back({m_leaves[i], v});
            }
            bool ok = LeafDfs(i + 1, remaining - v);
            if (ok)
            {
                return true;
            }
            if (v > 0)
            {
                m_sol.groups.pop_back();
            }
            if (m_cut)
            {
                return false;
            }
        }
        return false;
    }

    /// Idle ports left on the spine being assigned, per OCS, and the OCSs with any.
    struct Capacity
    {
        std::vector<uint32_t> left; //!< per OCS
        ClusterOcsSet any;          //!< OCSs with left > 0
    };

    /// Unused idle uplinks of group gi's leaf usable on the spine being assigned.
    ClusterOcsSet Options(std::size_t gi, const Capacity& cap) const
    {
        return m_idleUp[gi] & ~m_used[gi] & cap.any;
    }

    /// Max flow: can spine j still take every virtual leaf (exact for this spine alone)?
    bool SpineFeasible(uint32_t spine) const
    {
        const uint32_t groups = static_cast<uint32_t>(m_sol.groups.size());
        const uint32_t k = m_ocs.GetOcsCount();
        FlowNetwork net(groups + k + 2);
        const uint32_t src = groups + k;
        const uint32_t sink = src + 1;
        for (uint32_t o = 0; o < k; ++o)
        {
            uint32_t c = m_ocs.GetIdleSpinePorts(spine, o);
            if (c > 0)
            {
                net.AddEdge(groups + o, sink, c);
            }
        }
        for (uint32_t gi = 0; gi < groups; ++gi)
        {
            net.AddEdge(src, gi, m_sol.groups[gi].count);
            ClusterOcsSet up = m_idleUp[gi] & ~m_used[gi];
            for (uint32_t o = 0; o < k; ++o)
            {
                if (up.test(o) && m_ocs.GetIdleSpinePorts(spine, o) > 0)
                {
                    net.AddEdge(gi, groups + o, 1);
                }
            }
        }
        return net.Run(src, sink) == static_cast<long>(m_m);
    }

    /// Spines and circuits for the chosen groups.
    bool NetworkSearch()
    {
        const uint32_t k = m_ocs.GetOcsCount();
        m_used.assign(m_sol.groups.size(), ClusterOcsSet());
        m_idleUp.clear();
        m_reuseSpine.assign(m_sol.groups.size() * k, UINT32_MAX);
        for (std::size_t gi = 0; gi < m_sol.groups.size(); ++gi)
        {
            const uint32_t leaf = m_sol.groups[gi].leaf;
            m_idleUp.push_back(m_ocs.GetIdleUplinks(leaf));
            for (uint32_t o = 0; o < k; ++o)
            {
                if (m_idleUp.back().test(o))
                {
                    auto circuit = m_ocs.GetCircuitAtUplink(leaf, o);
                    if (circuit && !circuit->toLeaf)
                    {
                        m_reuseSpine[gi * k + o] = circuit->peer;
                    }
                }
            }
        }
        m_cand.clear();
        m_candAny.clear();
        std::vector<uint32_t> order = BestFitSpines(m_ocs, m_m);
        if (m_emptiestFirst)
        {
            std::stable_sort(order.begin(), order.end(), [this](uint32_t a, uint32_t b) {
                return m_ocs.GetIdleSpinePortsOfSpine(a) > m_ocs.GetIdleSpinePortsOfSpine(b);
            });
        }
        for (uint32_t s : order)
        {
            ClusterOcsSet any;
            for (uint32_t o = 0; o < k; ++o)
            {
                any.set(o, m_ocs.GetIdleSpinePorts(s, o) > 0);
            }
            m_cand.push_back(s);
            m_candAny.push_back(any);
            if (!CouldServe(m_cand.size() - 1)) // the max flow comes when it is visited
            {
                m_cand.pop_back();
                m_candAny.pop_back();
            }
        }
        if (m_cand.size() < m_n)
        {
            return false;
        }
        m_demand.assign(k, 0);
        for (uint32_t s : m_cand)
        {
            for (uint32_t o = 0; o < k; ++o)
            {
                m_demand[o] += m_ocs.GetIdleSpinePorts(s, o) > 0 ? 1 : 0;
            }
        }
        m_sol.spines.clear();
        m_sol.ocsOf.clear();
        return SpineDfs(0);
    }

    /// Cheap necessary test: every group has enough unused uplinks on OCSs where candidate
    /// c has idle ports.
    bool CouldServe(std::size_t c) const
    {
        for (std::size_t gi = 0; gi < m_sol.groups.size(); ++gi)
        {
            if ((m_idleUp[gi] & ~m_used[gi] & m_candAny[c]).count() < m_sol.groups[gi].count)
            {
                return false;
            }
        }
        return true;
    }

    /// Choose the next spine among candidates from `start`.
    bool SpineDfs(std::size_t start)
    {
        const std::size_t t = m_sol.spines.size();
        if (t == m_n)
        {
            return true;
        }
        for (std::size_t gi = 0; gi < m_sol.groups.size(); ++gi)
        {
            const auto free = (m_idleUp[gi] & ~m_used[gi]).count();
            if (free < uint64_t(m_sol.groups[gi].count) * (m_n - t))
            {
                return false;
            }
        }
        // Candidates left that pass the cheap test: fewer than needed, no solution below.
        std::vector<std::size_t> usable;
        for (std::size_t c = start; c < m_cand.size(); ++c)
        {
            if (CouldServe(c))
            {
                usable.push_back(c);
            }
        }
        for (std::size_t x = 0; x + (m_n - t) <= usable.size(); ++x)
        {
            if (!Tick())
            {
                return false;
            }
            const std::size_t c = usable[x];
            const uint32_t spine = m_cand[c];
            if (!SpineFeasible(spine))
            {
                continue;
            }
            Capacity cap;
            cap.left.resize(m_ocs.GetOcsCount());
            for (uint32_t o = 0; o < cap.left.size(); ++o)
            {
                cap.left[o] = m_ocs.GetIdleSpinePorts(spine, o);
                cap.any.set(o, cap.left[o] > 0);
            }
            m_sol.spines.push_back(spine);
            m_sol.ocsOf.emplace_back(m_sol.groups.size());
            if (AssignDfs(c, spine, 0, cap))
            {
                return true;
            }
            m_sol.spines.pop_back();
            m_sol.ocsOf.pop_back();
            if (m_cut)
            {
                return false;
            }
        }
        return false;
    }

    /// Uplinks of group gi (and the groups after it) for spine `spine`.
    bool AssignDfs(std::size_t c, uint32_t spine, std::size_t gi, Capacity& cap)
    {
        if (gi == m_sol.groups.size())
        {
            return SpineDfs(c + 1);
        }
        // Cheap check: every group left has enough options.
        for (std::size_t h = gi; h < m_sol.groups.size(); ++h)
        {
            if (Options(h, cap).count() < m_sol.groups[h].count)
            {
                return false;
            }
        }
        ClusterOcsSet opts = Options(gi, cap);
        std::vector<std::tuple<int, uint32_t, uint32_t>> order; // (not reuse, demand, ocs)
        for (uint32_t o = 0; o < m_ocs.GetOcsCount(); ++o)
        {
            if (opts.test(o))
            {
                const bool reuse = m_reuseSpine[gi * m_ocs.GetOcsCount() + o] == spine;
                order.emplace_back(reuse ? 0 : 1, m_demand[o], o);
            }
        }
        std::sort(order.begin(), order.end());
        std::vector<uint32_t> chosen;
        return Combine(c, spine, gi, cap, order, 0, chosen);
    }

    /// Choose the group's `count` uplinks (a combination, in preference order).
    bool Combine(std::size_t c,
                 uint32_t spine,
                 std::size_t gi,
                 Capacity& cap,
                 const std::vector<std::tuple<int, uint32_t, uint32_t>>& order,
                 std::size_t from,
                 std::vector<uint32_t>& chosen)
    {
        const uint32_t need = m_sol.groups[gi].count;
        if (chosen.size() == need)
        {
            m_sol.ocsOf.back()[gi] = chosen;
            return AssignDfs(c, spine, gi + 1, cap);
        }
        for (std::size_t x = from; x + (need - chosen.size()) <= order.size(); ++x)
        {
            if (!Tick())
            {
                return false;
            }
            const uint32_t o = std::get<2>(order[x]);
            if (cap.left[o] == 0)
            {
                continue;
            }
            cap.any.set(o, --cap.left[o] > 0);
            m_used[gi].set(o);
            chosen.push_back(o);
            if (Combine(c, spine, gi, cap, order, x + 1, chosen))
            {
                return true;
            }
            chosen.pop_back();
            m_used[gi].reset(o);
            ++cap.left[o];
            cap.any.set(o);
            if (m_cut)
            {
                return false;
            }
        }
        return false;
    }

    const ClusterOcsState& m_ocs;         //!< circuits
    uint32_t m_m;                         //!< virtual leaves
    uint32_t m_n;                         //!< spines
    uint64_t m_budget;                    //!< node budget
    std::vector<uint32_t> m_leaves;       //!< leaves that can hold one, best fit first
    std::vector<uint32_t> m_cap;          //!< virtual leaves each can hold (<= m)
    std::vector<uint32_t> m_suffix;       //!< suffix sums of m_cap
    std::vector<ClusterOcsSet> m_used;    //!< per group: uplinks taken by this job
    std::vector<ClusterOcsSet> m_idleUp;  //!< per group: its leaf's idle uplinks
    std::vector<uint32_t> m_reuseSpine;   //!< per group * K + OCS: spine of its idle circuit
    std::vector<uint32_t> m_cand;         //!< candidate spines, best fit first
    std::vector<ClusterOcsSet> m_candAny; //!< per candidate: OCSs where it has idle ports
    std::vector<uint32_t> m_demand;       //!< per OCS: candidate spines with an idle port on it
    uint64_t m_nodes = 0;                 //!< nodes visited
    bool m_cut = false;                   //!< budget spent
    bool m_wasCut = false;                //!< the best-fit pass was cut
    bool m_emptiestFirst = false;         //!< spines with most idle ports first (second pass)
    Solution m_sol;                       //!< current / found solution
};

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
    const uint32_t odd = OddPart(gpus);
    const uint32_t nMax = std::min({state.GetGpusPerLeaf(), m_ocsCount, m_spines});
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
    ClusterOcsSearchStats local;
    ClusterOcsSearchStats& st = stats != nullptr ? *stats : local;
    st = ClusterOcsSearchStats();
    if (gpus > state.GetFreeGpus())
    {
        return std::nullopt;
    }
    ClusterOcsPlacement out;
    out.placement.jobId = jobId;
    const uint32_t perLeaf = state.GetGpusPerLeaf();

    // Stage 1: a single leaf, by vClos's own single-leaf rule (its multi-leaf search is cut
    // at once by the budget of one node and its answer ignored).
    if (gpus <= perLeaf)
    {
        auto single = VclosPolicy(1).Place(state, jobId, gpus);
        if (single && single->m == 1)
        {
            out.placement = *single;
            out.placement.searchNodes = 0;
            out.placement.provenBest = true;
            out.stage = ClusterOcsStage::SINGLE_LEAF;
            out.uplinkOcs.assign(gpus, -1);
            out.virtualLeaf.assign(gpus, 0);
            return out;
        }
    }

    // Stage 2: two leaves, N/2 leaf-leaf circuits.
    const uint32_t half = gpus / 2;
    if (gpus % 2 == 0 && half <= perLeaf && half <= m_ocsCount)
    {
        std::vector<uint32_t> leaves;
        for (uint32_t l : BestFitLeaves(state))
        {
            if (VirtualLeavesOf(state, ocs, l, half) >= 1)
            {
                leaves.push_back(l);
            }
        }
        int64_t bestA = -1;
        int64_t bestB = -1;
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
                const uint64_t cost =
                    uint64_t(state.GetFreeGpusOfLeaf(a)) + state.GetFreeGpusOfLeaf(b);
                if (cost > bestCost)
                {
                    break;
                }
                ClusterOcsSet common = ocs.GetIdleUplinks(a) & ocs.GetIdleUplinks(b);
                if (common.count() < half)
                {
                    continue;
                }
                uint32_t reuse = 0;
                for (uint32_t k = 0; k < m_ocsCount; ++k)
                {
                    if (common.test(k))
                    {
                        auto c = ocs.GetCircuitAtUplink(a, k);
                        reuse += c && c->toLeaf && c->peer == b ? 1 : 0;
                    }
                }
                if (cost < bestCost || reuse > bestReuse)
                {
                    bestCost = cost;
                    bestReuse = reuse;
                    bestA = std::min(a, b);
                    bestB = std::max(a, b);
                }
            }
        }
        if (bestA >= 0)
        {
            const auto a = static_cast<uint32_t>(bestA);
            const auto b = static_cast<uint32_t>(bestB);
            ClusterOcsSet common = ocs.GetIdleUplinks(a) & ocs.GetIdleUplinks(b);
            std::vector<uint32_t> ocsList; // reusable circuits first, then ascending
            for (int pass = 0; pass < 2; ++pass)
            {
                for (uint32_t k = 0; k < m_ocsCount && ocsList.size() < half; ++k)
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
                        out.reusedCircuits += reuse ? 1 : 0;
                    }
                }
            }
            std::sort(ocsList.begin(), ocsList.end());
            auto ga = PickGpusInLeaf(state, a, half);
            auto gb = PickGpusInLeaf(state, b, half);
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
    }

    // Stage 3: one spine, one circuit per GPU.
    if (gpus <= m_ocsCount * m_perOcs)
    {
        std::vector<uint32_t> leaves;
        for (uint32_t l : BestFitLeaves(state))
        {
            if (state.GetFreeGpusOfLeaf(l) > 0 && ocs.GetIdleUplinkCount(l) > 0)
            {
                leaves.push_back(l);
            }
        }
        // Max flow through spine `spine` from the first `prefix` leaves, capped at N.
        auto flow =
            [&](uint32_t spine, std::size_t prefix, std::vector<LeafSpinePick>* picks) -> long {
            const auto np = static_cast<uint32_t>(prefix);
            FlowNetwork net(np + m_ocsCount + 3);
            const uint32_t top = np + m_ocsCount;
            const uint32_t src = top + 1;
            const uint32_t sink = top + 2;
            net.AddEdge(top, src, gpus);
            for (uint32_t k = 0; k < m_ocsCount; ++k)
            {
                uint32_t c = ocs.GetIdleSpinePorts(spine, k);
                if (c > 0)
                {
                    net.AddEdge(np + k, sink, c);
                }
            }
            std::vector<std::tuple<uint32_t, uint32_t, std::size_t>> arcs; // (leaf, ocs, edge)
            for (uint32_t i = 0; i < np; ++i)
            {
                const uint32_t l = leaves[i];
                net.AddEdge(src,
                            i,
                            std::min(state.GetFreeGpusOfLeaf(l), ocs.GetIdleUplinkCount(l)));
                for (uint32_t k = 0; k < m_ocsCount; ++k)
                {
                    if (ocs.IsUplinkIdle(l, k) && ocs.GetIdleSpinePorts(spine, k) > 0)
                    {
                        arcs.emplace_back(l, k, net.AddEdge(i, np + k, 1));
                    }
                }
            }
            long f = net.Run(top, sink);
            if (picks != nullptr)
            {
                for (const auto& [l, k, e] : arcs)
                {
                    if (net.Flow(e) > 0)
                    {
                        picks->push_back({l, k, spine});
                    }
                }
            }
            return f;
        };
        for (uint32_t spine : BestFitSpines(ocs, gpus))
        {
            if (flow(spine, leaves.size(), nullptr) < static_cast<long>(gpus))
            {
                continue;
            }
            std::size_t lo = 1;
            std::size_t hi = leaves.size();
            while (lo < hi) // shortest best-fit prefix that reaches N
            {
                std::size_t mid = (lo + hi) / 2;
                if (flow(spine, mid, nullptr) >= static_cast<long>(gpus))
                {
                    hi = mid;
                }
                else
                {
                    lo = mid + 1;
                }
            }
            std::vector<LeafSpinePick> picks;
            flow(spine, lo, &picks);
            std::stable_sort(picks.begin(), picks.end(), [](const auto& x, const auto& y) {
                return x.leaf < y.leaf;
            });
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
                    out.virtualLeaf.push_back(static_cast<uint32_t>(x));
                }
                i = j;
            }
            out.placement.m = gpus;
            out.placement.n = 1;
            out.placement.spines = {spine};
            out.stage = ClusterOcsStage::ONE_SPINE;
            SortByGpu(out);
            // Virtual leaves numbered in GPU order.
            for (std::size_t x = 0; x < out.virtualLeaf.size(); ++x)
            {
                out.virtualLeaf[x] = static_cast<uint32_t>(x);
            }
            return out;
        }
    }

    // Stage 4: m x n virtual Clos over circuits, m doubling.
    for (uint32_t n : GetShapes(state, gpus))
    {
        const uint32_t m = gpus / n;
        OcsClosSearch search(state, ocs, m, n, m_maxSearchNodes);
        const bool found = search.Run();
        st.searchNodes += search.GetNodes();
        st.cut = st.cut || search.WasCut();
        if (!found)
        {
            continue;
        }
        const auto& sol = search.GetSolution();
        // Spines ascending; spineRank[t] = position of the t-th searched spine.
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
        out.placement.m = m;
        out.placement.n = n;
        out.placement.spines = spines;
        out.placement.searchNodes = st.searchNodes;
        out.placement.provenBest = !st.cut;
        out.stage = ClusterOcsStage::VIRTUAL_CLOS;
        SortByGpu(out);
        return out;
    }
    return std::nullopt;
}

} // namespace ns3

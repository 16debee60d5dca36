/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "cluster-ocs-clos-search.h"

#include "cluster-clos-search.h"
#include "cluster-flow-network.h"

#include <algorithm>
#include <numeric>

namespace ns3
{

std::vector<uint32_t>
ClusterOcsBestFitLeaves(const ClusterState& state)
{
    std::vector<uint32_t> leaves(state.GetLeaves());
    std::iota(leaves.begin(), leaves.end(), 0);
    std::stable_sort(leaves.begin(), leaves.end(), [&state](uint32_t a, uint32_t b) {
        return state.GetFreeGpusOfLeaf(a) < state.GetFreeGpusOfLeaf(b);
    });
    return leaves;
}

uint32_t
ClusterOcsVirtualLeavesOf(const ClusterState& state,
                          const ClusterOcsState& ocs,
                          uint32_t leaf,
                          uint32_t n)
{
    const uint32_t gpus = ClusterUsableGpusOfLeaf(state, leaf, n % state.GetGpusPerServer() == 0);
    return std::min(gpus, ocs.GetIdleUplinkCount(leaf)) / n;
}

std::vector<uint32_t>
ClusterOcsBestFitSpines(const ClusterOcsState& ocs, uint32_t ports)
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

ClusterOcsClosSearch::ClusterOcsClosSearch(const ClusterState& state,
                                           const ClusterOcsState& ocs,
                                           uint32_t m,
                                           uint32_t n,
                                           uint64_t budget)
    : m_ocs(ocs),
      m_m(m),
      m_n(n),
      m_budget(budget)
{
    for (uint32_t leaf : ClusterOcsBestFitLeaves(state))
    {
        uint32_t cap = ClusterOcsVirtualLeavesOf(state, ocs, leaf, n);
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

bool
ClusterOcsClosSearch::Run()
{
    // Leaf-independent necessary condition: n spines with m idle ports each.
    if (m_suffix[0] < m_m || ClusterOcsBestFitSpines(m_ocs, m_m).size() < m_n)
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

const ClusterOcsClosSearch::Solution&
ClusterOcsClosSearch::GetSolution() const
{
    return m_sol;
}

uint64_t
ClusterOcsClosSearch::GetNodes() const
{
    return m_nodes;
}

bool
ClusterOcsClosSearch::WasCut() const
{
    return m_cut || m_wasCut;
}

bool
ClusterOcsClosSearch::Tick()
{
    if (++m_nodes > m_budget)
    {
        m_cut = true;
    }
    return !m_cut;
}

bool
ClusterOcsClosSearch::LeafDfs(std::size_t i, uint32_t remaining)
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

ClusterOcsSet
ClusterOcsClosSearch::Options(std::size_t gi, const Capacity& cap) const
{
    return m_idleUp[gi] & ~m_used[gi] & cap.any;
}

bool
ClusterOcsClosSearch::SpineFeasible(uint32_t spine) const
{
    const uint32_t groups = static_cast<uint32_t>(m_sol.groups.size());
    const uint32_t k = m_ocs.GetOcsCount();
    ClusterFlowNetwork net(groups + k + 2);
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

bool
ClusterOcsClosSearch::NetworkSearch()
{
    IndexGroups();
    ChooseCandidates();
    if (m_cand.size() < m_n)
    {
        return false;
    }
    m_sol.spines.clear();
    m_sol.ocsOf.clear();
    return SpineDfs(0);
}

void
ClusterOcsClosSearch::IndexGroups()
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
}

void
ClusterOcsClosSearch::ChooseCandidates()
{
    const uint32_t k = m_ocs.GetOcsCount();
    m_cand.clear();
    m_candAny.clear();
    std::vector<uint32_t> order = ClusterOcsBestFitSpines(m_ocs, m_m);
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
    m_demand.assign(k, 0);
    for (uint32_t s : m_cand)
    {
        for (uint32_t o = 0; o < k; ++o)
        {
            m_demand[o] += m_ocs.GetIdleSpinePorts(s, o) > 0 ? 1 : 0;
        }
    }
}

bool
ClusterOcsClosSearch::CouldServe(std::size_t c) const
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

bool
ClusterOcsClosSearch::UplinksLeftFor(std::size_t spinesLeft) const
{
    for (std::size_t gi = 0; gi < m_sol.groups.size(); ++gi)
    {
        const auto free = (m_idleUp[gi] & ~m_used[gi]).count();
        if (free < uint64_t(m_sol.groups[gi].count) * spinesLeft)
        {
            return false;
        }
    }
    return true;
}

bool
ClusterOcsClosSearch::SpineDfs(std::size_t start)
{
    const std::size_t t = m_sol.spines.size();
    if (t == m_n)
    {
        return true;
    }
    if (!UplinksLeftFor(m_n - t))
    {
        return false;
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
        Capacity cap = CapacityOf(spine);
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

ClusterOcsClosSearch::Capacity
ClusterOcsClosSearch::CapacityOf(uint32_t spine) const
{
    Capacity cap;
    cap.left.resize(m_ocs.GetOcsCount());
    for (uint32_t o = 0; o < cap.left.size(); ++o)
    {
        cap.left[o] = m_ocs.GetIdleSpinePorts(spine, o);
        cap.any.set(o, cap.left[o] > 0);
    }
    return cap;
}

bool
ClusterOcsClosSearch::AssignDfs(std::size_t c, uint32_t spine, std::size_t gi, Capacity& cap)
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
    std::vector<Preference> order;
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

bool
ClusterOcsClosSearch::Combine(std::size_t c,
                              uint32_t spine,
                              std::size_t gi,
                              Capacity& cap,
                              const std::vector<Preference>& order,
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

} // namespace ns3

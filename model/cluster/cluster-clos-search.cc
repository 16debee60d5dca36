/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "cluster-clos-search.h"

#include <algorithm>
#include <bitset>
#include <tuple>

namespace ns3
{

namespace
{

/// Number of set bits of a 64-bit word.
uint32_t
PopCount(uint64_t x)
{
    return static_cast<uint32_t>(std::bitset<64>(x).count());
}

} // namespace

uint32_t
ClusterUsableGpusOfLeaf(const ClusterState& state, uint32_t leaf, bool wholeServers)
{
    if (!wholeServers)
    {
        return state.GetFreeGpusOfLeaf(leaf);
    }
    const uint32_t g = state.GetGpusPerServer();
    uint32_t usable = 0;
    for (uint32_t s = 0; s < state.GetServersPerLeaf(); ++s)
    {
        usable += state.GetFreeGpusOfServer(leaf, s) == g ? g : 0;
    }
    return usable;
}

ClusterClosSearch::ClusterClosSearch(const ClusterState& state,
                                     uint32_t m,
                                     uint32_t n,
                                     uint64_t budget,
                                     bool wholeServers)
    : m_m(m),
      m_n(n),
      m_budget(budget)
{
    for (uint32_t l = 0; l < state.GetLeaves(); ++l)
    {
        if (ClusterUsableGpusOfLeaf(state, l, wholeServers) >= n &&
            state.GetFreeLinks(l).count() >= n)
        {
            m_leaf.push_back(l);
        }
    }
    std::stable_sort(m_leaf.begin(), m_leaf.end(), [&state](uint32_t a, uint32_t b) {
        return state.GetFreeGpusOfLeaf(a) < state.GetFreeGpusOfLeaf(b);
    });
    IndexSpines(state);
}

void
ClusterClosSearch::IndexSpines(const ClusterState& state)
{
    m_words = (m_leaf.size() + 63) / 64;
    m_spineLeaves.assign(state.GetSpines(), std::vector<uint64_t>(m_words, 0));
    for (std::size_t r = 0; r < m_leaf.size(); ++r)
    {
        m_free.push_back(state.GetFreeGpusOfLeaf(m_leaf[r]));
        m_mask.push_back(state.GetFreeLinks(m_leaf[r]));
        for (uint32_t s = 0; s < state.GetSpines(); ++s)
        {
            if (m_mask.back().test(s))
            {
                m_spineLeaves[s][r / 64] |= uint64_t(1) << (r % 64);
            }
        }
    }
    m_below.resize(state.GetSpines());
    for (uint32_t s = 0; s < state.GetSpines(); ++s)
    {
        if (Count(m_spineLeaves[s]) >= m_m)
        {
            m_usable.push_back(s);
        }
        if (s > 0)
        {
            m_below[s] = m_below[s - 1];
            m_below[s].set(s - 1);
        }
    }
}

const ClusterClosSearch::Best&
ClusterClosSearch::Run()
{
    if (m_leaf.size() < m_m || m_usable.size() < m_n)
    {
        return m_best;
    }
    std::vector<uint64_t> all(m_words, ~uint64_t(0));
    if (m_leaf.size() % 64 != 0)
    {
        all.back() = (uint64_t(1) << (m_leaf.size() % 64)) - 1;
    }
    Visit(Closure(all), all, -1);
    return m_best;
}

uint64_t
ClusterClosSearch::GetNodes() const
{
    return m_nodes;
}

bool
ClusterClosSearch::WasCut() const
{
    return m_cut;
}

uint32_t
ClusterClosSearch::LeafOfRank(uint32_t r) const
{
    return m_leaf[r];
}

const ClusterSpineSet&
ClusterClosSearch::MaskOfRank(uint32_t r) const
{
    return m_mask[r];
}

uint32_t
ClusterClosSearch::Count(const std::vector<uint64_t>& bits) const
{
    uint32_t c = 0;
    for (uint64_t w : bits)
    {
        c += PopCount(w);
    }
    return c;
}

uint64_t
ClusterClosSearch::Cost(const std::vector<uint64_t>& bits, std::vector<uint32_t>* ranks) const
{
    uint64_t cost = 0;
    uint32_t taken = 0;
    for (std::size_t w = 0; w < bits.size() && taken < m_m; ++w)
    {
        uint64_t x = bits[w];
        while (x != 0 && taken < m_m)
        {
            auto r = static_cast<uint32_t>(w * 64 + __builtin_ctzll(x));
            x &= x - 1;
            cost += m_free[r];
            ++taken;
            if (ranks != nullptr)
            {
                ranks->push_back(r);
            }
        }
    }
    return cost;
}

ClusterSpineSet
ClusterClosSearch::Closure(const std::vector<uint64_t>& bits) const
{
    ClusterSpineSet closed;
    for (uint32_t s : m_usable)
    {
        const auto& has = m_spineLeaves[s];
        bool all = true;
        for (std::size_t w = 0; w < m_words && all; ++w)
        {
            all = (bits[w] & ~has[w]) == 0;
        }
        if (all)
        {
            closed.set(s);
        }
    }
    return closed;
}

void
ClusterClosSearch::Visit(const ClusterSpineSet& p,
                         const std::vector<uint64_t>& support,
                         int32_t core)
{
    if (m_cut)
    {
        return;
    }
    if (++m_nodes > m_budget)
    {
        m_cut = true;
        return;
    }
    uint64_t bound = Cost(support, nullptr);
    if (m_best.found && bound >= m_best.cost)
    {
        return;
    }
    if (p.count() >= m_n)
    {
        m_best.found = true;
        m_best.cost = bound;
        m_best.leafRanks.clear();
        Cost(support, &m_best.leafRanks);
        return;
    }
    if (!MayLeadToBetter(p, support, core))
    {
        return;
    }
    for (const auto& c : Children(p, support, core))
    {
        if (m_cut || (m_best.found && c.cost >= m_best.cost))
        {
            break;
        }
        Visit(c.closed, c.support, static_cast<int32_t>(c.spine));
    }
}

bool
ClusterClosSearch::MayLeadToBetter(const ClusterSpineSet& p,
                                   const std::vector<uint64_t>& support,
                                   int32_t core) const
{
    ClusterSpineSet cand;
    for (uint32_t s : m_usable)
    {
        if (static_cast<int32_t>(s) > core && !p.test(s))
        {
            uint32_t c = 0;
            for (std::size_t w = 0; w < m_words; ++w)
            {
                c += PopCount(support[w] & m_spineLeaves[s][w]);
            }
            if (c >= m_m)
            {
                cand.set(s);
            }
        }
    }
    if (p.count() + cand.count() < m_n)
    {
        return false;
    }
    const ClusterSpineSet reach = p | cand;
    uint32_t qualified = 0;
    uint64_t tighter = 0;
    for (std::size_t w = 0; w < m_words && qualified < m_m; ++w)
    {
        uint64_t x = support[w];
        while (x != 0 && qualified < m_m)
        {
            auto r = static_cast<uint32_t>(w * 64 + __builtin_ctzll(x));
            x &= x - 1;
            if ((m_mask[r] & reach).count() >= m_n)
            {
                ++qualified;
                tighter += m_free[r];
            }
        }
    }
    return qualified >= m_m && !(m_best.found && tighter >= m_best.cost);
}

std::vector<ClusterClosSearch::Child>
ClusterClosSearch::Children(const ClusterSpineSet& p,
                            const std::vector<uint64_t>& support,
                            int32_t core) const
{
    std::vector<Child> children;
    for (uint32_t s : m_usable)
    {
        if (static_cast<int32_t>(s) <= core || p.test(s))
        {
            continue;
        }
        std::vector<uint64_t> sub(m_words);
        for (std::size_t w = 0; w < m_words; ++w)
        {
            sub[w] = support[w] & m_spineLeaves[s][w];
        }
        if (Count(sub) < m_m)
        {
            continue;
        }
        ClusterSpineSet q = Closure(sub);
        if (((q ^ p) & m_below[s]).any()) // not prefix-preserving: found from another node
        {
            continue;
        }
        children.push_back({Cost(sub, nullptr), s, q, std::move(sub)});
    }
    std::sort(children.begin(), children.end(), [](const Child& a, const Child& b) {
        return std::tie(a.cost, a.spine) < std::tie(b.cost, b.spine);
    });
    return children;
}

} // namespace ns3

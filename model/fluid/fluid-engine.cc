/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fluid-engine.h"

#include "ns3/suite-check.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace ns3
{

namespace
{

constexpr double INF = std::numeric_limits<double>::infinity();

} // namespace

FluidEngine::FluidEngine(const std::vector<double>& linkCapacityBps, Sharing sharing)
    : m_sharing(sharing)
{
    SUITE_REQUIRE(!linkCapacityBps.empty(), std::invalid_argument, "FluidEngine: no links");
    SUITE_REQUIRE(linkCapacityBps.size() < std::numeric_limits<uint32_t>::max(),
                  std::invalid_argument,
                  "FluidEngine: too many links (" << linkCapacityBps.size() << ")");
    m_links.resize(linkCapacityBps.size());
    for (std::size_t i = 0; i < linkCapacityBps.size(); ++i)
    {
        const double c = linkCapacityBps[i];
        SUITE_REQUIRE(std::isfinite(c) && c > 0,
                      std::invalid_argument,
                      "FluidEngine: link " << i << " capacity must be > 0 and finite (got " << c
                                           << " bit/s)");
        m_links[i].capacity = c / 8.0;
    }
}

void
FluidEngine::Reset()
{
    SUITE_REQUIRE(m_finishing < 0,
                  std::logic_error,
                  "FluidEngine::Reset: not from inside a finish handler");
    for (const Flow& f : m_flows)
    {
        for (uint32_t i = 0; f.active && i < f.count; ++i)
        {
            m_links[f.links[i]].flows.clear();
        }
    }
    for (uint32_t l : m_dirtyLinks)
    {
        m_links[l].dirty = false;
    }
    m_dirtyLinks.clear();
    m_flows.clear();
    m_freeSlots.clear();
    m_completions.clear();
    m_timers = decltype(m_timers)();
    m_timerCallbacks.clear();
    m_freeTimerSlots.clear();
    m_timerSeq = 0;
    m_now = 0;
    m_active = 0;
    m_stats = Stats();
}

void
FluidEngine::SetFinishHandler(FinishHandler handler)
{
    m_onFinish = std::move(handler);
}

FluidEngine::FlowId
FluidEngine::StartFlow(const std::vector<uint32_t>& links, double bytes, uint64_t tag)
{
    SUITE_REQUIRE(links.size() <= MAX_PATH_LINKS,
                  std::invalid_argument,
                  "FluidEngine::StartFlow: path of " << links.size() << " links (at most "
                                                     << MAX_PATH_LINKS << ")");
    return StartFlow(links.data(), static_cast<uint32_t>(links.size()), bytes, tag);
}

FluidEngine::FlowId
FluidEngine::StartFlow(const uint32_t* links, uint32_t count, double bytes, uint64_t tag)
{
    SUITE_REQUIRE(count >= 1 && count <= MAX_PATH_LINKS,
                  std::invalid_argument,
                  "FluidEngine::StartFlow: path of " << count << " links (1 to " << MAX_PATH_LINKS
                                                     << ")");
    SUITE_REQUIRE(std::isfinite(bytes) && bytes > 0,
                  std::invalid_argument,
                  "FluidEngine::StartFlow: bytes must be > 0 and finite (got " << bytes << ")");
    for (uint32_t i = 0; i < count; ++i)
    {
        SUITE_REQUIRE(links[i] < m_links.size(),
                      std::invalid_argument,
                      "FluidEngine::StartFlow: no link " << links[i] << " (" << m_links.size()
                                                         << " links)");
        for (uint32_t j = 0; j < i; ++j)
        {
            SUITE_REQUIRE(links[j] != links[i],
                          std::invalid_argument,
                          "FluidEngine::StartFlow: link " << links[i] << " twice in one path");
        }
    }
    FlowId id;
    if (!m_freeSlots.empty())
    {
        id = m_freeSlots.back();
        m_freeSlots.pop_back();
    }
    else
    {
        SUITE_REQUIRE(m_flows.size() < std::numeric_limits<FlowId>::max(),
                      std::invalid_argument,
                      "FluidEngine::StartFlow: too many active flows");
        id = static_cast<FlowId>(m_flows.size());
        m_flows.emplace_back();
    }
    Flow& f = m_flows[id];
    f.count = count;
    f.active = true;
    f.inHeap = false;
    f.tag = tag;
    f.bytes = bytes;
    f.remaining = bytes;
    f.since = m_now;
    f.rate = 0;
    f.newRate = 0;
    f.start = m_now;
    f.maxSharing = 0;
    f.watchedLimited = false;
    for (uint32_t i = 0; i < count; ++i)
    {
        Link& link = m_links[links[i]];
        f.links[i] = links[i];
        f.posInLink[i] = static_cast<uint32_t>(link.flows.size());
        link.flows.push_back(id);
        MarkDirty(links[i]);
    }
    ++m_active;
    ++m_stats.flowsStarted;
    return id;
}

void
FluidEngine::Schedule(double delay, std::function<void()> callback)
{
    SUITE_REQUIRE(std::isfinite(delay) && delay >= 0,
                  std::invalid_argument,
                  "FluidEngine::Schedule: delay must be >= 0 and finite (got " << delay << " s)");
    uint32_t slot;
    if (!m_freeTimerSlots.empty())
    {
        slot = m_freeTimerSlots.back();
        m_freeTimerSlots.pop_back();
        m_timerCallbacks[slot] = std::move(callback);
    }
    else
    {
        slot = static_cast<uint32_t>(m_timerCallbacks.size());
        m_timerCallbacks.push_back(std::move(callback));
    }
    m_timers.push(Timer{m_now + delay, m_timerSeq++, slot});
}

void
FluidEngine::MarkDirty(uint32_t link)
{
    if (!m_links[link].dirty)
    {
        m_links[link].dirty = true;
        m_dirtyLinks.push_back(link);
    }
}

void
FluidEngine::PruneCompletions()
{
    auto stale = [this](const Completion& c) {
        const Flow& f = m_flows[c.flow];
        return !f.inHeap || f.version != c.version;
    };
    if (m_completions.size() > 2 * static_cast<std::size_t>(m_active) + 1024)
    {
        m_completions.erase(std::remove_if(m_completions.begin(), m_completions.end(), stale),
                            m_completions.end());
        std::make_heap(m_completions.begin(), m_completions.end(), Later());
    }
    while (!m_completions.empty() && stale(m_completions.front()))
    {
        std::pop_heap(m_completions.begin(), m_completions.end(), Later());
        m_completions.pop_back();
    }
}

double
FluidEngine::NextTime()
{
    PruneCompletions();
    double t = INF;
    if (!m_completions.empty())
    {
        t = m_completions.front().time;
    }
    if (!m_timers.empty())
    {
        t = std::min(t, m_timers.top().time);
    }
    return t;
}

bool
FluidEngine::Step()
{
    Recompute(); // flows started from outside since the last instant
    const double t = NextTime();
    if (t == INF)
    {
        return false;
    }
    m_now = t;
    ++m_stats.instants;
    while (true)
    {
        PruneCompletions();
        if (!m_completions.empty() && m_completions.front().time <= t)
        {
            const FlowId id = m_completions.front().flow;
            std::pop_heap(m_completions.begin(), m_completions.end(), Later());
            m_completions.pop_back();
            m_flows[id].inHeap = false;
            Finish(id);
        }
        else if (!m_timers.empty() && m_timers.top().time <= t)
        {
            const uint32_t slot = m_timers.top().slot;
            m_timers.pop();
            std::function<void()> callback = std::move(m_timerCallbacks[slot]);
            m_timerCallbacks[slot] = nullptr;
            m_freeTimerSlots.push_back(slot);
            ++m_stats.timersFired;
            callback();
        }
        else
        {
            break;
        }
    }
    Recompute();
    return true;
}

void
FluidEngine::UpdateRates()
{
    Recompute();
}

void
FluidEngine::Run()
{
    while (Step())
    {
    }
}

double
FluidEngine::GetNextTime()
{
    Recompute();
    return NextTime();
}

void
FluidEngine::AdvanceTo(double t)
{
    SUITE_REQUIRE(std::isfinite(t) && t >= m_now,
                  std::invalid_argument,
                  "FluidEngine::AdvanceTo: time " << t << " s is before now (" << m_now
                                                  << " s) or not finite");
    Recompute();
    while (NextTime() <= t)
    {
        Step();
    }
    m_now = t;
}

bool
FluidEngine::IsWatchedLimited(FlowId id) const
{
    CheckKnown(id, "IsWatchedLimited");
    return m_flows[id].watchedLimited;
}

void
FluidEngine::SetWatchedLinks(const std::vector<bool>& watched)
{
    SUITE_REQUIRE(watched.size() == m_links.size(),
                  std::invalid_argument,
                  "FluidEngine::SetWatchedLinks: " << watched.size() << " flags for "
                                                   << m_links.size() << " links");
    for (std::size_t i = 0; i < watched.size(); ++i)
    {
        m_links[i].watched = watched[i];
    }
}

void
FluidEngine::Finish(FlowId id)
{
    Flow& f = m_flows[id];
    for (uint32_t i = 0; i < f.count; ++i)
    {
        Link& link = m_links[f.links[i]];
        const uint32_t pos = f.posInLink[i];
        const FlowId moved = link.flows.back();
        link.flows[pos] = moved;
        link.flows.pop_back();
        if (moved != id)
        {
            Flow& m = m_flows[moved];
            for (uint32_t j = 0; j < m.count; ++j)
            {
                if (m.links[j] == f.links[i])
                {
                    m.posInLink[j] = pos;
                    break;
                }
            }
        }
        MarkDirty(f.links[i]);
    }
    f.active = false;
    f.remaining = 0;
    f.since = m_now;
    f.rate = 0;
    --m_active;
    ++m_stats.flowsFinished;
    m_stats.bytesFinished += f.bytes;
    if (m_onFinish)
    {
        m_finishing = id;
        m_onFinish(id, f.tag);
        m_finishing = -1;
    }
    m_freeSlots.push_back(id);
}

void
FluidEngine::Recompute()
{
    if (m_dirtyLinks.empty())
    {
        return;
    }
    ++m_epoch;
    m_compFlows.clear();
    if (m_sharing == Sharing::MAX_MIN)
    {
        RecomputeMaxMin();
    }
    else
    {
        RecomputeEqualShare();
    }
    for (FlowId id : m_compFlows)
    {
        ApplyRate(id);
    }
    for (uint32_t l : m_dirtyLinks)
    {
        m_links[l].dirty = false;
    }
    m_dirtyLinks.clear();
    ++m_stats.recomputations;
    m_stats.flowsRerated += m_compFlows.size();
}

void
FluidEngine::RecomputeEqualShare()
{
    for (uint32_t l : m_dirtyLinks)
    {
        for (FlowId id : m_links[l].flows)
        {
            Flow& f = m_flows[id];
            if (f.mark == m_epoch)
            {
                continue;
            }
            f.mark = m_epoch;
            bool limited = false;
            FluidEqualShare(
                f.count,
                [&](uint32_t i) {
                    const Link& link = m_links[f.links[i]];
                    return std::make_tuple(link.capacity,
                                           static_cast<uint32_t>(link.flows.size()),
                                           link.watched);
                },
                f.newRate,
                limited);
            f.watchedLimited = f.watchedLimited || limited;
            NoteSharing(f);
            m_compFlows.push_back(id);
        }
    }
}

void
FluidEngine::RecomputeMaxMin()
{
    // Each connected component holding a dirty link (links joined by a flow crossing both)
    // is refilled on its own: components do not interact, and small heaps are cheap.
    for (uint32_t seed : m_dirtyLinks)
    {
        if (m_links[seed].mark == m_epoch)
        {
            continue;
        }
        m_links[seed].mark = m_epoch;
        m_compLinks.clear();
        m_compLinks.push_back(seed);
        const std::size_t firstFlow = m_compFlows.size();
        for (std::size_t next = 0; next < m_compLinks.size(); ++next)
        {
            for (FlowId id : m_links[m_compLinks[next]].flows)
            {
                Flow& f = m_flows[id];
                if (f.mark == m_epoch)
                {
                    continue;
                }
                f.mark = m_epoch;
                f.newRate = -1; // unfrozen
                NoteSharing(f);
                m_compFlows.push_back(id);
                for (uint32_t i = 0; i < f.count; ++i)
                {
                    Link& other = m_links[f.links[i]];
                    if (other.mark != m_epoch)
                    {
                        other.mark = m_epoch;
                        m_compLinks.push_back(f.links[i]);
                    }
                }
            }
        }
        FillComponent(m_compFlows.size() - firstFlow);
    }
}

void
FluidEngine::FillComponent(std::size_t flowCount)
{
    // One flow alone on all its links (a contention-free path): its slowest link.
    if (flowCount == 0)
    {
        return;
    }
    if (flowCount == 1)
    {
        Flow& f = m_flows[m_compFlows.back()];
        double rate = INF;
        for (uint32_t i = 0; i < f.count; ++i)
        {
            rate = std::min(rate, m_links[f.links[i]].capacity);
        }
        f.newRate = rate;
        return;
    }

    // Progressive filling: raise every unfrozen flow's rate together; the link whose share
    // (residual / unfrozen flows) is smallest saturates first and freezes its flows there.
    // Freezing a flow at level s never lowers the share of another link of its path
    // ((r - s) / (n - 1) >= r / n when s <= r / n), so keys only grow: a popped entry whose
    // link's share has grown since is pushed back with the new share (lazy update) instead
    // of pushing every link at every freeze.
    std::vector<FillEntry>& heap = m_fillHeap;
    heap.clear();
    for (uint32_t l : m_compLinks)
    {
        Link& link = m_links[l];
        link.residual = link.capacity;
        link.unfrozen = static_cast<uint32_t>(link.flows.size());
        if (link.unfrozen > 0)
        {
            heap.push_back(FillEntry{link.residual / link.unfrozen, l});
        }
    }
    std::make_heap(heap.begin(), heap.end(), FillLater());
    double level = 0;
    while (!heap.empty())
    {
        std::pop_heap(heap.begin(), heap.end(), FillLater());
        const FillEntry e = heap.back();
        heap.pop_back();
        Link& bottleneck = m_links[e.link];
        if (bottleneck.unfrozen == 0)
        {
            continue;
        }
        const double share = bottleneck.residual / bottleneck.unfrozen;
        if (share > e.share)
        {
            heap.push_back(FillEntry{share, e.link});
            std::push_heap(heap.begin(), heap.end(), FillLater());
            continue;
        }
        // The filling level never decreases; max() keeps rounding from breaking that.
        level = std::max(level, share);
        for (FlowId id : bottleneck.flows)
        {
            Flow& f = m_flows[id];
            if (f.newRate >= 0)
            {
                continue;
            }
            f.newRate = level;
            f.watchedLimited =
                f.watchedLimited || (bottleneck.watched && bottleneck.flows.size() > 1);
            for (uint32_t i = 0; i < f.count; ++i)
            {
                Link& link = m_links[f.links[i]];
                link.residual = std::max(0.0, link.residual - level);
                --link.unfrozen;
            }
        }
    }
}

void
FluidEngine::ApplyRate(FlowId id)
{
    Flow& f = m_flows[id];
    if (f.inHeap && f.newRate == f.rate)
    {
        return;
    }
    // Every flow of a refilled component gets a positive rate (capacities are > 0 and the
    // filling level never decreases); anything else is a bug, not an input error.
    SUITE_REQUIRE(f.newRate > 0,
                  std::logic_error,
                  "FluidEngine: internal error, flow " << id << " got rate " << f.newRate);
    f.remaining = std::max(0.0, f.remaining - f.rate * (m_now - f.since));
    f.since = m_now;
    f.rate = f.newRate;
    f.finish = m_now + f.remaining / f.rate;
    m_completions.push_back(Completion{f.finish, id, ++f.version}); // older entries: stale
    std::push_heap(m_completions.begin(), m_completions.end(), Later());
    f.inHeap = true;
    ++m_stats.heapUpdates;
}

void
FluidEngine::NoteSharing(Flow& f)
{
    for (uint32_t i = 0; i < f.count; ++i)
    {
        const Link& link = m_links[f.links[i]];
        if (link.watched)
        {
            f.maxSharing = std::max(f.maxSharing, static_cast<uint32_t>(link.flows.size()));
        }
    }
}

void
FluidEngine::CheckKnown(FlowId id, const char* what) const
{
    SUITE_REQUIRE(id < m_flows.size() && (m_flows[id].active || m_finishing == int64_t{id}),
                  std::invalid_argument,
                  "FluidEngine::" << what << ": flow " << id << " is neither active nor finishing");
}

double
FluidEngine::GetStartTime(FlowId id) const
{
    CheckKnown(id, "GetStartTime");
    return m_flows[id].start;
}

uint32_t
FluidEngine::GetMaxSharing(FlowId id) const
{
    CheckKnown(id, "GetMaxSharing");
    return m_flows[id].maxSharing;
}

void
FluidEngine::CheckActive(FlowId id, const char* what) const
{
    SUITE_REQUIRE(id < m_flows.size() && m_flows[id].active,
                  std::invalid_argument,
                  "FluidEngine::" << what << ": flow " << id << " is not active");
}

double
FluidEngine::GetNow() const
{
    return m_now;
}

uint32_t
FluidEngine::GetActiveFlowCount() const
{
    return m_active;
}

bool
FluidEngine::IsActive(FlowId id) const
{
    return id < m_flows.size() && m_flows[id].active;
}

double
FluidEngine::GetRate(FlowId id) const
{
    CheckActive(id, "GetRate");
    return m_flows[id].rate * 8.0;
}

double
FluidEngine::GetRemainingBytes(FlowId id) const
{
    CheckActive(id, "GetRemainingBytes");
    const Flow& f = m_flows[id];
    return std::max(0.0, f.remaining - f.rate * (m_now - f.since));
}

double
FluidEngine::GetFinishTime(FlowId id) const
{
    CheckActive(id, "GetFinishTime");
    return m_flows[id].inHeap ? m_flows[id].finish : INF;
}

uint32_t
FluidEngine::GetLinkFlowCount(uint32_t link) const
{
    SUITE_REQUIRE(link < m_links.size(),
                  std::invalid_argument,
                  "FluidEngine::GetLinkFlowCount: no link " << link);
    return static_cast<uint32_t>(m_links[link].flows.size());
}

uint32_t
FluidEngine::GetLinkCount() const
{
    return static_cast<uint32_t>(m_links.size());
}

const FluidEngine::Stats&
FluidEngine::GetStats() const
{
    return m_stats;
}

} // namespace ns3

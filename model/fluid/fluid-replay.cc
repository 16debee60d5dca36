/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fluid-replay.h"

#include "fluid-burst.h"

#include "ns3/suite-check.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>

namespace ns3
{

FluidReplay::FluidReplay(std::vector<double> capacityBps,
                         std::vector<bool> coreLinks,
                         FluidEngine::Sharing sharing)
    : m_capacities(std::move(capacityBps)),
      m_coreLinks(std::move(coreLinks)),
      m_sharing(sharing),
      m_linkMark(m_capacities.size(), 0),
      m_linkName(m_capacities.size(), 0),
      m_linkShare(m_capacities.size(), 0),
      m_epoch(0),
      m_burstReplays(0)
{
    SUITE_REQUIRE(m_coreLinks.size() == m_capacities.size(),
                  std::invalid_argument,
                  "FluidReplay: " << m_capacities.size() << " capacities, " << m_coreLinks.size()
                                  << " core flags");
}

uint64_t
FluidReplay::GetBurstReplays() const
{
    return m_burstReplays.load();
}

void
FluidReplay::CountConnections(const std::vector<ClusterPath>& paths)
{
    ++m_epoch;
    m_links.clear();
    for (const ClusterPath& path : paths)
    {
        for (uint32_t l : path)
        {
            if (m_linkMark[l] == m_epoch)
            {
                ++m_linkName[l];
            }
            else
            {
                m_linkMark[l] = m_epoch;
                m_linkName[l] = 1;
                m_links.push_back(l);
            }
        }
    }
}

bool
FluidReplay::CoreNeverBinds(const FluidCollectivePlan& plan,
                            const std::vector<ClusterPath>& paths,
                            Counts& counts)
{
    const auto& transfers = plan.GetTransfers();
    const auto& firsts = plan.GetConnectionTransfers();
    CountConnections(paths);
    // (a) Every leaf-spine link carries one of its connections and is no slower than the NIC
    //     the connection leaves by: a connection sends one step at a time, so such a link
    //     holds at most one flow, which its NIC already limits as much.
    // (b) Every transfer starts at once, one per connection, with the same bytes; every flow
    //     through a NIC gets the same share r of its NIC links, and every leaf-spine link's
    //     share is above r: all of them run at r and end together, so counts never change
    //     while they run (intra-server flows use links of their own).
    bool single = true;
    bool together =
        plan.GetInitial().size() == transfers.size() && firsts.size() == transfers.size();
    double rate = -1;                                           // r
    double bytes = -1;                                          // their share of the message
    double coreShare = std::numeric_limits<double>::infinity(); // least leaf-spine share
    counts = Counts();
    counts.flows = transfers.size();
    // Each link's share of its capacity, once per link rather than per connection.
    for (uint32_t l : m_links)
    {
        m_linkShare[l] = m_capacities[l] / m_linkName[l];
    }
    for (uint32_t c = 0; c < firsts.size(); ++c)
    {
        const uint32_t t = firsts[c];
        const ClusterPath& path = paths[c];
        uint32_t most = 0;
        double nicShare = std::numeric_limits<double>::infinity();
        for (uint32_t l : path)
        {
            const double share = m_linkShare[l];
            if (m_coreLinks[l])
            {
                most = std::max(most, m_linkName[l]);
                coreShare = std::min(coreShare, share);
                single =
                    single && m_linkName[l] == 1 && m_capacities[l] >= m_capacities[path.links[0]];
            }
            else
            {
                nicShare = std::min(nicShare, share);
            }
        }
        if (path.kind == ClusterPathKind::SAME_LEAF || path.kind == ClusterPathKind::VIA_CORE)
        {
            together = together && (rate < 0 || (nicShare == rate && transfers[t].share == bytes));
            rate = nicShare;
            bytes = transfers[t].share;
        }
        if (most > 0)
        {
            const uint64_t steps = plan.GetConnectionTotals()[c].steps;
            counts.coreFlows += steps;
            counts.sharingCoreFlows += most >= 2 ? steps : 0;
        }
    }
    return single || (together && coreShare > rate);
}

FluidReplay::Counts
FluidReplay::Alone(const FluidCollectivePlan& plan, const std::vector<ClusterPath>& paths)
{
    SUITE_REQUIRE(paths.size() == plan.GetConnectionTransfers().size(),
                  std::invalid_argument,
                  "FluidReplay: " << paths.size() << " paths for "
                                  << plan.GetConnectionTransfers().size() << " connections");
    Counts alone;
    if (CoreNeverBinds(plan, paths, alone))
    {
        alone.reference = true;
        return alone;
    }
    // Key: the plan, and every connection's path with links renamed in order of first use
    // and their capacities: jobs alike in these run alike, whatever GPUs and spines. A
    // link's capacity enters once, where it is first named (names are given in order of
    // first use, so this is the same information as at every use). The sequence is kept as
    // two independent 64-bit fingerprints.
    uint64_t fnv = 0xcbf29ce484222325ULL;
    uint64_t mix = 0x9E3779B97F4A7C15ULL;
    auto add = [&](uint64_t v) {
        fnv = (fnv ^ v) * 0x100000001b3ULL;
        mix += v + 0x9E3779B97F4A7C15ULL;
        mix = (mix ^ (mix >> 30)) * 0xbf58476d1ce4e5b9ULL;
        mix = (mix ^ (mix >> 27)) * 0x94d049bb133111ebULL;
        mix ^= mix >> 31;
    };
    ++m_epoch;
    uint32_t names = 0;
    for (const ClusterPath& path : paths)
    {
        add(UINT64_MAX); // separator
        for (uint32_t l : path)
        {
            if (m_linkMark[l] != m_epoch)
            {
                m_linkMark[l] = m_epoch;
                m_linkName[l] = names++;
                uint64_t bits;
                std::memcpy(&bits, &m_capacities[l], sizeof bits);
                add(bits);
            }
            add(m_linkName[l]);
        }
    }
    const std::vector<uint64_t> key{fnv,
                                    mix,
                                    reinterpret_cast<uintptr_t>(&plan),
                                    plan.GetTransfers().size()};
    auto it = m_cache.find(key);
    if (it == m_cache.end())
    {
        constexpr double PROBE_BYTES = 1e9;
        alone = Counts();
        std::vector<std::pair<uint32_t, double>> active;
        std::unique_ptr<FluidCollectiveRun> run;
        const double seconds = Run(plan,
                                   paths,
                                   PROBE_BYTES,
                                   std::numeric_limits<double>::infinity(),
                                   alone,
                                   active,
                                   run);
        SUITE_REQUIRE(seconds >= 0,
                      std::logic_error,
                      "flow replay: a collective of " << plan.GetRanks()
                                                      << " ranks did not end alone");
        alone.secondsPerByte = seconds / PROBE_BYTES;
        it = m_cache.emplace(key, alone).first;
    }
    return it->second;
}

bool
FluidReplay::RunBurst(const FluidCollectivePlan& plan,
                      const std::vector<ClusterPath>& paths,
                      double bytes,
                      double until,
                      Counts& counts,
                      std::vector<std::pair<uint32_t, double>>& active,
                      std::unique_ptr<FluidCollectiveRun>& run,
                      double& end)
{
    // A collective whose transfers all start at once (an all-to-all) under equal share: few
    // instants, many flows, so FluidBurst rather than the engine (the same results).
    const auto& transfers = plan.GetTransfers();
    if (m_sharing != FluidEngine::Sharing::EQUAL_SHARE ||
        plan.GetInitial().size() != transfers.size())
    {
        return false;
    }
    std::vector<uint32_t> order; // transfers in launch order
    auto burst = std::make_unique<FluidCollectiveRun>(plan, [&order](uint32_t transfer) {
        order.push_back(transfer);
    });
    burst->Begin();
    std::vector<ClusterPath> flowPaths;
    std::vector<double> sizes;
    flowPaths.reserve(order.size());
    sizes.reserve(order.size());
    for (uint32_t t : order)
    {
        flowPaths.push_back(paths[transfers[t].connectionId]);
        sizes.push_back(std::max(1.0, std::round(transfers[t].share * bytes)));
    }
    constexpr uint32_t MAX_INSTANTS = 64; // beyond, the engine's per-instant work is less
    const FluidBurst::Result r =
        FluidBurst::Run(m_capacities, m_coreLinks, flowPaths, sizes, until, MAX_INSTANTS);
    if (!r.complete)
    {
        return false;
    }
    ++m_burstReplays;
    active.clear();
    bool over = false;
    for (std::size_t i = 0; i < order.size(); ++i)
    {
        if (r.finish[i] > until)
        {
            active.emplace_back(order[i], r.remaining[i]);
            continue;
        }
        ++counts.flows;
        bool core = false;
        for (uint32_t l : flowPaths[i])
        {
            core = core || m_coreLinks[l];
        }
        if (core)
        {
            ++counts.coreFlows;
            counts.sharingCoreFlows += r.maxSharing[i] >= 2 ? 1 : 0;
            counts.conflictingCoreFlows += r.watchedLimited[i] ? 1 : 0;
        }
        over = burst->Arrived(order[i]) || over;
    }
    if (over)
    {
        end = r.end;
        return true;
    }
    run = std::move(burst);
    end = -1;
    return true;
}

namespace
{
constexpr uint32_t NONE = FluidCollectivePlan::NONE; //!< no transfer

/// \param t a transfer \param bytes message bytes \return its bytes (at least 1)
inline double
SizeOf(const FluidCollectivePlan::Transfer& t, double bytes)
{
    return std::max(1.0, std::round(t.share * bytes));
}
} // namespace

/// A job's connections in a replay: which run their transfers as timers, and the one each
/// such has in flight.
struct FluidReplay::Timers
{
    std::vector<double> fixedRate;    //!< bytes/s; 0: through the engine
    std::vector<uint8_t> crossesCore; //!< it uses a leaf-spine link
    std::vector<uint32_t> inFlight;   //!< fixed-rate transfer in flight, or NONE
    std::vector<double> sentAt;       //!< when that one was sent, s
};

FluidEngine&
FluidReplay::ScratchEngine()
{
    if (!m_scratch)
    {
        m_scratch = std::make_unique<FluidEngine>(m_capacities, m_sharing);
        m_scratch->SetWatchedLinks(m_coreLinks);
    }
    m_scratch->Reset();
    return *m_scratch;
}

FluidReplay::Timers
FluidReplay::TimersOf(const std::vector<ClusterPath>& paths, std::size_t connections)
{
    // A connection whose links no other connection of the job uses (the job is alone) carries
    // one flow at a time at its path's slowest capacity, under either sharing model: its
    // transfers run as timers of that length instead of through the rate computation.
    CountConnections(paths);
    Timers timers{std::vector<double>(connections, 0),
                  std::vector<uint8_t>(connections, 0),
                  std::vector<uint32_t>(connections, NONE),
                  std::vector<double>(connections, 0)};
    for (std::size_t c = 0; c < connections; ++c)
    {
        bool alone = true;
        double rate = std::numeric_limits<double>::infinity();
        for (uint32_t l : paths[c])
        {
            alone = alone && m_linkName[l] == 1;
            rate = std::min(rate, m_capacities[l] / 8.0);
            timers.crossesCore[c] = timers.crossesCore[c] || m_coreLinks[l];
        }
        timers.fixedRate[c] = alone ? rate : 0;
    }
    return timers;
}

void
FluidReplay::CollectActive(const FluidEngine& engine,
                           const std::vector<uint32_t>& live,
                           const Timers& timers,
                           const FluidCollectivePlan& plan,
                           double bytes,
                           double until,
                           std::vector<std::pair<uint32_t, double>>& active)
{
    const auto& transfers = plan.GetTransfers();
    active.clear();
    for (FluidEngine::FlowId id = 0; id < live.size(); ++id)
    {
        if (live[id] != NONE)
        {
            active.emplace_back(live[id], engine.GetRemainingBytes(id));
        }
    }
    for (std::size_t c = 0; c < timers.inFlight.size(); ++c)
    {
        const uint32_t t = timers.inFlight[c];
        if (t != NONE)
        {
            const double left =
                SizeOf(transfers[t], bytes) - timers.fixedRate[c] * (until - timers.sentAt[c]);
            active.emplace_back(t, std::max(0.0, left));
        }
    }
}

double
FluidReplay::Run(const FluidCollectivePlan& plan,
                 const std::vector<ClusterPath>& paths,
                 double bytes,
                 double until,
                 Counts& counts,
                 std::vector<std::pair<uint32_t, double>>& active,
                 std::unique_ptr<FluidCollectiveRun>& run)
{
    double end = -1;
    if (RunBurst(plan, paths, bytes, until, counts, active, run, end))
    {
        return end;
    }
    FluidEngine& engine = ScratchEngine();
    const auto& transfers = plan.GetTransfers();
    Timers timers = TimersOf(paths, plan.GetConnectionTransfers().size());
    std::vector<uint32_t> live; // transfer by engine flow id
    bool over = false;
    std::unique_ptr<FluidCollectiveRun> replay;
    auto arrived = [&](uint32_t transfer, bool sharing, bool conflicting) {
        const uint32_t c = transfers[transfer].connectionId;
        if (timers.inFlight[c] == transfer)
        {
            timers.inFlight[c] = NONE;
        }
        ++counts.flows;
        if (timers.crossesCore[c])
        {
            ++counts.coreFlows;
            counts.sharingCoreFlows += sharing ? 1 : 0;
            counts.conflictingCoreFlows += conflicting ? 1 : 0;
        }
        over = replay->Arrived(transfer) || over;
    };
    replay = std::make_unique<FluidCollectiveRun>(plan, [&](uint32_t transfer) {
        const uint32_t c = transfers[transfer].connectionId;
        if (timers.fixedRate[c] > 0)
        {
            timers.inFlight[c] = transfer;
            timers.sentAt[c] = engine.GetNow();
            engine.Schedule(SizeOf(transfers[transfer], bytes) / timers.fixedRate[c],
                            [&arrived, transfer]() { arrived(transfer, false, false); });
            return;
        }
        const ClusterPath& path = paths[c];
        const FluidEngine::FlowId id = engine.StartFlow(path.links.data(),
                                                        path.size,
                                                        SizeOf(transfers[transfer], bytes),
                                                        transfer);
        if (id >= live.size())
        {
            live.resize(id + 1, NONE);
        }
        live[id] = transfer;
    });
    engine.SetFinishHandler([&](FluidEngine::FlowId id, uint64_t transfer) {
        live[id] = NONE;
        arrived(static_cast<uint32_t>(transfer),
                engine.GetMaxSharing(id) >= 2,
                engine.IsWatchedLimited(id));
    });
    replay->Begin();
    while (!over && engine.GetNextTime() <= until)
    {
        engine.Step();
    }
    if (over)
    {
        return engine.GetNow();
    }
    engine.AdvanceTo(until);
    CollectActive(engine, live, timers, plan, bytes, until, active);
    run = std::move(replay);
    return -1;
}

} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fluid-burst.h"

#include "fluid-engine.h"

#include "ns3/suite-check.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <tuple>

namespace ns3
{

namespace
{
constexpr double INF = std::numeric_limits<double>::infinity(); //!< no limit

/**
 * \brief Check the inputs (std::invalid_argument) and count the flows on each link.
 * \param capacityBps every link's capacity \param watched every link's watched flag
 * \param paths each flow's links \param bytes each flow's bytes
 * \return per link, the flows that use it
 */
std::vector<uint32_t>
CountFlowsOnLinks(const std::vector<double>& capacityBps,
                  const std::vector<bool>& watched,
                  const std::vector<ClusterPath>& paths,
                  const std::vector<double>& bytes)
{
    SUITE_REQUIRE(paths.size() == bytes.size() && watched.size() == capacityBps.size(),
                  std::invalid_argument,
                  "FluidBurst: " << paths.size() << " paths, " << bytes.size() << " sizes, "
                                 << capacityBps.size() << " capacities, " << watched.size()
                                 << " watched flags");
    const std::size_t n = paths.size();
    std::vector<uint32_t> flowsOn(capacityBps.size(), 0);
    for (std::size_t f = 0; f < n; ++f)
    {
        SUITE_REQUIRE(paths[f].size >= 1 && std::isfinite(bytes[f]) && bytes[f] > 0,
                      std::invalid_argument,
                      "FluidBurst: flow " << f << " has no link or bytes " << bytes[f]);
        for (uint32_t l : paths[f])
        {
            SUITE_REQUIRE(l < capacityBps.size(),
                          std::invalid_argument,
                          "FluidBurst: flow " << f << " uses link " << l << " of "
                                              << capacityBps.size());
            ++flowsOn[l];
        }
    }
    return flowsOn;
}

/// Per link, what FluidEqualShare takes from it, kept up to date as flows leave: its share
/// (capacity / flows, the same double as FluidEqualShare computes), that share where it
/// counts as unwatched (else +inf), and its count where watched (else 0).
struct LinkShares
{
    const std::vector<double>& capacityBps; //!< every link's capacity, bit/s
    const std::vector<bool>& watched;       //!< every link's watched flag
    std::vector<uint32_t> flowsOn;          //!< flows on each link
    std::vector<double> share;              //!< capacity / flows (+inf: none)
    std::vector<double> unwatchedShare;     //!< share where unwatched or alone, else +inf
    std::vector<uint32_t> watchedFlows;     //!< flows where watched, else 0

    /// \param l a link whose flow count changed: recompute its entries
    void Settle(uint32_t l)
    {
        const uint32_t flows = flowsOn[l];
        share[l] = flows == 0 ? INF : (capacityBps[l] / 8.0) / static_cast<double>(flows);
        const bool w = watched[l];
        unwatchedShare[l] = (!w || flows < 2) ? share[l] : INF;
        watchedFlows[l] = w ? flows : 0;
    }
};

/// As FluidEngine: per flow, remaining bytes settled at `since`, at `rate`, ending at `ends`.
struct FlowClock
{
    std::vector<double> since; //!< when its remaining bytes were settled, s
    std::vector<double> rate;  //!< its rate since then, bytes/s
    std::vector<double> ends;  //!< when it ends at that rate, s
};

/**
 * \brief Give every running flow its equal-share rate at `now`, settling the bytes of those
 *        whose rate changes, and note its sharing flags.
 * \param running the flows still running \param paths each flow's links
 * \param links the links' shares \param now the instant
 * \param clock the flows' clocks \param r the result (remaining and flags)
 * \return the earliest end of a running flow
 */
double
UpdateRates(const std::vector<uint32_t>& running,
            const std::vector<ClusterPath>& paths,
            const LinkShares& links,
            double now,
            FlowClock& clock,
            FluidBurst::Result& r)
{
    double next = INF;
    for (uint32_t f : running)
    {
        const ClusterPath& path = paths[f];
        double newRate = INF;
        double unwatched = INF;
        uint32_t most = 0;
        for (uint32_t l : path)
        {
            newRate = std::min(newRate, links.share[l]);
            unwatched = std::min(unwatched, links.unwatchedShare[l]);
            most = std::max(most, links.watchedFlows[l]);
        }
        r.watchedLimited[f] = r.watchedLimited[f] || newRate < unwatched;
        r.maxSharing[f] = std::max(r.maxSharing[f], most);
        if (newRate != clock.rate[f])
        {
            r.remaining[f] = std::max(0.0, r.remaining[f] - clock.rate[f] * (now - clock.since[f]));
            clock.since[f] = now;
            clock.rate[f] = newRate;
            clock.ends[f] = now + r.remaining[f] / newRate;
        }
        next = std::min(next, clock.ends[f]);
    }
    return next;
}

/**
 * \brief Finish the flows that end by `now`, take them off their links and out of `running`.
 * \param running the flows still running (kept in order)
 * \param paths each flow's links \param now the instant
 * \param clock the flows' clocks \param links the links' shares
 * \param r the result (finish times and remaining bytes)
 */
void
FinishFlows(std::vector<uint32_t>& running,
            const std::vector<ClusterPath>& paths,
            double now,
            const FlowClock& clock,
            LinkShares& links,
            FluidBurst::Result& r)
{
    std::size_t kept = 0;
    for (uint32_t f : running)
    {
        if (clock.ends[f] <= now)
        {
            r.finish[f] = now;
            r.remaining[f] = 0;
            for (uint32_t l : paths[f])
            {
                --links.flowsOn[l];
                links.Settle(l);
            }
        }
        else
        {
            running[kept++] = f;
        }
    }
    running.resize(kept);
}
} // namespace

FluidBurst::Result
FluidBurst::Run(const std::vector<double>& capacityBps,
                const std::vector<bool>& watched,
                const std::vector<ClusterPath>& paths,
                const std::vector<double>& bytes,
                double until,
                uint32_t maxInstants)
{
    const std::size_t links = capacityBps.size();
    LinkShares shares{capacityBps,
                      watched,
                      CountFlowsOnLinks(capacityBps, watched, paths, bytes),
                      std::vector<double>(links, INF),
                      std::vector<double>(links, INF),
                      std::vector<uint32_t>(links, 0)};
    const std::size_t n = paths.size();
    Result r;
    r.finish.assign(n, INF);
    r.remaining = bytes;
    r.maxSharing.assign(n, 0);
    r.watchedLimited.assign(n, 0);
    FlowClock clock{std::vector<double>(n, 0),
                    std::vector<double>(n, 0),
                    std::vector<double>(n, INF)};
    std::vector<uint32_t> running(n);
    for (std::size_t f = 0; f < n; ++f)
    {
        running[f] = static_cast<uint32_t>(f);
    }
    for (uint32_t l = 0; l < links; ++l)
    {
        if (shares.flowsOn[l] > 0)
        {
            shares.Settle(l);
        }
    }
    double now = 0;
    while (!running.empty())
    {
        const double next = UpdateRates(running, paths, shares, now, clock, r);
        if (next > until)
        {
            break;
        }
        if (++r.instants > maxInstants)
        {
            r.complete = false;
            return r;
        }
        now = next;
        r.end = now;
        FinishFlows(running, paths, now, clock, shares, r);
    }
    for (uint32_t f : running)
    {
        r.remaining[f] = std::max(0.0, r.remaining[f] - clock.rate[f] * (until - clock.since[f]));
    }
    r.complete = true;
    return r;
}

} // namespace ns3

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

FluidBurst::Result
FluidBurst::Run(const std::vector<double>& capacityBps,
                const std::vector<bool>& watched,
                const std::vector<ClusterPath>& paths,
                const std::vector<double>& bytes,
                double until,
                uint32_t maxInstants)
{
    constexpr double INF = std::numeric_limits<double>::infinity();
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
    Result r;
    r.finish.assign(n, INF);
    r.remaining = bytes;
    r.maxSharing.assign(n, 0);
    r.watchedLimited.assign(n, 0);
    // As FluidEngine: remaining bytes settled at `since`, at `rate`, ending at `ends`.
    std::vector<double> since(n, 0);
    std::vector<double> rate(n, 0);
    std::vector<double> ends(n, INF);
    std::vector<uint32_t> running(n);
    for (std::size_t f = 0; f < n; ++f)
    {
        running[f] = static_cast<uint32_t>(f);
    }
    // Per link, what FluidEqualShare takes from it, kept up to date as flows leave: its share
    // (capacity / flows, the same double as FluidEqualShare computes), that share where it
    // counts as unwatched (else +inf), and its count where watched (else 0).
    std::vector<double> share(capacityBps.size(), INF);
    std::vector<double> unwatchedShare(capacityBps.size(), INF);
    std::vector<uint32_t> watchedFlows(capacityBps.size(), 0);
    auto settle = [&](uint32_t l) {
        const uint32_t flows = flowsOn[l];
        share[l] = flows == 0 ? INF : (capacityBps[l] / 8.0) / static_cast<double>(flows);
        const bool w = watched[l];
        unwatchedShare[l] = (!w || flows < 2) ? share[l] : INF;
        watchedFlows[l] = w ? flows : 0;
    };
    for (uint32_t l = 0; l < capacityBps.size(); ++l)
    {
        if (flowsOn[l] > 0)
        {
            settle(l);
        }
    }
    double now = 0;
    while (!running.empty())
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
                newRate = std::min(newRate, share[l]);
                unwatched = std::min(unwatched, unwatchedShare[l]);
                most = std::max(most, watchedFlows[l]);
            }
            r.watchedLimited[f] = r.watchedLimited[f] || newRate < unwatched;
            r.maxSharing[f] = std::max(r.maxSharing[f], most);
            if (newRate != rate[f])
            {
                r.remaining[f] = std::max(0.0, r.remaining[f] - rate[f] * (now - since[f]));
                since[f] = now;
                rate[f] = newRate;
                ends[f] = now + r.remaining[f] / newRate;
            }
            next = std::min(next, ends[f]);
        }
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
        std::size_t kept = 0;
        for (uint32_t f : running)
        {
            if (ends[f] <= now)
            {
                r.finish[f] = now;
                r.remaining[f] = 0;
                for (uint32_t l : paths[f])
                {
                    --flowsOn[l];
                    settle(l);
                }
            }
            else
            {
                running[kept++] = f;
            }
        }
        running.resize(kept);
    }
    for (uint32_t f : running)
    {
        r.remaining[f] = std::max(0.0, r.remaining[f] - rate[f] * (until - since[f]));
    }
    r.complete = true;
    return r;
}

} // namespace ns3

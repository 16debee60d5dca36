/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "vclos-flow-burst.h"

#include "vclos-check.h"
#include "vclos-flow-engine.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <tuple>

namespace ns3
{

VclosFlowBurst::Result
VclosFlowBurst::Run(const std::vector<double>& capacityBps,
                    const std::vector<bool>& watched,
                    const std::vector<VclosPath>& paths,
                    const std::vector<double>& bytes,
                    double until,
                    uint32_t maxInstants)
{
    constexpr double INF = std::numeric_limits<double>::infinity();
    VCLOS_REQUIRE(paths.size() == bytes.size() && watched.size() == capacityBps.size(),
                  std::invalid_argument,
                  "VclosFlowBurst: " << paths.size() << " paths, " << bytes.size() << " sizes, "
                                     << capacityBps.size() << " capacities, " << watched.size()
                                     << " watched flags");
    const std::size_t n = paths.size();
    std::vector<uint32_t> flowsOn(capacityBps.size(), 0);
    for (std::size_t f = 0; f < n; ++f)
    {
        VCLOS_REQUIRE(paths[f].size >= 1 && std::isfinite(bytes[f]) && bytes[f] > 0,
                      std::invalid_argument,
                      "VclosFlowBurst: flow " << f << " has no link or bytes " << bytes[f]);
        for (uint32_t l : paths[f])
        {
            VCLOS_REQUIRE(l < capacityBps.size(),
                          std::invalid_argument,
                          "VclosFlowBurst: flow " << f << " uses link " << l << " of "
                                                  << capacityBps.size());
            ++flowsOn[l];
        }
    }
    Result r;
    r.finish.assign(n, INF);
    r.remaining = bytes;
    r.maxSharing.assign(n, 0);
    r.watchedLimited.assign(n, 0);
    // As VclosFlowEngine: remaining bytes settled at `since`, at `rate`, ending at `ends`.
    std::vector<double> since(n, 0);
    std::vector<double> rate(n, 0);
    std::vector<double> ends(n, INF);
    std::vector<uint32_t> running(n);
    for (std::size_t f = 0; f < n; ++f)
    {
        running[f] = static_cast<uint32_t>(f);
    }
    double now = 0;
    while (!running.empty())
    {
        double next = INF;
        for (uint32_t f : running)
        {
            const VclosPath& path = paths[f];
            double newRate = 0;
            bool limited = false;
            VclosEqualShare(
                path.size,
                [&](uint32_t i) {
                    const uint32_t l = path.links[i];
                    return std::make_tuple(capacityBps[l] / 8.0, flowsOn[l], bool(watched[l]));
                },
                newRate,
                limited);
            r.watchedLimited[f] = r.watchedLimited[f] || limited;
            for (uint32_t l : path)
            {
                if (watched[l])
                {
                    r.maxSharing[f] = std::max(r.maxSharing[f], flowsOn[l]);
                }
            }
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

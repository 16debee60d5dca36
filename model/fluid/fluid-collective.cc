/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fluid-collective.h"

#include "ns3/suite-check.h"

#include <map>

namespace ns3
{

namespace
{
/// The message size the schedule is built with: large, so integer splits are exact shares
/// to about 1e-12.
constexpr uint64_t REFERENCE_BYTES = uint64_t{1} << 40;

constexpr uint32_t NONE = FluidCollectivePlan::NONE; //!< no transfer

/// The schedule's sends and receives, indexed per rank and per ordered rank pair.
struct StepIndex
{
    /// Sends, in each rank's step order: [rank][step] -> transfer, or NONE.
    std::vector<std::vector<uint32_t>> sendOfStep;
    /// Per ordered pair, the sends in order: [src][dst] -> transfers.
    std::vector<std::map<uint32_t, std::vector<uint32_t>>> sendsTo;
    /// Per ordered pair, the receives in order: [dst][src] -> steps.
    std::vector<std::map<uint32_t, std::vector<uint32_t>>> recvsFrom;
};

/**
 * \brief Make a transfer of every send, and index the sends and receives.
 * \param schedule every rank's steps
 * \param ranks N
 * \param transfers filled with every send, in each rank's step order
 * \param connections filled with the first transfer of each connection
 * \return the index of the sends and receives
 */
StepIndex
IndexSteps(const std::vector<ClusterRankSchedule>& schedule,
           uint32_t ranks,
           std::vector<FluidCollectivePlan::Transfer>& transfers,
           std::vector<uint32_t>& connections)
{
    StepIndex index;
    index.sendOfStep.resize(ranks);
    index.sendsTo.resize(ranks);
    index.recvsFrom.resize(ranks);
    auto& sendOfStep = index.sendOfStep;
    auto& sendsTo = index.sendsTo;
    auto& recvsFrom = index.recvsFrom;
    for (uint32_t r = 0; r < ranks; ++r)
    {
        sendOfStep[r].assign(schedule[r].size(), NONE);
        std::map<uint32_t, uint32_t> connectionOf;
        std::map<uint32_t, uint32_t> connectionIdOf;
        for (uint32_t s = 0; s < schedule[r].size(); ++s)
        {
            const ClusterCollectiveStep& step = schedule[r][s];
            if (step.recvPeer >= 0)
            {
                recvsFrom[r][static_cast<uint32_t>(step.recvPeer)].push_back(s);
            }
            if (step.sendPeer < 0)
            {
                continue;
            }
            const auto dst = static_cast<uint32_t>(step.sendPeer);
            FluidCollectivePlan::Transfer t;
            t.src = r;
            t.dst = dst;
            t.connection =
                connectionOf.emplace(dst, static_cast<uint32_t>(connectionOf.size())).first->second;
            t.share = static_cast<double>(step.sendBytes) / static_cast<double>(REFERENCE_BYTES);
            sendOfStep[r][s] = static_cast<uint32_t>(transfers.size());
            if (sendsTo[r][dst].empty())
            {
                connectionIdOf[dst] = static_cast<uint32_t>(connections.size());
                connections.push_back(static_cast<uint32_t>(transfers.size()));
            }
            t.connectionId = connectionIdOf[dst];
            sendsTo[r][dst].push_back(static_cast<uint32_t>(transfers.size()));
            transfers.push_back(t);
        }
    }
    return index;
}

/**
 * \brief Match sends to receives: the k-th send a -> b is the k-th receive at b from a
 *        (throws std::logic_error when the schedule's sends and receives disagree).
 * \param schedule every rank's steps
 * \param index its sends and receives (a pair that receives without sends gets an empty
 *        entry in sendsTo before the throw)
 * \param transfers every send
 * \return per rank and step, the transfer that delivers its receive, or NONE
 */
std::vector<std::vector<uint32_t>>
MatchReceives(const std::vector<ClusterRankSchedule>& schedule,
              StepIndex& index,
              const std::vector<FluidCollectivePlan::Transfer>& transfers)
{
    const auto ranks = static_cast<uint32_t>(index.sendOfStep.size()); // N
    auto& sendsTo = index.sendsTo;
    const auto& recvsFrom = index.recvsFrom;
    std::vector<std::vector<uint32_t>> deliveredBy(ranks);
    for (uint32_t r = 0; r < ranks; ++r)
    {
        deliveredBy[r].assign(schedule[r].size(), NONE);
        for (const auto& [src, steps] : recvsFrom[r])
        {
            const std::vector<uint32_t>& sends = sendsTo[src][r];
            SUITE_REQUIRE(sends.size() == steps.size(),
                          std::logic_error,
                          "collective schedule: rank " << src << " sends " << sends.size()
                                                       << " times to rank " << r
                                                       << ", which receives " << steps.size());
            for (std::size_t k = 0; k < steps.size(); ++k)
            {
                SUITE_REQUIRE(
                    schedule[r][steps[k]].recvBytes ==
                        static_cast<uint64_t>(
                            transfers[sends[k]].share * static_cast<double>(REFERENCE_BYTES) + 0.5),
                    std::logic_error,
                    "collective schedule: rank " << r << " step " << steps[k]
                                                 << " receives a size rank " << src
                                                 << " does not send");
                deliveredBy[r][steps[k]] = sends[k];
            }
        }
        for (const auto& [dst, sends] : sendsTo[r])
        {
            SUITE_REQUIRE(recvsFrom[dst].count(r) != 0,
                          std::logic_error,
                          "collective schedule: rank " << r << " sends to rank " << dst
                                                       << ", which never receives from it");
        }
    }
    return deliveredBy;
}

/**
 * \brief Who waits for whom: a send waits for the receives its step depends on and for the
 *        previous send on its connection.
 * \param schedule every rank's steps
 * \param index its sends and receives
 * \param deliveredBy per rank and step, the transfer that delivers its receive
 * \param transfers every send: their waits and nextOnConnection are set here
 * \return per transfer, the sends its arrival releases
 */
std::vector<std::vector<uint32_t>>
LinkWaits(const std::vector<ClusterRankSchedule>& schedule,
          const StepIndex& index,
          const std::vector<std::vector<uint32_t>>& deliveredBy,
          std::vector<FluidCollectivePlan::Transfer>& transfers)
{
    const auto ranks = static_cast<uint32_t>(index.sendOfStep.size()); // N
    std::vector<std::vector<uint32_t>> released(transfers.size());
    for (uint32_t r = 0; r < ranks; ++r)
    {
        for (uint32_t s = 0; s < schedule[r].size(); ++s)
        {
            const uint32_t t = index.sendOfStep[r][s];
            if (t == NONE)
            {
                continue;
            }
            for (uint32_t d : schedule[r][s].dependsOn)
            {
                SUITE_REQUIRE(d < s && deliveredBy[r][d] != NONE,
                              std::logic_error,
                              "collective schedule: rank " << r << " step " << s
                                                           << " depends on step " << d
                                                           << ", an earlier receive it lacks");
                released[deliveredBy[r][d]].push_back(t);
                ++transfers[t].waits;
            }
        }
        for (const auto& [dst, sends] : index.sendsTo[r])
        {
            for (std::size_t k = 1; k < sends.size(); ++k)
            {
                transfers[sends[k - 1]].nextOnConnection = sends[k];
                released[sends[k - 1]].push_back(sends[k]);
                ++transfers[sends[k]].waits;
            }
        }
    }
    return released;
}
} // namespace

FluidCollectivePlan::FluidCollectivePlan(const ClusterCollectiveShape& shape, uint32_t ranks)
    : m_ranks(ranks)
{
    const std::vector<ClusterRankSchedule> schedule =
        ClusterBuildCollectiveSchedule(shape.algorithm,
                                       ranks,
                                       REFERENCE_BYTES,
                                       shape.gpusPerServer,
                                       shape.serversPerLeaf);
    StepIndex index = IndexSteps(schedule, ranks, m_transfers, m_connections);
    const std::vector<std::vector<uint32_t>> deliveredBy =
        MatchReceives(schedule, index, m_transfers);
    const std::vector<std::vector<uint32_t>> released =
        LinkWaits(schedule, index, deliveredBy, m_transfers);
    for (uint32_t t = 0; t < m_transfers.size(); ++t)
    {
        m_transfers[t].releasesBegin = static_cast<uint32_t>(m_releases.size());
        m_releases.insert(m_releases.end(), released[t].begin(), released[t].end());
        m_transfers[t].releasesEnd = static_cast<uint32_t>(m_releases.size());
        if (m_transfers[t].waits == 0)
        {
            m_initial.push_back(t);
        }
    }
    m_connectionTotals.resize(m_connections.size());
    for (const Transfer& t : m_transfers)
    {
        m_connectionTotals[t.connectionId].share += t.share;
        ++m_connectionTotals[t.connectionId].steps;
    }
}

const std::vector<FluidCollectivePlan::ConnectionTotal>&
FluidCollectivePlan::GetConnectionTotals() const
{
    return m_connectionTotals;
}

const std::vector<FluidCollectivePlan::Transfer>&
FluidCollectivePlan::GetTransfers() const
{
    return m_transfers;
}

const std::vector<uint32_t>&
FluidCollectivePlan::GetReleases() const
{
    return m_releases;
}

const std::vector<uint32_t>&
FluidCollectivePlan::GetInitial() const
{
    return m_initial;
}

const std::vector<uint32_t>&
FluidCollectivePlan::GetConnectionTransfers() const
{
    return m_connections;
}

uint32_t
FluidCollectivePlan::GetRanks() const
{
    return m_ranks;
}

FluidCollectiveRun::FluidCollectiveRun(const FluidCollectivePlan& plan, LaunchFunction launch)
    : m_plan(&plan),
      m_launch(std::move(launch)),
      m_left(0),
      m_inFlight(0)
{
}

void
FluidCollectiveRun::Begin()
{
    const auto& transfers = m_plan->GetTransfers();
    SUITE_REQUIRE(m_left == 0,
                  std::logic_error,
                  "FluidCollectiveRun::Begin: the previous iteration has not ended");
    m_waiting.resize(transfers.size());
    for (std::size_t t = 0; t < transfers.size(); ++t)
    {
        m_waiting[t] = transfers[t].waits;
    }
    m_left = static_cast<uint32_t>(transfers.size());
    m_inFlight = 0;
    for (uint32_t t : m_plan->GetInitial())
    {
        ++m_inFlight;
        m_launch(t);
    }
}

void
FluidCollectiveRun::SetLaunch(LaunchFunction launch)
{
    m_launch = std::move(launch);
}

bool
FluidCollectiveRun::Arrived(uint32_t transfer)
{
    const auto& t = m_plan->GetTransfers().at(transfer);
    SUITE_REQUIRE(m_inFlight > 0 && m_left > 0,
                  std::logic_error,
                  "FluidCollectiveRun::Arrived: transfer " << transfer << " was not launched");
    --m_inFlight;
    --m_left;
    const auto& releases = m_plan->GetReleases();
    for (uint32_t i = t.releasesBegin; i < t.releasesEnd; ++i)
    {
        const uint32_t next = releases[i];
        if (--m_waiting[next] == 0)
        {
            ++m_inFlight;
            m_launch(next);
        }
    }
    return m_left == 0;
}

uint32_t
FluidCollectiveRun::GetInFlight() const
{
    return m_inFlight;
}

} // namespace ns3

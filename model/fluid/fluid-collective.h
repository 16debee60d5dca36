/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FLUID_COLLECTIVE_H
#define FLUID_COLLECTIVE_H

#include "ns3/cluster-collective-schedule.h"

#include <cstdint>
#include <functional>
#include <vector>

namespace ns3
{

/**
 * \ingroup fluid
 * \brief One collective's schedule (ClusterBuildCollectiveSchedule) as a graph of transfers
 *        for a flow-level engine: every send of every rank, what it waits for, and whom its
 *        arrival releases.
 *
 * The semantics are the packet-level app's (CollectiveApp), at transfer granularity:
 * - a send waits for every receive in its step's dependsOn (halving-doubling waits for all
 *   it depends on; all-to-all for none) and for the previous send on the same connection
 *   (one TCP connection per ordered rank pair carries its steps in order);
 * - the k-th send from rank a to rank b is the k-th receive at b from a;
 * - an iteration ends when every transfer has arrived.
 * The app pipelines a send behind the receive it needs chunk by chunk; here a send starts
 * when the whole receive has arrived (store and forward per step). Sizes are shares of the
 * message, so one plan serves every message size: a transfer carries share x M bytes.
 *
 * A plan is immutable; FluidCollectiveRun holds one iteration's progress.
 */
class FluidCollectivePlan
{
  public:
    static constexpr uint32_t NONE = UINT32_MAX; //!< no transfer

    /// One send of one rank.
    struct Transfer
    {
        uint32_t src = 0;                 //!< sending rank
        uint32_t dst = 0;                 //!< receiving rank
        uint32_t connection = 0;          //!< index of the (src, dst) connection among src's
        uint32_t connectionId = 0;        //!< its connection's index in GetConnectionTransfers()
        double share = 0;                 //!< bytes per message byte
        uint32_t waits = 0;               //!< transfers that must arrive first (deps + connection)
        uint32_t nextOnConnection = NONE; //!< the next send on the same connection
        uint32_t releasesBegin = 0;       //!< range in GetReleases(): sends its arrival frees
        uint32_t releasesEnd = 0;         //!< end of that range
    };

    /**
     * \param shape what runs and the grouping to build its schedule with
     * \param ranks N >= 2
     */
    FluidCollectivePlan(const ClusterCollectiveShape& shape, uint32_t ranks);

    /// \return every transfer
    const std::vector<Transfer>& GetTransfers() const;
    /// \return the sends each transfer's arrival releases (ranges in Transfer)
    const std::vector<uint32_t>& GetReleases() const;
    /// \return transfers that wait for nothing
    const std::vector<uint32_t>& GetInitial() const;
    /// \return one transfer of every connection (ordered rank pair), in first-use order
    const std::vector<uint32_t>& GetConnectionTransfers() const;

    /// What one connection carries in one iteration.
    struct ConnectionTotal
    {
        double share = 0;   //!< bytes per message byte, summed over its transfers
        uint32_t steps = 0; //!< its transfers
    };

    /// \return per connection (by connectionId), what it carries
    const std::vector<ConnectionTotal>& GetConnectionTotals() const;
    /// \return N
    uint32_t GetRanks() const;

  private:
    uint32_t m_ranks;                                //!< N
    std::vector<Transfer> m_transfers;               //!< every send
    std::vector<uint32_t> m_releases;                //!< CSR of released sends
    std::vector<uint32_t> m_initial;                 //!< sends ready at the start
    std::vector<uint32_t> m_connections;             //!< first transfer of each connection
    std::vector<ConnectionTotal> m_connectionTotals; //!< by connectionId
};

/**
 * \ingroup fluid
 * \brief One iteration of a collective in progress over a FluidCollectivePlan.
 *
 * Begin() launches the transfers that wait for nothing; every Arrived(t) launches those
 * it releases. Launch is the caller's: it starts a flow, and calls Arrived when the flow
 * ends, never from inside Launch.
 */
class FluidCollectiveRun
{
  public:
    /// Start transfer t of the plan.
    using LaunchFunction = std::function<void(uint32_t transfer)>;

    /**
     * \param plan the plan (must outlive the run)
     * \param launch starts a transfer
     */
    FluidCollectiveRun(const FluidCollectivePlan& plan, LaunchFunction launch);

    /// Start an iteration: launch what waits for nothing.
    void Begin();

    /// \param launch starts a transfer from now on (the run moves to another engine)
    void SetLaunch(LaunchFunction launch);

    /**
     * \param transfer a launched transfer that has fully arrived
     * \return true when it was the iteration's last
     */
    bool Arrived(uint32_t transfer);

    /// \return transfers launched and not arrived in this iteration
    uint32_t GetInFlight() const;

  private:
    const FluidCollectivePlan* m_plan; //!< the plan
    LaunchFunction m_launch;           //!< starts a transfer
    std::vector<uint32_t> m_waiting;   //!< per transfer: arrivals it still waits for
    uint32_t m_left;                   //!< transfers not arrived in this iteration
    uint32_t m_inFlight;               //!< launched, not arrived
};

} // namespace ns3

#endif /* FLUID_COLLECTIVE_H */

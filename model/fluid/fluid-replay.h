/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FLUID_REPLAY_H
#define FLUID_REPLAY_H

#include "fluid-collective.h"
#include "fluid-engine.h"

#include "ns3/cluster-topology.h"

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup fluid
 * \brief One job's collective alone on the fabric, in a private flow engine: what the flow
 *        executor needs to run a job that shares no link with another as timers.
 *
 * A replay knows the links (capacities, which are leaf-spine links) and the sharing model,
 * and takes a job as its plan and one path per connection. It keeps scratch state and a
 * cache, so an instance serves one thread; two instances given the same inputs give the
 * same outputs. It knows nothing of the ns-3 simulator.
 *
 * Alone() answers per iteration: time per message byte and the flow counts. When no
 * leaf-spine link can ever limit a flow of the job (CoreNeverBinds), it says so instead of
 * replaying: the job's time is then the contention-free reference, which the caller keeps.
 * Run() replays the collective from its start for a while and hands back the run in
 * progress (to continue it elsewhere).
 */
class FluidReplay
{
  public:
    /// What one iteration's collective of a job alone amounts to.
    struct Counts
    {
        double secondsPerByte = 0;         //!< collective time per message byte
        uint64_t flows = 0;                //!< transfers
        uint64_t coreFlows = 0;            //!< of which crossed a leaf-spine link
        uint64_t sharingCoreFlows = 0;     //!< of which shared one (with the job's own)
        uint64_t conflictingCoreFlows = 0; //!< of which had their rate set by a shared one
        bool reference = false;            //!< the core never binds: secondsPerByte is not set, the
                                           //!< time is the contention-free reference's
    };

    /**
     * \param capacityBps every link's payload capacity, bit/s, by id
     * \param coreLinks every link's leaf-spine flag, by id
     * \param sharing the engine's sharing model
     */
    FluidReplay(std::vector<double> capacityBps,
                std::vector<bool> coreLinks,
                FluidEngine::Sharing sharing);

    /**
     * \param plan the job's collective
     * \param paths its connections' paths, by connection id
     * \return one iteration alone (cached by the paths' structure)
     */
    Counts Alone(const FluidCollectivePlan& plan, const std::vector<ClusterPath>& paths);

    /**
     * \brief Replay the collective alone from its start for at most `until` seconds.
     * \param plan the job's collective
     * \param paths its connections' paths
     * \param bytes message bytes
     * \param until how long
     * \param counts what finished is added here
     * \param active filled with the transfers still running and their bytes left
     * \param run set to the run in progress (its launch function must be replaced)
     * \return the collective's time if it ended, else a negative number
     */
    double Run(const FluidCollectivePlan& plan,
               const std::vector<ClusterPath>& paths,
               double bytes,
               double until,
               Counts& counts,
               std::vector<std::pair<uint32_t, double>>& active,
               std::unique_ptr<FluidCollectiveRun>& run);

    /// \return replays done as one burst (all transfers starting at once)
    uint64_t GetBurstReplays() const;

  private:
    /// Count, per link of the paths, the connections using it (m_linkName, this epoch).
    void CountConnections(const std::vector<ClusterPath>& paths);
    /// \return true when no leaf-spine link ever limits a flow alone (counts set then)
    bool CoreNeverBinds(const FluidCollectivePlan& plan,
                        const std::vector<ClusterPath>& paths,
                        Counts& counts);
    /// Run's way when every transfer starts at once under equal share; false: not that case
    bool RunBurst(const FluidCollectivePlan& plan,
                  const std::vector<ClusterPath>& paths,
                  double bytes,
                  double until,
                  Counts& counts,
                  std::vector<std::pair<uint32_t, double>>& active,
                  std::unique_ptr<FluidCollectiveRun>& run,
                  double& end);
    /// Per connection of a replay: which run their transfers as timers (defined in the .cc).
    struct Timers;
    /// \return the private engine, made on first use, reset
    FluidEngine& ScratchEngine();
    /**
     * \param paths a job's connections' paths \param connections how many
     * \return its connections' timers: a connection alone on its links runs at its slowest
     *         link's capacity (counts the connections per link, as CountConnections)
     */
    Timers TimersOf(const std::vector<ClusterPath>& paths, std::size_t connections);
    /**
     * \brief The transfers still running at `until` and their bytes left.
     * \param engine the replay's engine, at `until` \param live transfer by engine flow id
     * \param timers the connections' timers \param plan the job's collective
     * \param bytes message bytes \param until now \param active filled
     */
    static void CollectActive(const FluidEngine& engine,
                              const std::vector<uint32_t>& live,
                              const Timers& timers,
                              const FluidCollectivePlan& plan,
                              double bytes,
                              double until,
                              std::vector<std::pair<uint32_t, double>>& active);

    std::vector<double> m_capacities;                //!< payload capacities, bit/s
    std::vector<bool> m_coreLinks;                   //!< leaf-spine links
    FluidEngine::Sharing m_sharing;                  //!< sharing model
    std::unique_ptr<FluidEngine> m_scratch;          //!< private engine, reset per use
    std::vector<uint64_t> m_linkMark;                //!< scratch: visit epoch, by link
    std::vector<uint32_t> m_linkName;                //!< scratch: count or name, by link
    std::vector<double> m_linkShare;                 //!< scratch: capacity / connections
    std::vector<uint32_t> m_links;                   //!< scratch: links of the current job
    uint64_t m_epoch;                                //!< scratch: current visit
    std::map<std::vector<uint64_t>, Counts> m_cache; //!< alone runs by paths' structure
    std::atomic<uint64_t> m_burstReplays;            //!< counter (read from other threads)
};

} // namespace ns3

#endif /* FLUID_REPLAY_H */

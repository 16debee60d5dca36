/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FLUID_EXECUTOR_H
#define FLUID_EXECUTOR_H

#include "ns3/cluster-flow-hash.h"
#include "ns3/cluster-job-executor.h"
#include "ns3/event-id.h"
#include "ns3/fluid-collective.h"
#include "ns3/fluid-engine.h"
#include "ns3/fluid-replay.h"

#include <atomic>
#include <future>
#include <map>
#include <memory>
#include <tuple>
#include <vector>

namespace boost
{
namespace asio
{
class thread_pool;
} // namespace asio
} // namespace boost

namespace ns3
{

/**
 * \ingroup fluid
 * \brief Runs jobs at flow level: every transfer of a job's collective is a fluid flow in a
 *        FluidEngine over a ClusterTopology, with max-min fair (or the authors' equal-share)
 *        rates; compute phases are simulator events.
 *
 * The job follows the packet level's semantics (FluidCollectivePlan): per iteration,
 * compute, then the collective of ClusterShapeCollective's algorithm, sends waiting for the
 * receives they depend on and for the previous send on their connection. Intra-server
 * transfers take the intra-server links. A transfer that leaves its leaf takes its rank's
 * pinned spine, or the spine the ECMP hash (ClusterHashFiveTuple, the function the packet
 * level's switches use) picks for the flow key (source GPU, destination GPU, TCP, job id as
 * destination port, connection index as source port, or the transfer index with
 * PathPerStep). The engine's clock follows the simulator's: one simulator event per engine
 * instant, so trackers and the scheduler see one clock. Iterations end together (a job-wide
 * barrier at each iteration's end); the packet level lets a rank start its next compute as
 * soon as its own part is over.
 *
 * With an OCS layer, a job with circuits of its own (ClusterJobAllocation::uplinkPort) takes
 * them (ClusterTopology::GetPathVia); any other job takes the fixed full leaf-spine wiring
 * (ClusterOcsFullWiringUplink) from the spine it was given, and is refused where the layer
 * has none.
 *
 * A flow "conflicts" when a leaf-spine link it shared with another flow set its rate
 * (contention in the core, the vClos paper's conflicting-flow proportion over transfers).
 * Flows that merely shared a leaf-spine link (an all-to-all's flows from one GPU share its
 * pinned uplink, but its NIC limits them first) are counted apart (sharingCoreFlows).
 */
class FluidExecutor : public ClusterJobExecutor
{
  public:
    /// How flows share a link (the Sharing attribute).
    enum SharingModel
    {
        MAX_MIN,    //!< FluidEngine::Sharing::MAX_MIN
        EQUAL_SHARE //!< FluidEngine::Sharing::EQUAL_SHARE
    };

    /// What the executor counted.
    struct Stats
    {
        uint64_t flows = 0;                //!< transfers finished
        uint64_t coreFlows = 0;            //!< of which crossed a leaf-spine link
        uint64_t sharingCoreFlows = 0;     //!< of which shared one with another flow
        uint64_t conflictingCoreFlows = 0; //!< of which had their rate set by a shared one
        uint64_t isolatedJobs = 0;         //!< jobs started isolated (IsolatedJobs)
        uint64_t materialized = 0;         //!< of which continued flow by flow
        uint64_t referenceAlone = 0;       //!< of which timed by the contention-free reference
        uint64_t burstReplays = 0;         //!< replays whose transfers all start at once (burst)
        uint64_t burstReferences = 0;      //!< contention-free references timed as a burst
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    FluidExecutor();
    ~FluidExecutor() override;

    /**
     * \brief Set the cluster (throws std::invalid_argument, one line, on a bad config).
     * \param config the topology
     */
    void SetTopology(const ClusterTopologyConfig& config);

    const ClusterTopology& GetTopology() const override;
    ClusterCollectiveAlgorithm Start(const ClusterJobRequest& job,
                                     const ClusterJobAllocation& allocation,
                                     DoneCallback done) override;
    void Stop(const ClusterJobRequest& job, const ClusterJobAllocation& allocation) override;

    /**
     * \brief The contention-free reference: one iteration's collective of a job alone on its
     *        placement, where only the NICs and the intra-server links constrain (a
     *        non-blocking core), in the engine's sharing model.
     * \param algorithm the job's algorithm
     * \param rankGpus its GPUs in rank order
     * \param messageBytes M
     * \return seconds
     */
    double GetContentionFreeSeconds(ClusterCollectiveAlgorithm algorithm,
                                    const std::vector<uint32_t>& rankGpus,
                                    double messageBytes);

    /// \return what was counted
    Stats GetStats() const;
    /// \return the engine's counters
    FluidEngine::Stats GetEngineStats() const;
    /// \return conflicting share of the flows that crossed a leaf-spine link (0: none did)
    double GetConflictingFlowShare() const;

  protected:
    void DoDispose() override;

  private:
    /// What one iteration's collective of a job alone amounts to.
    using Alone = FluidReplay::Counts;

    /// Where a job's ranks sit: what its paths are computed from.
    struct Placement
    {
        uint32_t jobId = 0;         //!< the job (its flow key's destination port)
        std::vector<uint32_t> gpus; //!< GPUs by rank
        std::vector<int32_t> spine; //!< pinned spine by rank, or -1
        // OCS circuits of its own (ClusterJobAllocation::uplinkPort; empty without).
        std::vector<int32_t> port;         //!< own leaf uplink port by rank, or -1
        std::vector<uint32_t> virtualLeaf; //!< virtual leaf by rank
        std::map<std::pair<uint32_t, uint32_t>, uint32_t> downPort; //!< (virtual leaf, spine)
    };

    /// A job's paths and the links they use.
    struct Routes
    {
        std::shared_ptr<const std::vector<ClusterPath>> paths; //!< by connection (null with
                                                               //!< PathPerStep)
        std::vector<uint32_t> links;                           //!< every link they use, once
    };

    /// A running job.
    struct Job
    {
        ClusterJobRequest request;                             //!< the job
        std::shared_ptr<const Placement> placement;            //!< where its ranks sit
        std::shared_ptr<const FluidCollectivePlan> plan;       //!< its collective
        std::unique_ptr<FluidCollectiveRun> run;               //!< the iteration in progress
        uint32_t iteration = 0;                                //!< current iteration
        DoneCallback done;                                     //!< the scheduler's
        std::vector<uint32_t> links;                           //!< every link its paths use
        std::shared_ptr<const std::vector<ClusterPath>> paths; //!< by connection id (null with
                                                               //!< PathPerStep)
        std::shared_future<Alone> ahead;          //!< its alone run, computed on the worker
        std::shared_ptr<std::atomic<bool>> taken; //!< set by whichever thread replays it
                                                  //!< (the worker, or the simulator's thread
                                                  //!< when the worker has not begun it), or
                                                  //!< to cancel it
        bool claimed = false;    //!< its first collective has begun: its links count as used
        bool isolated = false;   //!< no other job uses its links: its times are its alone times
        Alone alone;             //!< isolated: its collective alone
        bool aloneKnown = false; //!< `alone` is set
        Time startedAt;          //!< when it started
        EventId pending;         //!< isolated: its end
        FluidEngine* engine = nullptr; //!< where Launch starts flows (null: the main one)
        std::map<FluidEngine::FlowId, uint32_t>* live = nullptr; //!< private flows
    };

    /// Plan cache key: algorithm, ranks, GPUs per server, servers per leaf.
    using PlanKey = std::tuple<int, uint32_t, uint32_t, uint32_t>;

    /// \return the links' payload capacities, bit/s
    std::vector<double> Capacities() const;
    /// \return the engine's sharing model
    FluidEngine::Sharing EngineSharing() const;
    /// \return the engine, made on first use
    FluidEngine& Engine();
    /**
     * \param shape what runs
     * \param ranks N
     * \return its plan, cached
     */
    std::shared_ptr<const FluidCollectivePlan> PlanOf(const ClusterCollectiveShape& shape,
                                                      uint32_t ranks);
    /**
     * \param gpus GPUs in rank order
     * \param requested the job's algorithm
     * \return what its ranks run
     */
    ClusterCollectiveShape ShapeOf(const std::vector<uint32_t>& gpus,
                                   ClusterCollectiveAlgorithm requested) const;
    /// \return a free slot for a new job (the slot vector grows when none is free)
    uint32_t AllocateSlot();
    /**
     * \brief Set where a job's ranks sit (throws std::invalid_argument on OCS circuits
     *        the topology cannot give it).
     * \param placement set here \param job the job \param allocation its GPUs and circuits
     */
    void FillPlacement(Placement& placement,
                       const ClusterJobRequest& job,
                       const ClusterJobAllocation& allocation) const;
    /// \param state a job just started: post its alone run to the worker
    void ReplayAhead(Job& state);
    /**
     * \brief The contention-free reference of a collective whose transfers all start at
     *        once (equal share), as one burst (FluidBurst).
     * \param plan its collective \param rankGpus its GPUs in rank order
     * \param seconds set to its time for a 1 GB message when it ends
     * \return false when the burst gave up (too many instants): seconds is not set
     */
    bool BurstReferenceSeconds(const FluidCollectivePlan& plan,
                               const std::vector<uint32_t>& rankGpus,
                               double& seconds);
    /**
     * \param plan a collective \param rankGpus its GPUs in rank order
     * \return its contention-free time for a 1 GB message, in a private
     *         engine
     */
    double EngineReferenceSeconds(const FluidCollectivePlan& plan,
                                  const std::vector<uint32_t>& rankGpus) const;
    /// \param slot a job whose first collective is due: claim its links, run it isolated
    /// when no other claimed job uses them, else flow by flow
    void Claim(uint32_t slot);
    /// \param slot a job's slot: begin its next iteration's collective
    void BeginCollective(uint32_t slot);
    /**
     * \param job a job
     * \param transfer a transfer of its plan
     * \return the path it takes (pins, else the ECMP hash of its flow key)
     */
    ClusterPath PathOf(const Job& job, uint32_t transfer) const;
    /**
     * \param job where a job's ranks sit \param plan its collective
     * \param transfer one of its transfers \return its path, hashed anew
     */
    ClusterPath HashedPathOf(const Placement& job,
                             const FluidCollectivePlan& plan,
                             uint32_t transfer) const;
    /**
     * \brief A job's paths and links.
     * \param placement where its ranks sit \param plan its collective
     * \param mark scratch: visit epoch by link \param epoch scratch: the current visit
     * \return its routes
     */
    Routes RoutesOf(const Placement& placement,
                    const FluidCollectivePlan& plan,
                    std::vector<uint64_t>& mark,
                    uint64_t& epoch) const;
    /// \param job a job \return its collective alone (from the worker when it ran ahead)
    Alone AloneOf(Job& job);
    /// Finish the worker's job in progress, skip the rest, and end its thread.
    void StopWorker();
    /// \param slot an isolated job whose alone run is due: take it and schedule its end
    void ScheduleIsolatedEnd(uint32_t slot);
    /// \param job an isolated job: set its alone run, once (from the worker, or here if the
    /// worker has not begun it)
    void ResolveAlone(Job& job);
    /**
     * \param job an isolated job (one path per connection)
     * \return a lower bound of its collective's time per message byte: its busiest link's
     *         bytes at that link's capacity
     */
    double LeastCollectiveSecondsPerByte(const Job& job);
    /// \param slot an isolated job that another job now touches: continue it in the engine
    void Materialize(uint32_t slot);
    /// \param slot an isolated job whose last iteration has ended
    void IsolatedDone(uint32_t slot);
    /// \param counts add these to the statistics \param times this many times
    void Count(const Alone& counts, uint64_t times);
    /**
     * \param slot a job's slot
     * \param transfer a transfer of its plan to start now
     */
    void Launch(uint32_t slot, uint32_t transfer);
    /**
     * \param slot a job's slot
     * \param transfer a transfer of its plan
     * \param bytes its bytes (left)
     */
    void StartInEngine(uint32_t slot, uint32_t transfer, double bytes);
    /// \param slot a job whose iteration's last transfer arrived
    void EndIteration(uint32_t slot);
    /**
     * \param id an engine flow that ended
     * \param tag its tag
     */
    void FlowFinished(FluidEngine::FlowId id, uint64_t tag);
    /// Bring the engine to the simulator's now.
    void Sync();
    /// Schedule the simulator event of the engine's next instant.
    void Arm();
    /// The engine's next instant is due.
    void Fire();

    std::unique_ptr<ClusterTopology> m_topology;        //!< the cluster
    std::unique_ptr<FluidEngine> m_engine;              //!< flows
    std::unique_ptr<FluidReplay> m_replay;              //!< alone runs on the simulator's thread
    std::unique_ptr<FluidReplay> m_aheadReplay;         //!< alone runs on the worker thread
    std::unique_ptr<boost::asio::thread_pool> m_worker; //!< one thread (ReplayAhead)
    bool m_replayAhead;                                 //!< ReplayAhead attribute
    std::vector<uint8_t> m_flowCrossesCore;             //!< by engine flow id
    SharingModel m_sharing;                             //!< Sharing attribute
    uint32_t m_salt;                                    //!< EcmpSalt attribute
    ClusterHashAlgorithm m_hashAlgorithm;               //!< HashAlgorithm attribute
    bool m_pathPerStep;                                 //!< PathPerStep attribute
    double m_wireEfficiency;                            //!< WireEfficiency attribute
    std::map<PlanKey, std::shared_ptr<const FluidCollectivePlan>> m_plans;          //!< cache
    std::map<std::tuple<int, uint32_t, std::vector<uint32_t>>, double> m_reference; //!< s/B
    std::vector<std::unique_ptr<Job>> m_slots; //!< running jobs
    std::vector<uint32_t> m_freeSlots;         //!< unused slots
    std::map<uint32_t, uint32_t> m_slotOfJob;  //!< job id -> slot
    EventId m_fire;                            //!< the engine's next instant
    double m_armedFor;                         //!< its exact time, s
    bool m_isolatedJobs;                       //!< IsolatedJobs attribute
    std::vector<bool> m_coreLinks;             //!< leaf-spine links, by id
    std::vector<double> m_capacities;          //!< payload capacities, by id
    std::vector<uint64_t> m_linkMark;          //!< scratch: visit epoch, by link id
    uint64_t m_epoch;                          //!< scratch: current visit
    std::vector<double> m_linkLoad;            //!< scratch: a job's bytes per link
    std::vector<uint32_t> m_linkUse;           //!< running jobs whose paths use each link
    std::vector<int64_t> m_linkOwner;          //!< isolated job's slot on each link, or -1
    Stats m_stats;                             //!< counts
};

} // namespace ns3

#endif /* FLUID_EXECUTOR_H */

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef VCLOS_JOB_SCHEDULER_H
#define VCLOS_JOB_SCHEDULER_H

#include "ns3/application-container.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"
#include "ns3/traced-value.h"
#include "ns3/vclos-cluster-state.h"
#include "ns3/vclos-collective-schedule.h"
#include "ns3/vclos-fabric.h"
#include "ns3/vclos-job-executor.h"
#include "ns3/vclos-ocs-state.h"
#include "ns3/vclos-placement.h"

#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup vclos
 * \brief The scheduler core: jobs arrive, wait in a FIFO queue, start when the placement
 *        policy finds them room, run on an executor (VclosJobExecutor: packet level or flow
 *        level), and free their room when they finish. It does not know how jobs execute.
 *
 * The queue is FIFO with head-of-line blocking by default (as in the vClos authors'
 * simulator): on every arrival and completion, queued jobs are tried in order until the
 * first that does not fit. With Backfill, every queued job is tried. The policy is two
 * functions: place (or decline) a job, and release it (and optionally a third: why a declined
 * job must wait). Every transition is a trace source; statistics are for trackers.
 *
 * With a policy set by name, Submit() refuses (std::invalid_argument, one line naming the
 * job, its GPUs and the policy) a job that the policy can never place, even on the idle
 * cluster (VclosPlacementPolicy::CanEverPlace): such a job would block a FIFO queue for
 * ever. Every job admitted fits the idle cluster and the policies are monotone, so the head
 * of the queue starts at the latest when every running job has finished: no deadlock. Each
 * declined placement fires PlacementFailed with its cause (not enough free GPUs, GPU
 * fragmentation, network fragmentation).
 *
 * With an OCS layer (topology OcsCount > 0) and the policy "ocs-vclos", the scheduler also
 * holds a VclosOcsState: a job's circuits are booked with its GPUs (a running job's circuits
 * are never given to another job) and released, idle but still set up, when it ends. When
 * the booking sets up at least one new circuit (VclosJobAllocation::circuitsSetUp > 0), the
 * job holds its GPUs and circuits from the placement on but starts on the executor
 * ReconfigurationDelay later (JobStarted fires then); reused idle circuits cost nothing.
 *
 * A job also waits while the executor cannot take it (VclosJobExecutor::CanStart: the
 * packet level's TCP ports). An error inside an event (a placement that breaks its
 * contract, say) stops the run with VclosStopRun instead of throwing out of it.
 */
class VclosJobScheduler : public Object
{
  public:
    /// Place a job: its allocation, or nothing when it must wait.
    using PlaceFunction = std::function<std::optional<VclosJobAllocation>(const VclosJobRequest&)>;
    /// Release what a job was given.
    using ReleaseFunction = std::function<void(const VclosJobRequest&)>;
    /// Why a job that was declined must wait.
    using DiagnoseFunction = std::function<VclosPlacementFailure(const VclosJobRequest&)>;

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    VclosJobScheduler();

    /**
     * \brief Set the executor and the placement policy. Pass a Ptr<VclosJobExecutor> (a
     *        Ptr of a derived class is ambiguous with the fabric overloads).
     * \param executor how jobs run (its topology is the cluster)
     * \param place the placement function
     * \param release the release function
     * \param diagnose why a declined job waits (null: PlacementFailed is not fired)
     */
    void Setup(Ptr<VclosJobExecutor> executor,
               PlaceFunction place,
               ReleaseFunction release,
               DiagnoseFunction diagnose = nullptr);

    /**
     * \brief Set the executor and a placement policy that books GPUs and leaf-spine links in
     *        a VclosClusterState of the executor's topology (the policy's uplink spines are
     *        pinned while a job runs).
     * \param executor how jobs run
     * \param policyName a name VclosCreatePlacementPolicy accepts ("ecmp", ..., "vclos")
     */
    void Setup(Ptr<VclosJobExecutor> executor, const std::string& policyName);

    /**
     * \brief Setup with a VclosPacketExecutor on a fabric.
     * \param fabric the fabric the jobs run on
     * \param place the placement function
     * \param release the release function
     * \param diagnose why a declined job waits (null: PlacementFailed is not fired)
     */
    void Setup(Ptr<VclosFabric> fabric,
               PlaceFunction place,
               ReleaseFunction release,
               DiagnoseFunction diagnose = nullptr);

    /**
     * \brief Setup with a VclosPacketExecutor on a fabric and a policy by name.
     * \param fabric the fabric the jobs run on
     * \param policyName a name VclosCreatePlacementPolicy accepts ("ecmp-first-fit", ...,
     *        "vclos")
     */
    void Setup(Ptr<VclosFabric> fabric, const std::string& policyName);

    /// \return the executor set by Setup (null before)
    Ptr<VclosJobExecutor> GetExecutor() const;

    /// \return the cluster (Setup first)
    const VclosTopology& GetTopology() const;

    /// \return the cluster state of a policy set by name (null with Setup by functions)
    std::shared_ptr<const VclosClusterState> GetClusterState() const;

    /// \return the circuit state of "ocs-vclos" set by name (null otherwise)
    std::shared_ptr<const VclosOcsState> GetOcsState() const;

    /// \return jobs whose booking set up at least one new circuit (each pays
    /// ReconfigurationDelay)
    uint32_t GetReconfigurations() const;

    /**
     * \brief Submit jobs; each arrives at its submit time. Throws std::invalid_argument for
     * a job of 0 GPUs or more than the fabric's, 0 iterations, a submit time in the past,
     * or (policy set by name) a size the policy can never place.
     * \param jobs the jobs
     */
    void Submit(const std::vector<VclosJobRequest>& jobs);

    /// \return jobs that finished
    uint32_t GetFinishedJobs() const;
    /// \return jobs waiting
    uint32_t GetQueueLength() const;
    /// \return jobs running
    uint32_t GetRunningJobs() const;

    /**
     * TracedCallback signature for job transitions.
     * \param job the job
     */
    typedef void (*JobTracedCallback)(const VclosJobRequest& job);
    /**
     * TracedCallback signature for a job that starts.
     * \param job the job
     * \param allocation its GPUs and pinned uplinks
     */
    typedef void (*JobStartedTracedCallback)(const VclosJobRequest& job,
                                             const VclosJobAllocation& allocation);
    /**
     * TracedCallback signature for placement decisions.
     * \param job the job
     * \param placed whether it got room
     * \param decision wall-clock time the policy took
     */
    typedef void (*DecisionTracedCallback)(const VclosJobRequest& job, bool placed, Time decision);
    /**
     * TracedCallback signature for a declined placement.
     * \param job the job, which keeps waiting
     * \param cause why
     */
    typedef void (*PlacementFailedTracedCallback)(const VclosJobRequest& job,
                                                  VclosPlacementFailure cause);

  protected:
    void DoDispose() override;

  private:
    /// A job that runs.
    struct Running
    {
        VclosJobRequest request;       //!< the job
        VclosJobAllocation allocation; //!< where it runs
    };

    /// \param job a job that just arrived
    void Arrive(const VclosJobRequest& job);
    /// Start queued jobs while the policy finds room (FIFO with or without backfilling).
    void Schedule();
    /**
     * \param job a job
     * \return whether it started
     */
    bool TryStart(const VclosJobRequest& job);
    /// \param job a placed job whose reconfiguration is over: run it on the executor
    void Launch(uint32_t job);
    /// \param job a job whose ranks all finished
    void Finish(uint32_t job);
    /// \param job a job whose ranks all finished (Finish without the event guard)
    void DoFinish(uint32_t job);
    Ptr<VclosJobExecutor> m_executor;                     //!< how jobs run
    std::shared_ptr<VclosClusterState> m_state;           //!< booked room, with a named policy
    std::shared_ptr<VclosOcsState> m_ocs;                 //!< circuits, with "ocs-vclos"
    Time m_reconfigurationDelay;                          //!< ReconfigurationDelay attribute
    bool m_keepIdleCircuits = false;                      //!< KeepIdleCircuits attribute
    uint32_t m_reconfigurations;                          //!< starts with new circuits
    PlaceFunction m_place;                                //!< policy
    ReleaseFunction m_release;                            //!< policy
    DiagnoseFunction m_diagnose;                          //!< policy: why a job waits (may be null)
    std::shared_ptr<const VclosPlacementPolicy> m_policy; //!< a policy set by name
    std::map<uint32_t, bool> m_everPlaceable;             //!< CanEverPlace per job size
    bool m_backfill;                       //!< try every queued job, not only the head
    std::deque<VclosJobRequest> m_queue;   //!< waiting jobs, in arrival order
    std::map<uint32_t, Running> m_running; //!< by job id
    uint32_t m_finished;                   //!< finished jobs
    TracedValue<uint32_t> m_queueLength;   //!< waiting jobs
    TracedValue<uint32_t> m_busyGpus;      //!< GPUs of running jobs
    TracedCallback<const VclosJobRequest&> m_arrivedTrace; //!< job arrived
    TracedCallback<const VclosJobRequest&, const VclosJobAllocation&> m_startedTrace; //!< started
    TracedCallback<const VclosJobRequest&> m_finishedTrace;             //!< job finished
    TracedCallback<const VclosJobRequest&, bool, Time> m_decisionTrace; //!< policy decision
    TracedCallback<const VclosJobRequest&, VclosPlacementFailure> m_failedTrace; //!< declined
};

} // namespace ns3

#endif /* VCLOS_JOB_SCHEDULER_H */

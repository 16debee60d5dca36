/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef CLUSTER_JOB_SCHEDULER_H
#define CLUSTER_JOB_SCHEDULER_H

#include "ns3/application-container.h"
#include "ns3/cluster-collective-schedule.h"
#include "ns3/cluster-job-executor.h"
#include "ns3/cluster-placement.h"
#include "ns3/cluster-state.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"
#include "ns3/traced-value.h"

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
 * \ingroup cluster
 * \brief The scheduler core: jobs arrive, wait in a FIFO queue, start when the placement
 *        policy finds them room, run on an executor (ClusterJobExecutor: packet level or flow
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
 * cluster (ClusterPlacementPolicy::CanEverPlace): such a job would block a FIFO queue for
 * ever. Every job admitted fits the idle cluster and the policies are monotone, so the head
 * of the queue starts at the latest when every running job has finished: no deadlock. Each
 * declined placement fires PlacementFailed with its cause (not enough free GPUs, GPU
 * fragmentation, network fragmentation).
 *
 * The scheduler knows a policy only through ClusterPlacementPolicy's interface: the policy
 * books what a job holds (Allocate, Release), may hold circuit state of its own
 * (GetCircuitState, handed to the executor with each placement and release) and says how
 * long a placed job waits before it starts (GetStartDelay: VclosOcsPolicy's
 * ReconfigurationDelay when its booking set up a new circuit). The job holds its room from
 * the placement on and starts on the executor after that delay (JobStarted fires then).
 *
 * A job also waits while the executor cannot take it (ClusterJobExecutor::CanStart: the
 * packet level's TCP ports). An error inside an event (a placement that breaks its
 * contract, say) stops the run with SuiteStopRun instead of throwing out of it.
 */
class ClusterJobScheduler : public Object
{
  public:
    /// Place a job: its allocation, or nothing when it must wait.
    using PlaceFunction =
        std::function<std::optional<ClusterJobAllocation>(const ClusterJobRequest&)>;
    /// Release what a job was given.
    using ReleaseFunction = std::function<void(const ClusterJobRequest&)>;
    /// Why a job that was declined must wait.
    using DiagnoseFunction = std::function<ClusterPlacementFailure(const ClusterJobRequest&)>;

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    ClusterJobScheduler();

    /**
     * \brief Set the executor and the placement as functions (no policy object).
     * \param executor how jobs run (its topology is the cluster)
     * \param place the placement function
     * \param release the release function
     * \param diagnose why a declined job waits (null: PlacementFailed is not fired)
     */
    void Setup(Ptr<ClusterJobExecutor> executor,
               PlaceFunction place,
               ReleaseFunction release,
               DiagnoseFunction diagnose = nullptr);

    /**
     * \brief Set the executor and a placement policy, which books GPUs and leaf-spine links
     *        (and whatever else it holds) in a ClusterState of the executor's topology; the
     *        policy is bound to that topology here (ClusterPlacementPolicy::Bind).
     * \param executor how jobs run
     * \param policy the policy (not yet bound)
     */
    void Setup(Ptr<ClusterJobExecutor> executor, Ptr<ClusterPlacementPolicy> policy);

    /**
     * \brief Setup with a policy by name (ClusterCreatePlacementPolicy: its TypeId and
     *        attribute values from ClusterPlacementPolicyNames).
     * \param executor how jobs run
     * \param policyName a name ClusterCreatePlacementPolicy accepts ("ecmp", ..., "vclos")
     */
    void Setup(Ptr<ClusterJobExecutor> executor, const std::string& policyName);

    /// \return the policy set by Setup (null with Setup by functions)
    Ptr<ClusterPlacementPolicy> GetPolicy() const;

    /// \return the executor set by Setup (null before)
    Ptr<ClusterJobExecutor> GetExecutor() const;

    /// \return the cluster (Setup first)
    const ClusterTopology& GetTopology() const;

    /// \return the cluster state of a policy set by name (null with Setup by functions)
    std::shared_ptr<const ClusterState> GetClusterState() const;

    /// \return the policy's circuit state (ClusterPlacementPolicy::GetCircuitState; null
    /// without a policy or for a policy without circuits)
    std::shared_ptr<const ClusterOcsState> GetOcsState() const;

    /// \return jobs whose booking set up at least one new circuit
    uint32_t GetReconfigurations() const;

    /**
     * \brief Submit jobs; each arrives at its submit time. Throws std::invalid_argument for
     * a job of 0 GPUs or more than the fabric's, 0 iterations, a submit time in the past,
     * or (policy set by name) a size the policy can never place.
     * \param jobs the jobs
     */
    void Submit(const std::vector<ClusterJobRequest>& jobs);

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
    typedef void (*JobTracedCallback)(const ClusterJobRequest& job);
    /**
     * TracedCallback signature for a job that starts.
     * \param job the job
     * \param allocation its GPUs and pinned uplinks
     */
    typedef void (*JobStartedTracedCallback)(const ClusterJobRequest& job,
                                             const ClusterJobAllocation& allocation);
    /**
     * TracedCallback signature for placement decisions.
     * \param job the job
     * \param placed whether it got room
     * \param decision wall-clock time the policy took
     */
    typedef void (*DecisionTracedCallback)(const ClusterJobRequest& job,
                                           bool placed,
                                           Time decision);
    /**
     * TracedCallback signature for a declined placement.
     * \param job the job, which keeps waiting
     * \param cause why
     */
    typedef void (*PlacementFailedTracedCallback)(const ClusterJobRequest& job,
                                                  ClusterPlacementFailure cause);

  protected:
    void DoDispose() override;

  private:
    /// A job that runs.
    struct Running
    {
        ClusterJobRequest request;       //!< the job
        ClusterJobAllocation allocation; //!< where it runs
    };

    /// \param job a job that just arrived
    void Arrive(const ClusterJobRequest& job);
    /// Start queued jobs while the policy finds room (FIFO with or without backfilling).
    void Schedule();
    /**
     * \param job a job
     * \return whether it started
     */
    bool TryStart(const ClusterJobRequest& job);
    /// \param job a placed job whose reconfiguration is over: run it on the executor
    void Launch(uint32_t job);
    /// \param job a job whose ranks all finished
    void Finish(uint32_t job);
    /// \param job a job whose ranks all finished (Finish without the event guard)
    void DoFinish(uint32_t job);
    Ptr<ClusterJobExecutor> m_executor;       //!< how jobs run
    std::shared_ptr<ClusterState> m_state;    //!< booked room, with a policy
    uint32_t m_reconfigurations;              //!< starts with new circuits
    PlaceFunction m_place;                    //!< policy
    ReleaseFunction m_release;                //!< policy
    DiagnoseFunction m_diagnose;              //!< policy: why a job waits (may be null)
    Ptr<ClusterPlacementPolicy> m_policy;     //!< the policy (null with functions)
    std::map<uint32_t, bool> m_everPlaceable; //!< CanEverPlace per job size
    bool m_backfill;                          //!< try every queued job, not only the head
    std::deque<ClusterJobRequest> m_queue;    //!< waiting jobs, in arrival order
    std::map<uint32_t, Running> m_running;    //!< by job id
    uint32_t m_finished;                      //!< finished jobs
    TracedValue<uint32_t> m_queueLength;      //!< waiting jobs
    TracedValue<uint32_t> m_busyGpus;         //!< GPUs of running jobs
    TracedCallback<const ClusterJobRequest&> m_arrivedTrace; //!< job arrived
    TracedCallback<const ClusterJobRequest&, const ClusterJobAllocation&>
        m_startedTrace;                                                   //!< started
    TracedCallback<const ClusterJobRequest&> m_finishedTrace;             //!< job finished
    TracedCallback<const ClusterJobRequest&, bool, Time> m_decisionTrace; //!< policy decision
    TracedCallback<const ClusterJobRequest&, ClusterPlacementFailure> m_failedTrace; //!< declined
};

} // namespace ns3

#endif /* CLUSTER_JOB_SCHEDULER_H */

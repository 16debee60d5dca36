/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef CLUSTER_JOB_EXECUTOR_H
#define CLUSTER_JOB_EXECUTOR_H

#include "ns3/cluster-collective-schedule.h"
#include "ns3/cluster-topology.h"
#include "ns3/nstime.h"
#include "ns3/object.h"

#include <functional>
#include <vector>

namespace ns3
{

class ClusterOcsState;

/**
 * \ingroup cluster
 * \brief A training job submitted to the scheduler.
 */
struct ClusterJobRequest
{
    uint32_t id = 0;                                     //!< job id
    uint32_t gpus = 0;                                   //!< GPUs it needs
    Time submit;                                         //!< arrival time
    uint64_t messageBytes = 0;                           //!< bytes all-reduced per iteration
    Time computeTime;                                    //!< compute per iteration
    uint32_t iterations = 1;                             //!< iterations
    ClusterCollectiveAlgorithm algorithm = CLUSTER_RING; //!< collective
};

/**
 * \ingroup cluster
 * \brief Where a placement policy put a job: its GPUs in rank order and, per GPU, the spine
 *        its traffic leaving the leaf must take (-1: the switches' ECMP hash decides).
 *
 * With circuits of its own (OCS-vClos, an OCS layer), `uplinkPort` gives per GPU the leaf
 * uplink port (= OCS) its traffic leaving the leaf takes, and the path of a transfer from
 * GPU a to GPU b on another leaf is: up a's port, then down the port of b's virtual leaf
 * whose circuit reaches a's spine (`uplinkSpine[a]`); when a has no spine (`uplinkSpine[a]`
 * = -1, a leaf-leaf circuit) down b's leaf port `uplinkPort[a]` (leaf A port k -> leaf B
 * port k). Empty `uplinkPort`: no circuits of its own (the static layer, or the fixed
 * full wiring of an OCS layer, ClusterOcsFullWiringUplink).
 */
struct ClusterJobAllocation
{
    std::vector<uint32_t> gpus;        //!< GPUs, in rank order
    std::vector<int32_t> uplinkSpine;  //!< per GPU, pinned spine or -1
    std::vector<int32_t> uplinkPort;   //!< per GPU, its own leaf uplink port or -1 (see above)
    std::vector<uint32_t> virtualLeaf; //!< per GPU, its virtual leaf (with uplinkPort)
    uint32_t circuitsSetUp = 0; //!< circuits its booking set up (reconfiguration delay if > 0)
};

/**
 * \ingroup cluster
 * \brief How placed jobs run: the scheduler (ClusterJobScheduler) decides when and where, an
 *        executor makes the job's iterations happen and says when they are over.
 *
 * Two implementations: CollectivePacketExecutor (every GPU an ns-3 node, collectives as TCP
 * applications, pins as routes) and FluidExecutor (collectives as fluid flows in a
 * FluidEngine over a ClusterTopology). Both run a job as: per iteration, compute, then
 * the collective of ClusterShapeCollective's algorithm; both take their time from the ns-3
 * simulator clock, so trackers see one clock.
 */
class ClusterJobExecutor : public Object
{
  public:
    /// Called once when the job's last iteration has ended on every rank.
    using DoneCallback = std::function<void()>;

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /// \return the cluster the jobs run on
    virtual const ClusterTopology& GetTopology() const = 0;

    /**
     * \param job a job about to be placed
     * \return whether the executor can take it now (the packet level: a free TCP port)
     */
    virtual bool CanStart(const ClusterJobRequest& job);

    /**
     * \brief A job was just placed (before any reconfiguration delay): an executor with real
     *        OCSs programs the circuits now so they are lit when the job starts. Default:
     *        nothing.
     * \param job the job
     * \param allocation where it goes
     * \param ocs the scheduler's circuit state after the job's booking (null without
     *        OCS-vClos)
     */
    virtual void Placed(const ClusterJobRequest& job,
                        const ClusterJobAllocation& allocation,
                        const ClusterOcsState* ocs);

    /**
     * \brief A stopped job's resources were just released: an executor with real OCSs
     *        follows the circuit state (circuits torn down go dark). Default: nothing.
     * \param job the job
     * \param ocs the scheduler's circuit state after the release (null without OCS-vClos)
     */
    virtual void Released(const ClusterJobRequest& job, const ClusterOcsState* ocs);

    /**
     * \brief Run a placed job. Never calls done before returning.
     * \param job the job
     * \param allocation its GPUs in rank order and pinned spines
     * \param done called when its last iteration has ended
     * \return the collective its ranks run (ClusterShapeCollective's choice)
     */
    virtual ClusterCollectiveAlgorithm Start(const ClusterJobRequest& job,
                                             const ClusterJobAllocation& allocation,
                                             DoneCallback done) = 0;

    /**
     * \brief Free what a finished job held (pins, ports); called after done.
     * \param job the job
     * \param allocation where it ran
     */
    virtual void Stop(const ClusterJobRequest& job, const ClusterJobAllocation& allocation);
};

} // namespace ns3

#endif /* CLUSTER_JOB_EXECUTOR_H */

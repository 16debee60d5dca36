/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef VCLOS_JOB_EXECUTOR_H
#define VCLOS_JOB_EXECUTOR_H

#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/vclos-collective-schedule.h"
#include "ns3/vclos-topology.h"

#include <functional>
#include <vector>

namespace ns3
{

class VclosOcsState;

/**
 * \ingroup vclos
 * \brief A training job submitted to the scheduler.
 */
struct VclosJobRequest
{
    uint32_t id = 0;                                 //!< job id
    uint32_t gpus = 0;                               //!< GPUs it needs
    Time submit;                                     //!< arrival time
    uint64_t messageBytes = 0;                       //!< bytes all-reduced per iteration
    Time computeTime;                                //!< compute per iteration
    uint32_t iterations = 1;                         //!< iterations
    VclosCollectiveAlgorithm algorithm = VCLOS_RING; //!< collective
};

/**
 * \ingroup vclos
 * \brief Where a placement policy put a job: its GPUs in rank order and, per GPU, the spine
 *        its traffic leaving the leaf must take (-1: the switches' ECMP hash decides).
 *
 * With circuits of its own (OCS-vClos, an OCS layer), `uplinkPort` gives per GPU the leaf
 * uplink port (= OCS) its traffic leaving the leaf takes, and the path of a transfer from
 * GPU a to GPU b on another leaf is: up a's port, then down the port of b's virtual leaf
 * whose circuit reaches a's spine (`uplinkSpine[a]`); when a has no spine (`uplinkSpine[a]`
 * = -1, a leaf-leaf circuit) down b's leaf port `uplinkPort[a]` (leaf A port k -> leaf B
 * port k). Empty `uplinkPort`: no circuits of its own (the static layer, or the fixed
 * full wiring of an OCS layer, VclosOcsFullWiringUplink).
 */
struct VclosJobAllocation
{
    std::vector<uint32_t> gpus;        //!< GPUs, in rank order
    std::vector<int32_t> uplinkSpine;  //!< per GPU, pinned spine or -1
    std::vector<int32_t> uplinkPort;   //!< per GPU, its own leaf uplink port or -1 (see above)
    std::vector<uint32_t> virtualLeaf; //!< per GPU, its virtual leaf (with uplinkPort)
    uint32_t circuitsSetUp = 0; //!< circuits its booking set up (reconfiguration delay if > 0)
};

/**
 * \ingroup vclos
 * \brief How placed jobs run: the scheduler (VclosJobScheduler) decides when and where, an
 *        executor makes the job's iterations happen and says when they are over.
 *
 * Two implementations: VclosPacketExecutor (every GPU an ns-3 node, collectives as TCP
 * applications, pins as routes) and VclosFlowExecutor (collectives as fluid flows in a
 * VclosFlowEngine over a VclosTopology). Both run a job as: per iteration, compute, then
 * the collective of VclosShapeCollective's algorithm; both take their time from the ns-3
 * simulator clock, so trackers see one clock.
 */
class VclosJobExecutor : public Object
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
    virtual const VclosTopology& GetTopology() const = 0;

    /**
     * \param job a job about to be placed
     * \return whether the executor can take it now (the packet level: a free TCP port)
     */
    virtual bool CanStart(const VclosJobRequest& job);

    /**
     * \brief A job was just placed (before any reconfiguration delay): an executor with real
     *        OCSs programs the circuits now so they are lit when the job starts. Default:
     *        nothing.
     * \param job the job
     * \param allocation where it goes
     * \param ocs the scheduler's circuit state after the job's booking (null without
     *        OCS-vClos)
     */
    virtual void Placed(const VclosJobRequest& job,
                        const VclosJobAllocation& allocation,
                        const VclosOcsState* ocs);

    /**
     * \brief A stopped job's resources were just released: an executor with real OCSs
     *        follows the circuit state (circuits torn down go dark). Default: nothing.
     * \param job the job
     * \param ocs the scheduler's circuit state after the release (null without OCS-vClos)
     */
    virtual void Released(const VclosJobRequest& job, const VclosOcsState* ocs);

    /**
     * \brief Run a placed job. Never calls done before returning.
     * \param job the job
     * \param allocation its GPUs in rank order and pinned spines
     * \param done called when its last iteration has ended
     * \return the collective its ranks run (VclosShapeCollective's choice)
     */
    virtual VclosCollectiveAlgorithm Start(const VclosJobRequest& job,
                                           const VclosJobAllocation& allocation,
                                           DoneCallback done) = 0;

    /**
     * \brief Free what a finished job held (pins, ports); called after done.
     * \param job the job
     * \param allocation where it ran
     */
    virtual void Stop(const VclosJobRequest& job, const VclosJobAllocation& allocation);
};

} // namespace ns3

#endif /* VCLOS_JOB_EXECUTOR_H */

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef COLLECTIVE_PACKET_EXECUTOR_H
#define COLLECTIVE_PACKET_EXECUTOR_H

#include "ns3/application-container.h"
#include "ns3/clos-fabric.h"
#include "ns3/cluster-job-executor.h"
#include "ns3/traced-callback.h"

#include <map>
#include <memory>
#include <optional>
#include <set>

namespace ns3
{

/**
 * \ingroup collective
 * \brief Runs jobs at packet level on a ClosFabric: each job of 2 or more GPUs is one
 *        CollectiveHelper job (TCP applications on its GPUs' nodes), its pinned spines
 *        become source pins on the leaves while it runs, and a one-GPU job only computes.
 *
 * With an OCS layer and OCS-vClos (ClusterJobAllocation::uplinkPort), Placed() makes the
 * fabric's OCSs mirror the scheduler's ClusterOcsState (circuits the booking set up are
 * requested at once, so they are lit after the OCSs' ReconfigurationTime, which should not
 * exceed the scheduler's ReconfigurationDelay; idle circuits the booking tore down are torn
 * down; a finished job's circuits stay up, idle, as in the state). While the job runs each
 * GPU is pinned to its own uplink port on its leaf and, through a spine, each cross-leaf pair
 * to the spine port of the destination's virtual leaf (the flow executor's path).
 *
 * Transport says how ranks move bytes: tcp (the default: TCP sockets) or rdma (RoCEv2 queue
 * pairs, one per peer, CollectiveApp's Transport rdma). With rdma, SetFabric installs a
 * RoceNic on every GPU node (RoceHelper, NIC attributes from their Config defaults:
 * its RateControl, e.g. ns3::Dcqcn, sets the congestion control), so Transport is set
 * before SetFabric. The byte counts and step semantics are the same over both; ECMP hashes each
 * queue pair's UDP 5-tuple as it hashes each TCP connection, and pins act on sources alike.
 *
 * Each job of 2 or more GPUs holds a TCP port (BasePort, BasePort + 1, ...) while it runs;
 * after 65535 the ports of finished jobs are reused in the same cyclic order, never 0, and
 * CanStart says no while every port is held (the job waits rather than share a port). With
 * rdma the port is the job's rdma_cm-like service on the NICs.
 */
class CollectivePacketExecutor : public ClusterJobExecutor
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    CollectivePacketExecutor();

    /// How ranks move bytes.
    enum Transport
    {
        TCP, //!< TCP sockets
        RDMA //!< RoCEv2 queue pairs (RoceNic on every GPU node)
    };

    /**
     * TracedCallback signature for a finished job's bytes.
     * \param job the job id
     * \param sent bytes its ranks handed to the transport, all ranks and iterations
     * \param received bytes its ranks received, all ranks and iterations
     */
    typedef void (*JobBytesTracedCallback)(uint32_t job, uint64_t sent, uint64_t received);

    /**
     * \param fabric the fabric jobs run on (with Transport rdma: every GPU node gets a
     *        RoceNic; bad NIC attributes throw std::invalid_argument with one line)
     */
    void SetFabric(Ptr<ClosFabric> fabric);
    /// \return the transport
    Transport GetTransport() const;
    /// \return the fabric (null before SetFabric)
    Ptr<ClosFabric> GetFabric() const;

    const ClusterTopology& GetTopology() const override;
    bool CanStart(const ClusterJobRequest& job) override;
    void Placed(const ClusterJobRequest& job,
                const ClusterJobAllocation& allocation,
                const ClusterOcsState* ocs) override;
    void Released(const ClusterJobRequest& job, const ClusterOcsState* ocs) override;
    ClusterCollectiveAlgorithm Start(const ClusterJobRequest& job,
                                     const ClusterJobAllocation& allocation,
                                     DoneCallback done) override;
    void Stop(const ClusterJobRequest& job, const ClusterJobAllocation& allocation) override;

  protected:
    void DoDispose() override;

  private:
    /// A running job's ranks.
    struct Running
    {
        uint32_t iterations = 1;      //!< iterations of the job
        uint32_t ranks = 0;           //!< ranks
        uint32_t ranksDone = 0;       //!< ranks that ended the last iteration
        std::optional<uint16_t> port; //!< its connections' port
        ApplicationContainer apps;    //!< its ranks (2 or more GPUs)
        DoneCallback done;            //!< the scheduler's
    };

    /**
     * \brief IterationEnd sink of a job's ranks.
     * \param executor the executor
     * \param job the job id
     * \param rank the rank
     * \param iteration the iteration
     */
    static void RankIterationEnded(Ptr<CollectivePacketExecutor> executor,
                                   uint32_t job,
                                   uint32_t rank,
                                   uint32_t iteration);
    /// \return the next port no running job holds, now held (nothing when all are held)
    std::optional<uint16_t> TakePort();

    Ptr<ClosFabric> m_fabric;                    //!< where jobs run
    std::unique_ptr<ClusterTopology> m_topology; //!< its shape
    uint16_t m_basePort;                         //!< first port of the cycle
    uint32_t m_nextPort;                         //!< where the search for a port starts
    Transport m_transport;                       //!< Transport attribute
    bool m_nicsInstalled;                        //!< rdma: the GPUs have their NICs
    TracedCallback<uint32_t, uint64_t, uint64_t> m_jobBytesTrace; //!< JobBytes
    std::set<uint16_t> m_portsInUse;                              //!< ports of running jobs
    std::map<uint32_t, Running> m_running;                        //!< by job id

    /**
     * \brief Program the OCSs to hold exactly the circuits of a state.
     * \param ocs the scheduler's circuit state
     */
    void MirrorCircuits(const ClusterOcsState& ocs);
    /// \param ocs the scheduler's circuit state, or null: mirror it when the fabric has OCSs
    void FollowCircuits(const ClusterOcsState* ocs);
    /**
     * \brief Pin (or unpin) the spine hop of every cross-leaf pair of an OCS-vClos job.
     * \param allocation the job's allocation
     * \param pin true to pin, false to remove the pins
     */
    void PinSpinePairs(const ClusterJobAllocation& allocation, bool pin);
};

/**
 * \ingroup collective
 * \brief A packet executor on a fabric, for ClusterJobScheduler::Setup.
 * \param fabric the fabric the jobs run on (not null)
 * \return the executor
 */
Ptr<CollectivePacketExecutor> CollectivePacketExecutorOn(Ptr<ClosFabric> fabric);

} // namespace ns3

#endif /* COLLECTIVE_PACKET_EXECUTOR_H */

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef COLLECTIVE_HELPER_H
#define COLLECTIVE_HELPER_H

#include "ns3/application-container.h"
#include "ns3/clos-fabric.h"
#include "ns3/cluster-collective-schedule.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/random-variable-stream.h"

#include <functional>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup collective
 * \brief Installs a collective job: one CollectiveApp per rank, over TCP connections
 *        set up once per job, started together once every connection is up.
 *
 * The job's GPUs are ordered into ranks by RankOrder: topology-aware by default (leaf,
 * then server, then GPU: ascending GPU id), as given, or random. Each Install() uses the
 * next port (Port, Port + 1, ..., 65535; then it refuses) so jobs can share GPUs. Bad
 * input (fewer than 2 GPUs, a GPU outside the fabric or listed twice, M = 0) throws
 * std::invalid_argument or std::out_of_range with one line naming it.
 *
 * Algorithm Ring is RapidNetSim's ring family (ClusterBuildCollectiveSchedule): the helper gives
 * it the length of the runs of consecutive ranks per server when they are all equal, so a
 * job within one server runs the flat ring, a job over equal servers the hierarchical ring,
 * and a job over unequal servers the flat ring (with fusion pairs when N is not a power of
 * two); when every leaf of the job holds the same number of its servers, that number too
 * (the inter-server ring then snakes across leaves). FlatRing is one ring over all ranks.
 *
 * A hierarchical ring needs the same number of GPUs on every server of the job, each
 * server's GPUs consecutive in rank order. A job that does not have them (a packing
 * remainder such as 4 + 2 GPUs, or a job split 3 + 1) runs the ring family (Ring) instead:
 * a warning is logged and GetInstalledAlgorithm() says which ran.
 */
class CollectiveHelper : public Object
{
  public:
    /// How the GPU list becomes a rank order.
    enum RankOrder
    {
        TOPOLOGY, //!< ascending GPU id: leaf, then server, then GPU
        AS_GIVEN, //!< the order of the list
        RANDOM    //!< a random permutation (for comparisons)
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    CollectiveHelper();

    /**
     * \brief Install a job.
     * \param fabric the fabric
     * \param gpus the job's GPUs
     * \return the rank applications, by rank
     */
    ApplicationContainer Install(Ptr<ClosFabric> fabric, const std::vector<uint32_t>& gpus);

    /// \return the GPU of each rank of the last job installed
    const std::vector<uint32_t>& GetRankGpus() const;

    /// \return the collective the last job installed runs (Algorithm, or the ring family
    /// when a hierarchical ring does not fit its servers)
    ClusterCollectiveAlgorithm GetInstalledAlgorithm() const;

    /**
     * \brief The server group size of a hierarchical ring over a rank order, if it has one.
     * \param fabric the fabric
     * \param gpus GPUs in rank order
     * \return the length of the runs of consecutive ranks on one server when all runs have
     *         the same length; 0 otherwise
     */
    static uint32_t EqualServerRuns(Ptr<ClosFabric> fabric, const std::vector<uint32_t>& gpus);

    /**
     * \brief The length of the runs of consecutive GPUs of one group, if they are all equal.
     * \param gpus GPUs in rank order
     * \param groupOf a GPU's group (its server, its leaf)
     * \return the run length, 0 when the runs differ
     */
    static uint32_t EqualRuns(const std::vector<uint32_t>& gpus,
                              const std::function<uint32_t(uint32_t)>& groupOf);

    /**
     * \param stream first random stream (RankOrder RANDOM)
     * \return streams used
     */
    int64_t AssignStreams(int64_t stream);

  private:
    /**
     * \brief Throw, one line, for a job Install() refuses (no port left, bad Transport,
     *        fewer than 2 GPUs, M = 0, a GPU outside the fabric or listed twice, a job over
     *        processes that is not rdma without StepBarrier).
     * \param fabric the fabric
     * \param gpus the job's GPUs
     */
    void CheckJob(Ptr<ClosFabric> fabric, const std::vector<uint32_t>& gpus) const;
    /**
     * \brief Set m_rankGpus: the job's GPUs in RankOrder.
     * \param gpus the job's GPUs
     */
    void OrderRanks(const std::vector<uint32_t>& gpus);
    /**
     * \brief Choose the collective that fits the ranks' servers (m_installedAlgorithm) and
     *        build its schedule.
     * \param fabric the fabric
     * \return one schedule per rank
     */
    std::vector<ClusterRankSchedule> BuildSchedule(Ptr<ClosFabric> fabric);
    /**
     * \brief Create one CollectiveApp per rank on its GPU, started together (and held at
     *        every step with StepBarrier).
     * \param fabric the fabric
     * \param schedule one schedule per rank
     * \return the rank applications, by rank
     */
    ApplicationContainer CreateRankApps(Ptr<ClosFabric> fabric,
                                        const std::vector<ClusterRankSchedule>& schedule) const;

    ClusterCollectiveAlgorithm m_algorithm;          //!< the collective
    ClusterCollectiveAlgorithm m_installedAlgorithm; //!< what the last job runs
    uint64_t m_messageBytes;                         //!< M
    uint64_t m_chunkBytes;                           //!< pipelining unit
    uint32_t m_iterations;                           //!< iterations
    Time m_computeTime;                              //!< compute per iteration
    uint16_t m_port;                                 //!< port of the next job
    Time m_startTime;                                //!< connection set-up begins
    RankOrder m_rankOrder;                           //!< GPU list -> ranks
    std::string m_transport;                         //!< the apps' Transport (tcp, rdma)
    bool m_stepBarrier;                              //!< barrier per step
    std::vector<uint32_t> m_rankGpus;                //!< last job's ranks
    Ptr<UniformRandomVariable> m_rng;                //!< RANDOM order
};

} // namespace ns3

#endif /* COLLECTIVE_HELPER_H */

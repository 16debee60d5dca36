/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef CLUSTER_COLLECTIVE_SCHEDULE_H
#define CLUSTER_COLLECTIVE_SCHEDULE_H

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup cluster
 * \brief Collective algorithms.
 */
enum ClusterCollectiveAlgorithm
{
    CLUSTER_RING,              //!< RapidNetSim's ring family (ring.py): flat ring within one
                               //!< server, hierarchical ring over equal servers, fusion pairs
                               //!< around a power-of-two core when N is not a power of two
    CLUSTER_HIERARCHICAL_RING, //!< intra-server reduce-scatter, inter-server ring all-reduce
                               //!< between equal local indexes, intra-server all-gather
    CLUSTER_HALVING_DOUBLING,  //!< recursive halving (reduce-scatter) then doubling (all-gather)
    CLUSTER_ALL_TO_ALL,        //!< N-1 rounds, rank i sends M to rank (i + r + 1) mod N
    CLUSTER_FLAT_RING          //!< ring all-reduce over all N ranks: reduce-scatter then
                               //!< all-gather, 2(N-1) steps of M/N
};

/**
 * \ingroup cluster
 * \brief One step of one rank: at most one send and one receive.
 *
 * A step's send carries data that earlier receives of the same rank brought (reduced or
 * forwarded): dependsOn lists those steps, every one of them. The send is released chunk by
 * chunk in proportion to the least advanced of them; with none it is released at once.
 */
struct ClusterCollectiveStep
{
    int32_t sendPeer = -1;           //!< rank sent to, -1 for none
    uint64_t sendBytes = 0;          //!< bytes sent
    int32_t recvPeer = -1;           //!< rank received from, -1 for none
    uint64_t recvBytes = 0;          //!< bytes received
    std::vector<uint32_t> dependsOn; //!< earlier steps (with a receive) the send needs
};

/// A rank's steps, in order.
using ClusterRankSchedule = std::vector<ClusterCollectiveStep>;

/**
 * \ingroup cluster
 * \brief Build every rank's steps for one collective.
 *
 * Ranks are positions in the job's ordered GPU list. For CLUSTER_HIERARCHICAL_RING the ranks
 * must come in whole servers of gpusPerServer consecutive ranks.
 *
 * Fusion pairs (after RapidNetSim's ring.py), for CLUSTER_HALVING_DOUBLING and for CLUSTER_RING
 * over more than one server, when N is not a power of two: each extra rank P + j
 * (P = 2^floor(log2 N)) sends its M bytes to core rank j first, the P core ranks run the
 * collective, then j sends the M-byte result back.
 *
 * CLUSTER_RING picks, with g = gpusPerServer (the length of the equal runs of consecutive ranks
 * on one server, 0 when the runs are unequal):
 * - g >= N (one server): the flat ring over all N ranks;
 * - otherwise the core (all N ranks when N is a power of two, else the first P, with fusion
 *   pairs) runs the hierarchical ring when it is at least two whole servers of g >= 1 ranks
 *   (P > g and P % g == 0; g = 1 makes it a flat ring over the servers), and the flat ring
 *   otherwise. With serversPerLeaf = h > 1 (the job's leaves each hold h consecutive
 *   servers) its inter-server ring visits the leaves' servers in a snake (leaf 0 forwards,
 *   leaf 1 backwards, ...), so every hop between leaves joins GPUs of equal index in their
 *   leaf (the closing hop too when the core spans an even number of leaves): with fusion
 *   flows (which also join equal indexes) no leaf-spine link then carries flows of two GPUs.
 *
 * Dependencies: a ring step's send needs the previous step's receive (its chunk arrived
 * there); a halving-doubling step's send needs every earlier receive of the rank (the range
 * it sends was reduced, or gathered, by all of them); an all-to-all send needs none (each
 * rank sends its own data); every send of a core rank with a fusion partner also needs the
 * partner's M bytes, and the result sent back needs every receive of the core.
 * Message bytes need not divide by N: chunks differ by at most a byte.
 *
 * \param algorithm the algorithm
 * \param ranks N, at least 2
 * \param messageBytes M, at least 1: bytes all-reduced, or sent to each peer by all-to-all
 * \param gpusPerServer ranks per server (CLUSTER_HIERARCHICAL_RING, CLUSTER_RING)
 * \param serversPerLeaf servers of gpusPerServer ranks per leaf, leaf-major (CLUSTER_RING)
 * \return one schedule per rank; throws std::invalid_argument on bad input
 */
std::vector<ClusterRankSchedule> ClusterBuildCollectiveSchedule(
    ClusterCollectiveAlgorithm algorithm,
    uint32_t ranks,
    uint64_t messageBytes,
    uint32_t gpusPerServer = 1,
    uint32_t serversPerLeaf = 1);

/**
 * \ingroup cluster
 * \brief Parse an algorithm name: ring, flat-ring, hierarchical-ring, halving-doubling,
 *        all-to-all.
 * \param name the name
 * \param[out] algorithm the algorithm
 * \return true on success
 */
/**
 * \ingroup cluster
 * \brief The length of the runs of consecutive GPUs of one group, if they are all equal.
 * \param gpus GPUs in rank order
 * \param groupOf a GPU's group (its server, its leaf)
 * \return the run length, 0 when the runs differ
 */
uint32_t ClusterEqualRuns(const std::vector<uint32_t>& gpus,
                          const std::function<uint32_t(uint32_t)>& groupOf);

/**
 * \ingroup cluster
 * \brief What a job's ranks run: the algorithm (a hierarchical ring over unequal servers
 *        runs the ring family) and the grouping its schedule is built for. Both engines
 *        call this, so they run the same schedule on the same placement.
 */
struct ClusterCollectiveShape
{
    ClusterCollectiveAlgorithm algorithm = CLUSTER_RING; //!< what runs
    uint32_t gpusPerServer = 0;  //!< ranks per server when all servers hold as many, else 0
    uint32_t serversPerLeaf = 1; //!< servers per leaf of the job, 1 when not uniform
};

/**
 * \ingroup cluster
 * \param requested the job's algorithm
 * \param rankGpus its GPUs in rank order
 * \param serverOf a GPU's server
 * \param leafOf a GPU's leaf
 * \return what runs, and the grouping to build its schedule with
 */
ClusterCollectiveShape ClusterShapeCollective(ClusterCollectiveAlgorithm requested,
                                              const std::vector<uint32_t>& rankGpus,
                                              const std::function<uint32_t(uint32_t)>& serverOf,
                                              const std::function<uint32_t(uint32_t)>& leafOf);

/**
 * \ingroup cluster
 * \param shape a shape
 * \return the same shape with the grouping fields ClusterBuildCollectiveSchedule does not read
 *         for its algorithm zeroed: shapes equal here get the same schedules (a cache key)
 */
ClusterCollectiveShape ClusterScheduleLayout(const ClusterCollectiveShape& shape);

bool ClusterParseCollectiveAlgorithm(const std::string& name,
                                     ClusterCollectiveAlgorithm& algorithm);

/**
 * \ingroup cluster
 * \param algorithm an algorithm
 * \return its name as ClusterParseCollectiveAlgorithm accepts it
 */
std::string ClusterCollectiveAlgorithmName(ClusterCollectiveAlgorithm algorithm);

} // namespace ns3

#endif /* CLUSTER_COLLECTIVE_SCHEDULE_H */

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef VCLOS_COLLECTIVE_SCHEDULE_H
#define VCLOS_COLLECTIVE_SCHEDULE_H

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup vclos
 * \brief Collective algorithms.
 */
enum VclosCollectiveAlgorithm
{
    VCLOS_RING,              //!< ring all-reduce: reduce-scatter then all-gather, 2(N-1) steps
    VCLOS_HIERARCHICAL_RING, //!< intra-server reduce-scatter, inter-server ring all-reduce
                             //!< between equal local indexes, intra-server all-gather
    VCLOS_HALVING_DOUBLING,  //!< recursive halving (reduce-scatter) then doubling (all-gather)
    VCLOS_ALL_TO_ALL         //!< N-1 rounds, rank i sends M to rank (i + r + 1) mod N
};

/**
 * \ingroup vclos
 * \brief One step of one rank: at most one send and one receive.
 *
 * A step's send may start only as its previous step's receive progresses (the data it
 * forwards or reduces has arrived): chunk by chunk when pipelined.
 */
struct VclosCollectiveStep
{
    int32_t sendPeer = -1;        //!< rank sent to, -1 for none
    uint64_t sendBytes = 0;       //!< bytes sent
    int32_t recvPeer = -1;        //!< rank received from, -1 for none
    uint64_t recvBytes = 0;       //!< bytes received
    bool waitsForPrevious = true; //!< the send depends on the previous step's receive
};

/// A rank's steps, in order.
using VclosRankSchedule = std::vector<VclosCollectiveStep>;

/**
 * \ingroup vclos
 * \brief Build every rank's steps for one collective.
 *
 * Ranks are positions in the job's ordered GPU list. For VCLOS_HIERARCHICAL_RING the ranks
 * must come in whole servers of gpusPerServer consecutive ranks. VCLOS_HALVING_DOUBLING
 * with N not a power of two folds each extra rank P + j (P = 2^floor(log2 N)) onto rank j:
 * it sends its M bytes to j first, the P core ranks run halving-doubling, then j sends the
 * M-byte result back. Message bytes need not divide by N: chunks differ by at most a byte.
 *
 * \param algorithm the algorithm
 * \param ranks N, at least 2
 * \param messageBytes M, at least 1: bytes all-reduced, or sent to each peer by all-to-all
 * \param gpusPerServer ranks per server (VCLOS_HIERARCHICAL_RING only)
 * \return one schedule per rank; throws std::invalid_argument on bad input
 */
std::vector<VclosRankSchedule> VclosBuildCollectiveSchedule(VclosCollectiveAlgorithm algorithm,
                                                            uint32_t ranks,
                                                            uint64_t messageBytes,
                                                            uint32_t gpusPerServer = 1);

/**
 * \ingroup vclos
 * \brief Parse an algorithm name: ring, hierarchical-ring, halving-doubling, all-to-all.
 * \param name the name
 * \param[out] algorithm the algorithm
 * \return true on success
 */
bool VclosParseCollectiveAlgorithm(const std::string& name, VclosCollectiveAlgorithm& algorithm);

/**
 * \ingroup vclos
 * \param algorithm an algorithm
 * \return its name as VclosParseCollectiveAlgorithm accepts it
 */
std::string VclosCollectiveAlgorithmName(VclosCollectiveAlgorithm algorithm);

} // namespace ns3

#endif /* VCLOS_COLLECTIVE_SCHEDULE_H */

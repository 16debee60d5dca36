/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef COLLECTIVE_PERMUTATION_HELPER_H
#define COLLECTIVE_PERMUTATION_HELPER_H

#include "ns3/application-container.h"
#include "ns3/clos-fabric.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/roce-qp.h"
#include "ns3/traced-callback.h"

#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup collective
 * \brief Long flows between GPU pairs, with their completion recorded as bytes arrive:
 *        over TCP (Transport tcp: BulkSendApplication to PacketSink, the sinks' Rx trace) or
 *        over RoCEv2 (Transport rdma: one queue pair per flow, one FlowBytes message, bytes
 *        counted by the responder QP's data callback; Install puts a RoceNic on every
 *        GPU of a pair that has none, with the NIC attributes' Config defaults). Each QP has
 *        its own UDP source port, so per-flow ECMP hashes each QP as it hashes each TCP
 *        connection.
 *
 * A permutation is a list of (source GPU, destination GPU) pairs in which every GPU sends
 * at most once and receives at most once: what one step of a ring all-reduce produces.
 */
class CollectivePermutationHelper : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    static constexpr uint64_t MAX_FLOW_BYTES = 10000000000ULL; //!< FlowBytes: 10 GB
    static constexpr uint32_t MAX_SEND_SIZE = 16u << 20;       //!< SendSize: 16 MiB

    CollectivePermutationHelper();

    /// How flows move bytes.
    enum Transport
    {
        TCP, //!< BulkSend over TCP
        RDMA //!< one RoCEv2 RC queue pair per flow
    };

    /// (source GPU, destination GPU)
    using Pair = std::pair<uint32_t, uint32_t>;

    /// What one flow achieved.
    struct FlowResult
    {
        uint32_t src = 0;             //!< source GPU
        uint32_t dst = 0;             //!< destination GPU
        Time start;                   //!< when its sender started
        uint64_t bytes = 0;           //!< bytes received
        Time firstRx;                 //!< first bytes delivered to the sink
        Time lastRx;                  //!< last bytes delivered to the sink
        uint64_t firstChunkBytes = 0; //!< bytes of the first delivery
        bool complete = false;        //!< all FlowBytes arrived
        double goodputBps = 0;        //!< bytes after the first delivery over (lastRx - firstRx)
    };

    /// How flows load the fabric's links.
    struct LinkLoad
    {
        uint32_t maxFlowsPerLink = 0; //!< flows on the busiest link
        double conflictingShare = 0;  //!< share of flows that share a link with another
    };

    /**
     * \brief The link load PinBalanced gives the leaf-shift permutation, derived from the
     *        fabric's shape alone: flow i of a leaf is on spine i mod n, so a spine carries
     *        floor(k/n) or ceil(k/n) of a leaf's k flows, on its uplink and (all k go to
     *        one leaf) on its downlink alike; a NIC link carries one flow.
     * \param flowsPerLeaf k, the flows leaving a leaf (its GPUs), at least 1
     * \param spines n, at least 1
     * \return busiest link ceil(k/n); conflicting share 0 when k <= n, 1 when k >= 2n,
     *         else 2(k mod n)/k (the spines holding two flows)
     */
    static LinkLoad PinnedLinkLoad(uint32_t flowsPerLeaf, uint32_t spines);

    /**
     * \brief The cross-leaf shift permutation: the GPU at position i under leaf l sends to
     *        the GPU at position i under leaf (l + shift) mod leaves.
     * \param fabric the fabric (at least 2 leaves)
     * \param shift leaves to shift by, 1 .. leaves - 1
     * \return the pairs
     */
    static std::vector<Pair> LeafShift(Ptr<const ClosFabric> fabric, uint32_t shift);

    /**
     * \brief Pin every pair to the spine of its source's index in its leaf modulo the
     *        spines: no two pairs of a shift permutation then share a fabric link when
     *        spines >= GPUs per leaf (PinnedLinkLoad gives the load otherwise).
     * \param fabric the fabric
     * \param pairs the permutation
     */
    static void PinBalanced(Ptr<ClosFabric> fabric, const std::vector<Pair>& pairs);

    /// \return 8 segments of the current TcpSocket::SegmentSize default, in bytes
    static uint32_t DefaultSendSize();

    /**
     * \brief Install a sink on every destination and a bulk sender on every source.
     * \param fabric the fabric
     * \param pairs the permutation
     * \return the applications (sinks, then senders)
     */
    ApplicationContainer Install(Ptr<ClosFabric> fabric, const std::vector<Pair>& pairs);

    /// \return the per-flow results so far, in Install order
    const std::vector<FlowResult>& GetResults() const;
    /// \return the latest lastRx of all flows minus StartTime (zero if none finished)
    Time GetCompletionTime() const;
    /// \return the number of flows whose bytes all arrived
    uint32_t GetCompletedFlows() const;

  private:
    /**
     * \brief Throw, one line, unless the pairs are a permutation of the fabric's GPUs whose
     *        ports fit below 65536.
     * \param fabric the fabric
     * \param pairs the permutation
     */
    void CheckPermutation(Ptr<ClosFabric> fabric, const std::vector<Pair>& pairs) const;
    /**
     * \brief Start a new flow's result.
     * \param src source GPU
     * \param dst destination GPU
     * \return the flow index
     */
    uint32_t AddFlow(uint32_t src, uint32_t dst);
    /**
     * \brief Transport rdma: a RoceNic on every GPU of a pair that has none, then one queue
     *        pair per flow, sending FlowBytes at StartTime.
     * \param fabric the fabric
     * \param pairs the permutation
     */
    void InstallRdmaFlows(Ptr<ClosFabric> fabric, const std::vector<Pair>& pairs);
    /**
     * \brief Transport tcp: a PacketSink on every destination, a BulkSend on every source.
     * \param fabric the fabric
     * \param pairs the permutation
     * \return the applications (sinks, then senders)
     */
    ApplicationContainer InstallTcpFlows(Ptr<ClosFabric> fabric, const std::vector<Pair>& pairs);
    /**
     * \brief Count bytes delivered to a flow's receiver.
     * \param flow flow index
     * \param bytes bytes delivered now
     */
    void Delivered(uint32_t flow, uint64_t bytes);
    /**
     * \brief Responder QP data callback (Transport rdma).
     * \param helper the helper
     * \param flow flow index
     * \param qp the responder QP
     * \param bytes in-order bytes delivered
     */
    static void QpReceived(Ptr<CollectivePermutationHelper> helper,
                           uint32_t flow,
                           Ptr<RoceQp> qp,
                           uint32_t bytes);
    /**
     * \brief PacketSink Rx sink.
     * \param helper the helper
     * \param flow flow index
     * \param packet the received data
     * \param from the peer
     */
    static void Received(Ptr<CollectivePermutationHelper> helper,
                         uint32_t flow,
                         Ptr<const Packet> packet,
                         const Address& from);

    uint64_t m_flowBytes;                     //!< bytes per flow
    uint32_t m_sendSize;                      //!< BulkSend write size
    uint16_t m_basePort;                      //!< port of flow 0
    Time m_startTime;                         //!< when senders start
    Transport m_transport;                    //!< Transport attribute
    std::vector<FlowResult> m_results;        //!< per flow
    TracedCallback<uint32_t> m_flowCompleted; //!< a flow's last byte arrived
};

} // namespace ns3

#endif /* COLLECTIVE_PERMUTATION_HELPER_H */

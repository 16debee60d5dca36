/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef COLLECTIVE_APP_H
#define COLLECTIVE_APP_H

#include "ns3/address.h"
#include "ns3/application.h"
#include "ns3/cluster-collective-schedule.h"
#include "ns3/event-id.h"
#include "ns3/ipv4-address.h"
#include "ns3/nstime.h"
#include "ns3/traced-callback.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

class Socket;
class Packet;
class RoceNic;
class RoceQp;

/**
 * \ingroup collective
 * \brief One rank of a collective job: runs its schedule over TCP connections that are
 *        set up once and reused by every iteration.
 *
 * Each iteration computes for ComputeTime, then runs the collective. Progress is
 * data-driven, as in NCCL: a step's send is released chunk by chunk (ChunkBytes) in
 * proportion to the least advanced of the receives it depends on (ClusterCollectiveStep::
 * dependsOn; none: at once); there is no barrier between ranks or steps. A peer's
 * bytes are told apart by their offset in its connection's byte stream, so a fast peer may
 * already send the next iteration. The helper (CollectiveHelper) gives each rank its
 * schedule and peers, and starts all ranks once every connection is up.
 *
 * When its last iteration ends (or the application stops), the rank closes every socket it
 * holds: listener, accepted and connected ones, so a long run of many jobs holds no socket
 * or ns-3 endpoint of a finished job once TCP's close completes. A connection that fails
 * (refused, or no answer to ConnCount SYNs) stops the run with one line naming the rank
 * and peer (SuiteStopRun); nothing throws out of a simulator event.
 */
class CollectiveApp : public Application
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    CollectiveApp();

    /**
     * \brief Give the rank its part of the job.
     * \param rank this rank
     * \param schedule its steps
     * \param peerAddresses the address of every rank's GPU (NIC), by rank
     * \param rankOfAddress every address a peer may connect from -> its rank
     *
     * The two tables are the job's, shared by its ranks (a copy per rank would make a job's
     * memory grow with the square of its ranks).
     */
    void Configure(uint32_t rank,
                   const ClusterRankSchedule& schedule,
                   std::shared_ptr<const std::vector<Ipv4Address>> peerAddresses,
                   std::shared_ptr<const std::map<uint32_t, uint32_t>> rankOfAddress);

    /// \param callback called once every connection of this rank is up
    void SetReadyCallback(Callback<void, uint32_t> callback);

    /// Begin the first iteration (the helper calls it when every rank is ready).
    void StartIterations();

    /// Hold each step's send until ReleaseStep() allows it (barrier-per-step mode).
    void EnableStepBarrier();

    /**
     * \brief Allow the sends of a step of an iteration (barrier-per-step mode); a release for
     *        another iteration than the current one is ignored.
     * \param iteration the iteration
     * \param step the step
     */
    void ReleaseStep(uint32_t iteration, uint32_t step);

    /// \return this rank
    uint32_t GetRank() const;
    /// \return iterations completed
    uint32_t GetCompletedIterations() const;
    /// \return bytes handed to TCP so far, all peers
    uint64_t GetBytesSent() const;
    /// \return bytes received so far, all peers
    uint64_t GetBytesReceived() const;

    /**
     * TracedCallback signature for iteration events.
     * \param rank the rank
     * \param iteration the iteration
     */
    typedef void (*IterationTracedCallback)(uint32_t rank, uint32_t iteration);
    /**
     * TracedCallback signature for step completion.
     * \param rank the rank
     * \param iteration the iteration
     * \param step the step whose receive completed
     */
    typedef void (*StepTracedCallback)(uint32_t rank, uint32_t iteration, uint32_t step);

  protected:
    void DoDispose() override;

  private:
    void StartApplication() override;
    void StopApplication() override;

    /// Outgoing connection to one peer.
    struct PeerOut
    {
        Ptr<Socket> socket;          //!< connected socket (Transport tcp)
        Ptr<RoceQp> qp;              //!< requester queue pair (Transport rdma)
        bool connected = false;      //!< connection established
        std::vector<uint32_t> steps; //!< steps that send to this peer, in order
        uint64_t perIteration = 0;   //!< bytes sent to it per iteration
        uint64_t written = 0;        //!< bytes handed to the socket, all iterations
        std::size_t frontier = 0;    //!< first of `steps` not fully released this iteration
    };

    /// Incoming byte stream from one peer.
    struct PeerIn
    {
        uint64_t perIteration = 0; //!< bytes it sends per iteration
        uint64_t received = 0;     //!< bytes received, all iterations
        bool connected = false;    //!< its connection was accepted
    };

    /// Begin iteration m_iteration: compute, then the collective.
    void BeginIteration();
    /// The compute phase ended: start the collective.
    void BeginCollective();
    /// Account for new data, fire step traces, release sends, detect the end.
    void Progress();
    /**
     * \param step a step index
     * \return bytes of the step's send released by the data received so far
     */
    uint64_t Released(uint32_t step) const;
    /**
     * \param step a step index
     * \return bytes of the step's receive that have arrived in this iteration
     */
    uint64_t Arrived(uint32_t step) const;
    /**
     * \param peer a peer rank
     * \brief Write released bytes to the peer's socket, as its buffer allows.
     */
    void Write(uint32_t peer);
    /// Check whether this rank's connections are all up.
    void CheckReady();
    /// Close every socket (listener, accepted, connected) and drop this rank's hold on them.
    void ReleaseSockets();
    /**
     * \brief The rank cannot go on: release its sockets and stop the run (SuiteStopRun).
     * \param cause what went wrong
     */
    void Fail(const std::string& cause);

    /// Transport rdma: connect the QPs on the node's RoceNic.
    void StartRdma();
    /// Transport rdma: a peer's QP reached this rank.
    void QpAccepted(Ptr<RoceQp> qp, Ipv4Address from);
    /// Transport rdma: in-order bytes from a peer (bound to its PeerIn).
    void QpData(PeerIn* in, Ptr<RoceQp> qp, uint32_t bytes);

    // Socket callbacks.
    void Connected(Ptr<Socket> socket);
    void ConnectFailed(Ptr<Socket> socket);
    bool AcceptRequest(Ptr<Socket> socket, const Address& from);
    void Accepted(Ptr<Socket> socket, const Address& from);
    void DataArrived(Ptr<Socket> socket);
    void SendSpace(Ptr<Socket> socket, uint32_t available);

    /// The transport between ranks.
    enum Transport
    {
        TCP,  //!< TCP sockets
        RDMA, //!< RoCEv2 RC queue pairs (RoceNic)
    };

    Transport m_transport;            //!< Transport attribute
    Ptr<RoceNic> m_nic;               //!< Transport rdma: the node's NIC
    std::vector<Ptr<RoceQp>> m_inQps; //!< Transport rdma: accepted responder QPs

    uint16_t m_port;                    //!< listening port of every rank of the job
    uint64_t m_chunkBytes;              //!< pipelining unit
    uint32_t m_iterations;              //!< iterations to run
    Time m_computeTime;                 //!< compute phase of an iteration
    uint32_t m_rank;                    //!< this rank
    ClusterRankSchedule m_schedule;     //!< its steps
    std::vector<uint64_t> m_sendOffset; //!< per step: offset in its peer's stream, per iteration
    std::vector<uint64_t> m_recvOffset; //!< per step: offset in its peer's stream, per iteration
    std::shared_ptr<const std::vector<Ipv4Address>> m_peerAddresses;     //!< by rank (the job's)
    std::shared_ptr<const std::map<uint32_t, uint32_t>> m_rankOfAddress; //!< address -> rank
    std::map<uint32_t, PeerOut> m_out;                                   //!< by peer rank
    std::map<uint32_t, PeerIn> m_in;                                     //!< by peer rank
    std::map<Ptr<Socket>, uint32_t> m_inSockets; //!< accepted socket -> peer rank
    Ptr<Socket> m_listener;                      //!< listening socket
    Callback<void, uint32_t> m_ready;            //!< ready callback
    bool m_readyReported;                        //!< m_ready called
    uint32_t m_iteration;                        //!< current iteration
    bool m_collectiveRunning;                    //!< between BeginCollective and the end
    uint32_t m_nextStepToComplete;               //!< first step whose receive is pending
    EventId m_computeEvent;                      //!< end of the compute phase
    bool m_stepBarrier;                          //!< sends wait for ReleaseStep
    uint32_t m_releasedStep;                     //!< last step ReleaseStep allowed
    TracedCallback<uint32_t, uint32_t> m_iterationStartTrace;  //!< iteration begins
    TracedCallback<uint32_t, uint32_t> m_collectiveStartTrace; //!< collective begins
    TracedCallback<uint32_t, uint32_t, uint32_t> m_stepTrace;  //!< a step's receive done
    TracedCallback<uint32_t, uint32_t> m_iterationEndTrace;    //!< iteration ends
};

} // namespace ns3

#endif /* COLLECTIVE_APP_H */

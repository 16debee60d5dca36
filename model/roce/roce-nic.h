/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef ROCE_NIC_H
#define ROCE_NIC_H

#include "roce-qp.h"

#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/ipv4-address.h"
#include "ns3/lean-link-tx-time.h"
#include "ns3/nstime.h"
#include "ns3/object-factory.h"
#include "ns3/object.h"

#include <map>
#include <vector>

namespace ns3
{

class Ipv4EndPoint;
class Ipv4Header;
class Ipv4Interface;
class Node;
class UdpL4Protocol;
class RoceHostPath;

/**
 * \ingroup roce
 * \brief A RoCEv2 NIC on a node with the Internet stack: its RC queue pairs, UDP port 4791
 *        and the transmit scheduler (IBTA RoCEv2 annex A17).
 *
 * Data packets leave one at a time: the NIC serves its requester QPs round robin, each no
 * faster than its rate (its RoceRateControl, or line rate) and all together no faster
 * than LineRate, counting every byte a packet takes on the link (IP, UDP, BTH, RETH, pad,
 * WireOverhead). ACKs, NAKs and CNPs go at once, with ControlDscp, and their bytes count
 * too: the line time they take delays the next data packet. The device queue thus holds
 * about one data packet (plus the control packets sent meanwhile), and a NIC that sends and
 * receives at once does not overrun its link by the ACKs' share. Packets carry the QP's UDP
 * source port (so ECMP hashes each QP as one flow). With HostFastPath (the default) the NIC
 * builds their UDP and IPv4 headers itself and hands them to the node's traffic-control layer,
 * and takes its packets from the devices, through a RoceHostPath (same bytes on the wire
 * as the old path); without it they go through the node's UdpL4Protocol and Ipv4L3Protocol,
 * and are received on its UDP endpoint for port 4791 (the one a socket would bind; without
 * the socket's receive queue and tags). Either way the receive side gets the IPv4 header, so
 * the responder sees CE marks. The endpoint is allocated in both modes (the port is taken).
 *
 * Connection management is out of band and instant (as rdma_cm's exchange of QPNs and
 * starting PSNs would be): Connect reserves the responder QP on the peer's NIC, which
 * reports it to its accept callback when the first packet for it arrives.
 *
 * Configuration errors (Validate, Connect) throw std::invalid_argument with one line.
 */
class RoceNic : public Object
{
  public:
    /// How NAKs are suppressed (IBTA Vol. 1 ch. 9, "NakSuppression").
    enum NakSuppression
    {
        NAK_UNTIL_PROGRESS, //!< one NAK per ePSN (the suite's reading of IBTA)
        NAK_INTERVAL,       //!< one NAK per ePSN and NakInterval (HPCC compat)
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    RoceNic();
    ~RoceNic() override;

    /**
     * \brief Check the attributes; throws std::invalid_argument with one line naming the
     *        first bad one. RoceHelper::Install calls it.
     */
    void Validate() const;

    /**
     * \brief Bind UDP port 4791 on the node this NIC is aggregated to (idempotent).
     */
    void Start();

    /**
     * \brief Create a requester QP towards the NIC of the node that owns \p peer, and the
     *        matching responder QP there. Routes must exist (PopulateRoutingTables first).
     * \param peer an IPv4 address of a node with a RoceNic
     * \return the requester QP
     */
    Ptr<RoceQp> Connect(Ipv4Address peer);
    /**
     * \brief Connect to a service of the peer (as an rdma_cm port): the responder is reported
     *        to the accept callback set for \p service on the peer's NIC.
     * \param peer an IPv4 address of a node with a RoceNic
     * \param service the service (0 is the one Connect(peer) uses)
     * \return the requester QP
     */
    Ptr<RoceQp> Connect(Ipv4Address peer, uint16_t service);

    /// Callback reporting a new responder QP and the requester's address.
    using AcceptCallback = Callback<void, Ptr<RoceQp>, Ipv4Address>;
    /// \param cb called when the first packet for a new responder QP arrives, before its data
    void SetAcceptCallback(AcceptCallback cb);
    /**
     * \brief The accept callback of one service; a null callback removes it.
     * \param service the service
     * \param cb called when the first packet for a new responder QP of that service arrives
     */
    void SetAcceptCallback(uint16_t service, AcceptCallback cb);

    /// \return the payload bytes per packet
    uint32_t GetMtu() const;
    /// \return the rate the NIC paces at
    DataRate GetLineRate() const;
    /// \return the QP with number \p qpn, or null
    Ptr<RoceQp> GetQp(uint32_t qpn) const;
    /// \return the number of QPs (requesters and responders)
    uint32_t GetNQps() const;
    /// \return packets dropped on arrival because their DestQP or opcode was unknown
    uint64_t GetUnknownPackets() const;
    /// \return the host fast path (HostFastPath), or null
    Ptr<RoceHostPath> GetHostPath() const;

    /**
     * \brief The UDP source port of a QP pair (IBTA RoCEv2 annex A17, Linux
     *        rdma_calc_flow_label + rdma_flow_label_to_udp_sport).
     * \param localQpn one QPN
     * \param remoteQpn the other
     * \return 0xC000 | the 14-bit fold of the 20-bit flow label
     */
    static uint16_t SourcePort(uint32_t localQpn, uint32_t remoteQpn);

    /// QPNs start here (0 and 1 are the special QPs of InfiniBand).
    static constexpr uint32_t FIRST_QPN = 2;
    /// The largest Mtu with IbMtuOnly=false: a WRITE FIRST (IPv4, UDP, BTH, RETH and the
    /// payload) in one 65,535-byte IPv4 packet
    static constexpr uint32_t MAX_PAYLOAD = 65535 - 20 - 8 - 12 - 16;

  private:
    friend class RoceQp;

    void DoDispose() override;
    void NotifyConstructionCompleted() override;

    /// Create a QP, number it, keep it.
    Ptr<RoceQp> NewQp();
    /// A requester has something to send: run the scheduler if idle.
    void NotifyReady();
    /// Transmit the next data packet of the next QP due, and schedule the one after.
    void TransmitEvent();
    /// Send an ACK, NAK or CNP (BTH on it) with ControlDscp, now; its line time delays the
    /// next data packet. \p ipId: the QP's identification counter on the host path, or null.
    void SendControl(const Ptr<Packet>& packet,
                     Ipv4Address local,
                     Ipv4Address peer,
                     uint16_t sport,
                     uint16_t* ipId);
    /// Send an RoCE packet (BTH on it) from \p local to \p peer, from UDP port \p sport,
    /// with IP TOS \p tos; \p ipId: the QP's identification counter on the host path
    /// (IdentificationCounter), or null.
    void SendPacket(const Ptr<Packet>& packet,
                    Ipv4Address local,
                    Ipv4Address peer,
                    uint16_t sport,
                    uint8_t tos,
                    uint16_t* ipId);
    /// \return the host path's IPv4 identification counter of (\p local, \p peer), or
    ///         null without a host path
    uint16_t* IdentificationCounter(Ipv4Address local, Ipv4Address peer);
    /// A packet arrived on UDP port 4791 (the UDP header removed), from the UDP endpoint.
    void Receive(Ptr<Packet> packet,
                 Ipv4Header header,
                 uint16_t sport,
                 Ptr<Ipv4Interface> incomingInterface);
    /// A packet arrived on UDP port 4791 (the UDP header removed): from the host path, and
    /// from Receive.
    void ReceiveRoce(const Ptr<Packet>& packet,
                     const Ipv4Header& header,
                     uint16_t sport,
                     const Ptr<Ipv4Interface>& incomingInterface);
    /// UdpL4Protocol is disposing of the endpoint.
    void EndPointDestroyed();

    // Attributes.
    uint32_t m_mtu;                 //!< payload bytes per packet
    bool m_ibMtuOnly;               //!< refuse an Mtu that is not an IB path MTU
    uint32_t m_ackInterval;         //!< ACK every this many accepted packets
    Time m_cnpInterval;             //!< at most one CNP per QP per this
    Time m_ackTimeout;              //!< retransmission timer (0: none)
    uint32_t m_retryCount;          //!< timeouts without progress before the QP errors out
    NakSuppression m_nakMode;       //!< NAK suppression
    Time m_nakInterval;             //!< NAK repeat interval in NAK_INTERVAL mode
    std::string m_rateControl;      //!< TypeId name of the rate controller, or ""
    DataRate m_lineRate;            //!< pacing rate (0: the device's DataRate)
    LeanLinkTxTime m_dataTxTime;    //!< TransmitEvent's serialization times, memoized
    LeanLinkTxTime m_controlTxTime; //!< SendControl's (ACKs, NAKs, CNPs), memoized
    uint32_t m_wireOverhead;        //!< link-layer bytes per packet counted for pacing
    uint8_t m_dataDscp;             //!< DSCP of data packets
    uint8_t m_controlDscp;          //!< DSCP of ACK, NAK and CNP
    bool m_ecnCapable;              //!< data packets are ECT(0)
    uint32_t m_initialPsn;          //!< first PSN of every requester
    bool m_hostFastPath;            //!< send and receive through m_hostPath

    ObjectFactory m_rcFactory;                   //!< from m_rateControl
    Ptr<Node> m_node;                            //!< owner
    Ipv4EndPoint* m_endPoint = nullptr;          //!< UDP port 4791 (owned by m_udp)
    bool m_started = false;                      //!< Start succeeded
    Ptr<UdpL4Protocol> m_udp;                    //!< sends with per-QP source ports
    Ptr<RoceHostPath> m_hostPath;                //!< the host fast path, or null
    std::vector<Ptr<RoceQp>> m_qps;              //!< by QPN - FIRST_QPN
    std::vector<RoceQp*> m_requesters;           //!< scheduling order
    std::size_t m_next = 0;                      //!< round-robin position in m_requesters
    EventId m_txEvent;                           //!< next transmit decision
    Time m_txFreeAt;                             //!< when the line is free again (data and
                                                 //!< control packets sent so far)
    std::map<uint16_t, AcceptCallback> m_accept; //!< new responders, by service
    uint64_t m_unknown = 0;                      //!< packets without a QP
    std::vector<uint32_t> m_registered;          //!< addresses this NIC put in the registry
};

} // namespace ns3

#endif /* ROCE_NIC_H */

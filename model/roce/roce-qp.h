/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef ROCE_QP_H
#define ROCE_QP_H

#include "roce-header.h"
#include "roce-rate-control.h"

#include "ns3/callback.h"
#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/ipv4-address.h"
#include "ns3/lean-link-tx-time.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/packet.h"
#include "ns3/traced-callback.h"

#include <deque>

namespace ns3
{

class RoceNic;

/**
 * \ingroup roce
 * \brief One side of a reliable-connected (RC) RoCEv2 queue pair (IBTA RoCEv2 annex A17).
 *
 * A requester QP (RoceNic::Connect) carries RDMA WRITE messages to its peer; the
 * responder QP on the peer's NIC accepts them in PSN order and acknowledges them. Both
 * live on RoceNic, which owns the UDP port 4791, paces the requesters and demultiplexes
 * arriving packets by DestQP. PSNs are 24 bits on the wire; inside they are 64-bit counters
 * (the wire value is the counter modulo 2^24), so wrapping needs no special case.
 *
 * Reliability is go-back-N (IBTA Vol. 1 ch. 9): the responder keeps ePSN, accepts PSN == ePSN,
 * NAKs (sequence error, carrying ePSN) the first PSN > ePSN until ePSN advances, and re-ACKs
 * duplicates. The requester advances snd_una on an ACK, rewinds snd_nxt to the NAK's PSN,
 * and on the retransmission timer (AckTimeout) goes back to snd_una; after RetryCount
 * timeouts without progress the QP enters the error state and stops.
 */
class RoceQp : public Object
{
  public:
    /// Which side of the connection this QP is.
    enum class Role
    {
        REQUESTER, //!< sends RDMA WRITEs
        RESPONDER, //!< receives them and acknowledges
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    RoceQp();
    ~RoceQp() override;

    /// Callback for in-order payload bytes delivered (responder).
    using DataCallback = Callback<void, Ptr<RoceQp>, uint32_t>;
    /// Callback for bytes newly acknowledged (requester).
    using SendCompleteCallback = Callback<void, Ptr<RoceQp>, uint64_t>;

    /**
     * \brief Post one RDMA WRITE message of \p bytes (requester only). Never refused for
     *        space; messages over 2^31 bytes go as several messages.
     * \param bytes the message size (> 0)
     */
    void Send(uint64_t bytes);
    /// \param cb called with the payload bytes of each packet accepted in order (responder)
    void SetDataCallback(DataCallback cb);
    /// \param cb called with the bytes each ACK newly acknowledges (requester)
    void SetSendCompleteCallback(SendCompleteCallback cb);

    /// \return the role
    Role GetRole() const;
    /// \return the local QP number
    uint32_t GetQpn() const;
    /// \return the peer's QP number
    uint32_t GetRemoteQpn() const;
    /// \return the peer's address
    Ipv4Address GetPeer() const;
    /// \return the UDP source port of every packet of this QP (IBTA RoCEv2 annex A17)
    uint16_t GetSourcePort() const;
    /// \return the rate controller, or null (line rate)
    Ptr<RoceRateControl> GetRateControl() const;
    /// \return true after RetryCount timeouts without progress: the QP stopped for good
    bool IsInError() const;

    /// \return bytes posted with Send (requester)
    uint64_t GetBytesPosted() const;
    /// \return bytes acknowledged (requester)
    uint64_t GetBytesAcked() const;
    /// \return payload bytes accepted in order (responder)
    uint64_t GetBytesDelivered() const;
    /// \return payload bytes sent again after a NAK or timeout (requester)
    uint64_t GetRetransmittedBytes() const;
    /// \return NAKs sent (responder) or received (requester)
    uint64_t GetNaks() const;
    /// \return CNPs sent (responder) or received (requester)
    uint64_t GetCnps() const;
    /// \return retransmission timeouts (requester)
    uint64_t GetTimeouts() const;

    /**
     * \brief The 64-bit PSN congruent to \p wire modulo 2^24 nearest to \p reference
     *        (within -2^23 .. 2^23 - 1 of it): the PSN unwrapping rule.
     * \param wire a 24-bit PSN
     * \param reference a 64-bit PSN counter
     * \return the 64-bit PSN
     */
    static uint64_t Unwrap(uint32_t wire, uint64_t reference);

    /// Signature of DataTx: PSN (24 bits), payload bytes, true for a retransmission.
    typedef void (*DataTxTracedCallback)(uint32_t psn, uint32_t bytes, bool retransmission);
    /// Signature of the PSN traces (NAKs, timeouts): the 24-bit PSN.
    typedef void (*PsnTracedCallback)(uint32_t psn);
    /// Signature of RetransmittedBytes: payload bytes of one retransmitted packet.
    typedef void (*BytesTracedCallback)(uint32_t bytes);
    /// Signature of MessageComplete: the message size in bytes.
    typedef void (*MessageTracedCallback)(uint64_t bytes);
    /// Signature of the CNP traces.
    typedef void (*CnpTracedCallback)();

  private:
    friend class RoceNic;

    /// One posted message.
    struct Message
    {
        uint64_t startPsn;  //!< PSN counter of its first packet
        uint64_t startByte; //!< stream offset of its first byte
        uint64_t bytes;     //!< its size
        uint64_t packets;   //!< its packets
    };

    void DoDispose() override;

    /// Set by the NIC at creation.
    void Setup(RoceNic* nic,
               Role role,
               uint32_t qpn,
               uint32_t remoteQpn,
               Ipv4Address local,
               Ipv4Address peer,
               uint64_t initialPsn);
    /// \return true when the requester has a packet to send now or later
    bool HasDataToSend() const;
    /// \return the earliest time its rate allows the next packet
    Time GetNextAllowed() const;
    /**
     * \brief Put the packet at snd_nxt on the wire (the NIC decides when).
     * \return its bytes on the wire, headers and WireOverhead included
     */
    uint32_t TransmitNext();
    /// A data packet for the responder, its BTH removed, with its IP TOS.
    void ReceiveData(Ptr<Packet> packet, const RoceBth& bth, uint8_t tos);
    /// An ACKNOWLEDGE for the requester, its BTH removed.
    void ReceiveAck(Ptr<Packet> packet, const RoceBth& bth);
    /// A CNP for the requester.
    void ReceiveCnp();

    void SendAck(uint8_t syndrome, uint64_t psn);
    void SendCnp();
    /// Move snd_una to \p una (> snd_una): complete messages, call back, restart the timer.
    void Advance(uint64_t una);
    /// Stream bytes before PSN counter \p psn.
    uint64_t BytesBefore(uint64_t psn) const;
    /// Point m_txMsg at the message holding m_sndNxt.
    void SeekTxMessage();
    void ArmTimer();
    void DisarmTimer();
    void OnTimeout();
    void StopRateControl();

    RoceNic* m_nic = nullptr;      //!< owner (not counted: it owns this QP)
    Role m_role = Role::REQUESTER; //!< side
    uint32_t m_qpn = 0;            //!< local QPN
    uint32_t m_remoteQpn = 0;      //!< peer QPN
    Ipv4Address m_local;           //!< local address (source of its packets)
    Ipv4Address m_peer;            //!< peer address
    uint16_t m_sport = 0;          //!< UDP source port
    uint16_t* m_ipId = nullptr;    //!< the host path's IPv4 identification counter of
                                   //!< (m_local, m_peer), shared by the QPs between them;
                                   //!< null without a host path
    uint32_t m_mtu = 4096;         //!< payload per packet (copied from the NIC)
    bool m_error = false;          //!< stopped after too many timeouts

    // Requester.
    std::deque<Message> m_msgs;          //!< posted, not yet fully acknowledged
    std::size_t m_txMsg = 0;             //!< index in m_msgs of the message holding snd_nxt
    uint64_t m_sndUna = 0;               //!< oldest unacknowledged PSN
    uint64_t m_sndNxt = 0;               //!< next PSN to send
    uint64_t m_sndMax = 0;               //!< one past the highest PSN ever sent
    uint64_t m_postedPsn = 0;            //!< one past the last posted PSN
    uint64_t m_bytesPosted = 0;          //!< stream bytes posted
    uint64_t m_bytesAcked = 0;           //!< stream bytes acknowledged
    Time m_nextAllowed;                  //!< rate pacing
    LeanLinkTxTime m_pacingTxTime;       //!< pacing times, memoized
    EventId m_timer;                     //!< retransmission timer event (may be early)
    Time m_timerDeadline;                //!< when the armed timer expires
    bool m_timerArmed = false;           //!< the retransmission timer is armed
    uint32_t m_retries = 0;              //!< timeouts since the last progress
    Ptr<RoceRateControl> m_rc;           //!< optional rate controller
    bool m_rcRunning = false;            //!< between Start and Stop
    SendCompleteCallback m_sendComplete; //!< bytes acknowledged

    // Responder.
    uint64_t m_ePsn = 0;         //!< expected PSN
    uint32_t m_msn = 0;          //!< messages completed
    uint32_t m_sinceAck = 0;     //!< accepted packets since the last ACK
    bool m_nakSent = false;      //!< a NAK for m_ePsn is out
    Time m_lastNak;              //!< when it went
    Time m_lastCnp;              //!< when the last CNP went
    bool m_cnpSentOnce = false;  //!< a CNP was ever sent
    bool m_accepted = false;     //!< the NIC reported this QP to its accept callback
    uint16_t m_service = 0;      //!< the service the requester connected to
    uint64_t m_delivered = 0;    //!< payload bytes accepted
    DataCallback m_dataCallback; //!< payload accepted

    uint64_t m_retxBytes = 0; //!< payload bytes retransmitted
    uint64_t m_naks = 0;      //!< NAKs sent/received
    uint64_t m_cnps = 0;      //!< CNPs sent/received
    uint64_t m_timeouts = 0;  //!< timer expiries

    TracedCallback<uint32_t, uint32_t, bool> m_dataTxTrace; //!< data packet sent
    TracedCallback<uint32_t> m_retxTrace;                   //!< bytes retransmitted
    TracedCallback<uint32_t> m_nakTrace;                    //!< NAK sent / received
    TracedCallback<> m_cnpSentTrace;                        //!< CNP sent
    TracedCallback<> m_cnpRxTrace;                          //!< CNP received
    TracedCallback<uint64_t> m_messageTrace;                //!< message acknowledged
    TracedCallback<uint32_t> m_timeoutTrace;                //!< retransmission timeout
};

} // namespace ns3

#endif /* ROCE_QP_H */

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef PFC_NET_DEVICE_H
#define PFC_NET_DEVICE_H

#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/mac48-address.h"
#include "ns3/net-device.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/random-variable-stream.h"
#include "ns3/traced-callback.h"

#include <array>
#include <deque>
#include <string>
#include <vector>

namespace ns3
{

class PfcChannel;
class PfcSwitchBuffer;

/**
 * \ingroup pfc
 * \brief A full-duplex Ethernet port with 8 priorities, 802.1Qbb PFC and DCQCN-style ECN
 *        marking (DCQCN paper, section 3), modelled on PointToPointNetDevice.
 *
 * Frames carry a real Ethernet II header (EtherType 0x0800 for IPv4); a frame of F bytes
 * (header included) occupies the wire for max(F, 60) + FrameOverhead bytes at DataRate (FCS,
 * preamble, SFD and inter-frame gap; 24 bytes by default) and reaches the far end Delay after
 * its last bit. The priority of an IPv4 packet comes from its DSCP (DscpMap; unmapped DSCPs
 * go to DefaultPriority); other EtherTypes use DefaultPriority. The egress scheduler serves
 * pending PFC frames first (never paused, not queued behind data), then ControlPriority
 * (strict), then the other priorities per packet in round robin, skipping paused ones; a
 * pause never cuts the frame in flight.
 *
 * On a switch (SetSwitchBuffer) the switch's PfcSwitchBuffer admits every frame that
 * arrived on one of its ports and sends the PFC frames; without one (a NIC) the data
 * priorities share QueueLimit bytes. A received PFC frame pauses the priorities it names for
 * quanta * 512 bit times (PauseSemantics Timed) or until its XON (XonXoff); quanta 0 resumes.
 *
 * ECN (EcnEnabled): the data priorities mark CE with probability 0 at q <= EcnKmin,
 * EcnPmax * (q - EcnKmin) / (EcnKmax - EcnKmin) up to EcnKmax and 1 above, q the
 * instantaneous bytes of the packet's priority queue: before the packet is added (MarkPoint
 * Enqueue) or after it is removed (Dequeue). Only ECT packets are marked unless
 * EcnRequiresEct is false; the control priority never is.
 *
 * Traces: MacTx, MacTxDrop, MacRx, PhyTxBegin and PhyTxEnd (the IPv4 packet, without the
 * Ethernet header, as ClosLinkLoadTracker reads it; for PFC frames the whole frame),
 * PhyRxEnd, Sniffer and PromiscSniffer (whole frames, for pcap), PfcTx and PfcRx
 * (priority, quanta), EcnMark.
 */
class PfcNetDevice : public NetDevice
{
  public:
    static constexpr uint32_t PRIORITIES = 8;          //!< priorities of a port
    static constexpr uint16_t ETHERTYPE_IPV4 = 0x0800; //!< IPv4

    /// When ECN marking looks at the queue.
    enum MarkPoint
    {
        ENQUEUE, //!< the arriving packet, on the queue before it
        DEQUEUE  //!< the departing packet, on the queue after it (HPCC)
    };

    /// What a PFC time means.
    enum PauseSemantics
    {
        TIMED,   //!< pause for quanta * 512 bit times unless resumed ([BOB], 802.1Qbb)
        XON_XOFF //!< pause until an XON frame, the time is ignored (HPCC)
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    PfcNetDevice();

    /**
     * \brief Attach the device to a cable (brings the link up).
     * \param channel the channel
     * \return true
     */
    bool Attach(Ptr<PfcChannel> channel);

    /**
     * \brief Called by the channel when a frame's last bit arrives.
     * \param packet the frame
     */
    void Receive(Ptr<Packet> packet);

    /**
     * \brief Make the device a port of a switch buffer (PfcSwitchBuffer::AddPort).
     * \param buffer the buffer (not owned: the node keeps it)
     * \param port the port index
     */
    void SetSwitchBuffer(PfcSwitchBuffer* buffer, uint32_t port);

    /**
     * \brief Send a PFC frame for one priority ahead of all data.
     * \param priority the priority
     * \param quanta the pause time (0: XON)
     */
    void SendPfc(uint8_t priority, uint16_t quanta);

    /// Throw std::invalid_argument, one line, for the first inconsistent attribute.
    void Validate() const;

    /**
     * \brief Use a random stream for ECN marking.
     * \param stream the stream index
     * \return the number of streams used (1)
     */
    int64_t AssignStreams(int64_t stream);

    /// \return the data rate
    DataRate GetDataRate() const;
    /// \return the cable's propagation delay (0 when detached)
    Time GetChannelDelay() const;
    /**
     * \param packet an IPv4 packet (IP header first)
     * \return its priority
     */
    uint8_t GetPriority(Ptr<const Packet> packet) const;
    /**
     * \param priority a priority
     * \return the bytes queued at that priority
     */
    uint64_t GetQueueBytes(uint8_t priority) const;
    /// \return true while the priority is paused by the peer
    bool IsPaused(uint8_t priority) const;
    /// \return XOFF frames sent at a priority (refreshes included)
    uint64_t GetPausesSent(uint8_t priority) const;
    /// \return XON frames sent at a priority
    uint64_t GetResumesSent(uint8_t priority) const;
    /// \return XOFF frames received at a priority
    uint64_t GetPausesReceived(uint8_t priority) const;
    /// \return time the priority has spent paused (until now)
    Time GetPausedTime(uint8_t priority) const;
    /// \return frames dropped at this egress (switch admission or QueueLimit, link down)
    uint64_t GetDrops() const;
    /// \return packets marked CE here
    uint64_t GetEcnMarks() const;

    /// PFC callback: priority, quanta.
    typedef void (*PfcTracedCallback)(uint8_t priority, uint16_t quanta);

    // NetDevice
    void SetIfIndex(const uint32_t index) override;
    uint32_t GetIfIndex() const override;
    Ptr<Channel> GetChannel() const override;
    void SetAddress(Address address) override;
    Address GetAddress() const override;
    bool SetMtu(const uint16_t mtu) override;
    uint16_t GetMtu() const override;
    bool IsLinkUp() const override;
    void AddLinkChangeCallback(Callback<void> callback) override;
    bool IsBroadcast() const override;
    Address GetBroadcast() const override;
    bool IsMulticast() const override;
    Address GetMulticast(Ipv4Address multicastGroup) const override;
    Address GetMulticast(Ipv6Address addr) const override;
    bool IsPointToPoint() const override;
    bool IsBridge() const override;
    bool Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber) override;
    bool SendFrom(Ptr<Packet> packet,
                  const Address& source,
                  const Address& dest,
                  uint16_t protocolNumber) override;
    Ptr<Node> GetNode() const override;
    void SetNode(Ptr<Node> node) override;
    bool NeedsArp() const override;
    void SetReceiveCallback(NetDevice::ReceiveCallback cb) override;
    void SetPromiscReceiveCallback(PromiscReceiveCallback cb) override;
    bool SupportsSendFrom() const override;

  protected:
    void DoDispose() override;

  private:
    /// A queued frame.
    struct Item
    {
        Ptr<Packet> packet; //!< the packet (no Ethernet header yet)
        uint16_t protocol;  //!< its EtherType
        uint32_t ingress;   //!< switch ingress port or PfcSwitchBuffer::NO_PORT
        uint32_t bytes;     //!< bytes accounted (packet + Ethernet header)
    };

    /**
     * \brief Parse "dscp:priority,..." into m_dscpToPriority (throws std::invalid_argument).
     * \param text the map
     */
    void SetDscpMap(std::string text);
    /// \return the DscpMap text
    std::string GetDscpMap() const;
    /// Start the next frame if the wire is free.
    void TransmitNext();
    /**
     * \brief Put a frame on the wire.
     * \param frame the frame (Ethernet header on top)
     */
    void TransmitFrame(Ptr<Packet> frame);
    /// The frame on the wire has left.
    void TransmitComplete();
    /**
     * \brief Mark CE with p(q) if the packet is ECT (or marking does not require it).
     * \param packet the IPv4 packet
     * \param queueBytes q
     */
    void MaybeMark(Ptr<Packet> packet, uint64_t queueBytes);
    /**
     * \brief A PFC frame arrived.
     * \param frame the frame without its Ethernet header
     */
    void ReceivePfc(Ptr<Packet> frame);
    /**
     * \brief End a pause.
     * \param priority the priority
     */
    void Resume(uint8_t priority);
    /// \return the peer's MAC address (broadcast when detached)
    Mac48Address GetRemote() const;

    Ptr<Node> m_node;                         //!< node
    Ptr<PfcChannel> m_channel;                //!< cable
    uint32_t m_ifIndex;                       //!< interface index
    Mac48Address m_address;                   //!< MAC address
    uint16_t m_mtu;                           //!< IP MTU
    bool m_linkUp;                            //!< attached
    DataRate m_bps;                           //!< rate
    uint32_t m_frameOverhead;                 //!< FCS + preamble + gap bytes
    uint32_t m_controlPriority;               //!< strict-priority class
    uint32_t m_defaultPriority;               //!< priority of unmapped DSCPs
    std::array<uint8_t, 64> m_dscpToPriority; //!< DSCP -> priority
    std::string m_dscpMapText;                //!< DscpMap as set
    uint64_t m_queueLimit;                    //!< NIC data bytes limit
    PauseSemantics m_pauseSemantics;          //!< pause time meaning
    bool m_ecnEnabled;                        //!< mark ECN
    uint64_t m_ecnKmin;                       //!< Kmin bytes
    uint64_t m_ecnKmax;                       //!< Kmax bytes
    double m_ecnPmax;                         //!< Pmax
    MarkPoint m_markPoint;                    //!< enqueue or dequeue
    bool m_ecnRequiresEct;                    //!< only ECT packets are marked
    Ptr<UniformRandomVariable> m_rng;         //!< marking draws

    PfcSwitchBuffer* m_buffer; //!< the switch's MMU (null on a NIC)
    uint32_t m_port;           //!< port index in m_buffer

    std::array<std::deque<Item>, PRIORITIES> m_queues; //!< egress queues
    std::array<uint64_t, PRIORITIES> m_queueBytes;     //!< bytes per queue
    uint64_t m_dataBytes;                              //!< bytes of the data queues
    std::deque<Ptr<Packet>> m_pfcFrames;               //!< PFC frames to send
    uint32_t m_nextRoundRobin;                         //!< next data priority to serve
    bool m_txBusy;                                     //!< a frame is on the wire
    Ptr<Packet> m_txPacket;                            //!< what PhyTxEnd reports

    std::array<bool, PRIORITIES> m_paused;          //!< paused by the peer
    std::array<Time, PRIORITIES> m_pauseStart;      //!< when the current pause began
    std::array<Time, PRIORITIES> m_pausedTime;      //!< finished pauses' total
    std::array<EventId, PRIORITIES> m_resumeEvent;  //!< timed pause end
    std::array<uint64_t, PRIORITIES> m_pausesSent;  //!< XOFF frames sent
    std::array<uint64_t, PRIORITIES> m_resumesSent; //!< XON frames sent
    std::array<uint64_t, PRIORITIES> m_pausesRx;    //!< XOFF frames received
    uint64_t m_drops;                               //!< frames dropped here
    uint64_t m_ecnMarks;                            //!< CE marks

    NetDevice::ReceiveCallback m_rxCallback;             //!< up-call
    NetDevice::PromiscReceiveCallback m_promiscCallback; //!< promiscuous up-call
    TracedCallback<> m_linkChangeCallbacks;              //!< link state changes

    TracedCallback<Ptr<const Packet>> m_macTxTrace;          //!< MacTx
    TracedCallback<Ptr<const Packet>> m_macTxDropTrace;      //!< MacTxDrop
    TracedCallback<Ptr<const Packet>> m_macRxTrace;          //!< MacRx
    TracedCallback<Ptr<const Packet>> m_phyTxBeginTrace;     //!< PhyTxBegin
    TracedCallback<Ptr<const Packet>> m_phyTxEndTrace;       //!< PhyTxEnd
    TracedCallback<Ptr<const Packet>> m_phyTxDropTrace;      //!< PhyTxDrop (never fired)
    TracedCallback<Ptr<const Packet>> m_phyRxEndTrace;       //!< PhyRxEnd
    TracedCallback<Ptr<const Packet>> m_snifferTrace;        //!< Sniffer
    TracedCallback<Ptr<const Packet>> m_promiscSnifferTrace; //!< PromiscSniffer
    TracedCallback<uint8_t, uint16_t> m_pfcTxTrace;          //!< PfcTx
    TracedCallback<uint8_t, uint16_t> m_pfcRxTrace;          //!< PfcRx
    TracedCallback<Ptr<const Packet>> m_ecnMarkTrace;        //!< EcnMark
};

} // namespace ns3

#endif /* PFC_NET_DEVICE_H */

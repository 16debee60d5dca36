/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef LEAN_LINK_NET_DEVICE_H
#define LEAN_LINK_NET_DEVICE_H

#include "lean-link-ecn-mark.h"
#include "lean-link-egress-clock.h"
#include "lean-link-tx-time.h"

#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/mac48-address.h"
#include "ns3/net-device.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/queue-fwd.h"
#include "ns3/traced-callback.h"

namespace ns3
{

class ErrorModel;
class Node;
class Packet;
class LeanLinkChannel;

/**
 * \ingroup lean-link
 * \brief A point-to-point device that puts the same frames on the wire at the same times as
 *        ns-3's PointToPointNetDevice (PPP header, DataRate, InterframeGap, a device queue
 *        TxQueue, NetDeviceQueueInterface flow control) with one event per frame instead of
 *        two (a speed requirement; doc/lean-link/lean-link.rst, "Device and channel").
 *
 * PointToPointNetDevice schedules a TransmitComplete event at the end of every frame (plus
 * the interframe gap), which starts the next queued frame; this device keeps the end of the
 * current frame as a time (busy until) instead. A frame sent when the transmitter is idle
 * and the device queue is empty starts at once, and the only event is the receive at the
 * peer. Only a frame that has to wait behind one on the wire makes the device schedule a
 * completion at the busy-until time; that completion starts the next queued frame, exactly
 * as TransmitComplete does, and schedules itself again while frames wait.
 *
 * Kept from PointToPointNetDevice: attributes Mtu, Address, DataRate, ReceiveErrorModel,
 * InterframeGap, TxQueue; trace sources MacTx, MacTxDrop, MacPromiscRx, MacRx, PhyTxBegin,
 * PhyTxEnd, PhyTxDrop, PhyRxEnd, PhyRxDrop, Sniffer, PromiscSniffer (same names, same
 * signature, same points), pcap as DLT_PPP through the PromiscSniffer source. PhyTxEnd
 * needs an event at every frame's end: while a sink is connected to it the device schedules
 * the completion for every frame (as PointToPointNetDevice does) and fires PhyTxEnd there.
 *
 * Not kept: equal-time ties. A frame sent at exactly the instant the previous one ends
 * starts at once here; PointToPointNetDevice starts it at the same instant too, but if the
 * send runs before its TransmitComplete event the frame first sits in the device queue
 * until that event (same time). See the documentation for what this can change.
 *
 * **Egress=Clock** (doc/lean-link/lean-link.rst, "Clock ports"): no device queue
 * and no event at the sender at all. A FIFO port's frame starts when the frames before it
 * have ended, so Send gives each frame its start time at once (max(now, busy until)) and
 * schedules only its arrival at the peer. A LeanLinkEgressClock keeps the frames not yet
 * started, which is the port's queue: a frame that would take it over EgressMaxSize is
 * dropped (MacTxDrop), and with EcnEnabled an IPv4 frame is marked CE on arrival by the
 * curve EcnKmin/EcnKmax/EcnPmax read at that queue length (LeanLinkMaybeMarkCe; units of
 * EgressMaxSize). The device is then its own queue: put no queue disc on it (not checked;
 * a queue disc above would only see an empty, never-stopped device). The frames and
 * their times on the wire are those of Egress=Queue with an unbounded device queue; the
 * arrival events are scheduled earlier (at admission), so a receiver that gets two frames at
 * the same instant may take them in the other order. While a
 * sink is connected to a start-of-frame trace source (Sniffer, PromiscSniffer, PhyTxBegin,
 * PhyTxEnd, the channel's TxRxPointToPoint), the device schedules an event at each frame's
 * start (and PhyTxEnd's at its end) and fires them there, at their own times. Not kept: a
 * link that goes down does not take back frames already given a start time.
 */
class LeanLinkNetDevice : public NetDevice
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    LeanLinkNetDevice();
    ~LeanLinkNetDevice() override;
    LeanLinkNetDevice(const LeanLinkNetDevice&) = delete;
    LeanLinkNetDevice& operator=(const LeanLinkNetDevice&) = delete;

    /// \param maxSize Egress=Clock: frames beyond it wait for nothing (they are dropped)
    void SetEgressMaxSize(QueueSize maxSize);
    /// \return Egress=Clock: the backlog limit
    QueueSize GetEgressMaxSize() const;

    /// \param bps the line rate
    void SetDataRate(DataRate bps);
    /// \return the line rate
    DataRate GetDataRate() const;
    /// \param t the gap the transmitter waits after every frame
    void SetInterframeGap(Time t);

    /**
     * \brief Attach to a channel; the device is up from then on (as PointToPointNetDevice).
     * \param channel the channel
     * \return true
     */
    bool Attach(Ptr<LeanLinkChannel> channel);

    /// \param queue the device (transmit) queue
    void SetQueue(Ptr<Queue<Packet>> queue);
    /// \return the device (transmit) queue
    Ptr<Queue<Packet>> GetQueue() const;
    /// \param em the receive error model
    void SetReceiveErrorModel(Ptr<ErrorModel> em);

    /**
     * \brief A frame arrives whole from the channel (PointToPointNetDevice::Receive).
     * \param packet the frame, PPP header on top (the receive event's reference: copied
     *        first if anyone else holds the frame)
     */
    void Receive(const Ptr<Packet>& packet);

    /// \return when the transmitter is free again (end of the last frame plus the gap)
    Time GetBusyUntil() const;

    /// How frames wait for the wire.
    enum Egress
    {
        QUEUE, //!< in the device queue (TxQueue), started by an event at each frame's end
        CLOCK  //!< each given its start time when it arrives (LeanLinkEgressClock): no queue
    };

    /// \return the egress model (the Egress attribute)
    Egress GetEgress() const;

    /// \return Egress=Clock: the frames waiting for the wire (started ones are not counted)
    const LeanLinkEgressClock& GetEgressClock() const;

    /// \return Egress=Clock: the packets marked CE so far
    uint64_t GetEcnMarks() const;

    /**
     * \brief Use a fixed stream for the ECN ramp's draws (Egress=Clock).
     * \param stream the first stream
     * \return the streams used (1)
     */
    int64_t AssignStreams(int64_t stream);

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

  private:
    void DoDispose() override;

    /// \return true while a frame (or the gap after it) is on the wire or a completion is due
    bool IsBusy() const;

    /**
     * \brief Put a frame on the wire now (PointToPointNetDevice::TransmitStart).
     * \param packet the frame
     * \return false if the channel has no other end
     */
    bool TransmitStart(const Ptr<Packet>& packet);

    /// Add the PPP header for the protocol and fire MacTx (as PointToPointNetDevice::Send).
    void AddFraming(const Ptr<Packet>& packet, uint16_t protocolNumber);

    /// Egress=Clock: give the frame its start time now; schedule its arrival at the peer.
    bool SendClocked(const Ptr<Packet>& packet, uint16_t protocolNumber);

    /// Egress=Clock, start-of-frame traces connected: the frame's start, at its start time.
    void StartClocked(const Ptr<Packet>& packet, Time txTime);

    /// \return Egress=Clock: true if a trace source must see the frame at its start time
    bool IsStartTraced() const;

    /// Egress=Clock, a PhyTxEnd sink connected: the frame's end.
    void EndClocked(const Ptr<Packet>& packet);

    /// The end of the frame on the wire: start the next queued one
    /// (PointToPointNetDevice::TransmitComplete).
    void Complete();

    /// Schedule Complete at the busy-until time unless it is already scheduled.
    void ScheduleCompletion();

    /**
     * \brief Deliver a frame this device owns alone (Receive, after the copy if any).
     * \param packet the frame, PPP header on top
     */
    void Deliver(const Ptr<Packet>& packet);

    /// \return the address of the other end (as PointToPointNetDevice::GetRemote)
    const Address& GetRemote() const;

    /// \param address the MAC address (the Address attribute and SetAddress set it here)
    void SetMacAddress(Mac48Address address);
    /// \return the MAC address
    Mac48Address GetMacAddress() const;

    DataRate m_bps;                          //!< line rate
    LeanLinkTxTime m_txTime;                 //!< serialization times at m_bps, memoized
    Time m_tInterframeGap;                   //!< gap after every frame
    Time m_busyUntil;                        //!< end of the last frame plus the gap
    EventId m_completion;                    //!< the pending Complete, if any
    Ptr<Packet> m_currentPkt;                //!< the frame on the wire (kept only for PhyTxEnd)
    Ptr<LeanLinkChannel> m_channel;          //!< the cable
    Ptr<Queue<Packet>> m_queue;              //!< device queue
    Ptr<ErrorModel> m_receiveErrorModel;     //!< receive errors
    Ptr<Node> m_node;                        //!< owner
    Mac48Address m_address;                  //!< MAC address (unused on the wire)
    Address m_addressAsAddress;              //!< m_address as an Address, built when set
    NetDevice::ReceiveCallback m_rxCallback; //!< up the stack
    NetDevice::PromiscReceiveCallback m_promiscCallback; //!< promiscuous receive
    uint32_t m_ifIndex;                                  //!< interface index
    bool m_linkUp;                                       //!< attached to a channel
    TracedCallback<> m_linkChangeCallbacks;              //!< link change callbacks
    uint32_t m_mtu;                                      //!< MTU
    Egress m_egress;                                     //!< how frames wait
    LeanLinkEgressClock m_clock;                         //!< Egress=Clock: the backlog
    bool m_ecnEnabled;                                   //!< Egress=Clock: mark CE
    uint64_t m_ecnKmin;                                  //!< Egress=Clock: curve's Kmin
    uint64_t m_ecnKmax;                                  //!< Egress=Clock: curve's Kmax
    double m_ecnPmax;                                    //!< Egress=Clock: curve's Pmax
    bool m_ecnRequiresEct;                               //!< Egress=Clock: only ECT marked
    Ptr<UniformRandomVariable> m_rng;                    //!< the ramp's draws (made at need)
    int64_t m_rngStream;                                 //!< its stream (-1: automatic)
    uint64_t m_ecnMarks;                                 //!< packets marked CE
    TracedCallback<Ptr<const Packet>> m_ecnMarkTrace;    //!< EcnMark

    TracedCallback<Ptr<const Packet>> m_macTxTrace;          //!< MacTx
    TracedCallback<Ptr<const Packet>> m_macTxDropTrace;      //!< MacTxDrop
    TracedCallback<Ptr<const Packet>> m_macPromiscRxTrace;   //!< MacPromiscRx
    TracedCallback<Ptr<const Packet>> m_macRxTrace;          //!< MacRx
    TracedCallback<Ptr<const Packet>> m_phyTxBeginTrace;     //!< PhyTxBegin
    TracedCallback<Ptr<const Packet>> m_phyTxEndTrace;       //!< PhyTxEnd
    TracedCallback<Ptr<const Packet>> m_phyTxDropTrace;      //!< PhyTxDrop
    TracedCallback<Ptr<const Packet>> m_phyRxEndTrace;       //!< PhyRxEnd
    TracedCallback<Ptr<const Packet>> m_phyRxDropTrace;      //!< PhyRxDrop
    TracedCallback<Ptr<const Packet>> m_snifferTrace;        //!< Sniffer
    TracedCallback<Ptr<const Packet>> m_promiscSnifferTrace; //!< PromiscSniffer
};

} // namespace ns3

#endif // LEAN_LINK_NET_DEVICE_H

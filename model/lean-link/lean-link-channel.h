/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef LEAN_LINK_CHANNEL_H
#define LEAN_LINK_CHANNEL_H

#include "ns3/channel.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/traced-callback.h"

namespace ns3
{

class Packet;
class LeanLinkNetDevice;

/**
 * \ingroup lean-link
 * \brief A full-duplex point-to-point cable between two LeanLinkNetDevices, like ns-3's
 *        PointToPointChannel: a frame whose first bit leaves one end at t, serialized in
 *        txTime, is received whole by the other end at t + txTime + Delay.
 *
 * Unlike PointToPointChannel it hands the frame itself to the receiver, which copies it
 * only if someone else still holds it on arrival (PointToPointChannel always makes a
 * copy). The receive is scheduled on the peer device with the peer node's context, as
 * PointToPointChannel does.
 */
class LeanLinkChannel : public Channel
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    LeanLinkChannel();

    /**
     * \brief Attach a device (at most two).
     * \param device the device
     */
    void Attach(Ptr<LeanLinkNetDevice> device);

    /**
     * \brief Carry a frame to the other end.
     * \param packet the frame (PPP header on top)
     * \param source the sending device
     * \param txTime its serialization time (the receive happens wait + txTime + Delay from now)
     * \param wait how long from now the frame's first bit goes on the wire (a device with
     *        Egress=Clock gives a frame its start time when it arrives); TxRxPointToPoint
     *        reports the times from the call, so a caller with a sink calls at the start
     * \return false when the channel has no other end
     */
    bool TransmitStart(const Ptr<Packet>& packet,
                       const LeanLinkNetDevice* source,
                       Time txTime,
                       Time wait = Time(0));

    /// \return true if a sink is connected to TxRxPointToPoint
    bool IsTraced() const;

    /**
     * \param device one end
     * \return the other end, or null while the cable has fewer than two
     */
    LeanLinkNetDevice* GetPeer(const LeanLinkNetDevice* device) const;

    std::size_t GetNDevices() const override;
    Ptr<NetDevice> GetDevice(std::size_t i) const override;

    /// \return the propagation delay
    Time GetDelay() const;

  protected:
    /**
     * \brief For LeanLinkRemoteChannel: a cable whose ends are in two processes.
     * \param crossesProcesses true: TransmitStart hands frames to DeliverToOtherProcess
     */
    explicit LeanLinkChannel(bool crossesProcesses);

    /**
     * \brief Hand a frame to an end that another process runs (called only when the
     *        channel was built to cross processes).
     * \param peer the receiving device
     * \param packet the frame
     * \param delay from now to the arrival of its last bit
     */
    virtual void DeliverToOtherProcess(LeanLinkNetDevice* peer,
                                       const Ptr<Packet>& packet,
                                       Time delay);

  private:
    void DoDispose() override;

    Time m_delay;                        //!< propagation delay
    Ptr<LeanLinkNetDevice> m_devices[2]; //!< the two ends
    std::size_t m_attached;              //!< devices attached
    /// The ends are in two processes. A flag rather than a virtual call for every frame:
    /// the local receive stays inline in TransmitStart (a virtual Deliver cost 20
    /// instructions per frame, doc/lean-link/lean-link.rst, "Distributed runs").
    const bool m_crossesProcesses;
    TracedCallback<Ptr<const Packet>, Ptr<NetDevice>, Ptr<NetDevice>, Time, Time>
        m_txrxTrace; //!< frame carried (packet, src, dst, tx, tx + delay)
};

} // namespace ns3

#endif // LEAN_LINK_CHANNEL_H

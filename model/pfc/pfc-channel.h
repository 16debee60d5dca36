/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef PFC_CHANNEL_H
#define PFC_CHANNEL_H

#include "ns3/channel.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/traced-callback.h"

namespace ns3
{

class PfcNetDevice;

/**
 * \ingroup pfc
 * \brief A full-duplex point-to-point Ethernet cable between two PfcNetDevices: a
 *        frame whose last bit leaves one end at t reaches the other end at t + Delay.
 */
class PfcChannel : public Channel
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    PfcChannel();

    /**
     * \brief Attach a device (at most two).
     * \param device the device
     */
    void Attach(Ptr<PfcNetDevice> device);

    /**
     * \brief Carry a frame to the other end.
     * \param packet the frame (Ethernet header on top)
     * \param source the sending device
     * \param txTime its serialization time (the receive happens txTime + Delay from now)
     * \return false when the channel has no other end
     */
    bool TransmitStart(Ptr<const Packet> packet, Ptr<PfcNetDevice> source, Time txTime);

    std::size_t GetNDevices() const override;
    Ptr<NetDevice> GetDevice(std::size_t i) const override;

    /// \return the propagation delay
    Time GetDelay() const;

  private:
    Time m_delay;                   //!< propagation delay
    Ptr<PfcNetDevice> m_devices[2]; //!< the two ends
    std::size_t m_attached;         //!< devices attached
    TracedCallback<Ptr<const Packet>, Ptr<NetDevice>, Ptr<NetDevice>, Time, Time>
        m_txrxTrace; //!< frame carried (packet, src, dst, tx, delay)
};

} // namespace ns3

#endif /* PFC_CHANNEL_H */

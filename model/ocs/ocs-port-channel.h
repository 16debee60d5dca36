/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef OCS_PORT_CHANNEL_H
#define OCS_PORT_CHANNEL_H

#include "ns3/point-to-point-channel.h"
#include "ns3/point-to-point-net-device.h" // point-to-point-channel.h needs it complete

namespace ns3
{

class OcsSwitch;

/**
 * \ingroup ocs
 * \brief The fibre between one ordinary PointToPointNetDevice and one port of a OcsSwitch.
 *
 * Exactly one device is attached (PointToPointNetDevice::Attach). A frame the device starts
 * to transmit is handed to the OCS, which delivers it, layer 1, to the device on the port
 * that this port's circuit joins, or drops it (see OcsSwitch). The channel never queues.
 *
 * GetNDevices() and GetDevice() give the attached device, then the device at the other end
 * of the port's circuit: the up one, or after a tear-down the last one (OcsSwitch::
 * GetRemotePort). PointToPointNetDevice::Receive asks GetRemote for the sender's address of
 * every frame, and a frame can still be on the fibre after its circuit went down.
 */
class OcsPortChannel : public PointToPointChannel
{
  public:
    /// \return the object TypeId
    static TypeId GetTypeId();

    OcsPortChannel();
    ~OcsPortChannel() override;

    /**
     * \brief Joins this channel to its switch; called once by OcsSwitch::AddPort.
     * \param ocs the switch
     * \param port this channel's port number on it
     */
    void SetOcs(const Ptr<OcsSwitch>& ocs, uint32_t port);

    /// \return this channel's port number on its switch
    uint32_t GetPort() const;

    /// \return the device attached to this port (null before PointToPointNetDevice::Attach)
    Ptr<PointToPointNetDevice> GetAttachedDevice() const;

    /**
     * \brief A frame's first bit leaves the attached device: the switch takes it from here.
     * \param p the frame
     * \param src the transmitting device (the attached one)
     * \param txTime the frame's serialisation time at the sender's rate
     * \return true (a frame the switch drops is traced by OcsSwitch::Drop, later, where its
     *         bits reach the switch)
     */
    bool TransmitStart(Ptr<const Packet> p, Ptr<PointToPointNetDevice> src, Time txTime) override;

    /// \return 2 once the port has been in a circuit, else 1
    std::size_t GetNDevices() const override;

    /**
     * \param i 0 for the attached device, 1 for the (current or last) circuit peer's device
     * \return that device, or null if there is none
     */
    Ptr<NetDevice> GetDevice(std::size_t i) const override;

  protected:
    void DoDispose() override;

  private:
    Ptr<OcsSwitch> m_ocs; //!< the switch this port belongs to
    uint32_t m_port;      //!< this port's number on it
};

} // namespace ns3

#endif /* OCS_PORT_CHANNEL_H */

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef LEAN_LINK_IPV4_EGRESS_H
#define LEAN_LINK_IPV4_EGRESS_H

#include "ns3/address.h"
#include "ns3/net-device-queue-interface.h"
#include "ns3/net-device.h"
#include "ns3/packet.h"
#include "ns3/ptr.h"
#include "ns3/queue-disc.h"
#include "ns3/traffic-control-layer.h"

namespace ns3
{

class Ipv4Header;

/**
 * \ingroup lean-link
 * \brief One output device of a fast path (ClosSwitchForwarder, RoceHostPath): hands an
 *        IPv4 packet and its header to the device's traffic-control layer as
 *        `tc->Send(device, Create<Ipv4QueueDiscItem>(packet, device->GetBroadcast(), 0x0800,
 *        header))` does, without that call's per-packet lookup of the device in the layer's
 *        std::map.
 *
 * For a device whose root queue disc is the one the layer would use, Send does what
 * TrafficControlLayer::Send (ns-3.37) does in that case: the item's transmission queue index 0,
 * QueueDisc::Enqueue, QueueDisc::Run on the root queue disc. That case holds, and Send takes
 * the short way, when all of these hold:
 * - the node's traffic-control layer is a TrafficControlLayer, not a subclass (whose Send
 *   may do something else);
 * - at construction the device had a root queue disc, with wake mode WAKE_ROOT, and a
 *   NetDeviceQueueInterface with one transmission queue (so the layer selects queue 0 and
 *   wakes the root queue disc itself);
 * - per packet: that queue disc's NetDeviceQueueInterface is the device's. The layer sets it
 *   on the queue discs it wakes when it scans the devices (TrafficControlLayer::ScanDevices,
 *   at node initialization) and clears it when the root queue disc is deleted
 *   (DeleteRootQueueDiscOnDevice), so this fails before the scan and after the queue disc
 *   was removed or replaced.
 * Otherwise (a device without a queue disc, such as the PFC devices; a multi-queue device; a
 * queue disc replaced or not yet scanned) Send calls TrafficControlLayer::Send.
 *
 * A LeanLinkNetDevice with Egress=Clock is its own queue. If at construction it has no root
 * queue disc, Send does what TrafficControlLayer::Send does for a device without one (add the
 * IPv4 header, drop the SocketPriorityTag a single-queue device makes no use of, hand the
 * packet to the device: the device never stops its queue) without the layer's lookup and
 * without a queue disc item.
 *
 * The device's broadcast address is read once, at construction (every NetDevice of ns-3 and
 * of this module returns a constant one). Not kept on the short way: TrafficControlLayer's
 * NS_LOG lines for the send.
 */
class LeanLinkIpv4Egress
{
  public:
    LeanLinkIpv4Egress();

    /**
     * \brief Bind to a device of a node.
     * \param tc the node's traffic-control layer
     * \param device the device
     */
    LeanLinkIpv4Egress(Ptr<TrafficControlLayer> tc, Ptr<NetDevice> device);

    /**
     * \brief Send an IPv4 packet as TrafficControlLayer::Send with a new Ipv4QueueDiscItem.
     * \param packet the payload of the IPv4 header
     * \param header its IPv4 header (added by the queue disc or the layer)
     */
    void Send(Ptr<Packet> packet, const Ipv4Header& header) const;

    /// \return true if Send would now go to the root queue disc without TrafficControlLayer
    bool IsShort() const;

    /// \return true if Send hands packets to the device itself (Egress=Clock, no queue disc)
    bool IsDirect() const;

    /// \return the device
    const Ptr<NetDevice>& GetDevice() const;

    /// Drop the references (at dispose).
    void Clear();

  private:
    Ptr<TrafficControlLayer> m_tc;              //!< the node's traffic-control layer
    Ptr<NetDevice> m_device;                    //!< the device
    Address m_broadcast;                        //!< its broadcast address
    Ptr<QueueDisc> m_queueDisc;                 //!< its root queue disc, if the short way fits
    Ptr<NetDeviceQueueInterface> m_txInterface; //!< its queue interface, if the short way fits
    bool m_direct = false; //!< a LeanLinkNetDevice with Egress=Clock and no queue disc
};

} // namespace ns3

#endif /* LEAN_LINK_IPV4_EGRESS_H */

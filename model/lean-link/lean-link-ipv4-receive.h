/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef LEAN_LINK_IPV4_RECEIVE_H
#define LEAN_LINK_IPV4_RECEIVE_H

#include "ns3/ipv4-l3-protocol.h"
#include "ns3/node.h"
#include "ns3/object.h"
#include "ns3/ptr.h"
#include "ns3/traffic-control-layer.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup lean-link
 * \brief Aggregated to a node whose IPv4 receive a component has taken with
 *        LeanLinkTakeIpv4Receive (a switch's forwarder, a host's receive path).
 */
class LeanLinkIpv4ReceiveTaken : public Object
{
  public:
    /// \return the object TypeId
    static TypeId GetTypeId();
};

/**
 * \param node a node
 * \return whether a component took the node's IPv4 receive (LeanLinkTakeIpv4Receive)
 */
bool LeanLinkIsIpv4ReceiveTaken(Ptr<Node> node);

/**
 * \ingroup lean-link
 * \brief Takes a node's received IPv4 packets away from its traffic-control layer, on every
 *        device that needs no ARP (the fabric's point-to-point links), for a fast path
 *        (ClosSwitchForwarder at switches, RoceHostPath at hosts).
 *
 * Ipv4L3Protocol::AddInterface registered TrafficControlLayer::Receive at the node twice per
 * interface (IPv4 and ARP); the loopback interface registered Ipv4L3Protocol itself. This
 * removes those registrations. It puts back IPv4 and ARP to the traffic-control layer on each
 * device that needs ARP, and registers \p handler twice for the node as a whole (no device:
 * Node::RegisterProtocolHandler with a null device), for IPv4 and for ARP, so that
 * Node::ReceiveFromDevice scans two entries, not two per device, for the packets of the
 * devices taken.
 *
 * \p handler therefore sees the IPv4 and ARP packets of every device of the node. It must
 * ignore those of a device that is not taken (-1 in the returned vector, or an ifIndex past its
 * end: the loopback, the devices that need ARP, devices without IPv4, devices added later),
 * which keep their own registrations, and hand the ARP packets of the devices taken to
 * TrafficControlLayer::Receive: LeanLinkTakenIpv4Interface does both. Call it once per node,
 * after every IPv4 interface exists.
 *
 * \param node the node
 * \param ipv4 its IPv4 stack
 * \param tc its traffic-control layer
 * \param handler receives the IPv4 and ARP packets of the node's devices
 * \return by device ifIndex: the IPv4 interface of a device taken, -1 for the others
 */
std::vector<int32_t> LeanLinkTakeIpv4Receive(Ptr<Node> node,
                                             Ptr<Ipv4L3Protocol> ipv4,
                                             Ptr<TrafficControlLayer> tc,
                                             const Node::ProtocolHandler& handler);

/**
 * \ingroup lean-link
 * \param interfaceOf what LeanLinkTakeIpv4Receive returned
 * \param device a device of the node
 * \return the IPv4 interface of \p device if it was taken, else -1
 */
inline int32_t
LeanLinkTakenInterface(const std::vector<int32_t>& interfaceOf, const Ptr<NetDevice>& device)
{
    const uint32_t ifIndex = device->GetIfIndex();
    return ifIndex < interfaceOf.size() ? interfaceOf[ifIndex] : -1;
}

/**
 * \ingroup lean-link
 * \brief What every handler given to LeanLinkTakeIpv4Receive does first: ignore the packets of a
 *        device not taken (its own registrations have them), and hand the ARP packets of the
 *        devices taken to the traffic-control layer.
 *
 * \param interfaceOf what LeanLinkTakeIpv4Receive returned
 * \param tc the node's traffic-control layer
 * \param device the receiving device (this and the rest: Node::ProtocolHandler's)
 * \param p the packet
 * \param protocol its protocol
 * \param from the sender's address
 * \param to the receiver's address
 * \param packetType the packet type
 * \return the IPv4 interface of \p device for an IPv4 packet of a device taken (the
 *         handler's to process), else -1 (already dealt with)
 */
inline int32_t
LeanLinkTakenIpv4Interface(const std::vector<int32_t>& interfaceOf,
                           TrafficControlLayer& tc,
                           const Ptr<NetDevice>& device,
                           const Ptr<const Packet>& p,
                           uint16_t protocol,
                           const Address& from,
                           const Address& to,
                           NetDevice::PacketType packetType)
{
    const int32_t in = LeanLinkTakenInterface(interfaceOf, device);
    if (in >= 0 && protocol != Ipv4L3Protocol::PROT_NUMBER)
    {
        tc.Receive(device, p, protocol, from, to, packetType); // ARP
        return -1;
    }
    return in;
}

} // namespace ns3

#endif /* LEAN_LINK_IPV4_RECEIVE_H */

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef VCLOS_IPV4_RECEIVE_H
#define VCLOS_IPV4_RECEIVE_H

#include "ns3/node.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <vector>

namespace ns3
{

class Ipv4L3Protocol;
class TrafficControlLayer;

/**
 * \ingroup vclos
 * \brief Takes a node's received IPv4 packets away from its traffic-control layer, on every
 *        device that needs no ARP (the fabric's point-to-point links), for a fast path
 *        (VclosSwitchForwarder at switches, VclosRdmaHostPath at hosts).
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
 * TrafficControlLayer::Receive. Call it once per node, after every IPv4 interface exists.
 *
 * \param node the node
 * \param ipv4 its IPv4 stack
 * \param tc its traffic-control layer
 * \param handler receives the IPv4 and ARP packets of the node's devices
 * \return by device ifIndex: the IPv4 interface of a device taken, -1 for the others
 */
std::vector<int32_t> VclosTakeIpv4Receive(Ptr<Node> node,
                                          Ptr<Ipv4L3Protocol> ipv4,
                                          Ptr<TrafficControlLayer> tc,
                                          const Node::ProtocolHandler& handler);

} // namespace ns3

#endif /* VCLOS_IPV4_RECEIVE_H */

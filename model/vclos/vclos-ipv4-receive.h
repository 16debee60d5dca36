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
 * removes those registrations and puts back ARP on every device, IPv4 on the devices that
 * need ARP, and \p handler for IPv4 on the others. Call it once per node, after every IPv4
 * interface exists (devices added later keep the old path).
 *
 * \param node the node
 * \param ipv4 its IPv4 stack
 * \param tc its traffic-control layer
 * \param handler receives the IPv4 packets of the devices taken
 * \return by device ifIndex: the IPv4 interface of a device taken, -1 for the others
 */
std::vector<int32_t> VclosTakeIpv4Receive(Ptr<Node> node,
                                          Ptr<Ipv4L3Protocol> ipv4,
                                          Ptr<TrafficControlLayer> tc,
                                          const Node::ProtocolHandler& handler);

} // namespace ns3

#endif /* VCLOS_IPV4_RECEIVE_H */

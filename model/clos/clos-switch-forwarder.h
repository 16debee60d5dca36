/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef CLOS_SWITCH_FORWARDER_H
#define CLOS_SWITCH_FORWARDER_H

#include "ns3/address.h"
#include "ns3/lean-link-ipv4-egress.h"
#include "ns3/net-device.h"
#include "ns3/object.h"
#include "ns3/packet.h"

#include <vector>

namespace ns3
{

class Ipv4Interface;
class Ipv4L3Protocol;
class Node;
class TrafficControlLayer;
class ClosEcmpRouting;

/**
 * \ingroup clos
 * \brief The switch fast path: forwards a leaf's or spine's transit IPv4 packets in one
 *        handler instead of TrafficControlLayer::Receive -> Ipv4L3Protocol::Receive ->
 *        RouteInput -> IpForward -> SendRealOut -> Ipv4Interface::Send.
 *
 * Install() takes the node's IPv4 packets (ethertype 0x0800) from the traffic-control
 * layer's receive handler on every device that has an IPv4 interface and needs no ARP
 * (point-to-point, PFC and OCS ports); ARP stays where it was. For each packet it does
 * what those functions do for a transit packet, on the real header: checks that the
 * input interface is up, removes the IPv4 header (verifying the checksum when
 * Node::ChecksumEnabled, read once at Install), trims padding, asks
 * ClosEcmpRouting::ForwardInterface for the output interface (same longest prefix, pins, hash salt
 * and spray state as RouteInput), decrements the TTL, sets the SocketPriorityTag from the TOS as
 * IpForward does, drops the packet silently when the output interface is down (as SendRealOut
 * does), and hands an Ipv4QueueDiscItem to the traffic-control layer (LeanLinkIpv4Egress: what
 * TrafficControlLayer::Send does, without its per-packet device lookup), so the same queue
 * disc (RED marks ECN on the item's header) or PFC device takes it.
 *
 * Everything else goes the old way, unchanged, before any routing decision (so the spray
 * state never advances twice): an input interface that is down, a bad checksum, a TTL
 * of 1 or less (ICMP time exceeded), a packet larger than the smallest MTU of the
 * switch's interfaces (fragmentation), and whatever ForwardInterface does not forward
 * (local or broadcast destination, multicast, no route: drop traces and NoRoute).
 *
 * What it does not do: Ipv4L3Protocol's Rx, Tx and UnicastForward trace sources do not
 * fire for fast-forwarded packets (device, queue-disc and routing traces do), and raw
 * IPv4 sockets on a switch do not see them; nor do FlowMonitor's IPv4 probes, which
 * connect to those traces. ClosFabricHelper::SwitchFastPath = false keeps the old path.
 */
class ClosSwitchForwarder : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    ClosSwitchForwarder();

    /**
     * \brief Take over the transit IPv4 packets of a switch: call after every interface of
     *        the node exists (devices added later are not supported). Aggregates this
     *        object to the node.
     * \param node a switch with an InternetStack and ClosEcmpRouting
     */
    void Install(Ptr<Node> node);

    /// \return the packets forwarded on the fast path
    uint64_t GetFastForwarded() const;
    /// \return the IPv4 packets handed to the old path
    uint64_t GetSlowPath() const;

  protected:
    void DoDispose() override;

  private:
    /// One IPv4 interface of the switch, by interface index.
    struct Port
    {
        LeanLinkIpv4Egress egress;    //!< its device, through the traffic-control layer
        Ptr<Ipv4Interface> interface; //!< its IPv4 interface
        bool needsArp = false;        //!< NetDevice::NeedsArp of its device
    };

    /**
     * \brief The node's protocol handler for IPv4 and ARP (LeanLinkTakeIpv4Receive): ignores
     *        the devices not taken, hands ARP to the traffic-control layer.
     * \param device input device
     * \param packet the packet with its IPv4 header
     * \param protocol ethertype
     * \param from sender address
     * \param to receiver address
     * \param packetType packet type
     */
    void Receive(Ptr<NetDevice> device,
                 Ptr<const Packet> packet,
                 uint16_t protocol,
                 const Address& from,
                 const Address& to,
                 NetDevice::PacketType packetType);

    Ptr<Ipv4L3Protocol> m_ipv4;         //!< the node's IPv4
    Ptr<TrafficControlLayer> m_tc;      //!< the node's traffic-control layer
    Ptr<ClosEcmpRouting> m_routing;     //!< the node's routing
    std::vector<Port> m_ports;          //!< by IPv4 interface index
    std::vector<int32_t> m_interfaceOf; //!< device ifIndex -> interface (-1: not taken)
    bool m_checksums;                   //!< Node::ChecksumEnabled at Install
    uint32_t m_minMtu;                  //!< smallest MTU of the switch's devices
    uint64_t m_fastForwarded;           //!< packets forwarded here
    uint64_t m_slowPath;                //!< packets handed to the old path
};

} // namespace ns3

#endif /* CLOS_SWITCH_FORWARDER_H */

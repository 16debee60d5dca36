/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef ROCE_HOST_PATH_H
#define ROCE_HOST_PATH_H

#include "ns3/callback.h"
#include "ns3/ipv4-address.h"
#include "ns3/lean-link-ipv4-egress.h"
#include "ns3/net-device.h"
#include "ns3/object.h"
#include "ns3/packet.h"

#include <unordered_map>
#include <vector>

namespace ns3
{

class Ipv4Header;
class Ipv4Interface;
class Ipv4L3Protocol;
class Node;
class TrafficControlLayer;

/**
 * \ingroup roce
 * \brief The host fast path of a RoCEv2 NIC (RoceNic::HostFastPath): sends and receives
 *        its UDP port 4791 packets without UdpL4Protocol and Ipv4L3Protocol, on the same
 *        real headers and the same traffic-control layer.
 *
 * Send does what UdpL4Protocol::Send + Ipv4L3Protocol::Send + SendRealOut +
 * Ipv4Interface::Send do for a unicast datagram: the UDP header (checksum only when
 * Node::ChecksumEnabled, read once at Install), the IPv4 header as Ipv4L3Protocol::BuildHeader
 * makes it (the node's DefaultTtl, the given TOS, may fragment, the identification from a counter
 * per (source, destination) of UDP, as Ipv4L3Protocol keeps one per (source, destination,
 * protocol), checksum when enabled), the output interface from the node's routing protocol
 * (RouteOutput per packet, so spraying and routes removed on an interface going down act
 * as on the old path), the packet dropped silently when that interface is down, and an
 * Ipv4QueueDiscItem handed to the traffic-control layer (LeanLinkIpv4Egress: what
 * TrafficControlLayer::Send does, without its per-packet device lookup). Cases that path does not
 * cover go through Ipv4L3Protocol with the header built here: no route (Send: the Drop trace), an
 * output device that needs ARP, the loopback, a destination on the output interface, a datagram
 * larger than the device MTU (SendWithHeader: fragmentation).
 *
 * Receive takes the node's IPv4 packets from the devices of its IPv4 interfaces that need
 * no ARP (as ClosSwitchForwarder does at switches: ARP, and IPv4 on ARP devices, stay with
 * the traffic-control layer). A packet goes to the receive callback, with its IPv4 header,
 * UDP source port and interface, when its interface is up, its IPv4 header checksum is
 * good (checked when enabled), it is not a fragment, it is UDP to port 4791 with a good
 * checksum (when enabled) and its destination is a unicast address of the node
 * (Ipv4L3Protocol::IsDestinationAddress on its input interface). Everything else (TCP,
 * ARP, other UDP ports, a down interface, bad checksums) goes to
 * TrafficControlLayer::Receive unchanged, as before.
 *
 * Not kept for these packets: Ipv4L3Protocol's SendOutgoing, Tx, Rx and LocalDeliver traces
 * at hosts, UdpL4Protocol's endpoint demux (another endpoint bound to a specific address
 * and port 4791 would not see them) and raw IPv4 sockets. Other UDP traffic of the node
 * between the same two addresses is numbered by Ipv4L3Protocol's own counter, so the two
 * may reuse identifications (RoCE datagrams are never fragmented). Not for a node with a
 * ClosSwitchForwarder (RoceNic does not install one there).
 */
class RoceHostPath : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    RoceHostPath();

    /**
     * Receives one RoCE packet: the UDP payload, its IPv4 header, UDP source port, interface.
     * By reference (Ipv4EndPoint's receive callback takes them by value): each layer of a
     * Callback would copy the header and both Ptrs again.
     */
    using ReceiveCallback =
        Callback<void, const Ptr<Packet>&, const Ipv4Header&, uint16_t, const Ptr<Ipv4Interface>&>;

    /**
     * \brief Take over the node's RoCE packets: call after every IPv4 interface of the node
     *        exists (devices added later keep the old path).
     * \param node a node with the Internet stack
     * \param port the UDP port taken on receive (4791)
     * \param receive called for each packet taken
     */
    void Install(Ptr<Node> node, uint16_t port, ReceiveCallback receive);

    /**
     * \brief Send a UDP datagram numbered by a counter obtained from GetIdentificationCounter
     *        (held by the caller, so the counter is not looked up per packet).
     * \param packet the UDP payload
     * \param source the source address
     * \param destination the destination address
     * \param sport the UDP source port
     * \param dport the UDP destination port
     * \param tos the IPv4 TOS byte (DSCP and ECN)
     * \param identification GetIdentificationCounter(source, destination)
     */
    void Send(const Ptr<Packet>& packet,
              Ipv4Address source,
              Ipv4Address destination,
              uint16_t sport,
              uint16_t dport,
              uint8_t tos,
              uint16_t& identification);

    /**
     * \brief The next IPv4 identification of (source, destination, UDP), created at 0 as
     *        Ipv4L3Protocol creates its counters. All senders between the same two addresses
     *        share it, as they share Ipv4L3Protocol's. The reference stays valid as long as
     *        this path (std::unordered_map keeps its elements in place across rehashes).
     * \param source the source address
     * \param destination the destination address
     * \return the counter
     */
    uint16_t& GetIdentificationCounter(Ipv4Address source, Ipv4Address destination);

    /// \return the packets sent on the fast path (to the traffic-control layer)
    uint64_t GetFastSent() const;
    /// \return the packets received on the fast path
    uint64_t GetFastReceived() const;
    /// \return the IPv4 packets handed to the old path (sent and received)
    uint64_t GetSlowPath() const;

  protected:
    void DoDispose() override;

  private:
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

    Ptr<Ipv4L3Protocol> m_ipv4;                    //!< the node's IPv4
    Ptr<TrafficControlLayer> m_tc;                 //!< the node's traffic-control layer
    std::vector<int32_t> m_interfaceOf;            //!< device ifIndex -> interface (-1: none)
    std::vector<Ptr<Ipv4Interface>> m_interfaces;  //!< by interface (those taken only)
    std::vector<LeanLinkIpv4Egress> m_egress;      //!< by interface (those taken only)
    std::unordered_map<uint64_t, uint16_t> m_ipId; //!< next identification, by (src, dst):
                                                   //!< references to elements handed out
    uint16_t m_port = 0;                           //!< the UDP port taken on receive
    bool m_checksums = false;                      //!< Node::ChecksumEnabled at Install
    uint8_t m_ttl = 64;                            //!< Ipv4L3Protocol::DefaultTtl
    ReceiveCallback m_receive;                     //!< the NIC
    uint64_t m_fastSent = 0;                       //!< packets sent here
    uint64_t m_fastReceived = 0;                   //!< packets received here
    uint64_t m_slowPath = 0;                       //!< packets handed to the old path
};

} // namespace ns3

#endif /* ROCE_HOST_PATH_H */

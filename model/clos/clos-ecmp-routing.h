/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef CLOS_ECMP_ROUTING_H
#define CLOS_ECMP_ROUTING_H

#include "ns3/cluster-flow-hash.h"
#include "ns3/ipv4-routing-protocol.h"
#include "ns3/ipv4.h"
#include "ns3/traced-callback.h"

#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace ns3
{

class Packet;

/**
 * \ingroup clos
 * \brief Switch routing with equal-cost groups, per-flow hashing and pinned flows.
 *
 * Routes map an IPv4 prefix to a group of equal-cost output interfaces (longest prefix
 * wins). A packet whose group has several members is sent on the member chosen by hashing
 * its 5-tuple with this switch's salt (every packet of a flow takes the same member), or,
 * in the labelled PER_PACKET_SPRAY mode, on a random member per packet.
 * Pins override the hash: a pin names a source address, or a source-destination pair,
 * and the interface its packets must use whenever that interface is in the chosen group.
 * The routes are installed by the fabric helper from the fabric's structure.
 */
class ClosEcmpRouting : public Ipv4RoutingProtocol
{
  public:
    /// How a member of a multi-member group is chosen.
    enum Mode
    {
        PER_FLOW_ECMP,   //!< hash of the 5-tuple: one path per flow
        PER_PACKET_SPRAY //!< a random member per packet (reorders TCP; for comparison only)
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    ClosEcmpRouting();
    ~ClosEcmpRouting() override;

    /**
     * \brief Add a route to a group of equal-cost interfaces.
     * \param network the destination network
     * \param mask its mask
     * \param interfaces the output interface indexes, in member order; none makes the
     *        prefix unreachable (its packets are dropped, even if a shorter prefix matches)
     */
    void AddRoute(Ipv4Address network, Ipv4Mask mask, const std::vector<uint32_t>& interfaces);

    /**
     * \brief Pin all packets from a source to an interface.
     * \param source the source address
     * \param interface the output interface
     */
    void PinSource(Ipv4Address source, uint32_t interface);

    /**
     * \brief Pin the packets of a source-destination pair to an interface (wins over a
     *        source pin).
     * \param source the source address
     * \param destination the destination address
     * \param interface the output interface
     */
    void PinPair(Ipv4Address source, Ipv4Address destination, uint32_t interface);

    /**
     * \brief Remove the source pin of an address (pair pins stay).
     * \param source the source address
     */
    void UnpinSource(Ipv4Address source);

    /**
     * \brief Remove the pin of a source-destination pair.
     * \param source the source address
     * \param destination the destination address
     */
    void UnpinPair(Ipv4Address source, Ipv4Address destination);

    /// Remove every pin.
    void ClearPins();

    /**
     * \brief The interface a packet of this flow leaves on (what RouteInput would do for
     *        the first packet of the flow).
     * \param tuple the flow
     * \return the interface index, or -1 when no route matches
     */
    int32_t SelectInterface(const ClusterFiveTuple& tuple);

    /**
     * \brief The output interface of a packet this switch forwards, chosen as RouteInput
     *        chooses it (longest prefix, pins, hash or spray): the switch fast path
     *        (ClosSwitchForwarder) calls this instead of RouteInput.
     * \param header the packet's IPv4 header
     * \param payload the packet after the IPv4 header (for the ports)
     * \return the interface index, or -1 where RouteInput would not forward the packet as
     *         plain unicast (local or broadcast destination, multicast, no route); only a
     *         return >= 0 has chosen a member (and advanced the spray state)
     */
    int32_t ForwardInterface(const Ipv4Header& header, Ptr<const Packet> payload);

    /// \param salt the hash salt of this switch
    void SetSalt(uint32_t salt);
    /// \return the hash salt of this switch
    uint32_t GetSalt() const;

    // Ipv4RoutingProtocol
    Ptr<Ipv4Route> RouteOutput(Ptr<Packet> p,
                               const Ipv4Header& header,
                               Ptr<NetDevice> oif,
                               Socket::SocketErrno& sockerr) override;
    bool RouteInput(Ptr<const Packet> p,
                    const Ipv4Header& header,
                    Ptr<const NetDevice> idev,
                    UnicastForwardCallback ucb,
                    MulticastForwardCallback mcb,
                    LocalDeliverCallback lcb,
                    ErrorCallback ecb) override;
    void NotifyInterfaceUp(uint32_t interface) override;
    void NotifyInterfaceDown(uint32_t interface) override;
    void NotifyAddAddress(uint32_t interface, Ipv4InterfaceAddress address) override;
    void NotifyRemoveAddress(uint32_t interface, Ipv4InterfaceAddress address) override;
    void SetIpv4(Ptr<Ipv4> ipv4) override;
    void PrintRoutingTable(Ptr<OutputStreamWrapper> stream,
                           Time::Unit unit = Time::S) const override;

    /**
     * TracedCallback signature for packets dropped for want of a route.
     * \param packet the packet
     * \param header its IPv4 header
     */
    typedef void (*NoRouteTracedCallback)(Ptr<const Packet> packet, const Ipv4Header& header);

  protected:
    void DoDispose() override;

  private:
    static constexpr uint32_t UNREACHABLE = UINT32_MAX; //!< group index of a drop route

    /// Routes of one prefix length, keyed by network address.
    struct PrefixTable
    {
        uint8_t length;                                //!< prefix length in bits
        uint32_t mask;                                 //!< mask in host order
        std::unordered_map<uint32_t, uint32_t> groups; //!< network -> index in m_groups
    };

    /**
     * \brief Find the group of a destination by longest prefix.
     * \param destination the destination (host order)
     * \return the group index, or -1
     */
    int32_t LookupGroup(uint32_t destination) const;
    /**
     * \param destination a destination address
     * \return true for this switch's own addresses and the broadcast address
     */
    bool IsLocal(Ipv4Address destination) const;
    /// Recompute m_localMin and m_localMax from m_localAddresses.
    void UpdateLocalRange();
    /**
     * \brief Pick the member of a group for a flow.
     * \param group the group index
     * \param tuple the flow
     * \return the interface index
     */
    uint32_t ChooseMember(uint32_t group, const ClusterFiveTuple& tuple);
    /**
     * \brief The interface a pin sends this flow on, if it is a member of the group.
     * \param group the group index
     * \param tuple the flow
     * \return the interface, or -1 when no pin applies
     */
    int32_t PinnedMember(uint32_t group, const ClusterFiveTuple& tuple) const;
    /**
     * \param interface an interface index
     * \return the shared route object that sends on it
     */
    Ptr<Ipv4Route> RouteVia(uint32_t interface);

    Ptr<Ipv4> m_ipv4;                                  //!< the node's IPv4
    std::vector<std::vector<uint32_t>> m_groups;       //!< equal-cost groups
    std::vector<PrefixTable> m_tables;                 //!< by decreasing prefix length
    std::unordered_map<uint32_t, uint32_t> m_srcPins;  //!< source -> interface
    std::unordered_map<uint64_t, uint32_t> m_pairPins; //!< (source, destination) -> interface
    std::unordered_set<uint32_t> m_localAddresses;     //!< this switch's own addresses
    uint32_t m_localMin = UINT32_MAX;                  //!< lowest of m_localAddresses
    uint32_t m_localMax = 0;                           //!< highest of m_localAddresses
    std::vector<Ptr<Ipv4Route>> m_routes;              //!< per interface, built once
    uint32_t m_salt;                                   //!< hash salt
    ClusterHashAlgorithm m_algorithm;                  //!< hash function
    Mode m_mode;                                       //!< member choice
    uint32_t m_sprayState;                             //!< PRNG state of PER_PACKET_SPRAY
    TracedCallback<Ptr<const Packet>, const Ipv4Header&> m_noRouteTrace; //!< no route
};

} // namespace ns3

#endif /* CLOS_ECMP_ROUTING_H */

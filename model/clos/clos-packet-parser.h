/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef CLOS_PACKET_PARSER_H
#define CLOS_PACKET_PARSER_H

#include "ns3/cluster-flow-hash.h"
#include "ns3/ipv4-header.h"
#include "ns3/packet.h"

namespace ns3
{

/**
 * \ingroup clos
 * \brief What ClosParsePacket reads from the front of a packet.
 */
struct ClosParsedPacket
{
    ClusterFiveTuple tuple;    //!< the flow (ports 0 unless TCP/UDP and first fragment)
    uint32_t ipBytes = 0;      //!< IPv4 total length
    bool tcpNoPayload = false; //!< a TCP segment without payload (ACK, SYN, FIN)
    /// a RoCEv2 packet (UDP to port 4791) that carries no message bytes: an RC ACK or NAK
    /// (opcode 0x11) or a CNP (0x81)
    bool roceControl = false;
};

/**
 * \ingroup clos
 * \brief Read the IPv4 and transport headers at the front of a packet, as a device sees
 *        it: bare IPv4 or behind a PPP header. Copies at most 76 bytes; no allocation.
 *        RoCEv2 is recognised by its UDP destination port 4791 (the BTH opcode follows
 *        the 8-byte UDP header).
 * \param packet the packet
 * \param[out] parsed the result
 * \return false when the packet is not IPv4
 */
bool ClosParsePacket(Ptr<const Packet> packet, ClosParsedPacket& parsed);

/**
 * \ingroup clos
 * \brief Extract the 5-tuple of an IPv4 packet whose IP header has been removed (what a
 *        routing protocol gets).
 * \param header the IPv4 header
 * \param payload the packet starting at the transport header (may be null)
 * \return the tuple; ports are 0 for protocols other than TCP and UDP, and for non-first
 *         fragments
 */
ClusterFiveTuple ClosExtractFiveTuple(const Ipv4Header& header, Ptr<const Packet> payload);

} // namespace ns3

#endif /* CLOS_PACKET_PARSER_H */

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef ONCACHE_FLOW_KEY_H
#define ONCACHE_FLOW_KEY_H

#include "ns3/ipv4-header.h"
#include "ns3/packet.h"

#include <cstdint>
#include <functional>
#include <ostream>

namespace ns3
{

/**
 * \ingroup oncache
 * \brief An IPv4 5-tuple (host byte order). Depending on use it is oriented source/destination
 *        (as on the wire) or local/remote (the filter cache key of the paper).
 */
struct OncacheFlowKey
{
    uint32_t srcAddress = 0; //!< source (or local) IPv4 address
    uint32_t dstAddress = 0; //!< destination (or remote) IPv4 address
    uint16_t srcPort = 0;    //!< source (or local) port; 0 when not TCP/UDP
    uint16_t dstPort = 0;    //!< destination (or remote) port; 0 when not TCP/UDP
    uint8_t protocol = 0;    //!< IP protocol number

    /// \return true when all five fields are equal
    bool operator==(const OncacheFlowKey& o) const
    {
        return srcAddress == o.srcAddress && dstAddress == o.dstAddress && srcPort == o.srcPort &&
               dstPort == o.dstPort && protocol == o.protocol;
    }

    /// \return the same flow seen from the other end (addresses and ports swapped)
    OncacheFlowKey Reversed() const;

    /// \return the orientation-free form (the smaller endpoint first), to count per connection
    OncacheFlowKey Canonical() const;

    /// \return a 32-bit hash of the tuple (murmur3)
    uint32_t Hash() const;
};

/**
 * \ingroup oncache
 * \brief Print a flow as "src:port>dst:port/proto".
 * \param os the stream
 * \param key the flow
 * \return the stream
 */
std::ostream& operator<<(std::ostream& os, const OncacheFlowKey& key);

/**
 * \ingroup oncache
 * \brief Hash functor for unordered containers keyed by OncacheFlowKey.
 */
struct OncacheFlowKeyHash
{
    /**
     * \param key the flow
     * \return its hash
     */
    std::size_t operator()(const OncacheFlowKey& key) const
    {
        return key.Hash();
    }
};

/**
 * \ingroup oncache
 * \brief Read the 5-tuple of an IPv4 packet (IPv4 header first). TCP and UDP give ports; any
 *        other protocol, or a non-first fragment, is keyed with ports 0, as in ONCache's code.
 * \param ipPacket the packet, starting with its IPv4 header
 * \param header receives the IPv4 header
 * \param payloadBytes if not null, receives the transport payload size (IP payload minus the
 *        TCP header with its options, or minus 8 bytes of UDP header)
 * \return the source/destination oriented flow
 */
OncacheFlowKey OncacheParseFlow(Ptr<const Packet> ipPacket,
                                Ipv4Header& header,
                                uint32_t* payloadBytes = nullptr);

} // namespace ns3

#endif /* ONCACHE_FLOW_KEY_H */

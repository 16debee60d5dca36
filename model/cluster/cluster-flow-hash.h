/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef CLUSTER_FLOW_HASH_H
#define CLUSTER_FLOW_HASH_H

#include <cstdint>
#include <functional>
#include <string>

namespace ns3
{

/**
 * \ingroup cluster
 * \brief The 5-tuple that identifies a transport flow (host byte order).
 */
struct ClusterFiveTuple
{
    uint32_t srcAddress = 0; //!< IPv4 source address
    uint32_t dstAddress = 0; //!< IPv4 destination address
    uint16_t srcPort = 0;    //!< transport source port (0 when not TCP/UDP)
    uint16_t dstPort = 0;    //!< transport destination port (0 when not TCP/UDP)
    uint8_t protocol = 0;    //!< IP protocol number

    /// \return true when all five fields are equal
    bool operator==(const ClusterFiveTuple& o) const
    {
        return srcAddress == o.srcAddress && dstAddress == o.dstAddress && srcPort == o.srcPort &&
               dstPort == o.dstPort && protocol == o.protocol;
    }
};

/**
 * \ingroup cluster
 * \brief Hash functions a switch can apply to a 5-tuple to pick an ECMP member.
 */
enum ClusterHashAlgorithm
{
    CLUSTER_HASH_CRC32,   //!< CRC-32 (IEEE 802.3) of the tuple, salted through a murmur3 finaliser
    CLUSTER_HASH_XOR_FOLD //!< XOR of the tuple's 32-bit words and the salt, folded to 16 bits;
                          //!< being linear, a salt only relabels members (collisions repeat across
                          //!< salts)
};

/**
 * \ingroup cluster
 * \brief Hash a 5-tuple with a per-switch salt.
 * \param tuple the flow
 * \param salt the switch's salt (different salts decorrelate switches)
 * \param algorithm the hash function
 * \return the 32-bit hash
 */
uint32_t ClusterHashFiveTuple(const ClusterFiveTuple& tuple,
                              uint32_t salt,
                              ClusterHashAlgorithm algorithm);

/**
 * \ingroup cluster
 * \brief Map a 32-bit hash uniformly onto [0, n) (multiply-shift, no modulo bias
 *        beyond 2^-32).
 * \param hash the hash value
 * \param n the number of members, n > 0
 * \return the member index
 */
inline uint32_t
ClusterHashToIndex(uint32_t hash, uint32_t n)
{
    return static_cast<uint32_t>((static_cast<uint64_t>(hash) * n) >> 32);
}

/**
 * \ingroup cluster
 * \brief Plain CRC-32 (IEEE, reflected, as in zlib) of a byte buffer.
 * \param data the bytes
 * \param length their number
 * \param init the initial register value (0xFFFFFFFF for the standard CRC)
 * \return the CRC, final XOR applied
 */
uint32_t ClusterCrc32(const uint8_t* data, std::size_t length, uint32_t init = 0xFFFFFFFFu);

/**
 * \ingroup cluster
 * \brief Parse a hash algorithm name ("crc32" or "xor-fold", case-insensitive).
 * \param name the name
 * \param[out] algorithm the parsed value
 * \return true on success
 */
bool ClusterParseHashAlgorithm(const std::string& name, ClusterHashAlgorithm& algorithm);

/**
 * \ingroup cluster
 * \brief Hash functor so ClusterFiveTuple can key unordered containers.
 */
struct ClusterFiveTupleHasher
{
    /// \param t the tuple \return a well-mixed size_t
    std::size_t operator()(const ClusterFiveTuple& t) const
    {
        uint64_t a = (static_cast<uint64_t>(t.srcAddress) << 32) | t.dstAddress;
        uint64_t b = (static_cast<uint64_t>(t.srcPort) << 24) ^
                     (static_cast<uint64_t>(t.dstPort) << 8) ^ t.protocol;
        uint64_t h = a * 0x9E3779B97F4A7C15ull ^ (b + 0x632BE59BD9B4E019ull);
        return static_cast<std::size_t>(h ^ (h >> 29));
    }
};

} // namespace ns3

#endif /* CLUSTER_FLOW_HASH_H */

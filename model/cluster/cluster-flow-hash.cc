/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "cluster-flow-hash.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace ns3
{

namespace
{

using CrcTables = std::array<std::array<uint32_t, 256>, 4>;

/// Slicing-by-4 tables of the reflected IEEE polynomial 0xEDB88320: [0] is the byte table,
/// [k][i] the CRC of byte i followed by k zero bytes.
CrcTables
MakeCrcTables()
{
    CrcTables t{};
    for (uint32_t i = 0; i < 256; ++i)
    {
        uint32_t c = i;
        for (int k = 0; k < 8; ++k)
        {
            c = (c & 1u) ? (0xEDB88320u ^ (c >> 1)) : (c >> 1);
        }
        t[0][i] = c;
    }
    for (std::size_t k = 1; k < t.size(); ++k)
    {
        for (uint32_t i = 0; i < 256; ++i)
        {
            t[k][i] = (t[k - 1][i] >> 8) ^ t[0][t[k - 1][i] & 0xFFu];
        }
    }
    return t;
}

const CrcTables g_crc = MakeCrcTables(); //!< CRC lookup tables

} // namespace

uint32_t
ClusterCrc32(const uint8_t* data, std::size_t length, uint32_t init)
{
    uint32_t c = init;
    std::size_t i = 0;
    for (; i + 4 <= length; i += 4) // four bytes per round, one lookup each, in parallel
    {
        c ^= uint32_t{data[i]} | uint32_t{data[i + 1]} << 8 | uint32_t{data[i + 2]} << 16 |
             uint32_t{data[i + 3]} << 24;
        c = g_crc[3][c & 0xFFu] ^ g_crc[2][(c >> 8) & 0xFFu] ^ g_crc[1][(c >> 16) & 0xFFu] ^
            g_crc[0][c >> 24];
    }
    for (; i < length; ++i)
    {
        c = g_crc[0][(c ^ data[i]) & 0xFFu] ^ (c >> 8);
    }
    return c ^ 0xFFFFFFFFu;
}

uint32_t
ClusterHashFiveTuple(const ClusterFiveTuple& t, uint32_t salt, ClusterHashAlgorithm algorithm)
{
    if (algorithm == CLUSTER_HASH_XOR_FOLD)
    {
        uint32_t x = t.srcAddress ^ t.dstAddress ^
                     ((static_cast<uint32_t>(t.srcPort) << 16) | t.dstPort) ^ t.protocol ^ salt;
        uint32_t folded = (x ^ (x >> 16)) & 0xFFFFu;
        return folded << 16 | folded; // spread 16 bits over the word used by ClusterHashToIndex
    }
    // Network byte order, as a switch ASIC sees the header fields.
    const uint8_t bytes[13] = {static_cast<uint8_t>(t.srcAddress >> 24),
                               static_cast<uint8_t>(t.srcAddress >> 16),
                               static_cast<uint8_t>(t.srcAddress >> 8),
                               static_cast<uint8_t>(t.srcAddress),
                               static_cast<uint8_t>(t.dstAddress >> 24),
                               static_cast<uint8_t>(t.dstAddress >> 16),
                               static_cast<uint8_t>(t.dstAddress >> 8),
                               static_cast<uint8_t>(t.dstAddress),
                               static_cast<uint8_t>(t.srcPort >> 8),
                               static_cast<uint8_t>(t.srcPort),
                               static_cast<uint8_t>(t.dstPort >> 8),
                               static_cast<uint8_t>(t.dstPort),
                               t.protocol};
    // A CRC is linear: XOR-ing the salt into it would only relabel the members, leaving
    // every collision in place. The murmur3 finaliser makes each salt a new partition.
    uint32_t h = ClusterCrc32(bytes, sizeof(bytes)) ^ salt;
    h ^= h >> 16;
    h *= 0x85EBCA6Bu;
    h ^= h >> 13;
    h *= 0xC2B2AE35u;
    h ^= h >> 16;
    return h;
}

bool
ClusterParseHashAlgorithm(const std::string& name, ClusterHashAlgorithm& algorithm)
{
    std::string lower(name);
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) {
        return static_cast<char>(std::tolower(c));
    });
    if (lower == "crc32")
    {
        algorithm = CLUSTER_HASH_CRC32;
        return true;
    }
    if (lower == "xor-fold" || lower == "xorfold" || lower == "xor")
    {
        algorithm = CLUSTER_HASH_XOR_FOLD;
        return true;
    }
    return false;
}

} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Simulator-free tests of the ECMP hash functions.
// Tests: cluster-flow-hash
#include "ns3/cluster-flow-hash.h"

#include <cstring>
#include <gtest/gtest.h>
#include <new>
#include <random>
#include <set>
#include <vector>

using namespace ns3;

namespace
{

ClusterFiveTuple
Tuple(uint32_t i)
{
    ClusterFiveTuple t;
    t.srcAddress = 0x0A000001u + (i % 64) * 256;
    t.dstAddress = 0x0A010001u + (i / 64) * 256;
    t.srcPort = static_cast<uint16_t>(49153 + i % 97);
    t.dstPort = static_cast<uint16_t>(5000 + i % 13);
    t.protocol = 6;
    return t;
}

/// Chi-square statistic of member counts against a uniform split.
double
ChiSquare(const std::vector<uint32_t>& counts, uint32_t total)
{
    double expected = static_cast<double>(total) / counts.size();
    double chi = 0;
    for (uint32_t c : counts)
    {
        chi += (c - expected) * (c - expected) / expected;
    }
    return chi;
}

const ClusterHashAlgorithm ALGORITHMS[] = {CLUSTER_HASH_CRC32, CLUSTER_HASH_XOR_FOLD};

} // namespace

TEST(ClusterFlowHash, Crc32MatchesTheStandardCheckValue)
{
    const char* check = "123456789";
    EXPECT_EQ(ClusterCrc32(reinterpret_cast<const uint8_t*>(check), 9), 0xCBF43926u);
}

// The table-driven CRC (four bytes a round) against the definition, bit by bit, for every
// length 0..40 and a few starting values. Negative control: the same loop with the wrong
// polynomial disagrees.
TEST(ClusterFlowHash, Crc32MatchesTheBitwiseDefinitionAtEveryLength)
{
    auto bitwise = [](const uint8_t* d, std::size_t n, uint32_t c, uint32_t poly) {
        for (std::size_t i = 0; i < n; ++i)
        {
            c ^= d[i];
            for (int k = 0; k < 8; ++k)
            {
                c = (c & 1u) ? (poly ^ (c >> 1)) : (c >> 1);
            }
        }
        return c ^ 0xFFFFFFFFu;
    };
    std::vector<uint8_t> bytes(40);
    uint32_t x = 12345;
    for (auto& b : bytes)
    {
        x = x * 1103515245u + 12345u;
        b = static_cast<uint8_t>(x >> 16);
    }
    uint32_t wrongPolynomialAgrees = 0;
    for (uint32_t init : {0xFFFFFFFFu, 0u, 0x12345678u})
    {
        for (std::size_t n = 0; n <= bytes.size(); ++n)
        {
            EXPECT_EQ(ClusterCrc32(bytes.data(), n, init),
                      bitwise(bytes.data(), n, init, 0xEDB88320u))
                << "length " << n;
            wrongPolynomialAgrees += n > 0 && ClusterCrc32(bytes.data(), n, init) ==
                                                  bitwise(bytes.data(), n, init, 0x82F63B78u);
        }
    }
    EXPECT_EQ(wrongPolynomialAgrees, 0u);
}

// Expected values computed outside this code: Python's zlib.crc32 over the 13 header bytes
// in network order (10.0.0.1 -> 10.0.1.2, ports 0x1234 -> 0x5678, TCP), then the murmur3
// finaliser; the XOR fold by hand (0x0A000001 ^ 0x0A000102 ^ 0x12345678 ^ 6 = 0x1234577D,
// folded 0x577D ^ 0x1234 = 0x4549). A tuple built over garbage bytes hashes alike (no
// padding or uninitialised memory enters the hash).
TEST(ClusterFlowHash, MatchesIndependentlyComputedValues)
{
    alignas(ClusterFiveTuple) unsigned char raw[sizeof(ClusterFiveTuple)];
    std::memset(raw, 0xA5, sizeof raw);
    auto* dirty = new (raw) ClusterFiveTuple;
    dirty->srcAddress = 0x0A000001;
    dirty->dstAddress = 0x0A000102;
    dirty->srcPort = 0x1234;
    dirty->dstPort = 0x5678;
    dirty->protocol = 6;
    ClusterFiveTuple clean;
    clean.srcAddress = 0x0A000001;
    clean.dstAddress = 0x0A000102;
    clean.srcPort = 0x1234;
    clean.dstPort = 0x5678;
    clean.protocol = 6;
    for (const ClusterFiveTuple* t : {dirty, &clean})
    {
        EXPECT_EQ(ClusterHashFiveTuple(*t, 0, CLUSTER_HASH_CRC32), 0x681153E0u);
        EXPECT_EQ(ClusterHashFiveTuple(*t, 42, CLUSTER_HASH_CRC32), 0x3E10F62Bu);
        EXPECT_EQ(ClusterHashFiveTuple(*t, 0, CLUSTER_HASH_XOR_FOLD), 0x45494549u);
    }
}

TEST(ClusterFlowHash, EveryFieldOfTheTupleMatters)
{
    ClusterFiveTuple base = Tuple(7);
    std::vector<ClusterFiveTuple> variants(5, base);
    variants[0].srcAddress ^= 0x100;
    variants[1].dstAddress ^= 0x100;
    variants[2].srcPort ^= 1;
    variants[3].dstPort ^= 1;
    variants[4].protocol = 17;
    uint32_t h = ClusterHashFiveTuple(base, 1, CLUSTER_HASH_CRC32);
    for (const auto& v : variants)
    {
        EXPECT_NE(ClusterHashFiveTuple(v, 1, CLUSTER_HASH_CRC32), h);
    }
}

TEST(ClusterFlowHash, SpreadsRandomFlowsUniformly)
{
    // 8 members, 16000 flows with random addresses and ports: the chi-square statistic
    // (7 degrees of freedom) stays below 24.32, its p = 0.001 quantile.
    const uint32_t members = 8;
    const uint32_t flows = 16000;
    for (auto algorithm : ALGORITHMS)
    {
        std::mt19937 rng(2024);
        std::vector<uint32_t> counts(members, 0);
        for (uint32_t i = 0; i < flows; ++i)
        {
            ClusterFiveTuple t;
            t.srcAddress = 0x0A000000u | (rng() & 0xFFFFFFu);
            t.dstAddress = 0x0A000000u | (rng() & 0xFFFFFFu);
            t.srcPort = static_cast<uint16_t>(rng());
            t.dstPort = static_cast<uint16_t>(rng());
            t.protocol = 6;
            counts[ClusterHashToIndex(ClusterHashFiveTuple(t, 0xC0FFEE, algorithm), members)]++;
        }
        EXPECT_LT(ChiSquare(counts, flows), 24.32) << "algorithm " << algorithm;
    }
}

TEST(ClusterFlowHash, Crc32SpreadsStructuredFlowsUniformly)
{
    // GPU fabrics have structured tuples (consecutive addresses and ports); CRC32 with the
    // finaliser stays uniform on them (XOR-fold need not, and does not here).
    const uint32_t members = 8;
    const uint32_t flows = 16000;
    std::vector<uint32_t> counts(members, 0);
    for (uint32_t i = 0; i < flows; ++i)
    {
        counts[ClusterHashToIndex(ClusterHashFiveTuple(Tuple(i), 0xC0FFEE, CLUSTER_HASH_CRC32),
                                  members)]++;
    }
    EXPECT_LT(ChiSquare(counts, flows), 24.32);
}

TEST(ClusterFlowHash, DifferentSaltsGiveDifferentChoices)
{
    const uint32_t members = 8;
    for (auto algorithm : ALGORITHMS)
    {
        uint32_t changed = 0;
        for (uint32_t i = 0; i < 1000; ++i)
        {
            uint32_t a = ClusterHashToIndex(ClusterHashFiveTuple(Tuple(i), 1, algorithm), members);
            uint32_t b =
                ClusterHashToIndex(ClusterHashFiveTuple(Tuple(i), 0x9E3779B9, algorithm), members);
            changed += a != b ? 1 : 0;
        }
        // Independent choices differ 7 times in 8.
        EXPECT_GT(changed, 800u) << "algorithm " << algorithm;
    }
}

TEST(ClusterFlowHash, Crc32SaltsRepartitionFlowsButXorFoldOnlyRelabels)
{
    // Which pairs of flows collide must change with the salt for CRC32 (so salts are
    // independent trials) and must not for the linear XOR-fold (the documented limitation).
    const uint32_t members = 8;
    auto collisions = [&](ClusterHashAlgorithm algorithm, uint32_t salt) {
        std::set<std::pair<uint32_t, uint32_t>> pairs;
        std::vector<uint32_t> member(64);
        for (uint32_t i = 0; i < 64; ++i)
        {
            member[i] =
                ClusterHashToIndex(ClusterHashFiveTuple(Tuple(i), salt, algorithm), members);
            for (uint32_t j = 0; j < i; ++j)
            {
                if (member[i] == member[j])
                {
                    pairs.emplace(j, i);
                }
            }
        }
        return pairs;
    };
    EXPECT_NE(collisions(CLUSTER_HASH_CRC32, 1), collisions(CLUSTER_HASH_CRC32, 2));
    EXPECT_EQ(collisions(CLUSTER_HASH_XOR_FOLD, 1), collisions(CLUSTER_HASH_XOR_FOLD, 0x5A5A0000));
}

TEST(ClusterFlowHash, HashToIndexStaysInRange)
{
    for (uint32_t n : {1u, 2u, 3u, 7u, 64u})
    {
        EXPECT_LT(ClusterHashToIndex(0xFFFFFFFFu, n), n);
        EXPECT_EQ(ClusterHashToIndex(0, n), 0u);
    }
}

TEST(ClusterFlowHash, ParsesAlgorithmNames)
{
    ClusterHashAlgorithm a = CLUSTER_HASH_XOR_FOLD;
    EXPECT_TRUE(ClusterParseHashAlgorithm("CRC32", a));
    EXPECT_EQ(a, CLUSTER_HASH_CRC32);
    EXPECT_TRUE(ClusterParseHashAlgorithm("xor-fold", a));
    EXPECT_EQ(a, CLUSTER_HASH_XOR_FOLD);
    EXPECT_FALSE(ClusterParseHashAlgorithm("md5", a));
    EXPECT_FALSE(ClusterParseHashAlgorithm("", a));
}

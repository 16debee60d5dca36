/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Collective schedules without a simulator: bytes per rank, and that every schedule runs to
// completion under data-driven progress (no deadlock, no lost or extra byte).
#include "ns3/vclos-collective-schedule.h"

#include <gtest/gtest.h>
#include <map>
#include <numeric>

using namespace ns3;

namespace
{

/// Bytes each rank sends in total.
std::vector<uint64_t>
SentPerRank(const std::vector<VclosRankSchedule>& plan)
{
    std::vector<uint64_t> sent;
    for (const auto& steps : plan)
    {
        uint64_t total = 0;
        for (const auto& s : steps)
        {
            total += s.sendBytes;
        }
        sent.push_back(total);
    }
    return sent;
}

/**
 * Runs a schedule abstractly: per directed pair a FIFO byte stream; a send is posted once
 * the previous step's receive is done (when it waits for it); a receive completes once its
 * bytes are in the stream. Returns true when every step completed and every stream was
 * consumed exactly.
 */
bool
RunsToCompletion(const std::vector<VclosRankSchedule>& plan)
{
    const auto n = static_cast<uint32_t>(plan.size());
    std::vector<std::size_t> posted(n, 0);
    std::vector<std::size_t> received(n, 0);
    std::map<std::pair<uint32_t, uint32_t>, uint64_t> inStream; // (from, to) -> bytes waiting
    bool progress = true;
    while (progress)
    {
        progress = false;
        for (uint32_t i = 0; i < n; ++i)
        {
            while (posted[i] < plan[i].size())
            {
                const auto& s = plan[i][posted[i]];
                bool ready = !s.waitsForPrevious || received[i] >= posted[i];
                if (!ready)
                {
                    break;
                }
                if (s.sendPeer >= 0)
                {
                    EXPECT_LT(static_cast<uint32_t>(s.sendPeer), n);
                    EXPECT_NE(static_cast<uint32_t>(s.sendPeer), i);
                    inStream[{i, static_cast<uint32_t>(s.sendPeer)}] += s.sendBytes;
                }
                ++posted[i];
                progress = true;
            }
            while (received[i] < plan[i].size())
            {
                const auto& s = plan[i][received[i]];
                if (s.recvPeer >= 0)
                {
                    uint64_t& waiting = inStream[{static_cast<uint32_t>(s.recvPeer), i}];
                    if (waiting < s.recvBytes)
                    {
                        break;
                    }
                    waiting -= s.recvBytes;
                }
                ++received[i];
                progress = true;
            }
        }
    }
    for (uint32_t i = 0; i < n; ++i)
    {
        if (posted[i] != plan[i].size() || received[i] != plan[i].size())
        {
            return false;
        }
    }
    for (const auto& [pair, bytes] : inStream)
    {
        if (bytes != 0)
        {
            return false;
        }
    }
    return true;
}

struct Case
{
    VclosCollectiveAlgorithm algorithm;
    uint32_t ranks;
    uint32_t gpusPerServer;
};

class VclosCollectiveScheduleCase : public ::testing::TestWithParam<Case>
{
};

} // namespace

TEST_P(VclosCollectiveScheduleCase, CompletesForAwkwardSizes)
{
    const Case& c = GetParam();
    for (uint64_t m : {1ull, 7ull, 1000ull, 1000003ull, 104857600ull})
    {
        auto plan = VclosBuildCollectiveSchedule(c.algorithm, c.ranks, m, c.gpusPerServer);
        ASSERT_EQ(plan.size(), c.ranks);
        EXPECT_TRUE(RunsToCompletion(plan))
            << VclosCollectiveAlgorithmName(c.algorithm) << " N=" << c.ranks << " M=" << m;
    }
}

TEST_P(VclosCollectiveScheduleCase, EveryRankSendsWhatTheAlgorithmDefines)
{
    const Case& c = GetParam();
    const uint32_t n = c.ranks;
    const uint64_t m = 240ull * 1024 * 1024 * 3; // divisible by every N tested and by 2^k
    auto sent = SentPerRank(VclosBuildCollectiveSchedule(c.algorithm, n, m, c.gpusPerServer));
    for (uint32_t i = 0; i < n; ++i)
    {
        uint64_t expected = 0;
        switch (c.algorithm)
        {
        case VCLOS_RING:
            expected = 2 * (n - 1) * (m / n);
            break;
        case VCLOS_HIERARCHICAL_RING: {
            uint64_t g = c.gpusPerServer;
            uint64_t s = n / g;
            expected = 2 * (g - 1) * (m / g) + 2 * (s - 1) * (m / g / s);
            break;
        }
        case VCLOS_HALVING_DOUBLING: {
            uint32_t p = 1;
            while (p * 2 <= n)
            {
                p *= 2;
            }
            uint64_t core = 2 * (p - 1) * (m / p);
            bool hasExtra = i < n - p;
            expected = i >= p ? m : core + (hasExtra ? m : 0);
            break;
        }
        case VCLOS_ALL_TO_ALL:
            expected = (n - 1) * m;
            break;
        }
        EXPECT_EQ(sent[i], expected)
            << VclosCollectiveAlgorithmName(c.algorithm) << " N=" << n << " rank " << i;
    }
}

INSTANTIATE_TEST_SUITE_P(Algorithms,
                         VclosCollectiveScheduleCase,
                         ::testing::Values(Case{VCLOS_RING, 2, 1},
                                           Case{VCLOS_RING, 3, 1},
                                           Case{VCLOS_RING, 4, 1},
                                           Case{VCLOS_RING, 6, 1},
                                           Case{VCLOS_RING, 8, 1},
                                           Case{VCLOS_RING, 16, 1},
                                           Case{VCLOS_HIERARCHICAL_RING, 2, 1},
                                           Case{VCLOS_HIERARCHICAL_RING, 4, 2},
                                           Case{VCLOS_HIERARCHICAL_RING, 6, 2},
                                           Case{VCLOS_HIERARCHICAL_RING, 6, 3},
                                           Case{VCLOS_HIERARCHICAL_RING, 8, 4},
                                           Case{VCLOS_HIERARCHICAL_RING, 16, 4},
                                           Case{VCLOS_HIERARCHICAL_RING, 16, 8},
                                           Case{VCLOS_HALVING_DOUBLING, 2, 1},
                                           Case{VCLOS_HALVING_DOUBLING, 3, 1},
                                           Case{VCLOS_HALVING_DOUBLING, 4, 1},
                                           Case{VCLOS_HALVING_DOUBLING, 6, 1},
                                           Case{VCLOS_HALVING_DOUBLING, 8, 1},
                                           Case{VCLOS_HALVING_DOUBLING, 16, 1},
                                           Case{VCLOS_ALL_TO_ALL, 2, 1},
                                           Case{VCLOS_ALL_TO_ALL, 3, 1},
                                           Case{VCLOS_ALL_TO_ALL, 6, 1},
                                           Case{VCLOS_ALL_TO_ALL, 16, 1}),
                         [](const ::testing::TestParamInfo<Case>& info) {
                             std::string name = VclosCollectiveAlgorithmName(info.param.algorithm) +
                                                "_N" + std::to_string(info.param.ranks) + "_g" +
                                                std::to_string(info.param.gpusPerServer);
                             for (auto& ch : name)
                             {
                                 ch = ch == '-' ? '_' : ch;
                             }
                             return name;
                         });

TEST(VclosCollectiveSchedule, RingStepsArePermutations)
{
    // Every step of a ring is a permutation: each rank sends to one and receives from one.
    auto plan = VclosBuildCollectiveSchedule(VCLOS_RING, 8, 8000);
    for (std::size_t k = 0; k < plan[0].size(); ++k)
    {
        std::vector<int> receivers(8, 0);
        for (uint32_t i = 0; i < 8; ++i)
        {
            receivers[plan[i][k].sendPeer]++;
            EXPECT_EQ(plan[i][k].sendPeer, static_cast<int32_t>((i + 1) % 8));
        }
        EXPECT_EQ(std::count(receivers.begin(), receivers.end(), 1), 8);
    }
    EXPECT_EQ(plan[0].size(), 14u);
    EXPECT_FALSE(plan[0][0].waitsForPrevious);
    EXPECT_TRUE(plan[0][1].waitsForPrevious);
}

TEST(VclosCollectiveSchedule, RefusesBadInput)
{
    EXPECT_THROW(VclosBuildCollectiveSchedule(VCLOS_RING, 1, 100), std::invalid_argument);
    EXPECT_THROW(VclosBuildCollectiveSchedule(VCLOS_RING, 4, 0), std::invalid_argument);
    EXPECT_THROW(VclosBuildCollectiveSchedule(VCLOS_HIERARCHICAL_RING, 6, 100, 4),
                 std::invalid_argument);
    VclosCollectiveAlgorithm a;
    EXPECT_FALSE(VclosParseCollectiveAlgorithm("butterfly", a));
    EXPECT_TRUE(VclosParseCollectiveAlgorithm("halving-doubling", a));
    EXPECT_EQ(a, VCLOS_HALVING_DOUBLING);
}

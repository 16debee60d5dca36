/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// LeanLinkTxTime (the serialization-time memo of the packet path) against serialization times
// worked out by hand (bits / rate, rounded to the nearest nanosecond as ns-3's Time does)
// and against DataRate::CalculateBytesTxTime over a random sequence of sizes and rates,
// with rate changes between calls (a device's DataRate attribute, a QP's DCQCN rate). The
// negative control runs the same checks on a memo keyed on the size only, which must fail
// them: it returns the time at the old rate after a rate change.
// Tests: lean-link-tx-time

#include "ns3/data-rate.h"
#include "ns3/lean-link-tx-time.h"
#include "ns3/nstime.h"
#include "ns3/test.h"

#include <cstdint>
#include <functional>
#include <random>
#include <vector>

using namespace ns3;

namespace
{

/// A memo keyed on the size alone: wrong when the rate changes (the negative control).
class SizeOnlyMemo
{
  public:
    /**
     * \param rate the line rate
     * \param bytes the frame size
     * \return the remembered time for bytes, whatever the rate
     */
    Time Get(const DataRate& rate, uint32_t bytes)
    {
        if (m_valid && bytes == m_bytes)
        {
            return m_time;
        }
        m_valid = true;
        m_bytes = bytes;
        m_time = rate.CalculateBytesTxTime(bytes);
        return m_time;
    }

  private:
    bool m_valid{false}; //!< something is remembered
    uint32_t m_bytes{0}; //!< its size
    Time m_time;         //!< its time
};

/// One call and its serialization time, worked out by hand.
struct HandCase
{
    uint64_t bitRate; //!< b/s
    uint32_t bytes;   //!< frame size
    int64_t ns;       //!< bytes * 8 / bitRate, in ns, rounded to the nearest
};

/// Calls in this order: repeats (memo hits), rate changes at the same size, a third key that
/// evicts one of two remembered entries.
const std::vector<HandCase> HAND_SEQUENCE = {
    {100000000000ull, 9048, 724}, // 72384 bits / 100 Gb/s = 723.84 ns
    {100000000000ull, 9048, 724}, // again (a hit)
    {25000000000ull, 9048, 2895}, // the rate drops (DCQCN): 2895.36 ns
    {100000000000ull, 64, 5},     // an ACK-sized frame: 5.12 ns
    {25000000000ull, 9048, 2895}, // still remembered
    {40000000000ull, 9048, 1810}, // 1809.6 ns
    {100000000000ull, 9048, 724}, // back to line rate
    {100000000000ull, 4154, 332}, // 33232 bits: 332.32 ns
    {10000000000ull, 1500, 1200}, // exactly 1200 ns
    {100000000000ull, 4154, 332}, // a hit
    {10000000000ull, 4154, 3323}, // 3323.2 ns, same size at another rate
    {12500000000ull, 1, 1},       // 8 bits / 12.5 Gb/s = 0.64 ns
};

/**
 * \param get the memo under test
 * \param sequence calls and their hand-worked times
 * \return how many calls gave another time
 */
uint32_t
HandMismatches(const std::function<Time(const DataRate&, uint32_t)>& get,
               const std::vector<HandCase>& sequence)
{
    uint32_t mismatches = 0;
    for (const HandCase& c : sequence)
    {
        if (get(DataRate(c.bitRate), c.bytes) != NanoSeconds(c.ns))
        {
            ++mismatches;
        }
    }
    return mismatches;
}

/**
 * \param get the memo under test
 * \param calls how many random calls
 * \return how many calls differed from DataRate::CalculateBytesTxTime
 */
uint32_t
RandomMismatches(const std::function<Time(const DataRate&, uint32_t)>& get, uint32_t calls)
{
    // Few sizes and rates, so keys repeat (hits) and change in every way.
    const std::vector<uint32_t> sizes = {64, 66, 90, 1500, 4154, 9048, 9050};
    const std::vector<uint64_t> rates = {100000000000ull,
                                         25000000000ull,
                                         12345678901ull,
                                         40000000000ull,
                                         1000000ull};
    std::mt19937 rng(42);
    uint32_t mismatches = 0;
    uint64_t rate = rates[0];
    for (uint32_t i = 0; i < calls; ++i)
    {
        if (rng() % 8 == 0)
        {
            rate = rates[rng() % rates.size()]; // a rate change now and then
        }
        const uint32_t bytes = sizes[rng() % (rng() % 2 == 0 ? 2 : sizes.size())];
        const DataRate dataRate(rate);
        if (get(dataRate, bytes) != dataRate.CalculateBytesTxTime(bytes))
        {
            ++mismatches;
        }
    }
    return mismatches;
}

/// Hand-worked times, DataRate's own results, and rate changes.
class LeanLinkTxTimeHandTestCase : public TestCase
{
  public:
    LeanLinkTxTimeHandTestCase()
        : TestCase("serialization times by hand, with rate changes; size-only memo fails")
    {
    }

  private:
    void DoRun() override
    {
        // The reference first: ns-3's own computation gives the hand values (so the memo is
        // compared with what it replaces), and so does Seconds(double) on these values.
        for (const HandCase& c : HAND_SEQUENCE)
        {
            const Time expected = NanoSeconds(c.ns);
            NS_TEST_EXPECT_MSG_EQ(DataRate(c.bitRate).CalculateBytesTxTime(c.bytes),
                                  expected,
                                  "DataRate: " << c.bytes << " B at " << c.bitRate << " b/s");
            NS_TEST_EXPECT_MSG_EQ(Seconds(c.bytes * 8.0 / c.bitRate),
                                  expected,
                                  "Seconds(double): " << c.bytes << " B at " << c.bitRate);
        }

        LeanLinkTxTime memo;
        const auto get = [&memo](const DataRate& r, uint32_t b) { return memo.Get(r, b); };
        NS_TEST_EXPECT_MSG_EQ(HandMismatches(get, HAND_SEQUENCE), 0, "memo against hand values");

        // Negative control: keyed on the size only, the time at 100 Gb/s comes back at
        // 25 Gb/s (724 ns instead of 2895 ns), so the same check fails.
        SizeOnlyMemo wrong;
        const auto getWrong = [&wrong](const DataRate& r, uint32_t b) { return wrong.Get(r, b); };
        NS_TEST_EXPECT_MSG_GT(HandMismatches(getWrong, HAND_SEQUENCE),
                              0,
                              "the check must see a size-only memo's stale times");
        SizeOnlyMemo stale;
        stale.Get(DataRate(100000000000ull), 9048);
        NS_TEST_EXPECT_MSG_EQ(stale.Get(DataRate(25000000000ull), 9048),
                              NanoSeconds(724),
                              "the size-only memo returns the old rate's time");
    }
};

/// A long random sequence against DataRate::CalculateBytesTxTime.
class LeanLinkTxTimeRandomTestCase : public TestCase
{
  public:
    LeanLinkTxTimeRandomTestCase()
        : TestCase("random sizes and rates equal DataRate::CalculateBytesTxTime")
    {
    }

  private:
    void DoRun() override
    {
        LeanLinkTxTime memo;
        NS_TEST_EXPECT_MSG_EQ(
            RandomMismatches([&memo](const DataRate& r, uint32_t b) { return memo.Get(r, b); },
                             100000),
            0,
            "memo against DataRate");
        SizeOnlyMemo wrong;
        NS_TEST_EXPECT_MSG_GT(
            RandomMismatches([&wrong](const DataRate& r, uint32_t b) { return wrong.Get(r, b); },
                             100000),
            0,
            "control: a size-only memo must fail the same check");
    }
};

/// The serialization-time memo's suite.
class LeanLinkTxTimeTestSuite : public TestSuite
{
  public:
    LeanLinkTxTimeTestSuite()
        : TestSuite("lean-link-tx-time", UNIT)
    {
        AddTestCase(new LeanLinkTxTimeHandTestCase(), TestCase::QUICK);
        AddTestCase(new LeanLinkTxTimeRandomTestCase(), TestCase::QUICK);
    }
};

/// The suite's instance.
static LeanLinkTxTimeTestSuite g_vclosTxTimeTestSuite;

} // namespace

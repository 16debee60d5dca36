/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef LEAN_LINK_TX_TIME_H
#define LEAN_LINK_TX_TIME_H

#include "ns3/data-rate.h"
#include "ns3/nstime.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup lean-link
 * \brief DataRate::CalculateBytesTxTime with a two-entry memo (doc/lean-link/lean-link.rst,
 * "Transmit-time memo").
 *
 * ns-3 computes a serialization time as Seconds(int64x64_t(bits) / bitRate): a 128-bit
 * division per call, and the packet path asks for it several times per packet with the same
 * few sizes (a data frame, an ACK) at the same rate. This value type remembers the last two
 * (bytes, bit rate) -> Time results and returns them when asked again; anything else goes to
 * DataRate::CalculateBytesTxTime, whose result it stores. The key holds the rate as well as
 * the size, since a device's DataRate attribute or a QP's DCQCN rate can change between two
 * calls. The result is therefore always exactly DataRate::CalculateBytesTxTime's.
 *
 * A rate of 0 b/s is never stored (every call goes to DataRate, as without the memo).
 * Each user keeps its own: a LeanLinkNetDevice per device, a RoceNic one per call site
 * (data packets; ACKs, NAKs and CNPs), a RoceQp one for its pacing (whose DCQCN rate
 * is its own, so the entries stay warm).
 */
class LeanLinkTxTime
{
  public:
    /**
     * \param rate the line rate
     * \param bytes the frame size
     * \return rate.CalculateBytesTxTime(bytes), exactly
     */
    Time Get(const DataRate& rate, uint32_t bytes)
    {
        const uint64_t bitRate = rate.GetBitRate();
        for (const Entry& entry : m_entries)
        {
            if (entry.bytes == bytes && entry.bitRate == bitRate && bitRate != 0)
            {
                return entry.time;
            }
        }
        return Compute(rate, bytes);
    }

  private:
    /**
     * \brief A miss: ask DataRate and replace the older entry.
     * \param rate the line rate
     * \param bytes the frame size
     * \return rate.CalculateBytesTxTime(bytes)
     */
    Time Compute(const DataRate& rate, uint32_t bytes);

    /// One remembered result.
    struct Entry
    {
        uint64_t bitRate{0}; //!< the rate it was computed at (0: empty)
        uint32_t bytes{0};   //!< the size it was computed for
        Time time;           //!< CalculateBytesTxTime's result
    };

    Entry m_entries[2];   //!< the two most recently computed results
    uint32_t m_victim{0}; //!< the entry the next miss replaces
};

} // namespace ns3

#endif /* LEAN_LINK_TX_TIME_H */

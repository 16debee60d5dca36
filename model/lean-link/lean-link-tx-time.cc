/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "lean-link-tx-time.h"

namespace ns3
{

Time
LeanLinkTxTime::Compute(const DataRate& rate, uint32_t bytes)
{
    const Time time = rate.CalculateBytesTxTime(bytes);
    const uint64_t bitRate = rate.GetBitRate();
    if (bitRate != 0)
    {
        Entry& entry = m_entries[m_victim];
        entry.bitRate = bitRate;
        entry.bytes = bytes;
        entry.time = time;
        m_victim ^= 1;
    }
    return time;
}

} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "vclos-egress-clock.h"

#include "ns3/assert.h"

namespace ns3
{

VclosEgressClock::VclosEgressClock()
    : m_waiting(64),
      m_bytes(0),
      m_maxSize("1MB")
{
}

void
VclosEgressClock::SetMaxSize(QueueSize maxSize)
{
    m_maxSize = maxSize;
}

QueueSize
VclosEgressClock::GetMaxSize() const
{
    return m_maxSize;
}

bool
VclosEgressClock::Fits(uint32_t bytes) const
{
    if (m_maxSize.GetUnit() == QueueSizeUnit::PACKETS)
    {
        return m_waiting.size() + 1 <= m_maxSize.GetValue();
    }
    return m_bytes + bytes <= m_maxSize.GetValue();
}

void
VclosEgressClock::Admit(Time start, uint32_t bytes)
{
    const int64_t ticks = start.GetTimeStep();
    NS_ASSERT_MSG(m_waiting.empty() || m_waiting.back().first <= ticks,
                  "VclosEgressClock: frames must be admitted in start order");
    if (m_waiting.full())
    {
        m_waiting.set_capacity(2 * m_waiting.capacity()); // grows, never shrinks
    }
    m_waiting.push_back({ticks, bytes});
    m_bytes += bytes;
}

uint64_t
VclosEgressClock::GetBytes() const
{
    return m_bytes;
}

uint32_t
VclosEgressClock::GetPackets() const
{
    return static_cast<uint32_t>(m_waiting.size());
}

uint64_t
VclosEgressClock::GetLength() const
{
    return m_maxSize.GetUnit() == QueueSizeUnit::PACKETS ? m_waiting.size() : m_bytes;
}

void
VclosEgressClock::Clear()
{
    m_waiting.clear();
    m_bytes = 0;
}

} // namespace ns3

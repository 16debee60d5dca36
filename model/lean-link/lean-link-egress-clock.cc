/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "lean-link-egress-clock.h"

#include "ns3/assert.h"

namespace ns3
{

LeanLinkEgressClock::LeanLinkEgressClock()
    : m_waiting(64),
      m_bytes(0),
      m_maxSize("1MB")
{
}

void
LeanLinkEgressClock::SetMaxSize(QueueSize maxSize)
{
    m_maxSize = maxSize;
}

QueueSize
LeanLinkEgressClock::GetMaxSize() const
{
    return m_maxSize;
}

bool
LeanLinkEgressClock::Fits(uint32_t bytes) const
{
    if (m_maxSize.GetUnit() == QueueSizeUnit::PACKETS)
    {
        return m_waiting.size() + 1 <= m_maxSize.GetValue();
    }
    return m_bytes + bytes <= m_maxSize.GetValue();
}

void
LeanLinkEgressClock::Admit(Time start, uint32_t bytes)
{
    const int64_t ticks = start.GetTimeStep();
    NS_ASSERT_MSG(m_waiting.empty() || m_waiting.back().first <= ticks,
                  "LeanLinkEgressClock: frames must be admitted in start order");
    if (m_waiting.full())
    {
        m_waiting.set_capacity(2 * m_waiting.capacity()); // grows, never shrinks
    }
    m_waiting.push_back({ticks, bytes});
    m_bytes += bytes;
}

uint64_t
LeanLinkEgressClock::GetBytes() const
{
    return m_bytes;
}

uint32_t
LeanLinkEgressClock::GetPackets() const
{
    return static_cast<uint32_t>(m_waiting.size());
}

uint64_t
LeanLinkEgressClock::GetLength() const
{
    return m_maxSize.GetUnit() == QueueSizeUnit::PACKETS ? m_waiting.size() : m_bytes;
}

void
LeanLinkEgressClock::Clear()
{
    m_waiting.clear();
    m_bytes = 0;
}

} // namespace ns3

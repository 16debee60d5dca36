/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef LEAN_LINK_EGRESS_CLOCK_H
#define LEAN_LINK_EGRESS_CLOCK_H

#include "ns3/nstime.h"
#include "ns3/queue-size.h"

#include <boost/circular_buffer.hpp>
#include <cstdint>
#include <utility>

namespace ns3
{

/**
 * \ingroup lean-link
 * \brief The backlog of a FIFO transmitter that gives every frame its start time when the
 *        frame arrives (LeanLinkNetDevice, Egress=Clock).
 *
 * A FIFO port with one line rate starts a frame when the frame before it has ended (plus the
 * gap), so the start time of every frame is known when it arrives: there is nothing a later
 * arrival can change. This class keeps the frames admitted but not yet started, as (start
 * time, bytes), and answers what a queue holding them would: its length in bytes and
 * packets, and whether one more frame fits under a QueueSize. A frame leaves the backlog at
 * its start time (Release), as a frame leaves a device queue when its first bit goes on the
 * wire.
 *
 * It schedules nothing and knows no device: the caller computes start times and calls
 * Release with the current time before it reads the backlog.
 */
class LeanLinkEgressClock
{
  public:
    /// A backlog of at most 1 MB (a caller sets its own).
    LeanLinkEgressClock();

    /// \param maxSize frames that would take the backlog over this do not fit
    void SetMaxSize(QueueSize maxSize);
    /// \return the limit
    QueueSize GetMaxSize() const;

    /**
     * \brief Forget the frames that have started by now.
     * \param now the current time
     */
    void Release(Time now)
    {
        const int64_t ticks = now.GetTimeStep();
        while (!m_waiting.empty() && m_waiting.front().first <= ticks)
        {
            m_bytes -= m_waiting.front().second;
            m_waiting.pop_front();
        }
    }

    /**
     * \param bytes a frame's size
     * \return true if the backlog has room for it under MaxSize (in its unit)
     */
    bool Fits(uint32_t bytes) const;

    /**
     * \brief Record a frame that starts at `start`.
     *
     * Frames are admitted in FIFO order: start is no earlier than the start of every frame
     * admitted before (a caller that breaks this gets a wrong backlog; NS_ASSERT checks it).
     * \param start when its first bit goes on the wire
     * \param bytes its size
     */
    void Admit(Time start, uint32_t bytes);

    /// \return the frames not yet started, in bytes
    uint64_t GetBytes() const;
    /// \return the frames not yet started
    uint32_t GetPackets() const;
    /// \return the backlog in MaxSize's unit (bytes or packets)
    uint64_t GetLength() const;

    /// Forget every frame.
    void Clear();

  private:
    boost::circular_buffer<std::pair<int64_t, uint32_t>> m_waiting; //!< (start ticks, bytes)
    uint64_t m_bytes;                                               //!< their bytes
    QueueSize m_maxSize;                                            //!< the limit
};

} // namespace ns3

#endif /* LEAN_LINK_EGRESS_CLOCK_H */

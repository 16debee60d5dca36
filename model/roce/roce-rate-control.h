/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef ROCE_RATE_CONTROL_H
#define ROCE_RATE_CONTROL_H

#include "ns3/data-rate.h"
#include "ns3/object.h"

namespace ns3
{

/**
 * \ingroup roce
 * \brief The sending rate of one RDMA queue pair (the reaction point of a congestion
 *        control such as DCQCN).
 *
 * The queue pair asks GetRate() before each data packet and paces the next packet at
 * size / rate (a hardware rate limiter). It tells the controller what it sees: congestion
 * notifications (CNPs) and the bytes it sent. The controller runs its own timers, if any,
 * between Start() and Stop(), and never knows how packets are built or carried.
 * A queue pair without a controller sends at line rate.
 */
class RoceRateControl : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::RoceRateControl").SetParent<Object>().SetGroupName("Roce");
        return tid;
    }

    /**
     * \brief The queue pair begins sending.
     * \param lineRate the rate of its NIC; the controller starts there (no slow start)
     */
    virtual void Start(DataRate lineRate) = 0;
    /// \return the rate to pace the next data packet at
    virtual DataRate GetRate() const = 0;
    /// A congestion notification (CNP) for this queue pair arrived.
    virtual void NotifyCnp() = 0;
    /// \param bytes data bytes (payload) the queue pair just put on the wire
    virtual void NotifyBytesSent(uint32_t bytes) = 0;
    /// The queue pair has nothing left to send or ended: cancel every timer.
    virtual void Stop() = 0;
};

} // namespace ns3

#endif // ROCE_RATE_CONTROL_H

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef ONCACHE_HOST_CPU_H
#define ONCACHE_HOST_CPU_H

#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <deque>
#include <functional>
#include <vector>

namespace ns3
{

/**
 * \ingroup oncache
 * \brief The CPU cores of one host, each a FIFO service queue.
 *
 * A job is the work one packet needs on one core (one or more data-path segments). When the
 * core starts serving a job it calls the job's start function, which takes the data-path
 * decisions and returns the service time; when the service ends it calls the job's done
 * function. Only the job in service has a scheduled event, so a core costs one event per job
 * however long its queue is, and jobs on one core complete in submission order.
 */
class OncacheHostCpu : public Object
{
  public:
    /// Called when a core starts a job; returns the job's service time.
    using StartFunction = std::function<Time()>;
    /// Called when a core finishes a job.
    using DoneFunction = std::function<void()>;

    /**
     * \brief Signature of the CoreBusy trace source.
     * \param host the host index
     * \param core the core index
     * \param start when the job started
     * \param duration its service time
     */
    typedef void (*CoreBusyTracedCallback)(uint32_t host, uint32_t core, Time start, Time duration);

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    OncacheHostCpu();

    /**
     * \param cores the number of cores (at least 1)
     * \throws std::invalid_argument for 0
     */
    void SetCores(uint32_t cores);

    /// \return the number of cores
    uint32_t GetCores() const;

    /**
     * \param host the host index reported by the trace source
     */
    void SetHostId(uint32_t host);

    /**
     * \brief Queue a job on a core.
     * \param core the core index (< GetCores())
     * \param start called when the job enters service; returns the service time
     * \param done called when the service ends
     */
    void Submit(uint32_t core, StartFunction start, DoneFunction done);

    /**
     * \param core a core index
     * \return the jobs queued on it, including the one in service
     */
    std::size_t GetQueueLength(uint32_t core) const;

  protected:
    void DoDispose() override;

  private:
    /// A job waiting for or in service.
    struct Job
    {
        StartFunction start; //!< decision and cost
        DoneFunction done;   //!< completion
    };

    /// One core.
    struct Core
    {
        std::deque<Job> queue; //!< FIFO, front in service when busy
        bool busy = false;     //!< a job is in service
    };

    /**
     * \brief Start the job at the front of a core's queue.
     * \param core the core index
     */
    void StartNext(uint32_t core);

    /**
     * \brief End the job in service.
     * \param core the core index
     */
    void Complete(uint32_t core);

    uint32_t m_hostId;                                              //!< host index for the trace
    std::vector<Core> m_cores;                                      //!< the cores
    TracedCallback<uint32_t, uint32_t, Time, Time> m_coreBusyTrace; //!< busy periods
};

} // namespace ns3

#endif /* ONCACHE_HOST_CPU_H */

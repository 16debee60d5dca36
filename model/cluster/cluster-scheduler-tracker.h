/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef CLUSTER_SCHEDULER_TRACKER_H
#define CLUSTER_SCHEDULER_TRACKER_H

#include "ns3/cluster-job-scheduler.h"
#include "ns3/nstime.h"
#include "ns3/object.h"

#include <array>
#include <map>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup cluster
 * \brief Job lives, queue length and GPU utilisation over time, and placement decision
 *        times of one ClusterJobScheduler, fed only by its trace sources.
 *
 * Per job: arrival, start, finish, its GPUs and how many leaves it spans, and its declined
 * placement attempts by cause (PlacementFailed: not enough GPUs, GPU fragmentation, network
 * fragmentation, circuits) with the time each cause blocked it (from a declined attempt to
 * the job's next attempt; under FIFO only the head of the queue is attempted, so the time a
 * job waits behind the head is not in these). Over time: a step
 * series of the queue length and of busy GPUs (one point per change). Summaries are
 * computed on demand; CSV writers give one row per job and one row per change.
 */
class ClusterSchedulerTracker : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    ClusterSchedulerTracker();

    /// Causes a placement is declined for: ClusterPlacementFailure values.
    static constexpr std::size_t CAUSES = 4;

    /// One job's life.
    struct JobRecord
    {
        std::array<uint32_t, CAUSES> failures{}; //!< declined attempts, by cause
        std::array<Time, CAUSES> blocked{};      //!< time blocked, by cause
        Time lastFailure = Time(-1);             //!< open declined attempt (-1: none)
        std::size_t lastCause = 0;               //!< its cause
        uint32_t gpus = 0;                       //!< GPUs
        uint32_t leaves = 0;                     //!< leaves it ran on (0 until it starts)
        ClusterCollectiveAlgorithm algorithm = CLUSTER_RING; //!< what it ran (set when it starts)
        Time arrival;                                        //!< submit
        Time start = Time(-1);                               //!< placement (-1 until then)
        Time finish = Time(-1); //!< last iteration ended (-1 until then)

        /// \return whether the job finished
        bool IsFinished() const
        {
            return !finish.IsNegative();
        }
    };

    /// One point of a step series: the value from this time on.
    struct Sample
    {
        Time time;      //!< when it changed
        uint32_t value; //!< the new value
    };

    /**
     * \brief Follow a scheduler.
     * \param scheduler the scheduler (its fabric must be set)
     */
    void Install(Ptr<ClusterJobScheduler> scheduler);

    /// \return every job seen, by id
    const std::map<uint32_t, JobRecord>& GetJobs() const;
    /// \return jobs finished
    uint32_t GetFinishedJobs() const;
    /// \return queue length changes, in time order
    const std::vector<Sample>& GetQueueLength() const;
    /// \return busy-GPU changes, in time order
    const std::vector<Sample>& GetBusyGpus() const;
    /// \return wall-clock time of every placement decision, in microseconds
    const std::vector<double>& GetDecisionMicroseconds() const;

    /**
     * \brief Time average of a step series over [0, end].
     * \param series a series of this tracker
     * \param end the end of the window (> 0)
     * \return the average (0 for an empty series)
     */
    static double TimeAverage(const std::vector<Sample>& series, Time end);

    /**
     * \brief Write one row per change: label,time_ms,queue_length,busy_gpus,gpu_utilisation.
     * \param out an open stream (the header is written when writeHeader)
     * \param label the first column
     * \param writeHeader write the header row first
     */
    void WriteTimeSeries(std::ostream& out, const std::string& label, bool writeHeader) const;

  private:
    /**
     * \brief Append a point to a step series (replacing one at the same time).
     * \param series the series
     * \param value the new value
     */
    static void Record(std::vector<Sample>* series, uint32_t value);

    uint32_t m_gpuCount = 0;              //!< GPUs of the fabric
    std::map<uint32_t, JobRecord> m_jobs; //!< by id
    uint32_t m_finished = 0;              //!< jobs finished
    std::vector<Sample> m_queue;          //!< queue length
    std::vector<Sample> m_busy;           //!< busy GPUs
    std::vector<double> m_decisionUs;     //!< decision times
    uint32_t m_gpusPerLeaf = 0;           //!< for the leaves a job spans
};

} // namespace ns3

#endif /* CLUSTER_SCHEDULER_TRACKER_H */

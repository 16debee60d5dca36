/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef COLLECTIVE_TRACKER_H
#define COLLECTIVE_TRACKER_H

#include "ns3/application-container.h"
#include "ns3/nstime.h"
#include "ns3/object.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup collective
 * \brief Per-job, per-iteration times of collective jobs, fed by CollectiveApp's
 *        trace sources.
 *
 * An iteration of a job starts when its first rank starts it and ends when its last rank
 * ends it; its collective starts when the first rank's compute phase ends.
 */
class CollectiveTracker : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /// One iteration of one job.
    struct Iteration
    {
        Time start = Time::Max();           //!< first rank's IterationStart
        Time collectiveStart = Time::Max(); //!< first rank's CollectiveStart
        Time end;                           //!< last rank's IterationEnd
        uint32_t ranksEnded = 0;            //!< ranks that ended it
    };

    /**
     * \brief Track a job.
     * \param name the job's name in the CSV
     * \param ranks its applications (CollectiveApp), as CollectiveHelper returns
     * \return the job's index
     */
    uint32_t Track(const std::string& name, const ApplicationContainer& ranks);

    /// \param job a job index \return its iterations so far
    const std::vector<Iteration>& GetIterations(uint32_t job) const;
    /// \param job a job index \return whether every rank ended every iteration begun
    bool IsComplete(uint32_t job) const;

    /**
     * \brief Write job,iteration,start_s,collective_start_s,end_s,iteration_s,collective_s.
     * \param filename CSV path
     */
    void WriteCsv(const std::string& filename) const;

  private:
    /// What the tracker knows of one job.
    struct Job
    {
        std::string name;                  //!< CSV name
        uint32_t ranks = 0;                //!< rank count
        std::vector<Iteration> iterations; //!< by index
    };

    /// A rank's event.
    enum Event
    {
        ITERATION_START,  //!< IterationStart
        COLLECTIVE_START, //!< CollectiveStart
        ITERATION_END     //!< IterationEnd
    };

    /**
     * \brief Sink of the ranks' iteration trace sources.
     * \param tracker the tracker
     * \param job the job
     * \param event which trace fired
     * \param rank the rank
     * \param iteration the iteration
     */
    static void Observed(Ptr<CollectiveTracker> tracker,
                         uint32_t job,
                         Event event,
                         uint32_t rank,
                         uint32_t iteration);
    /// \param job a job \param iteration an iteration \return its record, created if needed
    Iteration& At(uint32_t job, uint32_t iteration);

    std::vector<Job> m_jobs; //!< tracked jobs
};

} // namespace ns3

#endif /* COLLECTIVE_TRACKER_H */

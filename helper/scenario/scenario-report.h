/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef SCENARIO_REPORT_H
#define SCENARIO_REPORT_H

#include "ns3/cluster-job-scheduler.h"
#include "ns3/cluster-scheduler-tracker.h"
#include "ns3/scenario-config.h"
#include "ns3/scenario-runner.h"

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <ostream>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup scenario
 * \brief The jobs CSV's header (<prefix>-jobs.csv): one row per job and run.
 * \return the header line, with its newline
 */
const char* ScenarioJobsCsvHeader();

/**
 * \ingroup scenario
 * \brief Write one job's row of the jobs CSV.
 * \param out the CSV
 * \param policy the run's label
 * \param id the job
 * \param r its record
 * \param aloneMs its run time alone (<= 0: unknown, the columns stay empty)
 * \param referenceMs its contention-free reference time (<= 0: unknown, empty)
 */
void ScenarioWriteJobRow(std::ostream& out,
                         const std::string& policy,
                         uint32_t id,
                         const ClusterSchedulerTracker::JobRecord& r,
                         double aloneMs,
                         double referenceMs);

/**
 * \ingroup scenario
 * \brief One run's figures over its jobs: a row of <prefix>-summary.csv and of the console
 *        table. Times in ms (simulated, scaled).
 */
struct ScenarioRunFigures
{
    std::string policy;                    //!< the run's label
    uint32_t jobs = 0;                     //!< jobs run
    std::vector<double> jctMs;             //!< each job's JCT, in job order
    double meanJct = 0;                    //!< mean JCT
    double p50Jct = 0;                     //!< median JCT
    double p99Jct = 0;                     //!< 99th percentile JCT
    double meanWait = 0;                   //!< mean wait before start
    double meanRun = 0;                    //!< mean run time
    double waitingRatio = 0;               //!< share of jobs waiting longer than the threshold
    std::vector<double> slowdown;          //!< JCT / alone, per job with an alone time
    std::vector<double> stretch;           //!< run / alone, per job with an alone time
    std::vector<double> referenceSlowdown; //!< JCT / reference, per job with a reference
    double meanQueue = 0;                  //!< time-averaged queue length
    uint32_t maxQueue = 0;                 //!< longest queue
    double meanUtilisation = 0;            //!< time-averaged busy GPU share
    std::array<uint64_t, ClusterSchedulerTracker::CAUSES> declined{}; //!< declines per cause
    uint32_t fragmentedJobs = 0; //!< jobs declined for network fragmentation
    double fragmentedMs = 0;     //!< their waiting for it
    uint32_t circuitJobs = 0;    //!< jobs declined for circuits
    double circuitMs = 0;        //!< their waiting for them
};

/**
 * \ingroup scenario
 * \brief Work out one run's figures.
 * \param s the scenario (metrics.waitThresholdMs)
 * \param run the run
 * \param jobs the jobs, in the order the figures list them
 * \param gpus the cluster's GPUs
 * \param aloneMs each job's run time alone, by id (null: none)
 * \param referenceMs each job's contention-free reference time
 * \return the figures
 */
ScenarioRunFigures ScenarioSummarize(
    const ScenarioConfig& s,
    const ScenarioPolicyRun& run,
    const std::vector<ClusterJobRequest>& jobs,
    uint32_t gpus,
    const std::map<uint32_t, double>* aloneMs,
    const std::function<double(const ClusterJobRequest&)>& referenceMs);

/**
 * \ingroup scenario
 * \brief Write the summary CSV's header (<prefix>-summary.csv).
 * \param out the CSV
 */
void ScenarioWriteSummaryHeader(std::ostream& out);

/**
 * \ingroup scenario
 * \brief Write one run's row of the summary CSV.
 * \param out the CSV
 * \param s the scenario (its engine)
 * \param run the run
 * \param f its figures
 * \param firstMeanJct the first run's mean JCT (the reduction's base)
 */
void ScenarioWriteSummaryRow(std::ostream& out,
                             const ScenarioConfig& s,
                             const ScenarioPolicyRun& run,
                             const ScenarioRunFigures& f,
                             double firstMeanJct);

/**
 * \ingroup scenario
 * \brief Write the console table's header.
 * \param out the console
 * \param inSeconds whether the JCT columns are in seconds (else ms)
 */
void ScenarioWriteConsoleHeader(std::ostream& out, bool inSeconds);

/**
 * \ingroup scenario
 * \brief Write one run's row of the console table.
 * \param out the console
 * \param run the run
 * \param f its figures
 * \param inSeconds whether the JCT columns are in seconds (else ms)
 */
void ScenarioWriteConsoleRow(std::ostream& out,
                             const ScenarioPolicyRun& run,
                             const ScenarioRunFigures& f,
                             bool inSeconds);

} // namespace ns3

#endif /* SCENARIO_REPORT_H */

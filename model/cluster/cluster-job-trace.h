/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef CLUSTER_JOB_TRACE_H
#define CLUSTER_JOB_TRACE_H

#include "ns3/nstime.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup cluster
 * \brief One training job of a workload: when it arrives and what it asks for.
 */
struct ClusterTraceJob
{
    uint32_t id = 0;         //!< job id from the trace
    uint32_t gpus = 0;       //!< GPUs requested
    Time submit;             //!< arrival, relative to the trace's first arrival
    uint32_t iterations = 0; //!< iterations (0: unknown, e.g. Helios)
    std::string model;       //!< model zoo name ("" when the trace has none)
    Time duration;           //!< run time in the trace's cluster
    std::string where;       //!< "<file>:<line>" of a trace row ("" when generated)
};

/**
 * \ingroup cluster
 * \brief Read a Tiresias/Philly-style trace: columns job_id, num_gpu, submit_time,
 *        iterations, model_name, duration, interval (ignored).
 *
 * job_id is 0 to 2^32 - 1, num_gpu and iterations 1 to 2^32 - 1 (digits only, read as
 * integers); submit_time and duration are decimal numbers (a fraction and an exponent
 * allowed; no sign, space or hexadecimal) in units of unitSeconds and must come to at most
 * SUITE_MAX_TIME_SECONDS. A column named twice, or a row with more or fewer fields than the
 * header, is refused.
 * \param path the CSV file
 * \param unitSeconds seconds per unit of submit_time and duration: 1 for seconds (Tiresias'
 *        own traces), 1e-3 for milliseconds (Philly-derived traces)
 * \return the jobs sorted by submit time; a malformed row or a value that does not fit
 *         throws std::runtime_error with the file, line and field
 */
std::vector<ClusterTraceJob> ClusterReadTiresiasTrace(const std::string& path,
                                                      double unitSeconds = 1);

/**
 * \ingroup cluster
 * \brief Read a SenseTime Helios cluster_log.csv: columns job_id, gpu_num, state,
 *        submit_time, start_time, end_time ("YYYY-MM-DD HH:MM:SS"). Keeps finished jobs
 *        (COMPLETED, CANCELLED, FAILED, NODE_FAIL, TIMEOUT) with gpu_num > 0, as the vClos
 *        authors' generator does; duration = end - start. Times are exactly
 *        "YYYY-MM-DD HH:MM:SS" (two-digit months, days, hours), years 1970 to 2100; gpu_num is
 *        digits only. A column named twice, or a row with more or fewer fields than the
 *        header, is refused.
 * \param path the CSV file
 * \param earliestSubmit jobs submitted before it (seconds since the epoch, UTC) are skipped
 * \return the jobs sorted by submit time; a malformed row throws std::runtime_error with
 *         the file, line and field
 */
std::vector<ClusterTraceJob> ClusterReadHeliosTrace(const std::string& path,
                                                    int64_t earliestSubmit = 0);

/**
 * \ingroup cluster
 * \brief Synthetic workload: Poisson arrivals, the job-size histogram of the vClos authors'
 *        generator (sizes 1..256 GPUs, counts 11136, 829, 1109, 4257, 400, 925, 76, 80, 13),
 *        an optional cap on sizes, models drawn uniformly from a mix, durations
 *        exponential. Deterministic for a seed.
 * \param jobs how many jobs
 * \param meanInterArrival mean time between arrivals
 * \param meanDuration mean duration
 * \param models the model mix (at least one name)
 * \param maxGpus sizes above it are redrawn (at least 1)
 * \param seed the random seed
 * \param minGpus sizes below it are redrawn (some size must lie in [minGpus, maxGpus])
 * \return the jobs in arrival order
 */
std::vector<ClusterTraceJob> ClusterGenerateJobs(uint32_t jobs,
                                                 Time meanInterArrival,
                                                 Time meanDuration,
                                                 const std::vector<std::string>& models,
                                                 uint32_t maxGpus,
                                                 uint64_t seed,
                                                 uint32_t minGpus = 1);

} // namespace ns3

#endif /* CLUSTER_JOB_TRACE_H */

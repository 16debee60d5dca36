/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Fuzz target: a job list (ClusterReadJobList, the CSV that a scenario's "job-list" workload
// reads), what the reader promises of the jobs, and that ClusterWriteJobList writes them back
// to a list that reads the same.
// Tests: cluster-workload
#include "vclos-fuzz-support.h"

#include "ns3/cluster-workload.h"
#include "ns3/suite-csv-reader.h"

#include <cmath>
#include <sstream>

using namespace ns3;

namespace
{

/// The largest job the target asks the reader to take (a cluster's GPUs).
constexpr uint32_t MAX_GPUS = 1u << 20;

/// What cluster-workload.h promises of a job list it read.
void
CheckJobs(const std::vector<ClusterWorkloadJob>& jobs)
{
    VclosFuzzRequire(!jobs.empty(), "a job list has at least one job");
    for (std::size_t i = 0; i < jobs.size(); ++i)
    {
        const auto& j = jobs[i];
        VclosFuzzRequire(j.id == i, "ids are the row order");
        VclosFuzzRequire(SuiteFitsInTime(j.arrivalS), "arrival_s is >= 0 and fits a Time");
        VclosFuzzRequire(i == 0 || j.arrivalS >= jobs[i - 1].arrivalS, "jobs in arrival order");
        VclosFuzzRequire(j.gpus >= 1 && j.gpus <= MAX_GPUS, "gpus is 1 to maxGpus");
        VclosFuzzRequire(j.bytes >= 0 && j.bytes == std::floor(j.bytes) &&
                             j.bytes <= static_cast<double>(SuiteCsvReader::MAX_EXACT_INTEGER),
                         "bytes is a whole number from 0 to 2^53");
        VclosFuzzRequire(std::isfinite(j.computeS) && j.computeS >= 0, "compute_s is >= 0");
        VclosFuzzRequire(j.iterations >= 1, "iterations is at least 1");
        VclosFuzzRequire(SuiteFitsInTime(j.arrivalS + j.iterations * j.computeS),
                         "arrival_s + iterations x compute_s fits a Time");
        VclosFuzzRequire(SuiteFitsInTime(j.durationS), "duration_s is >= 0 and fits a Time");
        VclosFuzzRequire(j.commRatio >= 0 && j.commRatio <= 1, "comm_ratio is 0 to 1");
    }
}

/// \return whether two jobs are the same in every field
bool
Same(const ClusterWorkloadJob& a, const ClusterWorkloadJob& b)
{
    return a.id == b.id && a.arrivalS == b.arrivalS && a.gpus == b.gpus &&
           a.algorithm == b.algorithm && a.bytes == b.bytes && a.computeS == b.computeS &&
           a.iterations == b.iterations && a.model == b.model && a.durationS == b.durationS &&
           a.commRatio == b.commRatio;
}

/// Write the jobs and read them back: the same jobs (a model with a carriage return in it
/// cannot be written, and is refused in one line).
void
CheckRoundTrip(const std::vector<ClusterWorkloadJob>& jobs)
{
    std::ostringstream out;
    try
    {
        ClusterWriteJobList(out, jobs);
    }
    catch (const std::invalid_argument& e)
    {
        VclosFuzzCheckRefusal(e, "");
        VclosFuzzRequire(std::string(e.what()).find("holds a comma or a line break") !=
                             std::string::npos,
                         "a job list read is written back unless a model holds a line break");
        return;
    }
    const std::string text = out.str();
    const std::string path = VclosFuzzInputFile(reinterpret_cast<const uint8_t*>(text.data()),
                                                text.size(),
                                                "-written.csv");
    std::vector<ClusterWorkloadJob> back;
    try
    {
        back = ClusterReadJobList(path, MAX_GPUS);
    }
    catch (const std::exception& e)
    {
        VclosFuzzRequire(false, std::string("a written job list reads back (") + e.what() + ")");
        return;
    }
    VclosFuzzRequire(back.size() == jobs.size(), "a written job list reads back whole");
    for (std::size_t i = 0; i < jobs.size(); ++i)
    {
        VclosFuzzRequire(Same(back[i], jobs[i]), "a written job reads back the same");
    }
}

} // namespace

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size)
{
    std::string path = VclosFuzzInputFile(data, size, ".csv");
    std::vector<ClusterWorkloadJob> jobs;
    try
    {
        jobs = ClusterReadJobList(path, MAX_GPUS);
    }
    catch (const std::exception& e)
    {
        VclosFuzzCheckRefusal(e, path);
        return 0;
    }
    CheckJobs(jobs);
    CheckRoundTrip(jobs);
    return 0;
}

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "scenario-report.h"

#include "ns3/cluster-placement.h"
#include "ns3/suite-exact-number.h"
#include "ns3/suite-program-support.h"

#include <iomanip>
#include <sstream>

namespace ns3
{

namespace
{

/// \return t in ms
double
Ms(Time t)
{
    return t.GetSeconds() * 1e3;
}

/// \return the index of a decline cause in the records' arrays
std::size_t
Cause(ClusterPlacementFailure f)
{
    return static_cast<std::size_t>(f);
}

/// \return the mean of values with a fixed count of decimals, or "-" when there are none
std::string
FixedMeanOrDash(const std::vector<double>& values, int decimals)
{
    if (values.empty())
    {
        return "-";
    }
    std::ostringstream out;
    out << std::fixed << std::setprecision(decimals) << SuiteMean(values);
    return out.str();
}

} // namespace

const char*
ScenarioJobsCsvHeader()
{
    return "policy,job,gpus,leaves,algorithm,arrival_ms,start_ms,finish_ms,wait_ms,run_ms,"
           "jct_ms,alone_ms,slowdown,run_stretch,declined_gpus,declined_gpu_fragmentation,"
           "declined_network_fragmentation,network_fragmentation_wait_ms,reference_ms,"
           "reference_slowdown,reference_run_stretch,declined_circuits,circuits_wait_ms\n";
}

void
ScenarioWriteJobRow(std::ostream& out,
                    const std::string& policy,
                    uint32_t id,
                    const ClusterSchedulerTracker::JobRecord& r,
                    double aloneMs,
                    double referenceMs)
{
    using F = ClusterPlacementFailure;
    const double jct = Ms(r.finish - r.arrival);
    const double ran = Ms(r.finish - r.start);
    out << policy << "," << id << "," << r.gpus << "," << r.leaves << ","
        << ClusterCollectiveAlgorithmName(r.algorithm) << "," << SuiteExact{Ms(r.arrival)} << ","
        << SuiteExact{Ms(r.start)} << "," << SuiteExact{Ms(r.finish)} << ","
        << SuiteExact{Ms(r.start - r.arrival)} << "," << SuiteExact{ran} << "," << SuiteExact{jct}
        << ",";
    if (aloneMs > 0)
    {
        out << SuiteExact{aloneMs} << "," << SuiteExact{jct / aloneMs} << ","
            << SuiteExact{ran / aloneMs};
    }
    else
    {
        out << ",,";
    }
    out << "," << r.failures[Cause(F::GPUS)] << "," << r.failures[Cause(F::GPU_FRAGMENTATION)]
        << "," << r.failures[Cause(F::NETWORK_FRAGMENTATION)] << ","
        << SuiteExact{Ms(r.blocked[Cause(F::NETWORK_FRAGMENTATION)])} << ",";
    if (referenceMs > 0)
    {
        out << SuiteExact{referenceMs} << "," << SuiteExact{jct / referenceMs} << ","
            << SuiteExact{ran / referenceMs};
    }
    else
    {
        out << ",,";
    }
    out << "," << r.failures[Cause(F::CIRCUITS)] << ","
        << SuiteExact{Ms(r.blocked[Cause(F::CIRCUITS)])} << "\n";
}

ScenarioRunFigures
ScenarioSummarize(const ScenarioConfig& s,
                  const ScenarioPolicyRun& run,
                  const std::vector<ClusterJobRequest>& jobs,
                  uint32_t gpus,
                  const std::map<uint32_t, double>* aloneMs,
                  const std::function<double(const ClusterJobRequest&)>& referenceMs)
{
    const std::size_t net = Cause(ClusterPlacementFailure::NETWORK_FRAGMENTATION);
    const std::size_t circ = Cause(ClusterPlacementFailure::CIRCUITS);
    ScenarioRunFigures f;
    f.policy = run.policy;
    f.jobs = static_cast<uint32_t>(jobs.size());
    std::vector<double> wait;
    std::vector<double> ran;
    uint32_t waitedLong = 0;
    for (const auto& job : jobs)
    {
        const auto& r = run.jobs->GetJobs().at(job.id);
        for (std::size_t c = 0; c < f.declined.size(); ++c)
        {
            f.declined[c] += r.failures[c];
        }
        f.fragmentedJobs += r.failures[net] > 0 ? 1 : 0;
        f.fragmentedMs += Ms(r.blocked[net]);
        f.circuitJobs += r.failures[circ] > 0 ? 1 : 0;
        f.circuitMs += Ms(r.blocked[circ]);
        f.jctMs.push_back(Ms(r.finish - r.arrival));
        wait.push_back(Ms(r.start - r.arrival));
        ran.push_back(Ms(r.finish - r.start));
        waitedLong += wait.back() > s.metrics.waitThresholdMs ? 1 : 0;
        const double alone = aloneMs ? aloneMs->at(job.id) : 0;
        if (alone > 0)
        {
            f.slowdown.push_back(f.jctMs.back() / alone);
            f.stretch.push_back(ran.back() / alone);
        }
        const double reference = referenceMs(job);
        if (reference > 0)
        {
            f.referenceSlowdown.push_back(f.jctMs.back() / reference);
        }
    }
    const auto& t = *run.jobs;
    f.meanJct = SuiteMean(f.jctMs);
    f.p50Jct = SuitePercentile(f.jctMs, 0.5);
    f.p99Jct = SuitePercentile(f.jctMs, 0.99);
    f.meanWait = SuiteMean(wait);
    f.meanRun = SuiteMean(ran);
    f.waitingRatio = static_cast<double>(waitedLong) / jobs.size();
    f.meanQueue = ClusterSchedulerTracker::TimeAverage(t.GetQueueLength(), run.end);
    for (const auto& q : t.GetQueueLength())
    {
        f.maxQueue = std::max(f.maxQueue, q.value);
    }
    f.meanUtilisation = ClusterSchedulerTracker::TimeAverage(t.GetBusyGpus(), run.end) / gpus;
    return f;
}

void
ScenarioWriteSummaryHeader(std::ostream& out)
{
    out << "policy,jobs,mean_jct_ms,p50_jct_ms,p99_jct_ms,mean_wait_ms,mean_run_ms,"
           "waiting_ratio,mean_slowdown,mean_run_stretch,conflicting_share,mean_queue,"
           "max_queue,mean_gpu_utilisation,decision_p50_us,decision_p99_us,makespan_ms,"
           "wall_s,events,jct_reduction_pct,declined_gpus,declined_gpu_fragmentation,"
           "declined_network_fragmentation,network_fragmented_jobs,"
           "network_fragmentation_wait_ms,mean_reference_slowdown,engine,flows,peak_rss_mb,"
           "declined_circuits,circuit_blocked_jobs,circuits_wait_ms,reconfigurations\n";
}

void
ScenarioWriteSummaryRow(std::ostream& out,
                        const ScenarioConfig& s,
                        const ScenarioPolicyRun& run,
                        const ScenarioRunFigures& f,
                        double firstMeanJct)
{
    using F = ClusterPlacementFailure;
    using X = SuiteExact;
    const auto& decisions = run.jobs->GetDecisionMicroseconds();
    out << f.policy << "," << f.jobs << "," << X{f.meanJct} << "," << X{f.p50Jct} << ","
        << X{f.p99Jct} << "," << X{f.meanWait} << "," << X{f.meanRun} << "," << X{f.waitingRatio}
        << "," << X{SuiteMean(f.slowdown)} << "," << X{SuiteMean(f.stretch)} << ","
        << X{run.conflictingShare} << "," << X{f.meanQueue} << "," << f.maxQueue << ","
        << X{f.meanUtilisation} << "," << X{SuitePercentile(decisions, 0.5)} << ","
        << X{SuitePercentile(decisions, 0.99)} << "," << X{Ms(run.end)} << "," << X{run.wallSeconds}
        << "," << run.events << "," << X{100 * (1 - f.meanJct / firstMeanJct)} << ","
        << f.declined[Cause(F::GPUS)] << "," << f.declined[Cause(F::GPU_FRAGMENTATION)] << ","
        << f.declined[Cause(F::NETWORK_FRAGMENTATION)] << "," << f.fragmentedJobs << ","
        << X{f.fragmentedMs} << "," << X{SuiteMean(f.referenceSlowdown)} << ","
        << s.scheduler.engine << "," << run.flows << "," << X{run.peakRssMb} << ","
        << f.declined[Cause(F::CIRCUITS)] << "," << f.circuitJobs << "," << X{f.circuitMs} << ","
        << run.reconfigurations << "\n";
}

void
ScenarioWriteConsoleHeader(std::ostream& out, bool inSeconds)
{
    out << "#   policy                     mean JCT    p50    p99 " << (inSeconds ? "(s) " : "(ms)")
        << "  wait   run  waiting  slowdown  vs ref  conflicts  queue  GPU util  decision  "
           "wall  memory\n";
}

void
ScenarioWriteConsoleRow(std::ostream& out,
                        const ScenarioPolicyRun& run,
                        const ScenarioRunFigures& f,
                        bool inSeconds)
{
    // Every column starts with a space: a figure wider than its column pushes the rest of the
    // row right instead of running into its neighbour.
    const double unit = inSeconds ? 1e-3 : 1.0;
    const auto& decisions = run.jobs->GetDecisionMicroseconds();
    auto column = [&out](int width, int decimals) -> std::ostream& {
        return out << " " << std::setw(width - 1) << std::setprecision(decimals);
    };
    out << std::fixed << "#   " << std::left << std::setw(24) << f.policy << std::right;
    column(10, 2) << f.meanJct * unit;
    column(8, 2) << f.p50Jct * unit;
    column(9, 2) << f.p99Jct * unit;
    column(9, 2) << f.meanWait * unit;
    column(8, 2) << f.meanRun * unit;
    column(8, 1) << 100 * f.waitingRatio << "%";
    column(9, 2) << FixedMeanOrDash(f.slowdown, 2) << "x";
    column(7, 2) << FixedMeanOrDash(f.referenceSlowdown, 2) << "x";
    column(10, 1) << 100 * run.conflictingShare << "%";
    column(7, 2) << f.meanQueue;
    column(9, 1) << 100 * f.meanUtilisation << "%";
    column(7, 1) << SuitePercentile(decisions, 0.5) << "us";
    column(6, 0) << run.wallSeconds << "s";
    column(6, 0) << run.peakRssMb << "MB\n";
}

} // namespace ns3

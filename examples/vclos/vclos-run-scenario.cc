/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Runs a multi-tenant scheduling scenario file (scenarios/vclos/*.json): the same arrivals
// under each placement policy, every job's iterations as packet-level collective traffic.
//
//   vclos-run-scenario --scenario=scenarios/vclos/heavy-load-128.json [overrides]
//
// Every scenario field has a command-line override (--PrintHelp lists them; fabric
// attributes as --ns3::ClosFabricHelper::<Attribute>=... or the short --leaves, --spines,
// --serversPerLeaf, --gpusPerServer). The resolved configuration is printed first and saved
// as <prefix>-config.json. Prints per policy the JCT table (mean, p50, p99), waiting and run
// times, waiting ratio, slowdown versus running alone, conflicting-flow share on leaf-spine
// links, queue length, GPU utilisation and placement decision time, then the mean-JCT
// reduction against the first policy. Files: <prefix>-jobs.csv, <prefix>-summary.csv,
// <prefix>-timeseries.csv, PNGs <prefix>-jct-cdf.png, <prefix>-queue.png,
// <prefix>-gpu-utilisation.png, and with output.flowMonitor <prefix>-<policy>-flowmon.xml.
// Each job's row goes to <prefix>-jobs.csv as it finishes; SIGINT, SIGTERM or --wallLimit
// stop the run with one line, keeping those rows (exit 128 + signal, or 124).

#include "ns3/clos-module.h"
#include "ns3/cluster-module.h"
#include "ns3/collective-module.h"
#include "ns3/collective-packet-executor.h"
#include "ns3/core-module.h"
#include "ns3/flow-monitor-helper.h"
#include "ns3/fluid-module.h"
#include "ns3/gnuplot.h"
#include "ns3/lean-link-module.h"
#include "ns3/ocs-module.h"
#include "ns3/pfc-module.h"
#include "ns3/roce-module.h"
#include "ns3/scenario-module.h"
#include "ns3/suite-module.h"

#include <array>
#include <chrono>
#include <cmath>
#include <csignal>
#include <ctime>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <memory>
#include <sstream>
#include <sys/resource.h>
#include <unistd.h>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("VclosRunScenario");

namespace
{

/// Join strings with commas.
std::string
Join(const std::vector<std::string>& items)
{
    std::string out;
    for (const auto& item : items)
    {
        out += (out.empty() ? "" : ",") + item;
    }
    return out;
}

/// A number with a fixed count of decimals.
std::string
Fixed(double value, int decimals)
{
    std::ostringstream out;
    out << std::fixed << std::setprecision(decimals) << value;
    return out.str();
}

/// Split a comma-separated list.
std::vector<std::string>
Split(const std::string& list)
{
    std::vector<std::string> out;
    std::stringstream in(list);
    for (std::string item; std::getline(in, item, ',');)
    {
        out.push_back(item);
    }
    return out;
}

/// The signal that asks the run to stop (0: none). The handler only sets it.
volatile std::sig_atomic_t g_stopSignal = 0;

/// When the first stop signal arrived (time(), async-signal-safe), 0: none.
volatile std::sig_atomic_t g_stopSince = 0;

/// SIGINT/SIGTERM handler: async-signal-safe, it only records the signal. A second one a
/// second or more later ends the program at once (`timeout` sends its signal to the child
/// and to the process group, so two may arrive together: those count as one).
extern "C" void
RequestStop(int signal)
{
    const auto now = static_cast<std::sig_atomic_t>(time(nullptr));
    if (g_stopSignal != 0 && now - g_stopSince >= 1)
    {
        _exit(128 + signal);
    }
    if (g_stopSignal == 0)
    {
        g_stopSince = now;
    }
    g_stopSignal = signal;
}

/// Stops a run at the next check once a signal arrived or the wall-clock limit passed.
struct Interruption
{
    std::chrono::steady_clock::time_point deadline; //!< wall-clock limit
    bool limited = false;                           //!< a limit is set
    std::string cause;                              //!< why the run stopped ("" if it did not)
    int status = 0;                                 //!< exit status it asks for
    uint64_t checks = 0;                            //!< check events run (not the model's)
    Time stoppedAt;                                 //!< simulated time of the stop

    /// How often, in simulated time, a run looks at the flag and the clock (packet level:
    /// 10 us; flow level, which runs trace seconds: 1 s).
    int64_t periodNs = 10000;

    /// \return whether the run must stop now (and why, in cause and status)
    bool Due()
    {
        if (!cause.empty())
        {
            return true;
        }
        if (g_stopSignal != 0)
        {
            cause = g_stopSignal == SIGINT ? "SIGINT" : "SIGTERM";
            status = 128 + g_stopSignal;
        }
        else if (limited && std::chrono::steady_clock::now() >= deadline)
        {
            cause = "the wall-clock limit (--wallLimit)";
            status = 124;
        }
        return !cause.empty();
    }

    /// Periodic check event; it ends when nothing else is left to simulate.
    static void Check(Interruption* self)
    {
        ++self->checks;
        if (self->Due())
        {
            self->stoppedAt = Simulator::Now();
            Simulator::Stop();
        }
        else if (!Simulator::IsFinished())
        {
            Simulator::Schedule(NanoSeconds(self->periodNs), &Interruption::Check, self);
        }
    }
};

Interruption g_interruption; //!< the program's

/// Write one job's row of <prefix>-jobs.csv (aloneMs, referenceMs <= 0: no such columns).
void
WriteJobRow(std::ostream& out,
            const std::string& policy,
            uint32_t id,
            const ClusterSchedulerTracker::JobRecord& r,
            double aloneMs,
            double referenceMs)
{
    auto ms = [](Time t) { return t.GetSeconds() * 1e3; };
    double jct = ms(r.finish - r.arrival);
    double ran = ms(r.finish - r.start);
    out << policy << "," << id << "," << r.gpus << "," << r.leaves << ","
        << ClusterCollectiveAlgorithmName(r.algorithm) << "," << ms(r.arrival) << "," << ms(r.start)
        << "," << ms(r.finish) << "," << ms(r.start - r.arrival) << "," << ran << "," << jct << ",";
    if (aloneMs > 0)
    {
        out << aloneMs << "," << jct / aloneMs << "," << ran / aloneMs;
    }
    else
    {
        out << ",,";
    }
    using F = ClusterPlacementFailure;
    auto cause = [](F f) { return static_cast<std::size_t>(f); };
    out << "," << r.failures[cause(F::GPUS)] << "," << r.failures[cause(F::GPU_FRAGMENTATION)]
        << "," << r.failures[cause(F::NETWORK_FRAGMENTATION)] << ","
        << ms(r.blocked[cause(F::NETWORK_FRAGMENTATION)]) << ",";
    if (referenceMs > 0)
    {
        out << referenceMs << "," << jct / referenceMs << "," << ran / referenceMs;
    }
    else
    {
        out << ",,";
    }
    out << "," << r.failures[cause(F::CIRCUITS)] << "," << ms(r.blocked[cause(F::CIRCUITS)])
        << "\n";
}

/// The header of <prefix>-jobs.csv.
const char* const JOBS_CSV_HEADER =
    "policy,job,gpus,leaves,algorithm,arrival_ms,start_ms,finish_ms,wait_ms,run_ms,"
    "jct_ms,alone_ms,slowdown,run_stretch,declined_gpus,declined_gpu_fragmentation,"
    "declined_network_fragmentation,network_fragmentation_wait_ms,reference_ms,"
    "reference_slowdown,reference_run_stretch,declined_circuits,circuits_wait_ms\n";

/// \return whether a policy leaves paths to the switches' ECMP hash (run over several salts)
bool
HashesFlows(const std::string& policy)
{
    return policy.rfind("ecmp", 0) == 0;
}

/// \return the workload's offered load as text ("n/a" when every job arrives at once)
std::string
OfferedLoad(const ScenarioConfig& s, const std::vector<ClusterJobRequest>& jobs, uint32_t gpus)
{
    const auto [first, last] = std::minmax_element(
        jobs.begin(),
        jobs.end(),
        [](const ClusterJobRequest& a, const ClusterJobRequest& b) { return a.submit < b.submit; });
    if (jobs.empty() || first->submit == last->submit)
    {
        return "n/a (every job arrives at once)";
    }
    std::ostringstream out;
    out << std::fixed << std::setprecision(3)
        << ClusterOfferedLoad(ScenarioWorkloadJobs(jobs), gpus, ScenarioSecondsPerByte(s));
    return out.str();
}

/// Run jobs under one policy on a fresh cluster (ECMP salt run k: 0 is the scenario's own),
/// with the program's interruption check and, for the measured runs, its outputs.
ScenarioPolicyRun
RunPolicy(const ScenarioConfig& s,
          const std::string& policy,
          const std::vector<ClusterJobRequest>& jobs,
          bool outputs,
          std::ostream* finishedRows = nullptr,
          uint32_t saltRun = 0)
{
    ScenarioRunner runner(s);
    runner.SetOutputs(outputs);
    runner.SetProgressName("vclos-run-scenario");
    runner.SetInterruption({[](bool flowLevel) {
                                g_interruption.periodNs = flowLevel ? 1000000000 : 10000;
                                Simulator::ScheduleNow(&Interruption::Check, &g_interruption);
                            },
                            []() { return g_interruption.checks; },
                            []() { return g_interruption.Due(); }});
    if (finishedRows)
    {
        // Each finished job's row goes out at once, so an interrupted run keeps them.
        runner.SetFinishedHook([finishedRows](const std::string& label,
                                              uint32_t id,
                                              const ClusterSchedulerTracker::JobRecord& r) {
            WriteJobRow(*finishedRows, label, id, r, 0, 0);
            finishedRows->flush();
        });
    }
    return runner.Run(policy, jobs, saltRun);
}

/// Run time alone (empty fabric, same policy) of every distinct job shape, by job id.
std::map<uint32_t, double>
AloneRunTimes(const ScenarioConfig& s,
              const std::string& policy,
              const std::vector<ClusterJobRequest>& jobs)
{
    using Shape = std::tuple<uint32_t, uint64_t, int64_t, uint32_t, int>;
    std::map<Shape, double> byShape;
    std::map<uint32_t, double> out;
    for (const auto& job : jobs)
    {
        Shape shape{job.gpus,
                    job.messageBytes,
                    job.computeTime.GetTimeStep(),
                    job.iterations,
                    static_cast<int>(job.algorithm)};
        auto it = byShape.find(shape);
        if (it == byShape.end())
        {
            ClusterJobRequest alone = job;
            alone.submit = Seconds(0);
            ScenarioPolicyRun run = RunPolicy(s, policy, {alone}, false);
            if (g_interruption.Due())
            {
                return out;
            }
            const auto& r = run.jobs->GetJobs().at(job.id);
            it = byShape.emplace(shape, (r.finish - r.start).GetSeconds() * 1e3).first;
        }
        out[job.id] = it->second;
    }
    return out;
}

/// Render one gnuplot figure, with the scenario's time scaling stated under it. User text
/// (the scenario's name, the output prefix) goes in single-quoted gnuplot strings only.
void
Plot(const ScenarioConfig& s,
     const std::string& file,
     const std::string& title,
     const std::string& xLabel,
     const std::string& yLabel,
     const std::vector<Gnuplot2dDataset>& data,
     const std::string& extra)
{
    Gnuplot plot;
    plot.SetTerminal("pngcairo size 900,540 noenhanced");
    plot.SetLegend(xLabel, yLabel);
    plot.AppendExtra("set title " + SuiteGnuplotQuote(s.name + ": " + title) +
                     "\nset grid\nset bmargin 5\nset label 1 " +
                     SuiteGnuplotQuote(ScenarioDescribeScaling(s)) +
                     " at screen 0.01, screen 0.025 font ',8'\n" + extra);
    for (const auto& d : data)
    {
        plot.AddDataset(d);
    }
    SuiteRenderPlot(plot, file);
}

int
Run(int argc, char* argv[])
{
    // From the start: a signal during set-up (building a large workload) stops the run at
    // its first check, with its one line, rather than killing it silently.
    std::signal(SIGINT, RequestStop);
    std::signal(SIGTERM, RequestStop);
    std::string path;
    for (int i = 1; i < argc; ++i)
    {
        std::string arg = argv[i];
        if (arg.rfind("--scenario=", 0) == 0)
        {
            path = arg.substr(11);
        }
    }
    ScenarioConfig s = path.empty() ? ScenarioConfig() : ScenarioRead(path);
    ClusterModelZoo zoo = ClusterModelZoo::LoadDefault();
    ScenarioApplyAttributes(s);
    RngSeedManager::SetRun(s.seeds.rngRun);

    std::string policies = Join(s.scheduler.policies);
    std::string models = Join(s.workload.models);
    std::string algorithms = Join(s.workload.algorithms);
    SuiteCommandLine cmd(__FILE__);
    cmd.Usage("Run a vclos scheduling scenario file; flags override its fields.");
    cmd.AddValue("scenario", "Scenario file (JSON; see scenarios/vclos/)", path);
    cmd.AddValue("leaves", "ns3::ClosFabricHelper::Leaves");
    cmd.AddValue("serversPerLeaf", "ns3::ClosFabricHelper::ServersPerLeaf");
    cmd.AddValue("gpusPerServer", "ns3::ClosFabricHelper::GpusPerServer");
    cmd.AddValue("spines", "ns3::ClosFabricHelper::Spines");
    cmd.AddValue("source", "workload.source: synthetic, tiresias or helios", s.workload.source);
    cmd.AddValue("trace", "workload.trace: trace file", s.workload.trace);
    cmd.AddValue("traceTimeUnit", "workload.traceTimeUnit: s or ms", s.workload.traceTimeUnit);
    cmd.AddValue("firstJob", "workload.firstJob: trace jobs skipped", s.workload.firstJob);
    cmd.AddValue("jobs", "workload.jobs: job count (trace: 0 = all)", s.workload.jobs);
    cmd.AddValue("meanInterArrivalMs",
                 "workload.meanInterArrivalMs: synthetic mean gap",
                 s.workload.meanInterArrivalMs);
    cmd.AddValue("minGpus", "workload.minGpus: synthetic size floor", s.workload.minGpus);
    cmd.AddValue("maxGpus", "workload.maxGpus: job size cap", s.workload.maxGpus);
    cmd.AddValue("models", "workload.models: comma-separated model mix", models);
    cmd.AddValue("algorithms", "workload.algorithms: comma-separated collectives", algorithms);
    cmd.AddValue("gradientBytesScale",
                 "scaling.gradientBytes: factor on bytes",
                 s.scaling.gradientBytes);
    cmd.AddValue("computeTimeScale",
                 "scaling.computeTime: factor on compute",
                 s.scaling.computeTime);
    cmd.AddValue("arrivalTimeScale",
                 "scaling.arrivalTime: factor on arrivals",
                 s.scaling.arrivalTime);
    cmd.AddValue("maxIterations", "scaling.maxIterations: iterations cap", s.scaling.maxIterations);
    cmd.AddValue("policies", "scheduler.policies: comma-separated", policies);
    cmd.AddValue("backfill", "scheduler.backfill", s.scheduler.backfill);
    cmd.AddValue("engine", "scheduler.engine: packet or flow", s.scheduler.engine);
    cmd.AddValue("sharing",
                 "scheduler.sharing: max-min or equal-share (flow)",
                 s.scheduler.sharing);
    cmd.AddValue("ecmpPathPerStep",
                 "scheduler.ecmpPathPerStep: hash every transfer (flow)",
                 s.scheduler.ecmpPathPerStep);
    cmd.AddValue("reconfigurationMs",
                 "scheduler.reconfigurationMs: OCS reconfiguration delay (ms)",
                 s.scheduler.reconfigurationMs);
    cmd.AddValue("keepIdleCircuits",
                 "scheduler.keepIdleCircuits: finished jobs' OCS circuits stay, reusable",
                 s.scheduler.keepIdleCircuits);
    cmd.AddValue("transport", "transport.type: tcp or rdma (packet engine)", s.transport.type);
    cmd.AddValue("congestionControl",
                 "transport.congestionControl: none or dcqcn (rdma)",
                 s.transport.congestionControl);
    cmd.AddValue("dcqcnProfile",
                 "transport.profile: paper, hpcc, simai, nvidia or none (dcqcn)",
                 s.transport.profile);
    cmd.AddValue("ecmpRuns", "seeds.ecmpRuns: ECMP salts per ECMP policy", s.seeds.ecmpRuns);
    cmd.AddValue("workloadSeed", "seeds.workload", s.seeds.workload);
    cmd.AddValue("slowdown", "metrics.slowdown: run each job shape alone", s.metrics.slowdown);
    cmd.AddValue("waitThresholdMs", "metrics.waitThresholdMs", s.metrics.waitThresholdMs);
    cmd.AddValue("idleGapUs", "metrics.idleGapUs", s.metrics.idleGapUs);
    cmd.AddValue("output", "output.prefix: path prefix of the files", s.output.prefix);
    cmd.AddValue("plots", "output.plots", s.output.plots);
    cmd.AddValue("flowMonitor", "output.flowMonitor", s.output.flowMonitor);
    cmd.AddValue("pcap", "output.pcap", s.output.pcap);
    cmd.AddValue("progress", "output.progress", s.output.progress);
    std::string scheduler = SUITE_DEFAULT_EVENT_SCHEDULER;
    cmd.AddValue("eventScheduler",
                 "Event set of the packet engine: priority-queue, map (ns-3's default), heap, "
                 "calendar or list (same results; doc/performance.rst)",
                 scheduler);
    double wallLimit = 0;
    cmd.AddValue("wallLimit",
                 "Stop after this many wall-clock seconds (0: no limit), as on SIGINT/SIGTERM: "
                 "<prefix>-jobs.csv keeps the finished jobs, exit status 124",
                 wallLimit);
    cmd.Parse(argc, argv); // --RngRun overrides seeds.rngRun
    s.seeds.rngRun = RngSeedManager::GetRun();
    const std::string badScheduler = SuiteSetEventScheduler(scheduler);
    SUITE_REQUIRE(badScheduler.empty(), std::invalid_argument, badScheduler);
    s.scheduler.policies = Split(policies);
    s.workload.models = Split(models);
    s.workload.algorithms = Split(algorithms);
    SUITE_REQUIRE(std::isfinite(wallLimit) && wallLimit >= 0,
                  std::invalid_argument,
                  "--wallLimit=" << wallLimit << " must be a number of seconds >= 0");
    ScenarioValidate(s, zoo);
    ScenarioApplyTransport(s);
    if (s.output.flowMonitor)
    {
        // FlowMonitor probes every node's Ipv4L3Protocol traces, which the switch and host
        // fast paths do not fire: keep ns-3's IPv4 path at the switches so its hop counts
        // stay true, and ns-3's UDP and IPv4 path at RDMA NICs so their flows are seen.
        Config::SetDefault("ns3::ClosFabricHelper::SwitchFastPath", BooleanValue(false));
        Config::SetDefault("ns3::RoceNic::HostFastPath", BooleanValue(false));
    }
    std::string unusable = SuiteCheckOutputPrefix(s.output.prefix);
    SUITE_REQUIRE(unusable.empty(),
                  std::invalid_argument,
                  "scenario: output.prefix: '" << s.output.prefix << "': " << unusable);
    std::vector<ClusterJobRequest> jobs = ScenarioBuildJobs(s, zoo);
    // The cluster's shape from its description; the packet engine's fabric is built once up
    // front only to check its own limits.
    const ClusterTopology topology(CreateObject<ClosFabricHelper>()->GetTopologyConfig());
    if (s.scheduler.engine == "packet")
    {
        CreateObject<ClosFabricHelper>()->Install(); // the fabric's own limits, up front
        Simulator::Destroy();
    }
    const uint32_t gpus = topology.GetGpus();
    const ClusterState shape(topology.GetLeaves(),
                             topology.GetServersPerLeaf(),
                             topology.GetGpusPerServer(),
                             topology.GetSpines());
    for (const auto& job : jobs)
    {
        SUITE_REQUIRE(job.gpus <= gpus,
                      std::invalid_argument,
                      "scenario: workload.maxGpus: job " << job.id << " needs " << job.gpus
                                                         << " GPUs, the fabric has " << gpus);
    }
    // Up front, before any policy runs: a size a policy can never place would block its
    // FIFO queue for ever (the scheduler refuses it at Submit too).
    for (const auto& policy : s.scheduler.policies)
    {
        auto placement = ClusterCreatePlacementPolicy(policy, topology);
        std::map<uint32_t, bool> placeable;
        for (const auto& job : jobs)
        {
            auto it = placeable.find(job.gpus);
            if (it == placeable.end())
            {
                it = placeable.emplace(job.gpus, placement->CanEverPlace(shape, job.gpus)).first;
            }
            SUITE_REQUIRE(it->second,
                          std::invalid_argument,
                          "scenario: scheduler.policies: job "
                              << job.id << " (" << job.gpus << " GPUs) can never be placed by '"
                              << policy << "' on this fabric, even idle (see the placement "
                              << "section of doc/scenario/scenario.rst)");
        }
    }

    std::string config = ScenarioToJson(s);
    std::ofstream(s.output.prefix + "-config.json") << config;
    std::cout
        << "# scenario " << s.name << (path.empty() ? " (built-in defaults)" : "")
        << ": resolved configuration (saved as " << s.output.prefix << "-config.json)\n"
        << config << "# " << jobs.size() << " jobs on " << gpus << " GPUs; offered load "
        << OfferedLoad(s, jobs, gpus)
        << " (GPU-seconds of compute and contention-free collectives over GPUs x arrival span); "
        << std::defaultfloat << ScenarioDescribeScaling(s) << "\n";

    // SIGINT, SIGTERM or the wall-clock limit stop the run at its next check (every 10 us of
    // simulated time): <prefix>-jobs.csv then holds the rows of the jobs that finished.
    // A limit past half of what the clock can still count (about 146 years) is no limit: the
    // deadline would overflow.
    using Clock = std::chrono::steady_clock;
    const Clock::time_point now = Clock::now();
    if (wallLimit > 0 &&
        wallLimit < std::chrono::duration<double>(Clock::time_point::max() - now).count() / 2)
    {
        g_interruption.limited = true;
        g_interruption.deadline = now + std::chrono::duration_cast<Clock::duration>(
                                            std::chrono::duration<double>(wallLimit));
    }
    std::ofstream jobCsv(s.output.prefix + "-jobs.csv");
    SUITE_REQUIRE(jobCsv, std::runtime_error, "cannot write " << s.output.prefix << "-jobs.csv");
    jobCsv << JOBS_CSV_HEADER << std::flush;
    std::vector<ScenarioPolicyRun> runs;
    std::map<std::string, std::map<uint32_t, double>> alone;
    for (const auto& policy : s.scheduler.policies)
    {
        const uint32_t saltRuns = HashesFlows(policy) ? s.seeds.ecmpRuns : 1;
        for (uint32_t k = 0; k < saltRuns && !g_interruption.Due(); ++k)
        {
            runs.push_back(RunPolicy(s, policy, jobs, true, &jobCsv, k));
            uint32_t fallbacks = 0;
            for (const auto& job : jobs)
            {
                auto it = runs.back().jobs->GetJobs().find(job.id);
                bool ran = it != runs.back().jobs->GetJobs().end() && it->second.IsFinished();
                fallbacks += ran && it->second.algorithm != job.algorithm ? 1 : 0;
            }
            if (fallbacks > 0)
            {
                std::cout << "# " << runs.back().policy << ": " << fallbacks
                          << " hierarchical-ring jobs placed on unequal servers ran the ring "
                          << "family instead (jobs.csv: algorithm)\n";
            }
        }
        if (s.metrics.slowdown && !g_interruption.Due())
        {
            alone[policy] = AloneRunTimes(s, policy, jobs);
        }
        if (g_interruption.Due())
        {
            jobCsv.close();
            std::cerr << "interrupted by " << g_interruption.cause << " in policy " << policy
                      << " at " << g_interruption.stoppedAt.GetSeconds() * 1e3
                      << " ms simulated: " << s.output.prefix
                      << "-jobs.csv holds the finished jobs, no summary\n";
            return g_interruption.status;
        }
    }
    // One contention-free reference for every policy and both engines: each job alone on
    // the placement it got, where only NICs and intra-server links constrain.
    Ptr<FluidExecutor> reference = ScenarioFlowExecutor(s);
    auto referenceMs = [&](const ScenarioPolicyRun& run, const ClusterJobRequest& job) {
        const double collective =
            reference->GetContentionFreeSeconds(job.algorithm,
                                                run.gpus.at(job.id),
                                                static_cast<double>(job.messageBytes));
        return job.iterations * (job.computeTime.GetSeconds() + collective) * 1e3;
    };

    // Complete: the rows again, in job order, with their alone-run columns.
    jobCsv.close();
    jobCsv.open(s.output.prefix + "-jobs.csv", std::ios::trunc);
    jobCsv << JOBS_CSV_HEADER;
    std::ofstream summary(s.output.prefix + "-summary.csv");
    summary << "policy,jobs,mean_jct_ms,p50_jct_ms,p99_jct_ms,mean_wait_ms,mean_run_ms,"
               "waiting_ratio,mean_slowdown,mean_run_stretch,conflicting_share,mean_queue,"
               "max_queue,mean_gpu_utilisation,decision_p50_us,decision_p99_us,makespan_ms,"
               "wall_s,events,jct_reduction_pct,declined_gpus,declined_gpu_fragmentation,"
               "declined_network_fragmentation,network_fragmented_jobs,"
               "network_fragmentation_wait_ms,mean_reference_slowdown,engine,flows,peak_rss_mb,"
               "declined_circuits,circuit_blocked_jobs,circuits_wait_ms,reconfigurations\n";
    std::ofstream series(s.output.prefix + "-timeseries.csv");
    // The console shows seconds when the runs span trace time (CSV columns stay in ms).
    Time longest;
    for (const auto& run : runs)
    {
        longest = std::max(longest, run.end);
    }
    const bool inSeconds = longest > Seconds(100);
    const double unit = inSeconds ? 1e-3 : 1.0;
    std::cout << "#   policy                     mean JCT    p50    p99 "
              << (inSeconds ? "(s) " : "(ms)")
              << "  wait   run  waiting  slowdown  vs ref  conflicts  queue  GPU util  decision  "
                 "wall  memory\n";
    std::vector<Gnuplot2dDataset> cdf;
    std::vector<Gnuplot2dDataset> queue;
    std::vector<Gnuplot2dDataset> utilisation;
    SuitePlotBounds cdfBounds;
    SuitePlotBounds queueBounds;
    SuitePlotBounds utilisationBounds;
    double firstMean = 0;
    std::ostringstream reductions;
    std::ostringstream fragmentation;
    std::ostringstream circuits;
    std::map<std::string, std::vector<double>> saltMeans; // mean JCT per salt run
    auto ms = [](Time t) { return t.GetSeconds() * 1e3; };
    for (const auto& run : runs)
    {
        std::vector<double> jct;
        std::vector<double> wait;
        std::vector<double> ran;
        std::vector<double> slowdown;
        std::vector<double> stretch;
        std::vector<double> referenceSlowdown;
        uint32_t waitedLong = 0;
        std::array<uint64_t, ClusterSchedulerTracker::CAUSES> declined{};
        uint32_t fragmentedJobs = 0;
        double fragmentedMs = 0;
        uint32_t circuitJobs = 0;
        double circuitMs = 0;
        const auto net = static_cast<std::size_t>(ClusterPlacementFailure::NETWORK_FRAGMENTATION);
        const auto circ = static_cast<std::size_t>(ClusterPlacementFailure::CIRCUITS);
        for (const auto& job : jobs)
        {
            const auto& r = run.jobs->GetJobs().at(job.id);
            for (std::size_t c = 0; c < declined.size(); ++c)
            {
                declined[c] += r.failures[c];
            }
            fragmentedJobs += r.failures[net] > 0 ? 1 : 0;
            fragmentedMs += ms(r.blocked[net]);
            circuitJobs += r.failures[circ] > 0 ? 1 : 0;
            circuitMs += ms(r.blocked[circ]);
            jct.push_back(ms(r.finish - r.arrival));
            wait.push_back(ms(r.start - r.arrival));
            ran.push_back(ms(r.finish - r.start));
            waitedLong += wait.back() > s.metrics.waitThresholdMs ? 1 : 0;
            double aloneMs = s.metrics.slowdown ? alone[run.placement].at(job.id) : 0;
            if (aloneMs > 0)
            {
                slowdown.push_back(jct.back() / aloneMs);
                stretch.push_back(ran.back() / aloneMs);
            }
            const double refMs = referenceMs(run, job);
            if (refMs > 0)
            {
                referenceSlowdown.push_back(jct.back() / refMs);
            }
            WriteJobRow(jobCsv, run.policy, job.id, r, aloneMs, refMs);
        }
        const auto& t = *run.jobs;
        double mean = SuiteMean(jct);
        firstMean = firstMean == 0 ? mean : firstMean;
        double reduction = 100 * (1 - mean / firstMean);
        double waitingRatio = static_cast<double>(waitedLong) / jobs.size();
        double meanQueue = ClusterSchedulerTracker::TimeAverage(t.GetQueueLength(), run.end);
        uint32_t maxQueue = 0;
        for (const auto& q : t.GetQueueLength())
        {
            maxQueue = std::max(maxQueue, q.value);
        }
        double meanUtil = ClusterSchedulerTracker::TimeAverage(t.GetBusyGpus(), run.end) / gpus;
        const auto& decisions = t.GetDecisionMicroseconds();
        std::cout << std::fixed << std::setprecision(2) << "#   " << std::left << std::setw(24)
                  << run.policy << std::right << std::setw(10) << mean * unit << std::setw(8)
                  << SuitePercentile(jct, 0.5) * unit << std::setw(9)
                  << SuitePercentile(jct, 0.99) * unit << std::setw(9) << SuiteMean(wait) * unit
                  << std::setw(8) << SuiteMean(ran) * unit << std::setw(8) << std::setprecision(1)
                  << 100 * waitingRatio << "%" << std::setw(9) << std::setprecision(2)
                  << (slowdown.empty() ? std::string("-") : Fixed(SuiteMean(slowdown), 2)) << "x"
                  << std::setw(7)
                  << (referenceSlowdown.empty() ? std::string("-")
                                                : Fixed(SuiteMean(referenceSlowdown), 2))
                  << "x" << std::setw(10) << std::setprecision(1) << 100 * run.conflictingShare
                  << "%" << std::setw(7) << std::setprecision(2) << meanQueue << std::setw(9)
                  << std::setprecision(1) << 100 * meanUtil << "%" << std::setw(7)
                  << std::setprecision(1) << SuitePercentile(decisions, 0.5) << "us" << std::setw(6)
                  << std::setprecision(0) << run.wallSeconds << "s" << std::setw(6) << run.peakRssMb
                  << "MB\n";
        summary << run.policy << "," << jobs.size() << "," << mean << ","
                << SuitePercentile(jct, 0.5) << "," << SuitePercentile(jct, 0.99) << ","
                << SuiteMean(wait) << "," << SuiteMean(ran) << "," << waitingRatio << ","
                << SuiteMean(slowdown) << "," << SuiteMean(stretch) << "," << run.conflictingShare
                << "," << meanQueue << "," << maxQueue << "," << meanUtil << ","
                << SuitePercentile(decisions, 0.5) << "," << SuitePercentile(decisions, 0.99) << ","
                << ms(run.end) << "," << run.wallSeconds << "," << run.events << "," << reduction
                << "," << declined[static_cast<std::size_t>(ClusterPlacementFailure::GPUS)] << ","
                << declined[static_cast<std::size_t>(ClusterPlacementFailure::GPU_FRAGMENTATION)]
                << "," << declined[net] << "," << fragmentedJobs << "," << fragmentedMs << ","
                << SuiteMean(referenceSlowdown) << "," << s.scheduler.engine << "," << run.flows
                << "," << run.peakRssMb << "," << declined[circ] << "," << circuitJobs << ","
                << circuitMs << "," << run.reconfigurations << "\n";
        saltMeans[run.placement].push_back(mean);
        fragmentation << "  " << run.policy << " " << declined[net] << " (" << fragmentedJobs
                      << " jobs, " << std::fixed << std::setprecision(2) << fragmentedMs << " ms)";
        circuits << "  " << run.policy << " " << declined[circ] << " (" << circuitJobs << " jobs, "
                 << std::fixed << std::setprecision(2) << circuitMs << " ms; "
                 << run.reconfigurations << " starts set up new circuits)";
        t.WriteTimeSeries(series, run.policy, &run == &runs.front());
        reductions << "  " << run.policy << " " << std::fixed << std::setprecision(1) << reduction
                   << "%";

        std::sort(jct.begin(), jct.end());
        Gnuplot2dDataset d(run.policy);
        d.SetStyle(Gnuplot2dDataset::LINES);
        for (std::size_t i = 0; i < jct.size(); ++i)
        {
            d.Add(jct[i], (i + 1.0) / jct.size());
            cdfBounds.Add(jct[i], (i + 1.0) / jct.size());
        }
        cdf.push_back(d);
        Gnuplot2dDataset q(run.policy);
        Gnuplot2dDataset u(run.policy);
        q.SetStyle(Gnuplot2dDataset::STEPS);
        u.SetStyle(Gnuplot2dDataset::STEPS);
        for (const auto& p : t.GetQueueLength())
        {
            q.Add(ms(p.time), p.value);
            queueBounds.Add(ms(p.time), p.value);
        }
        for (const auto& p : t.GetBusyGpus())
        {
            u.Add(ms(p.time), 100.0 * p.value / gpus);
            utilisationBounds.Add(ms(p.time), 100.0 * p.value / gpus);
        }
        queue.push_back(q);
        utilisation.push_back(u);
    }
    for (const auto& [policy, means] : saltMeans)
    {
        if (means.size() > 1)
        {
            std::cout << "# " << policy << " over " << means.size() << " ECMP salts: mean JCT "
                      << std::fixed << std::setprecision(2) << SuiteMean(means) << " ms, min "
                      << *std::min_element(means.begin(), means.end()) << ", max "
                      << *std::max_element(means.begin(), means.end()) << "\n";
        }
    }
    std::cout << "# placements declined for network fragmentation (GPUs free, links not):"
              << fragmentation.str() << "\n";
    if (topology.HasOcs())
    {
        std::cout << "# placements declined for circuits (GPUs free, no circuits):"
                  << circuits.str() << "\n";
    }
    std::cout << "# mean JCT reduction against " << runs.front().policy << ":" << reductions.str()
              << "\n# files: " << s.output.prefix << "-{config.json,jobs.csv,"
              << "summary.csv,timeseries.csv}"
              << (s.output.plots ? ", -{jct-cdf,queue,gpu-utilisation}.png" : "")
              << (s.output.flowMonitor ? ", -<policy>-flowmon.xml" : "")
              << (s.output.pcap ? ", -<policy>-<node>-<device>.pcap" : "") << "\n";
    if (s.output.plots)
    {
        Plot(s,
             s.output.prefix + "-jct-cdf",
             "job completion time per policy",
             "JCT (ms, scaled)",
             "fraction of jobs",
             cdf,
             "set key bottom right\nset yrange [0:1]\n" + cdfBounds.XRange());
        Plot(s,
             s.output.prefix + "-queue",
             "jobs waiting",
             "time (ms, scaled)",
             "queue length",
             queue,
             "set key top right\n" + queueBounds.XRange() + queueBounds.YRange());
        Plot(s,
             s.output.prefix + "-gpu-utilisation",
             "busy GPUs",
             "time (ms, scaled)",
             "GPU utilisation (%)",
             utilisation,
             "set key bottom right\nset yrange [0:105]\n" + utilisationBounds.XRange());
    }
    return 0;
}

} // namespace

int
main(int argc, char* argv[])
{
    SuiteUseHugePages(argv); // doc/suite/suite.rst, "Huge pages"
    return SuiteRunProgram(argc, argv, Run);
}

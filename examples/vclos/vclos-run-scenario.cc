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

/// The program's interruption check (signals, --wallLimit).
SuiteRunInterruption& g_interruption = SuiteRunInterruption::Get();

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
    runner.SetInterruption(&g_interruption);
    if (finishedRows)
    {
        // Each finished job's row goes out at once, so an interrupted run keeps them.
        runner.SetFinishedHook([finishedRows](const std::string& label,
                                              uint32_t id,
                                              const ClusterSchedulerTracker::JobRecord& r) {
            ScenarioWriteJobRow(*finishedRows, label, id, r, 0, 0);
            finishedRows->flush();
        });
    }
    return runner.Run(policy, jobs, saltRun);
}

/// Say how many hierarchical-ring jobs of a run ran the ring family instead.
void
ReportFallbacks(const ScenarioPolicyRun& run, const std::vector<ClusterJobRequest>& jobs)
{
    uint32_t fallbacks = 0;
    for (const auto& job : jobs)
    {
        auto it = run.jobs->GetJobs().find(job.id);
        bool ran = it != run.jobs->GetJobs().end() && it->second.IsFinished();
        fallbacks += ran && it->second.algorithm != job.algorithm ? 1 : 0;
    }
    if (fallbacks > 0)
    {
        std::cout << "# " << run.policy << ": " << fallbacks
                  << " hierarchical-ring jobs placed on unequal servers ran the ring "
                  << "family instead (jobs.csv: algorithm)\n";
    }
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

/// What the command line sets beside the scenario's fields.
struct Options
{
    std::string path; //!< the scenario file ("": defaults)
    std::string eventScheduler = SUITE_DEFAULT_EVENT_SCHEDULER; //!< packet engine's event set
    double wallLimit = 0;                                       //!< wall-clock limit (s; 0: none)
};

/// \return the scenario file's path from the command line ("" when none)
std::string
ScenarioPath(int argc, char* argv[])
{
    std::string path;
    for (int i = 1; i < argc; ++i)
    {
        std::string arg = argv[i];
        if (arg.rfind("--scenario=", 0) == 0)
        {
            path = arg.substr(11);
        }
    }
    return path;
}

/// Read the command line into the scenario (its fields' overrides) and the options.
void
ParseCommandLine(int argc, char* argv[], ScenarioConfig& s, Options& o)
{
    std::string& path = o.path;
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
    cmd.AddValue("eventScheduler",
                 "Event set of the packet engine: priority-queue, map (ns-3's default), heap, "
                 "calendar or list (same results; doc/performance.rst)",
                 o.eventScheduler);
    cmd.AddValue("wallLimit",
                 "Stop after this many wall-clock seconds (0: no limit), as on SIGINT/SIGTERM: "
                 "<prefix>-jobs.csv keeps the finished jobs, exit status 124",
                 o.wallLimit);
    cmd.Parse(argc, argv); // --RngRun overrides seeds.rngRun
    s.seeds.rngRun = RngSeedManager::GetRun();
    s.scheduler.policies = Split(policies);
    s.workload.models = Split(models);
    s.workload.algorithms = Split(algorithms);
}

/// Apply and check what the command line and the scenario ask, before any job is built.
void
Prepare(const ScenarioConfig& s, const Options& o, const ClusterModelZoo& zoo)
{
    const std::string badScheduler = SuiteSetEventScheduler(o.eventScheduler);
    SUITE_REQUIRE(badScheduler.empty(), std::invalid_argument, badScheduler);
    SUITE_REQUIRE(std::isfinite(o.wallLimit) && o.wallLimit >= 0,
                  std::invalid_argument,
                  "--wallLimit=" << o.wallLimit << " must be a number of seconds >= 0");
    ScenarioValidate(s, zoo);
    for (const auto& warning : ScenarioWarnings(s))
    {
        std::cerr << "warning: " << warning << "\n";
    }
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
}

/// Refuse, up front, a job the cluster is too small for or a policy can never place.
void
CheckJobsFit(const ScenarioConfig& s,
             const std::vector<ClusterJobRequest>& jobs,
             const ClusterTopology& topology)
{
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
    // A size a policy can never place would block its FIFO queue for ever (the scheduler
    // refuses it at Submit too).
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
}

/// Every run of the scenario: each policy (ECMP over its salts), and with metrics.slowdown
/// each job shape alone. \return 0, or the exit status of an interruption
int
RunPolicies(const ScenarioConfig& s,
            const std::vector<ClusterJobRequest>& jobs,
            std::ofstream& jobCsv,
            std::vector<ScenarioPolicyRun>& runs,
            std::map<std::string, std::map<uint32_t, double>>& alone)
{
    std::string running; // the run in progress, for the interruption's line
    for (const auto& policy : s.scheduler.policies)
    {
        const uint32_t saltRuns = HashesFlows(policy) ? s.seeds.ecmpRuns : 1;
        for (uint32_t k = 0; k < saltRuns && !g_interruption.Due(); ++k)
        {
            running = "policy " + (k == 0 ? policy : policy + "#" + std::to_string(k + 1));
            runs.push_back(RunPolicy(s, policy, jobs, true, &jobCsv, k));
            ReportFallbacks(runs.back(), jobs);
        }
        if (s.metrics.slowdown && !g_interruption.Due())
        {
            running = "the alone runs of policy " + policy;
            alone[policy] = AloneRunTimes(s, policy, jobs);
        }
        if (g_interruption.Due())
        {
            jobCsv.close();
            std::cerr << "interrupted by " << g_interruption.GetCause() << " in " << running
                      << " at " << g_interruption.GetStoppedAt().GetSeconds() * 1e3
                      << " ms simulated: " << s.output.prefix
                      << "-jobs.csv holds the finished jobs, no summary\n";
            return g_interruption.GetStatus();
        }
    }
    return 0;
}

/// The per-run plots' data: JCT CDF, queue length and GPU utilisation over time.
struct Plots
{
    std::vector<Gnuplot2dDataset> cdf;         //!< JCT CDF per run
    std::vector<Gnuplot2dDataset> queue;       //!< queue length per run
    std::vector<Gnuplot2dDataset> utilisation; //!< GPU utilisation per run
    SuitePlotBounds cdfBounds;                 //!< their ranges
    SuitePlotBounds queueBounds;               //!< their ranges
    SuitePlotBounds utilisationBounds;         //!< their ranges

    /// Add one run's curves.
    void Add(const ScenarioPolicyRun& run, std::vector<double> jct, uint32_t gpus)
    {
        auto ms = [](Time t) { return t.GetSeconds() * 1e3; };
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
        for (const auto& p : run.jobs->GetQueueLength())
        {
            q.Add(ms(p.time), p.value);
            queueBounds.Add(ms(p.time), p.value);
        }
        for (const auto& p : run.jobs->GetBusyGpus())
        {
            u.Add(ms(p.time), 100.0 * p.value / gpus);
            utilisationBounds.Add(ms(p.time), 100.0 * p.value / gpus);
        }
        queue.push_back(q);
        utilisation.push_back(u);
    }

    /// Render the three PNGs.
    void Render(const ScenarioConfig& s) const
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
};

/// The console's lines after the table: ECMP over salts, declines, reductions, files.
struct Notes
{
    std::ostringstream reductions;                        //!< mean JCT reduction per run
    std::ostringstream fragmentation;                     //!< network-fragmentation declines
    std::ostringstream circuits;                          //!< circuit declines
    std::map<std::string, std::vector<double>> saltMeans; //!< mean JCT per salt run

    /// Add one run's notes.
    void Add(const ScenarioPolicyRun& run, const ScenarioRunFigures& f, double firstMean)
    {
        const auto net = static_cast<std::size_t>(ClusterPlacementFailure::NETWORK_FRAGMENTATION);
        const auto circ = static_cast<std::size_t>(ClusterPlacementFailure::CIRCUITS);
        saltMeans[run.placement].push_back(f.meanJct);
        fragmentation << "  " << run.policy << " " << f.declined[net] << " (" << f.fragmentedJobs
                      << " jobs, " << std::fixed << std::setprecision(2) << f.fragmentedMs
                      << " ms)";
        circuits << "  " << run.policy << " " << f.declined[circ] << " (" << f.circuitJobs
                 << " jobs, " << std::fixed << std::setprecision(2) << f.circuitMs << " ms; "
                 << run.reconfigurations << " starts set up new circuits)";
        reductions << "  " << run.policy << " " << std::fixed << std::setprecision(1)
                   << 100 * (1 - f.meanJct / firstMean) << "%";
    }

    /// Print them.
    void Print(const ScenarioConfig& s, const std::string& first, bool hasOcs) const
    {
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
        if (hasOcs)
        {
            std::cout << "# placements declined for circuits (GPUs free, no circuits):"
                      << circuits.str() << "\n";
        }
        std::cout << "# mean JCT reduction against " << first << ":" << reductions.str()
                  << "\n# files: " << s.output.prefix << "-{config.json,jobs.csv,"
                  << "summary.csv,timeseries.csv}"
                  << (s.output.plots ? ", -{jct-cdf,queue,gpu-utilisation}.png" : "")
                  << (s.output.flowMonitor ? ", -<policy>-flowmon.xml" : "")
                  << (s.output.pcap ? ", -<policy>-<node>-<device>.pcap" : "") << "\n";
    }
};

/// The finished runs' files and console table.
void
Report(const ScenarioConfig& s,
       const std::vector<ClusterJobRequest>& jobs,
       const ClusterTopology& topology,
       const std::vector<ScenarioPolicyRun>& runs,
       const std::map<std::string, std::map<uint32_t, double>>& alone)
{
    // One contention-free reference for every policy and both engines: each job alone on
    // the placement it got, where only NICs and intra-server links constrain.
    Ptr<FluidExecutor> reference = ScenarioFlowExecutor(s);
    const uint32_t gpus = topology.GetGpus();
    // Complete: the rows again, in job order, with their alone-run columns.
    std::ofstream jobCsv(s.output.prefix + "-jobs.csv", std::ios::trunc);
    jobCsv << ScenarioJobsCsvHeader();
    std::ofstream summary(s.output.prefix + "-summary.csv");
    ScenarioWriteSummaryHeader(summary);
    std::ofstream series(s.output.prefix + "-timeseries.csv");
    // The console shows seconds when the runs span trace time (CSV columns stay in ms).
    Time longest;
    for (const auto& run : runs)
    {
        longest = std::max(longest, run.end);
    }
    const bool inSeconds = longest > Seconds(100);
    ScenarioWriteConsoleHeader(std::cout, inSeconds);
    Plots plots;
    Notes notes;
    double firstMean = 0;
    for (const auto& run : runs)
    {
        std::map<uint32_t, double> references;
        const auto* aloneMs = s.metrics.slowdown ? &alone.at(run.placement) : nullptr;
        for (const auto& job : jobs)
        {
            const double collective =
                reference->GetContentionFreeSeconds(job.algorithm,
                                                    run.gpus.at(job.id),
                                                    static_cast<double>(job.messageBytes));
            references[job.id] = job.iterations * (job.computeTime.GetSeconds() + collective) * 1e3;
            ScenarioWriteJobRow(jobCsv,
                                run.policy,
                                job.id,
                                run.jobs->GetJobs().at(job.id),
                                aloneMs ? aloneMs->at(job.id) : 0,
                                references[job.id]);
        }
        auto referenceMs = [&references](const ClusterJobRequest& job) {
            return references.at(job.id);
        };
        const ScenarioRunFigures f = ScenarioSummarize(s, run, jobs, gpus, aloneMs, referenceMs);
        firstMean = firstMean == 0 ? f.meanJct : firstMean;
        ScenarioWriteConsoleRow(std::cout, run, f, inSeconds);
        ScenarioWriteSummaryRow(summary, s, run, f, firstMean);
        notes.Add(run, f, firstMean);
        run.jobs->WriteTimeSeries(series, run.policy, &run == &runs.front());
        plots.Add(run, f.jctMs, gpus);
    }
    notes.Print(s, runs.front().policy, topology.HasOcs());
    if (s.output.plots)
    {
        plots.Render(s);
    }
}

int
Run(int argc, char* argv[])
{
    // From the start: a signal during set-up (building a large workload) stops the run at
    // its first check, with its one line, rather than killing it silently.
    SuiteRunInterruption::CatchSignals();
    Options o;
    o.path = ScenarioPath(argc, argv);
    ScenarioConfig s = o.path.empty() ? ScenarioConfig() : ScenarioRead(o.path);
    ClusterModelZoo zoo = ClusterModelZoo::LoadDefault();
    ScenarioApplyAttributes(s);
    RngSeedManager::SetRun(s.seeds.rngRun);
    ParseCommandLine(argc, argv, s, o);
    Prepare(s, o, zoo);
    std::vector<ClusterJobRequest> jobs = ScenarioBuildJobs(s, zoo);
    // The cluster's shape from its description; the packet engine's fabric is built once up
    // front only to check its own limits.
    const ClusterTopology topology(CreateObject<ClosFabricHelper>()->GetTopologyConfig());
    ScenarioCreateEngine(s.scheduler.engine)->CheckLimits();
    CheckJobsFit(s, jobs, topology);

    std::string config = ScenarioToJson(s);
    std::ofstream(s.output.prefix + "-config.json") << config;
    std::cout
        << "# scenario " << s.name << (o.path.empty() ? " (built-in defaults)" : "")
        << ": resolved configuration (saved as " << s.output.prefix << "-config.json)\n"
        << config << "# " << jobs.size() << " jobs on " << topology.GetGpus()
        << " GPUs; offered load " << OfferedLoad(s, jobs, topology.GetGpus())
        << " (GPU-seconds of compute and contention-free collectives over GPUs x arrival span); "
        << std::defaultfloat << ScenarioDescribeScaling(s) << "\n";

    // SIGINT, SIGTERM or the wall-clock limit stop the run at its next check: <prefix>-jobs.csv
    // then holds the rows of the jobs that finished.
    g_interruption.SetWallLimit(o.wallLimit);
    std::ofstream jobCsv(s.output.prefix + "-jobs.csv");
    SUITE_REQUIRE(jobCsv, std::runtime_error, "cannot write " << s.output.prefix << "-jobs.csv");
    jobCsv << ScenarioJobsCsvHeader() << std::flush;
    std::vector<ScenarioPolicyRun> runs;
    std::map<std::string, std::map<uint32_t, double>> alone;
    if (int status = RunPolicies(s, jobs, jobCsv, runs, alone); status != 0)
    {
        return status;
    }
    jobCsv.close();
    Report(s, jobs, topology, runs, alone);
    return 0;
}
} // namespace

int
main(int argc, char* argv[])
{
    SuiteUseHugePages(argv); // doc/suite/suite.rst, "Huge pages"
    return SuiteRunProgram(argc, argv, Run);
}

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Multi-tenant scheduling on a 128-GPU fabric: the same arrivals under network-unaware packing
// with per-flow ECMP, the same packing with source routing, and vClos placement with balanced
// routing. Jobs queue FIFO, start when placed, run their iterations as packet-level traffic
// and free their room. Prints per policy the mean, p50 and p99 job completion time (JCT),
// waiting and run times, the conflicting-flow share on leaf-spine links and the placement
// decision time, and the JCT reduction against ECMP; writes <output>-jobs.csv (one row per
// job and policy) and <output>-jct.png (CDF of JCT per policy).
//
// Workload: --trace=<Tiresias CSV> or a synthetic one (--jobs, --meanInterArrival, sizes from
// the vClos authors' histogram capped at --maxGpus, models drawn from the zoo). Time scaling
// for packet-level runs, stated in the output: gradient bytes are multiplied by --scale and
// compute time by --computeScale (so communication weighs as in large jobs), iterations are
// capped at --iterations, arrival times multiplied by --arrivalScale.

#include "ns3/core-module.h"
#include "ns3/gnuplot.h"
#include "ns3/vclos-module.h"

#include <algorithm>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <numeric>
#include <sstream>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("VclosSchedulingComparison");

namespace
{

/// One job's life under one policy.
struct JobRecord
{
    Time arrival; //!< submit time
    Time start;   //!< placement time
    Time finish;  //!< last iteration ended
};

/// What one policy's run measured.
struct PolicyRun
{
    std::string policy;                 //!< name
    std::map<uint32_t, JobRecord> jobs; //!< by job id
    double conflictingShare = 0;        //!< flows sharing a leaf-spine link with another
    std::vector<double> decisionUs;     //!< placement decision times
    uint32_t maxQueue = 0;              //!< longest queue
    double wallSeconds = 0;             //!< simulation wall time
};

/// Share of flows that met another flow on some leaf-spine link.
double
FabricConflicts(Ptr<VclosFabric> fabric, Ptr<VclosLinkLoadTracker> tracker)
{
    const auto& flows = tracker->GetFlows();
    uint32_t crossing = 0;
    uint32_t conflicting = 0;
    for (const auto& flow : flows)
    {
        bool crosses = false;
        bool shares = false;
        for (uint32_t link : flow.links)
        {
            auto kind = fabric->GetLinks()[link].kind;
            if (kind == VclosLink::LEAF_TO_SPINE || kind == VclosLink::SPINE_TO_LEAF)
            {
                crosses = true;
                shares = shares || tracker->GetLinkLoad(link).maxConcurrentFlows > 1;
            }
        }
        crossing += crosses ? 1 : 0;
        conflicting += crosses && shares && flow.conflicting ? 1 : 0;
    }
    return crossing == 0 ? 0.0 : static_cast<double>(conflicting) / crossing;
}

PolicyRun
RunPolicy(const std::string& policy, const std::vector<VclosJobRequest>& jobs, bool progress)
{
    Ptr<VclosFabricHelper> fabricHelper = CreateObject<VclosFabricHelper>();
    Ptr<VclosFabric> fabric = fabricHelper->Install();
    fabricHelper->AssignStreams(fabric, 0);
    Ptr<VclosJobScheduler> scheduler = CreateObject<VclosJobScheduler>();
    scheduler->Setup(fabric, policy);
    Ptr<VclosLinkLoadTracker> tracker = CreateObject<VclosLinkLoadTracker>();
    tracker->SetAttribute("IdleGap", TimeValue(MicroSeconds(20)));
    tracker->Install(fabric);
    PolicyRun run;
    run.policy = policy;
    scheduler->TraceConnectWithoutContext(
        "JobArrived",
        Callback<void, const VclosJobRequest&>(
            [&run](const VclosJobRequest& j) { run.jobs[j.id].arrival = Simulator::Now(); }));
    scheduler->TraceConnectWithoutContext(
        "JobStarted",
        Callback<void, const VclosJobRequest&>(
            [&run](const VclosJobRequest& j) { run.jobs[j.id].start = Simulator::Now(); }));
    uint32_t total = static_cast<uint32_t>(jobs.size());
    scheduler->TraceConnectWithoutContext(
        "JobFinished",
        Callback<void, const VclosJobRequest&>(
            [&run, total, progress, policy](const VclosJobRequest& j) {
                run.jobs[j.id].finish = Simulator::Now();
                if (progress)
                {
                    uint32_t done = 0;
                    for (const auto& [id, r] : run.jobs)
                    {
                        done += r.finish.IsStrictlyPositive() ? 1 : 0;
                    }
                    std::cerr << "\r[vclos] " << policy << ": " << done << "/" << total
                              << " jobs finished at " << Simulator::Now().GetMilliSeconds()
                              << " ms simulated   " << std::flush;
                }
            }));
    scheduler->TraceConnectWithoutContext("Decision",
                                          Callback<void, const VclosJobRequest&, bool, Time>(
                                              [&run](const VclosJobRequest&, bool, Time t) {
                                                  run.decisionUs.push_back(t.GetSeconds() * 1e6);
                                              }));
    scheduler->TraceConnectWithoutContext(
        "QueueLength",
        Callback<void, uint32_t, uint32_t>(
            [&run](uint32_t, uint32_t now) { run.maxQueue = std::max(run.maxQueue, now); }));
    scheduler->Submit(jobs);
    auto wallStart = std::chrono::steady_clock::now();
    Simulator::Run();
    run.wallSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count();
    VCLOS_REQUIRE(scheduler->GetFinishedJobs() == total,
                  std::runtime_error,
                  policy << ": only " << scheduler->GetFinishedJobs() << " of " << total
                         << " jobs finished (a job larger than any free room waits forever)");
    run.conflictingShare = FabricConflicts(fabric, tracker);
    if (progress)
    {
        std::cerr << "\n";
    }
    Simulator::Destroy();
    return run;
}

int
Run(int argc, char* argv[])
{
    // The scenario's fabric: 128 GPUs, 16 leaves x 2 servers x 4 GPUs, 8 spines (1:1).
    Config::SetDefault("ns3::VclosFabricHelper::Leaves", UintegerValue(16));
    Config::SetDefault("ns3::VclosFabricHelper::ServersPerLeaf", UintegerValue(2));
    Config::SetDefault("ns3::VclosFabricHelper::GpusPerServer", UintegerValue(4));
    Config::SetDefault("ns3::VclosFabricHelper::Spines", UintegerValue(8));
    std::string policies = "ecmp-first-fit,source-routing-first-fit,vclos";
    std::string trace;
    uint32_t jobCount = 40;
    double meanInterArrivalMs = 0.3;
    uint32_t maxGpus = 32;
    double scale = 0.05;
    double computeScale = 0.001;
    double arrivalScale = 1.0;
    uint32_t iterations = 2;
    uint64_t seed = 1;
    std::string output = "vclos-scheduling";
    bool progress = true;
    CommandLine cmd(__FILE__);
    cmd.AddValue("policies", "Comma-separated placement policies", policies);
    cmd.AddValue("trace", "Tiresias-format trace (else a synthetic workload)", trace);
    cmd.AddValue("jobs", "Synthetic jobs", jobCount);
    cmd.AddValue("meanInterArrival", "Synthetic mean inter-arrival time (ms)", meanInterArrivalMs);
    cmd.AddValue("maxGpus", "Synthetic job size cap", maxGpus);
    cmd.AddValue("scale", "Factor on gradient bytes", scale);
    cmd.AddValue("computeScale", "Factor on compute time", computeScale);
    cmd.AddValue("arrivalScale", "Factor on arrival times (trace or synthetic)", arrivalScale);
    cmd.AddValue("iterations", "Iterations per job (cap for traces)", iterations);
    cmd.AddValue("seed", "Synthetic workload seed", seed);
    cmd.AddValue("output", "Prefix of the output files", output);
    cmd.AddValue("progress", "Show a progress line on stderr", progress);
    cmd.Parse(argc, argv);
    VCLOS_REQUIRE(scale > 0 && scale <= 1, std::invalid_argument, "scale must be in (0, 1]");
    VCLOS_REQUIRE(computeScale >= 0 && computeScale <= 1,
                  std::invalid_argument,
                  "computeScale must be in [0, 1]");
    VCLOS_REQUIRE(arrivalScale > 0, std::invalid_argument, "arrivalScale must be > 0");
    VCLOS_REQUIRE(iterations >= 1, std::invalid_argument, "iterations must be at least 1");
    VCLOS_REQUIRE(meanInterArrivalMs > 0, std::invalid_argument, "meanInterArrival must be > 0");

    VclosModelZoo zoo = VclosModelZoo::LoadDefault();
    std::vector<VclosTraceJob> workload =
        trace.empty() ? VclosGenerateJobs(jobCount,
                                          MicroSeconds(meanInterArrivalMs * 1000),
                                          Seconds(1),
                                          {"resnet50", "vgg16", "bert-large", "resnet101"},
                                          maxGpus,
                                          seed)
                      : VclosReadTiresiasTrace(trace);
    std::vector<VclosJobRequest> jobs;
    for (const auto& t : workload)
    {
        const VclosModel& model = zoo.Get(t.model);
        VclosJobRequest r;
        r.id = t.id;
        r.gpus = t.gpus;
        r.submit = t.submit * arrivalScale;
        r.messageBytes = std::max<uint64_t>(1, model.gradientBytes * scale);
        r.computeTime = model.computeTime * computeScale;
        r.iterations = t.iterations == 0 ? iterations : std::min(iterations, t.iterations);
        jobs.push_back(r);
    }

    std::vector<std::string> names;
    std::stringstream list(policies);
    for (std::string p; std::getline(list, p, ',');)
    {
        VclosCreatePlacementPolicy(p); // refuses an unknown name before any run
        names.push_back(p);
    }
    std::cout << "# " << jobs.size() << " jobs (" << (trace.empty() ? "synthetic" : trace)
              << "); time scaling: gradient bytes x " << scale << ", compute x " << computeScale
              << ", iterations capped at " << iterations << ", arrivals x " << arrivalScale << "\n";
    std::vector<PolicyRun> runs;
    for (const auto& p : names)
    {
        runs.push_back(RunPolicy(p, jobs, progress));
    }

    std::ofstream csv(output + "-jobs.csv");
    csv << "policy,job,gpus,arrival_ms,start_ms,finish_ms,wait_ms,run_ms,jct_ms\n";
    std::cout << "#   policy                      mean JCT(ms)   p50     p99   wait(ms)  run(ms) "
                 " conflicts  decision p50(us)  max queue  wall(s)\n";
    std::ostringstream summary;
    summary << "policy,mean_jct_ms,p50_jct_ms,p99_jct_ms,mean_wait_ms,mean_run_ms,"
               "conflicting_share,decision_p50_us,max_queue,jct_reduction_vs_first_pct\n";
    double firstMean = 0;
    Gnuplot plot(output + "-jct.png");
    plot.SetTerminal("pngcairo size 900,520 noenhanced");
    plot.SetTitle("Job completion time, same arrivals, per placement policy");
    plot.SetLegend("JCT (ms)", "fraction of jobs");
    plot.AppendExtra("set key bottom right\nset grid\nset yrange [0:1]");
    for (const auto& run : runs)
    {
        std::vector<double> jct;
        std::vector<double> wait;
        std::vector<double> ran;
        for (const auto& job : jobs)
        {
            const JobRecord& r = run.jobs.at(job.id);
            jct.push_back((r.finish - r.arrival).GetSeconds() * 1e3);
            wait.push_back((r.start - r.arrival).GetSeconds() * 1e3);
            ran.push_back((r.finish - r.start).GetSeconds() * 1e3);
            csv << run.policy << "," << job.id << "," << job.gpus << ","
                << r.arrival.GetSeconds() * 1e3 << "," << r.start.GetSeconds() * 1e3 << ","
                << r.finish.GetSeconds() * 1e3 << "," << wait.back() << "," << ran.back() << ","
                << jct.back() << "\n";
        }
        double mean = VclosMean(jct);
        firstMean = firstMean == 0 ? mean : firstMean;
        double reduction = 100 * (1 - mean / firstMean);
        std::cout << std::fixed << std::setprecision(2) << "#   " << std::left << std::setw(26)
                  << run.policy << std::right << std::setw(13) << mean << std::setw(8)
                  << VclosPercentile(jct, 0.5) << std::setw(8) << VclosPercentile(jct, 0.99)
                  << std::setw(10) << VclosMean(wait) << std::setw(9) << VclosMean(ran)
                  << std::setw(10) << 100 * run.conflictingShare << "%" << std::setw(18)
                  << VclosPercentile(run.decisionUs, 0.5) << std::setw(11) << run.maxQueue
                  << std::setw(9) << run.wallSeconds << "\n";
        summary << run.policy << "," << mean << "," << VclosPercentile(jct, 0.5) << ","
                << VclosPercentile(jct, 0.99) << "," << VclosMean(wait) << "," << VclosMean(ran)
                << "," << run.conflictingShare << "," << VclosPercentile(run.decisionUs, 0.5) << ","
                << run.maxQueue << "," << reduction << "\n";
        std::sort(jct.begin(), jct.end());
        Gnuplot2dDataset d(run.policy);
        d.SetStyle(Gnuplot2dDataset::LINES);
        for (std::size_t i = 0; i < jct.size(); ++i)
        {
            d.Add(jct[i], (i + 1.0) / jct.size());
        }
        plot.AddDataset(d);
    }
    std::cout << "# JCT reduction against " << names.front() << ": ";
    std::istringstream rows(summary.str());
    std::string row;
    std::getline(rows, row);
    while (std::getline(rows, row))
    {
        std::cout << row.substr(0, row.find(',')) << " " << std::fixed << std::setprecision(1)
                  << std::stod(row.substr(row.rfind(',') + 1)) << "%  ";
    }
    std::cout << "\n# files: " << output << "-jobs.csv, " << output << "-jct.png\n"
              << summary.str();
    std::ofstream plt(output + "-jct.plt");
    plot.GenerateOutput(plt);
    plt.close();
    VclosRenderPlot(output + "-jct.plt");
    return 0;
}

} // namespace

int
main(int argc, char* argv[])
{
    return VclosRunProgram(argc, argv, Run);
}

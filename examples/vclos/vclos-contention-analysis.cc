/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Contention analysis of co-located training jobs (the vClos paper's first experiment).
//
// A network-unaware scheduler places several data-parallel jobs on a 32-GPU fabric: each
// job gets free servers at random, so jobs span leaves and share the fabric. Every job
// computes, then all-reduces its gradients, for --iterations iterations. The program runs
// each job alone, then all jobs together under per-flow ECMP (--salts trials, fresh
// per-switch salts each) and together with every GPU pinned to the spine of its index in its
// leaf. It prints, per job, the iteration time alone and co-located and the slowdown, plus
// the conflicting-flow share and busiest link of each run, then a CSV summary on stdout.
// Writes <output>-iterations.csv (every iteration of every run), <output>-jobs.csv and a
// gnuplot bar chart <output>-slowdown.png.
//
// Jobs: --jobs="model:gpus:algorithm,..." with models from model/cluster/cluster-model-zoo.csv
// and algorithms ring, hierarchical-ring, halving-doubling, all-to-all. --scale multiplies
// both gradient bytes and compute time, so that packet-level runs stay short; the slowdown
// does not depend on it to first order.

#include "ns3/clos-module.h"
#include "ns3/cluster-module.h"
#include "ns3/collective-module.h"
#include "ns3/core-module.h"
#include "ns3/fluid-module.h"
#include "ns3/gnuplot.h"
#include "ns3/lean-link-module.h"
#include "ns3/ocs-module.h"
#include "ns3/pfc-module.h"
#include "ns3/roce-module.h"
#include "ns3/scenario-module.h"
#include "ns3/suite-module.h"

#include <algorithm>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <numeric>
#include <sstream>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("VclosContentionAnalysis");

namespace
{

/// A job of the workload.
struct JobSpec
{
    std::string model;                      //!< model zoo name
    uint32_t gpus = 0;                      //!< size
    ClusterCollectiveAlgorithm algorithm{}; //!< collective
    std::vector<uint32_t> placement;        //!< GPUs it got
};

/// One run: which jobs, how routed, and what each job's iterations took.
struct RunResult
{
    std::string label;                        //!< "alone", "ecmp", "pinned"
    uint32_t trial = 0;                       //!< salt trial (ecmp)
    std::vector<int32_t> jobs;                //!< job indexes in the run
    std::vector<std::vector<double>> seconds; //!< per job in the run: iteration times
    double conflictingShare = 0;              //!< tracker
    uint32_t maxFlowsPerLink = 0;             //!< tracker
};

/// Parse --jobs.
std::vector<JobSpec>
ParseJobs(const std::string& text, const ClusterModelZoo& zoo)
{
    std::vector<JobSpec> jobs;
    std::stringstream list(text);
    std::string item;
    while (std::getline(list, item, ','))
    {
        std::stringstream fields(item);
        std::string model;
        std::string gpus;
        std::string algorithm;
        std::getline(fields, model, ':');
        std::getline(fields, gpus, ':');
        std::getline(fields, algorithm, ':');
        JobSpec job;
        job.model = zoo.Get(model).name;
        SUITE_REQUIRE(!gpus.empty() && gpus.find_first_not_of("0123456789") == std::string::npos,
                      std::invalid_argument,
                      "jobs: '" << item << "' needs model:gpus:algorithm with a GPU count");
        job.gpus = static_cast<uint32_t>(std::stoul(gpus));
        SUITE_REQUIRE(ClusterParseCollectiveAlgorithm(algorithm, job.algorithm),
                      std::invalid_argument,
                      "jobs: unknown algorithm '" << algorithm << "' in '" << item << "'");
        jobs.push_back(job);
    }
    SUITE_REQUIRE(!jobs.empty(), std::invalid_argument, "jobs: no job given");
    return jobs;
}

/// Network-unaware placement: each job, in turn, takes free servers chosen at random
/// (whole servers while it needs at least one, then part of one).
void
Place(std::vector<JobSpec>& jobs, Ptr<const ClosFabric> fabric, Ptr<UniformRandomVariable> rng)
{
    const uint32_t perServer = fabric->GetGpusPerServer();
    std::vector<uint32_t> freeGpus(fabric->GetGpuCount() / perServer, perServer);
    for (auto& job : jobs)
    {
        uint32_t needed = job.gpus;
        std::vector<uint32_t> order(freeGpus.size());
        std::iota(order.begin(), order.end(), 0);
        for (std::size_t i = order.size() - 1; i > 0; --i)
        {
            std::swap(order[i], order[rng->GetInteger(0, static_cast<uint32_t>(i))]);
        }
        std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
            return (freeGpus[a] == perServer) > (freeGpus[b] == perServer);
        });
        for (uint32_t server : order)
        {
            while (needed > 0 && freeGpus[server] > 0)
            {
                uint32_t local = perServer - freeGpus[server];
                job.placement.push_back(server * perServer + local);
                --freeGpus[server];
                --needed;
            }
        }
        SUITE_REQUIRE(needed == 0,
                      std::invalid_argument,
                      "jobs: " << job.model << " wants " << job.gpus << " GPUs but only "
                               << job.gpus - needed << " are free");
    }
}

/// Run some jobs together and return their iteration times.
RunResult
RunJobs(const std::vector<JobSpec>& jobs,
        const std::vector<int32_t>& which,
        const ClusterModelZoo& zoo,
        double scale,
        uint32_t iterations,
        bool pinned,
        int64_t stream)
{
    Ptr<ClosFabricHelper> fabricHelper = CreateObject<ClosFabricHelper>();
    Ptr<ClosFabric> fabric = fabricHelper->Install();
    fabricHelper->AssignStreams(fabric, stream);
    if (pinned)
    {
        for (uint32_t g = 0; g < fabric->GetGpuCount(); ++g)
        {
            fabric->PinSourceToSpine(g, fabric->GetIndexInLeaf(g) % fabric->GetSpineCount());
        }
    }
    Ptr<CollectiveTracker> tracker = CreateObject<CollectiveTracker>();
    Ptr<CollectiveHelper> collective = CreateObject<CollectiveHelper>();
    collective->SetAttribute("Iterations", UintegerValue(iterations));
    for (int32_t j : which)
    {
        const JobSpec& job = jobs[j];
        const ClusterModel& model = zoo.Get(job.model);
        collective->SetAttribute("Algorithm", EnumValue(job.algorithm));
        collective->SetAttribute(
            "MessageBytes",
            UintegerValue(
                std::max<uint64_t>(1, static_cast<uint64_t>(model.gradientBytes * scale))));
        collective->SetAttribute("ComputeTime", TimeValue(model.computeTime * scale));
        tracker->Track(job.model, collective->Install(fabric, job.placement));
    }
    Ptr<ClosLinkLoadTracker> links = CreateObject<ClosLinkLoadTracker>();
    links->Install(fabric);
    Simulator::Run();
    SuiteCheckRunStatus(); // a run that could not go on: "error: <cause>"

    RunResult result;
    result.jobs = which;
    for (uint32_t k = 0; k < which.size(); ++k)
    {
        SUITE_REQUIRE(tracker->IsComplete(k),
                      std::runtime_error,
                      "job " << jobs[which[k]].model << " did not complete");
        std::vector<double> times;
        for (const auto& it : tracker->GetIterations(k))
        {
            times.push_back((it.end - it.start).GetSeconds());
        }
        result.seconds.push_back(times);
    }
    result.conflictingShare = links->GetConflictingFlowShare();
    result.maxFlowsPerLink = links->GetMaxFlowsPerLink();
    Simulator::Destroy();
    return result;
}

int
Run(int argc, char* argv[])
{
    std::string jobsText = "resnet50:8:ring,vgg16:8:ring,bert-large:8:halving-doubling";
    double scale = 0.05;
    uint32_t iterations = 3;
    uint32_t salts = 5;
    std::string output = "vclos-contention";
    bool progress = true;
    SuiteCommandLine cmd(__FILE__);
    cmd.Usage("Slowdown of co-located training jobs from ECMP collisions, against each job "
              "alone and against pinned paths. Fabric via --ns3::ClosFabricHelper::<Attr>.");
    cmd.AddValue("jobs", "Jobs: model:gpus:algorithm,... (models from the zoo)", jobsText);
    cmd.AddValue("scale", "Factor on gradient bytes and compute time (0 < scale <= 1)", scale);
    cmd.AddValue("iterations", "Iterations per job", iterations);
    cmd.AddValue("salts", "Co-located ECMP trials, each with fresh per-switch salts", salts);
    cmd.AddOutputPrefix("output", "Prefix of the output files", output);
    cmd.AddValue("progress", "Show a progress line on stderr", progress);
    cmd.Parse(argc, argv);
    SUITE_REQUIRE(scale > 0 && scale <= 1,
                  std::invalid_argument,
                  "scale must be in (0, 1] (got " << scale << ")");
    SUITE_REQUIRE(iterations >= 1, std::invalid_argument, "iterations must be at least 1");
    SUITE_REQUIRE(salts >= 1, std::invalid_argument, "salts must be at least 1");

    ClusterModelZoo zoo = ClusterModelZoo::LoadDefault();
    std::vector<JobSpec> jobs = ParseJobs(jobsText, zoo);
    {
        Ptr<ClosFabric> shape = CreateObject<ClosFabricHelper>()->Install();
        Ptr<UniformRandomVariable> rng = CreateObject<UniformRandomVariable>();
        rng->SetStream(999);
        Place(jobs, shape, rng);
        Simulator::Destroy();
    }

    std::vector<RunResult> runs;
    std::vector<int32_t> all(jobs.size());
    std::iota(all.begin(), all.end(), 0);
    uint32_t total = static_cast<uint32_t>(jobs.size()) + salts + 1;
    auto step = [&](RunResult r, const std::string& label, uint32_t trial) {
        r.label = label;
        r.trial = trial;
        runs.push_back(r);
        if (progress)
        {
            std::cerr << "\r[vclos] run " << runs.size() << "/" << total << " (" << label << ")   "
                      << std::flush;
        }
    };
    for (uint32_t j = 0; j < jobs.size(); ++j)
    {
        step(RunJobs(jobs, {static_cast<int32_t>(j)}, zoo, scale, iterations, false, 0),
             "alone",
             0);
    }
    for (uint32_t s = 0; s < salts; ++s)
    {
        step(RunJobs(jobs, all, zoo, scale, iterations, false, 1000 * (s + 1)), "ecmp", s);
    }
    step(RunJobs(jobs, all, zoo, scale, iterations, true, 0), "pinned", 0);
    if (progress)
    {
        std::cerr << "\n";
    }

    // Per job: mean iteration time alone, co-located under ECMP (all salts), pinned.
    std::vector<double> alone(jobs.size());
    std::vector<double> ecmp(jobs.size());
    std::vector<double> pinned(jobs.size());
    std::vector<std::vector<double>> ecmpAll(jobs.size());
    for (const auto& r : runs)
    {
        for (uint32_t k = 0; k < r.jobs.size(); ++k)
        {
            int32_t j = r.jobs[k];
            if (r.label == "alone")
            {
                alone[j] = SuiteMean(r.seconds[k]);
            }
            else if (r.label == "pinned")
            {
                pinned[j] = SuiteMean(r.seconds[k]);
            }
            else
            {
                ecmpAll[j].insert(ecmpAll[j].end(), r.seconds[k].begin(), r.seconds[k].end());
            }
        }
    }
    for (uint32_t j = 0; j < jobs.size(); ++j)
    {
        ecmp[j] = SuiteMean(ecmpAll[j]);
    }

    std::ofstream iterCsv(output + "-iterations.csv");
    iterCsv << "run,trial,job,model,iteration,iteration_s\n";
    for (const auto& r : runs)
    {
        for (uint32_t k = 0; k < r.jobs.size(); ++k)
        {
            for (uint32_t i = 0; i < r.seconds[k].size(); ++i)
            {
                iterCsv << r.label << "," << r.trial << "," << r.jobs[k] << ","
                        << jobs[r.jobs[k]].model << "," << i << "," << r.seconds[k][i] << "\n";
            }
        }
    }
    std::ofstream jobCsv(output + "-jobs.csv");
    jobCsv << "job,model,gpus,algorithm,leaves_spanned,placement,alone_ms,ecmp_ms,pinned_ms,"
              "ecmp_slowdown_pct,pinned_slowdown_pct\n";
    Ptr<ClosFabric> shape = CreateObject<ClosFabricHelper>()->Install();

    std::cout << std::fixed << std::setprecision(2);
    std::cout << "# " << jobs.size() << " jobs on " << shape->GetGpuCount()
              << " GPUs, network-unaware random placement, " << iterations << " iterations, scale "
              << scale << "; ECMP over " << salts << " salts\n";
    std::cout << "#   job  model          GPUs  algorithm          leaves  alone(ms)  "
                 "ECMP(ms)  slowdown  pinned(ms)  slowdown\n";
    std::ostringstream csv;
    csv << "job,model,gpus,algorithm,leaves_spanned,alone_ms,ecmp_ms,pinned_ms,"
           "ecmp_slowdown_pct,pinned_slowdown_pct\n";
    for (uint32_t j = 0; j < jobs.size(); ++j)
    {
        std::set<uint32_t> leaves;
        std::ostringstream placement;
        for (uint32_t g : jobs[j].placement)
        {
            leaves.insert(shape->GetLeafOfGpu(g));
            placement << (placement.tellp() > 0 ? " " : "") << g;
        }
        double ecmpSlow = 100 * (ecmp[j] / alone[j] - 1);
        double pinSlow = 100 * (pinned[j] / alone[j] - 1);
        std::string algorithm = ClusterCollectiveAlgorithmName(jobs[j].algorithm);
        std::cout << "#   " << std::setw(3) << j << "  " << std::left << std::setw(14)
                  << jobs[j].model << std::right << std::setw(4) << jobs[j].gpus << "  "
                  << std::left << std::setw(18) << algorithm << std::right << std::setw(6)
                  << leaves.size() << std::setw(11) << alone[j] * 1e3 << std::setw(10)
                  << ecmp[j] * 1e3 << std::setw(9) << ecmpSlow << "%" << std::setw(12)
                  << pinned[j] * 1e3 << std::setw(9) << pinSlow << "%\n";
        csv << j << "," << jobs[j].model << "," << jobs[j].gpus << "," << algorithm << ","
            << leaves.size() << "," << alone[j] * 1e3 << "," << ecmp[j] * 1e3 << ","
            << pinned[j] * 1e3 << "," << ecmpSlow << "," << pinSlow << "\n";
        jobCsv << j << "," << jobs[j].model << "," << jobs[j].gpus << "," << algorithm << ","
               << leaves.size() << "," << placement.str() << "," << alone[j] * 1e3 << ","
               << ecmp[j] * 1e3 << "," << pinned[j] * 1e3 << "," << ecmpSlow << "," << pinSlow
               << "\n";
    }
    for (const auto& r : runs)
    {
        if (r.label != "alone")
        {
            std::cout << "#   run " << r.label << " " << r.trial << ": conflicting flows "
                      << 100 * r.conflictingShare << "%, busiest link " << r.maxFlowsPerLink
                      << " flows\n";
        }
    }
    std::cout << "# files: " << output << "-{iterations,jobs}.csv, " << output << "-slowdown.png\n"
              << csv.str();
    Simulator::Destroy();

    Gnuplot plot;
    plot.SetTerminal("pngcairo size 900,520 noenhanced");
    plot.SetTitle("Iteration time of co-located jobs: alone, with per-flow ECMP, pinned");
    plot.SetLegend("job", "iteration time (ms)");
    plot.SetExtra("set style data histogram\nset style histogram clustered\n"
                  "set style fill solid 0.8 border -1\nset boxwidth 0.9\nset yrange [0:*]\n"
                  "set key top left\nset xtics nomirror\n"
                  "plot '-' using 2:xtic(1) title 'alone', '-' using 2 title 'co-located, ECMP', "
                  "'-' using 2 title 'co-located, pinned'");
    std::ostringstream plt;
    for (const auto* series : {&alone, &ecmp, &pinned})
    {
        for (uint32_t j = 0; j < jobs.size(); ++j)
        {
            plt << "\"" << j << ":" << jobs[j].model << "\" " << (*series)[j] * 1e3 << "\n";
        }
        plt << "e\n";
    }
    SuiteRenderPlot(plot, output + "-slowdown", plt.str());
    return 0;
}

} // namespace

int
main(int argc, char* argv[])
{
    SuiteUseHugePages(argv); // doc/suite/suite.rst, "Huge pages"
    return SuiteRunProgram(argc, argv, Run);
}

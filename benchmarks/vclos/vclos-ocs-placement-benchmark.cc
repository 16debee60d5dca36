/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// OCS-vClos placement time per decision at 8,192 GPUs, against static vClos on the
// same job stream.
//
// Cluster (the authors' oxc_vclos run in RapidNetSim): 256 leaves of 8 servers x 4 GPUs, 32
// OCSs (one uplink per leaf on each), 128 spines with 2 ports on every OCS. Static vClos runs
// the same GPUs with one link from every leaf to each of 32 spines (1:1).
// Jobs: sizes from the authors' TPU-v4 distribution (ClusterTpuV4SizeForQuantile of a uniform draw)
// capped at 512; durations exponential with mean 1 (time unit); Poisson arrivals at the rate that
// offers --load of the GPUs. Strict FIFO (as RapidNetSim's waiting_task.py): an arriving job waits
// behind a queue; on every finish the queue is tried in order until the first job that does not
// fit. Every Place() call is one decision, timed with steady_clock; a failed one is then diagnosed
// (untimed). No simulation is run.

#include "ns3/cluster-ocs-placement.h"
#include "ns3/cluster-ocs-state.h"
#include "ns3/cluster-placement.h"
#include "ns3/cluster-state.h"
#include "ns3/cluster-workload.h"
#include "ns3/suite-check.h"
#include "ns3/suite-command-line.h"
#include "ns3/suite-program-support.h"

#include <chrono>
#include <deque>
#include <functional>
#include <iomanip>
#include <iostream>
#include <map>
#include <queue>
#include <random>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// One job of the stream.
struct Job
{
    double arrival;  //!< arrival time
    double duration; //!< run time
    uint32_t gpus;   //!< size
};

/// The outcome of one placement attempt.
struct Attempt
{
    bool placed = false;                                           //!< it fit
    ClusterPlacementFailure cause = ClusterPlacementFailure::GPUS; //!< else why
    std::string stage;                                             //!< the stage (or "vclos")
    bool cut = false;                                              //!< a search budget cut it
    uint32_t circuits = 0;                                         //!< circuits booked
    uint32_t reused = 0;                                           //!< of which reused
};

/// Figures of one policy over the stream.
struct Result
{
    std::string policy;                     //!< name
    std::vector<double> times;              //!< every decision, us
    std::vector<double> placedTimes;        //!< successful decisions, us
    std::vector<double> failedTimes;        //!< failed decisions, us
    std::map<std::string, uint64_t> causes; //!< failed decisions per cause
    std::map<std::string, uint64_t> stages; //!< placements per stage
    uint64_t cuts = 0;                      //!< decisions cut by a budget
    uint64_t circuits = 0;                  //!< circuits booked
    uint64_t reused = 0;                    //!< of which reused
    uint64_t firstTry = 0;                  //!< jobs placed at arrival
    double busyIntegral = 0;                //!< integral of busy GPUs over time
    double end = 0;                         //!< time of the last event
    std::vector<double> waits;              //!< per job: start - arrival
};

/**
 * Replay the stream: `place(jobId, gpus, attempt)` tries a job (and books it on success),
 * `release(jobId)` frees it, `busy()` returns the busy GPUs.
 */
void
Replay(const std::vector<Job>& jobs,
       const std::function<void(uint64_t, uint32_t, Attempt&)>& place,
       const std::function<void(uint64_t)>& release,
       const std::function<uint32_t()>& busy,
       Result& r)
{
    using Finish = std::pair<double, uint64_t>;
    std::priority_queue<Finish, std::vector<Finish>, std::greater<>> running;
    std::deque<uint64_t> queue;
    double now = 0;
    auto advance = [&](double t) {
        r.busyIntegral += double(busy()) * (t - now);
        now = t;
    };
    auto tryJob = [&](uint64_t j) {
        Attempt a;
        auto t0 = std::chrono::steady_clock::now();
        place(j + 1, jobs[j].gpus, a);
        auto t1 = std::chrono::steady_clock::now();
        const double us = std::chrono::duration<double, std::micro>(t1 - t0).count();
        r.times.push_back(us);
        r.cuts += a.cut ? 1 : 0;
        if (a.placed)
        {
            r.placedTimes.push_back(us);
            ++r.stages[a.stage];
            r.circuits += a.circuits;
            r.reused += a.reused;
            running.push({now + jobs[j].duration, j});
            r.waits.push_back(now - jobs[j].arrival);
            return true;
        }
        r.failedTimes.push_back(us);
        ++r.causes[ClusterPlacementFailureName(a.cause)];
        return false;
    };
    std::size_t next = 0;
    while (next < jobs.size() || !running.empty())
    {
        const bool arrival =
            next < jobs.size() && (running.empty() || jobs[next].arrival <= running.top().first);
        if (arrival)
        {
            advance(jobs[next].arrival);
            if (queue.empty() && tryJob(next))
            {
                ++r.firstTry;
            }
            else
            {
                queue.push_back(next);
            }
            ++next;
            continue;
        }
        auto [t, j] = running.top();
        running.pop();
        advance(t);
        release(j + 1);
        while (!queue.empty() && tryJob(queue.front()))
        {
            queue.pop_front();
        }
        SUITE_REQUIRE(!(running.empty() && !queue.empty()),
                      std::runtime_error,
                      "job " << queue.front() + 1 << " of " << jobs[queue.front()].gpus
                             << " GPUs fits nowhere in the idle cluster");
    }
    r.end = now;
}

} // namespace

int
main(int argc, char* argv[])
{
    uint32_t jobCount = 5000;
    uint32_t seed = 1;
    double load = 0.9;
    uint32_t maxGpus = 512;
    uint64_t maxSearchNodes = 5000;
    bool compareStatic = true;

    SuiteCommandLine cmd(__FILE__);
    cmd.Usage("OCS-vClos placement time per decision at 8,192 GPUs, with static vClos on the "
              "same job stream.");
    cmd.AddValue("jobs", "jobs in the stream", jobCount);
    cmd.AddValue("seed", "seed of sizes, durations and arrivals", seed);
    cmd.AddValue("load", "offered load: GPU-time asked per GPU-time available (0 to 2]", load);
    cmd.AddValue("maxGpus", "cap on job sizes (the authors': 512)", maxGpus);
    cmd.AddValue("maxSearchNodes", "stage-4 search nodes per shape (OCS-vClos)", maxSearchNodes);
    cmd.AddValue("static", "also run static vClos (32 spines) on the same stream", compareStatic);
    cmd.Parse(argc, argv);

    try
    {
        SUITE_REQUIRE(jobCount > 0, std::invalid_argument, "--jobs must be at least 1");
        SUITE_REQUIRE(load > 0 && load <= 2, std::invalid_argument, "--load must be in (0, 2]");
        SUITE_REQUIRE(maxGpus >= 4 && maxGpus <= 8192,
                      std::invalid_argument,
                      "--maxGpus must be 4 to 8192");
        const uint32_t leaves = 256;
        const uint32_t serversPerLeaf = 8;
        const uint32_t gpusPerServer = 4;
        const uint32_t ocsCount = 32;
        const uint32_t spines = 128;
        const uint32_t perOcs = 2;
        const uint32_t gpus = leaves * serversPerLeaf * gpusPerServer;

        std::mt19937_64 rng(seed);
        std::uniform_real_distribution<double> u(0, 1);
        std::exponential_distribution<double> duration(1.0);
        std::vector<Job> jobs(jobCount);
        double meanSize = 0;
        for (auto& j : jobs)
        {
            j.gpus = std::min(maxGpus, ClusterTpuV4SizeForQuantile(u(rng)));
            j.duration = duration(rng);
            meanSize += j.gpus;
        }
        meanSize /= jobCount;
        std::exponential_distribution<double> gap(load * gpus / meanSize);
        double t = 0;
        for (auto& j : jobs)
        {
            t += gap(rng);
            j.arrival = t;
        }

        std::vector<Result> results;
        {
            ClusterState cs(leaves, serversPerLeaf, gpusPerServer, 1);
            ClusterOcsState os(leaves, ocsCount, spines, perOcs);
            VclosOcsPolicy policy(ocsCount, spines, perOcs, maxSearchNodes);
            Result r;
            r.policy = policy.GetName();
            std::cerr << "running ocs-vclos..." << std::endl;
            Replay(
                jobs,
                [&](uint64_t id, uint32_t n, Attempt& a) {
                    ClusterOcsSearchStats stats;
                    auto p = policy.Place(cs, os, id, n, &stats);
                    a.cut = stats.cut;
                    if (!p)
                    {
                        a.cause = policy.Diagnose(cs, os, n);
                        return;
                    }
                    a.placed = true;
                    a.stage = ClusterOcsStageName(p->stage);
                    cs.Allocate(id, p->placement.gpus, {});
                    auto report = os.Book(id, p->circuits);
                    a.circuits = static_cast<uint32_t>(p->circuits.size());
                    a.reused = report.reused;
                },
                [&](uint64_t id) {
                    cs.Release(id);
                    if (os.HasJob(id))
                    {
                        os.Release(id);
                    }
                },
                [&] { return cs.GetGpus() - cs.GetFreeGpus(); },
                r);
            os.CheckInvariants();
            results.push_back(r);
        }
        if (compareStatic)
        {
            ClusterState cs(leaves, serversPerLeaf, gpusPerServer, 32);
            VclosPolicy policy;
            Result r;
            r.policy = policy.GetName();
            std::cerr << "running vclos..." << std::endl;
            Replay(
                jobs,
                [&](uint64_t id, uint32_t n, Attempt& a) {
                    auto p = policy.Place(cs, id, n);
                    if (!p)
                    {
                        a.cause = policy.Diagnose(cs, n);
                        return;
                    }
                    a.placed = true;
                    a.cut = !p->provenBest;
                    a.stage = p->m == 1 ? "single-leaf" : "virtual-clos";
                    cs.Allocate(id, p->gpus, p->links);
                },
                [&](uint64_t id) { cs.Release(id); },
                [&] { return cs.GetGpus() - cs.GetFreeGpus(); },
                r);
            results.push_back(r);
        }

        std::cout << "OCS-vClos placement per decision: " << gpus << " GPUs (" << leaves
                  << " leaves x " << serversPerLeaf << " servers x " << gpusPerServer << " GPUs; "
                  << ocsCount << " OCSs, " << spines << " spines x " << perOcs
                  << " ports per OCS; static vClos: 32 spines), " << jobCount
                  << " jobs (TPU-v4 sizes capped at " << maxGpus << ", mean " << std::fixed
                  << std::setprecision(1) << meanSize << " GPUs), offered load " << load
                  << ", seed " << seed << "\n\n";
        std::cout << "CSV\npolicy,decisions,placed,success_rate,first_try_rate,median_us,p99_us,"
                     "max_us,placed_median_us,placed_p99_us,failed_median_us,failed_p99_us,"
                     "utilisation,mean_wait,budget_cuts,fail_gpus,fail_gpu_fragmentation,"
                     "fail_network_fragmentation,fail_circuits,stages,circuits,reused_circuits\n";
        for (const auto& r : results)
        {
            std::string stages;
            for (const auto& [name, count] : r.stages)
            {
                stages += (stages.empty() ? "" : " ") + name + "=" + std::to_string(count);
            }
            auto cause = [&r](const char* name) {
                auto it = r.causes.find(name);
                return it == r.causes.end() ? uint64_t(0) : it->second;
            };
            std::cout << r.policy << "," << r.times.size() << "," << r.placedTimes.size() << ","
                      << std::setprecision(4) << double(r.placedTimes.size()) / r.times.size()
                      << "," << double(r.firstTry) / jobCount << "," << std::setprecision(1)
                      << SuitePercentile(r.times, 0.5) << "," << SuitePercentile(r.times, 0.99)
                      << "," << SuitePercentile(r.times, 1.0) << ","
                      << SuitePercentile(r.placedTimes, 0.5) << ","
                      << SuitePercentile(r.placedTimes, 0.99) << ","
                      << SuitePercentile(r.failedTimes, 0.5) << ","
                      << SuitePercentile(r.failedTimes, 0.99) << "," << std::setprecision(3)
                      << r.busyIntegral / (r.end * gpus) << "," << SuiteMean(r.waits) << ","
                      << r.cuts << "," << cause("gpus") << "," << cause("gpu-fragmentation") << ","
                      << cause("network-fragmentation") << "," << cause("circuits") << "," << stages
                      << "," << r.circuits << "," << r.reused << "\n";
        }
    }
    catch (const std::exception& e)
    {
        std::cerr << "error: " << e.what() << std::endl;
        return 1;
    }
    return 0;
}

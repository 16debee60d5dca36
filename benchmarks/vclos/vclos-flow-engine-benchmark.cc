/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Speed of the flow-level engine (FluidEngine) at 8,192 GPUs.
//
// Cluster: the authors' static 8,192-GPU configuration (RapidNetSim's static_routing run): 128
// leaves of 16 servers x 4 GPUs, 64 spines, 100 Gbit/s NICs and leaf-spine links, 1000 Gbit/s
// intra-server links. Workload: jobs drawn from the size mix of the authors' 8,192-GPU workload
// (reconstructed from RapidNetSim: 512 x 1817, 64 x 1501, 128 x 699, 256 x 501, 8 x 446, 192 x 31,
// 384 x 5 out of 5,000), or all of --jobSize, placed one after another on contiguous GPUs
// (leaf-major) until the next one does not fit. Every job runs --iterations iterations of a compute
// phase (a timer of --compute x U(0.5, 1.5) seconds, drawn per job) and a flat ring all-reduce of
// --bytes: 2(N-1) steps in which every rank i sends bytes/N to rank i+1 mod N; a step starts when
// every flow of the previous one has finished. --order=strided ranks a job's GPUs by index in leaf,
// then leaf, so ring neighbours sit on different leaves at the same index (RapidNetSim's
// inter-server ring); leaf ranks them by GPU id (neighbours mostly share a leaf or server); random
// shuffles them (a stress case: every flow crosses the core and ECMP collisions join flows of
// different steps and jobs into large components). Paths: --routing=pinned sends a cross-leaf flow
// through spine (source's index in its leaf) mod spines (source routing); ecmp hashes (source,
// destination, job) onto a spine, the same for every step. Sharing: --sharing=maxmin (progressive
// filling) or equal (the authors' capacity / flows on the most loaded link).
//
// Prints one table and one CSV line: flows, the share of conflicting flows (flows that
// shared a link with another flow at some instant, FluidEngine::GetMaxSharing > 1), instants,
// rate recomputations and flows re-rated, wall and CPU time of the run (placement and topology
// excluded), flows and events (flow starts + finishes + timers) per wall second, simulated time and
// peak RSS (getrusage).

#include "ns3/cluster-topology.h"
#include "ns3/fluid-engine.h"
#include "ns3/suite-check.h"
#include "ns3/suite-module.h"
#include "ns3/suite-program-support.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <random>
#include <string>
#include <sys/resource.h>
#include <vector>

using namespace ns3;

namespace
{

/// splitmix64: a fixed, portable hash for the ECMP choice.
uint64_t
Mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

/// One job: its GPUs (contiguous), its progress and its paths (one per ring flow).
struct Job
{
    uint32_t first = 0;             //!< first GPU
    uint32_t size = 0;              //!< N
    double compute = 0;             //!< compute phase, s
    uint32_t iteration = 0;         //!< current iteration
    uint32_t step = 0;              //!< current ring step
    uint32_t outstanding = 0;       //!< flows of the step still running
    std::vector<ClusterPath> paths; //!< path of GPU i -> i+1
};

/// \return user + system CPU seconds of the process
double
CpuSeconds()
{
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return u.ru_utime.tv_sec + u.ru_utime.tv_usec * 1e-6 + u.ru_stime.tv_sec +
           u.ru_stime.tv_usec * 1e-6;
}

int
Body(int argc, char* argv[])
{
    uint32_t leaves = 128;
    uint32_t serversPerLeaf = 16;
    uint32_t gpusPerServer = 4;
    uint32_t spines = 64;
    uint32_t jobSize = 0;
    uint32_t iterations = 1;
    double bytes = 1e9;
    double compute = 1.0;
    std::string routing = "pinned";
    std::string sharing = "maxmin";
    std::string order = "strided";
    uint32_t seed = 1;

    SuiteCommandLine cmd(__FILE__);
    cmd.AddValue("leaves", "leaves", leaves);
    cmd.AddValue("serversPerLeaf", "servers per leaf", serversPerLeaf);
    cmd.AddValue("gpusPerServer", "GPUs per server", gpusPerServer);
    cmd.AddValue("spines", "spines (one link per leaf-spine pair)", spines);
    cmd.AddValue("jobSize", "GPUs per job, 2 or more (0: the authors' 8,192-GPU mix)", jobSize);
    cmd.AddValue("iterations", "iterations per job, 1 to 1000", iterations);
    cmd.AddValue("bytes", "all-reduce size per job and iteration, bytes (> 0)", bytes);
    cmd.AddValue("compute", "mean compute phase per iteration, seconds (>= 0)", compute);
    cmd.AddValue("routing", "pinned (source's index in its leaf mod spines) or ecmp", routing);
    cmd.AddValue("sharing", "maxmin or equal", sharing);
    cmd.AddValue(
        "order",
        "ring order: strided (by index in leaf, then leaf: neighbours sit on other "
        "leaves at the same index, as RapidNetSim's inter-server ring), leaf (by GPU id) or random "
        "(a random permutation: the stress case, flows of a job meet anywhere)",
        order);
    cmd.AddValue("seed", "seed of the job sizes, compute times and ECMP hash", seed);
    cmd.Parse(argc, argv);

    SUITE_REQUIRE(jobSize != 1, std::invalid_argument, "jobSize must be 0 or at least 2");
    SUITE_REQUIRE(iterations >= 1 && iterations <= 1000,
                  std::invalid_argument,
                  "iterations must be 1 to 1000 (got " << iterations << ")");
    SUITE_REQUIRE(bytes > 0 && bytes < 1e18,
                  std::invalid_argument,
                  "bytes must be > 0 and below 1e18 (got " << bytes << ")");
    SUITE_REQUIRE(compute >= 0 && compute < 1e9,
                  std::invalid_argument,
                  "compute must be >= 0 and below 1e9 s (got " << compute << ")");
    SUITE_REQUIRE(routing == "pinned" || routing == "ecmp",
                  std::invalid_argument,
                  "routing must be pinned or ecmp (got '" << routing << "')");
    SUITE_REQUIRE(sharing == "maxmin" || sharing == "equal",
                  std::invalid_argument,
                  "sharing must be maxmin or equal (got '" << sharing << "')");
    SUITE_REQUIRE(order == "strided" || order == "leaf" || order == "random",
                  std::invalid_argument,
                  "order must be strided, leaf or random (got '" << order << "')");
    ClusterTopologyConfig config;
    config.leaves = leaves;
    config.serversPerLeaf = serversPerLeaf;
    config.gpusPerServer = gpusPerServer;
    config.spines = spines;
    const ClusterTopology topo(config);

    // Jobs, placed contiguously until the next one does not fit.
    std::mt19937_64 rng(seed);
    const std::vector<uint32_t> sizes{512, 64, 128, 256, 8, 192, 384};
    const std::vector<double> counts{1817, 1501, 699, 501, 446, 31, 5};
    std::discrete_distribution<std::size_t> pick(counts.begin(), counts.end());
    std::uniform_real_distribution<double> jitter(0.5, 1.5);
    std::vector<Job> jobs;
    uint32_t next = 0;
    while (true)
    {
        const uint32_t n = jobSize != 0 ? jobSize : sizes[pick(rng)];
        if (next + n > topo.GetGpus())
        {
            break;
        }
        Job job;
        job.first = next;
        job.size = n;
        job.compute = compute * jitter(rng);
        std::vector<uint32_t> ranks;
        for (uint32_t g = next; g < next + n; ++g)
        {
            ranks.push_back(g);
        }
        if (order == "random")
        {
            std::shuffle(ranks.begin(), ranks.end(), rng);
        }
        else if (order == "strided")
        {
            std::stable_sort(ranks.begin(), ranks.end(), [&](uint32_t a, uint32_t b) {
                return topo.GetIndexInLeaf(a) < topo.GetIndexInLeaf(b);
            });
        }
        for (uint32_t i = 0; i < n; ++i)
        {
            const uint32_t src = ranks[i];
            const uint32_t dst = ranks[(i + 1) % n];
            const uint64_t key = src ^ (uint64_t{dst} << 20) ^ (uint64_t{jobs.size()} << 40);
            const uint32_t spine = routing == "pinned"
                                       ? topo.GetIndexInLeaf(src) % spines
                                       : static_cast<uint32_t>(Mix(seed ^ Mix(key)) % spines);
            job.paths.push_back(topo.GetPath(src, dst, spine));
        }
        jobs.push_back(std::move(job));
        next += n;
    }
    SUITE_REQUIRE(!jobs.empty(),
                  std::invalid_argument,
                  "jobSize=" << jobSize << " does not fit in " << topo.GetGpus() << " GPUs");

    FluidEngine engine(topo.GetLinkCapacities(),
                       sharing == "maxmin" ? FluidEngine::Sharing::MAX_MIN
                                           : FluidEngine::Sharing::EQUAL_SHARE);
    uint64_t expectedFlows = 0;
    double expectedBytes = 0;
    for (const Job& job : jobs)
    {
        expectedFlows += uint64_t{iterations} * 2 * (job.size - 1) * job.size;
        expectedBytes += iterations * 2.0 * (job.size - 1) * bytes;
    }
    // A step: every GPU sends bytes / N to its successor.
    auto startStep = [&](uint32_t j) {
        Job& job = jobs[j];
        job.outstanding = job.size;
        const double flowBytes = bytes / job.size;
        for (const ClusterPath& p : job.paths)
        {
            engine.StartFlow(p.links.data(), p.size, flowBytes, j);
        }
    };
    std::function<void(uint32_t)> startIteration = [&](uint32_t j) {
        engine.Schedule(jobs[j].compute, [&, j] {
            jobs[j].step = 0;
            startStep(j);
        });
    };
    uint64_t conflicting = 0; // flows that shared a link with another flow (as RapidNetSim counts)
    engine.SetFinishHandler([&](FluidEngine::FlowId id, uint64_t tag) {
        conflicting += engine.GetMaxSharing(id) > 1;
        const uint32_t j = static_cast<uint32_t>(tag);
        Job& job = jobs[j];
        if (--job.outstanding > 0)
        {
            return;
        }
        if (++job.step < 2 * (job.size - 1))
        {
            startStep(j);
        }
        else if (++job.iteration < iterations)
        {
            startIteration(j);
        }
    });
    for (uint32_t j = 0; j < jobs.size(); ++j)
    {
        startIteration(j);
    }

    const double cpu0 = CpuSeconds();
    const auto wall0 = std::chrono::steady_clock::now();
    engine.Run();
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
    const double cpu = CpuSeconds() - cpu0;
    const FluidEngine::Stats& s = engine.GetStats();
    SUITE_REQUIRE(s.flowsFinished == expectedFlows && engine.GetActiveFlowCount() == 0,
                  std::logic_error,
                  "run ended with " << s.flowsFinished << " of " << expectedFlows
                                    << " flows finished");
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    const uint64_t events = s.flowsStarted + s.flowsFinished + s.timersFired;

    std::printf("flow engine: %u GPUs, %zu jobs (%s), %u iteration(s), %s ring, routing %s, "
                "sharing %s\n",
                topo.GetGpus(),
                jobs.size(),
                jobSize != 0 ? ("all " + std::to_string(jobSize)).c_str() : "spec mix",
                iterations,
                order.c_str(),
                routing.c_str(),
                sharing.c_str());
    std::printf("  flows             %12llu\n", static_cast<unsigned long long>(s.flowsFinished));
    std::printf("  bytes (rel. err)  %12.3e\n", (s.bytesFinished - expectedBytes) / expectedBytes);
    std::printf("  conflicting flows %12.4f %%\n", 100.0 * conflicting / s.flowsFinished);
    std::printf("  instants          %12llu\n", static_cast<unsigned long long>(s.instants));
    std::printf("  recomputations    %12llu\n", static_cast<unsigned long long>(s.recomputations));
    std::printf("  flows re-rated    %12llu\n", static_cast<unsigned long long>(s.flowsRerated));
    std::printf("  heap updates      %12llu\n", static_cast<unsigned long long>(s.heapUpdates));
    std::printf("  simulated time    %12.3f s\n", engine.GetNow());
    std::printf("  wall time         %12.3f s\n", wall);
    std::printf("  CPU time          %12.3f s\n", cpu);
    std::printf("  flows / wall s    %12.0f\n", s.flowsFinished / wall);
    std::printf("  events / wall s   %12.0f\n", events / wall);
    std::printf("  peak RSS          %12.1f MB\n", u.ru_maxrss / 1024.0);
    std::printf("csv,gpus,jobs,iterations,order,routing,sharing,flows,conflicting_pct,instants,"
                "recomputations,rerated,wall_s,cpu_s,flows_per_s,events_per_s,sim_s,peak_rss_mb\n");
    std::printf("csv,%u,%zu,%u,%s,%s,%s,%llu,%.4f,%llu,%llu,%llu,%.3f,%.3f,%.0f,%.0f,%.3f,%.1f\n",
                topo.GetGpus(),
                jobs.size(),
                iterations,
                order.c_str(),
                routing.c_str(),
                sharing.c_str(),
                static_cast<unsigned long long>(s.flowsFinished),
                100.0 * conflicting / s.flowsFinished,
                static_cast<unsigned long long>(s.instants),
                static_cast<unsigned long long>(s.recomputations),
                static_cast<unsigned long long>(s.flowsRerated),
                wall,
                cpu,
                s.flowsFinished / wall,
                events / wall,
                engine.GetNow(),
                u.ru_maxrss / 1024.0);
    return 0;
}

} // namespace

int
main(int argc, char* argv[])
{
    SuiteUseHugePages(argv); // doc/suite/suite.rst, "Huge pages"
    return SuiteRunProgram(argc, argv, Body);
}

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The two engines against each other: the same jobs through the same scheduler core, once
// as TCP applications on ns-3 nodes (CollectivePacketExecutor) and once as fluid flows
// (FluidExecutor). Contention-free placements must agree on every job's run time; the
// expectation comes from the other engine, never from the one under test.

#include "ns3/clos-module.h"
#include "ns3/cluster-module.h"
#include "ns3/collective-module.h"
#include "ns3/collective-packet-executor.h"
#include "ns3/core-module.h"
#include "ns3/fluid-module.h"
#include "ns3/lean-link-module.h"
#include "ns3/ocs-module.h"
#include "ns3/pfc-module.h"
#include "ns3/roce-module.h"

#include <cmath>
#include <map>

using namespace ns3;

namespace
{

/// What one engine made of a workload.
struct EngineRun
{
    std::map<uint32_t, Time> start;                 //!< job -> start
    std::map<uint32_t, Time> finish;                //!< job -> finish
    std::map<uint32_t, std::vector<uint32_t>> gpus; //!< job -> GPUs in rank order
};

/// The fabric both engines describe: 4 leaves x 8 servers x 1 GPU, 8 spines, 1:1. (With
/// several GPUs per server the packet level's intra-server TCP runs far below the 1 Tbit/s
/// links, see doc/fluid/fluid.rst: the engines then disagree.)
Ptr<ClosFabricHelper>
FabricHelper(uint32_t spines = 8)
{
    Ptr<ClosFabricHelper> helper = CreateObject<ClosFabricHelper>();
    helper->SetAttribute("Leaves", UintegerValue(4));
    helper->SetAttribute("ServersPerLeaf", UintegerValue(8));
    helper->SetAttribute("GpusPerServer", UintegerValue(1));
    helper->SetAttribute("Spines", UintegerValue(spines));
    return helper;
}

/// Jobs arriving together and later: a ring on one leaf, halving-doubling over two (or a
/// ring, ringsOnly), an all-to-all (or a ring), a ring of 4, then a ring over the cluster.
std::vector<ClusterJobRequest>
Jobs(uint64_t bytes, bool ringsOnly = false)
{
    std::vector<ClusterJobRequest> jobs;
    auto add = [&](uint32_t gpus, ClusterCollectiveAlgorithm algorithm, Time submit) {
        ClusterJobRequest j;
        j.id = static_cast<uint32_t>(jobs.size());
        j.gpus = gpus;
        j.submit = submit;
        j.messageBytes = bytes;
        j.computeTime = MicroSeconds(100);
        j.iterations = 2;
        j.algorithm = algorithm;
        jobs.push_back(j);
    };
    add(8, CLUSTER_RING, Seconds(0));
    add(16, ringsOnly ? CLUSTER_RING : CLUSTER_HALVING_DOUBLING, Seconds(0));
    add(4, ringsOnly ? CLUSTER_RING : CLUSTER_ALL_TO_ALL, Seconds(0));
    add(4, CLUSTER_RING, Seconds(0));
    add(32, CLUSTER_RING, MilliSeconds(1));
    return jobs;
}

/// Run jobs under a policy in one engine; flowCapacityScale scales the flow engine's rates
/// (1: the same fabric; another value is the negative control), shortcut is its
/// IsolatedJobs, and its counts go to stats when given.
EngineRun
RunEngine(bool flowLevel,
          const std::string& policy,
          const std::vector<ClusterJobRequest>& jobs,
          double flowCapacityScale = 1.0,
          bool shortcut = true,
          FluidExecutor::Stats* stats = nullptr,
          const std::string& sharing = "MaxMin",
          uint32_t spines = 8,
          bool replayAhead = true)
{
    Ptr<ClosFabricHelper> helper = FabricHelper(spines);
    Ptr<ClusterJobScheduler> scheduler = CreateObject<ClusterJobScheduler>();
    Ptr<FluidExecutor> executor;
    if (flowLevel)
    {
        ClusterTopologyConfig config = helper->GetTopologyConfig();
        config.nicRateBps = static_cast<uint64_t>(config.nicRateBps * flowCapacityScale);
        config.fabricRateBps = static_cast<uint64_t>(config.fabricRateBps * flowCapacityScale);
        executor = CreateObject<FluidExecutor>();
        executor->SetAttribute("WireEfficiency", DoubleValue(1448.0 / 1502.0));
        executor->SetAttribute("IsolatedJobs", BooleanValue(shortcut));
        executor->SetAttribute("ReplayAhead", BooleanValue(replayAhead));
        executor->SetAttribute("Sharing", StringValue(sharing));
        executor->SetTopology(config);
        scheduler->Setup(Ptr<ClusterJobExecutor>(executor), policy);
    }
    else
    {
        Ptr<ClosFabric> fabric = helper->Install();
        helper->AssignStreams(fabric, 0);
        scheduler->Setup(CollectivePacketExecutorOn(fabric), policy);
    }
    EngineRun run;
    scheduler->TraceConnectWithoutContext(
        "JobStarted",
        Callback<void, const ClusterJobRequest&, const ClusterJobAllocation&>(
            [&run](const ClusterJobRequest& j, const ClusterJobAllocation& a) {
                run.start[j.id] = Simulator::Now();
                run.gpus[j.id] = a.gpus;
            }));
    uint32_t finished = 0;
    const auto total = static_cast<uint32_t>(jobs.size());
    scheduler->TraceConnectWithoutContext(
        "JobFinished",
        Callback<void, const ClusterJobRequest&>([&](const ClusterJobRequest& j) {
            run.finish[j.id] = Simulator::Now();
            if (++finished == total)
            {
                Simulator::Stop(); // TCP's closing timers would run on
            }
        }));
    scheduler->Submit(jobs);
    Simulator::Run();
    Simulator::Destroy();
    if (stats && executor)
    {
        *stats = executor->GetStats();
    }
    return run;
}

/// Largest relative gap of per-job run times between two runs.
double
WorstGap(const EngineRun& a, const EngineRun& b, uint32_t* worstJob)
{
    double worst = 0;
    for (const auto& [id, finish] : a.finish)
    {
        const double ra = (finish - a.start.at(id)).GetSeconds();
        const double rb = (b.finish.at(id) - b.start.at(id)).GetSeconds();
        const double gap = std::abs(ra - rb) / rb;
        if (gap > worst)
        {
            worst = gap;
            *worstJob = id;
        }
    }
    return worst;
}

/// vClos (pinned, contention-free): both engines place alike and agree within 5% per job;
/// the same check against a flow engine with 20% less capacity fails (negative control).
class CollectiveContentionFreeAgreementTestCase : public TestCase
{
  public:
    CollectiveContentionFreeAgreementTestCase()
        : TestCase("vClos rings: packet and flow engines agree on every job within 5%")
    {
    }

  private:
    void DoRun() override
    {
        // Rings only: halving-doubling and all-to-all run 1.6-2.3x slower at packet level
        // than the fluid model (doc/fluid/fluid.rst, "Validation").
        const auto jobs = Jobs(16 * 1024 * 1024, true);
        const EngineRun packet = RunEngine(false, "vclos", jobs);
        const EngineRun flow = RunEngine(true, "vclos", jobs);
        NS_TEST_ASSERT_MSG_EQ(packet.finish.size(), jobs.size(), "packet: every job finished");
        NS_TEST_ASSERT_MSG_EQ(flow.finish.size(), jobs.size(), "flow: every job finished");
        for (const auto& [id, gpus] : packet.gpus)
        {
            NS_TEST_EXPECT_MSG_EQ((gpus == flow.gpus.at(id)),
                                  true,
                                  "job " << id << " placed alike");
        }
        uint32_t job = 0;
        const double gap = WorstGap(flow, packet, &job);
        for (const auto& [id, finish] : flow.finish)
        {
            std::cout << "job " << id << ": packet "
                      << (packet.finish.at(id) - packet.start.at(id)).GetMicroSeconds()
                      << " us, flow " << (finish - flow.start.at(id)).GetMicroSeconds() << " us\n";
        }
        NS_TEST_EXPECT_MSG_LT(gap, 0.05, "worst per-job gap, job " << job);
        const EngineRun slow = RunEngine(true, "vclos", jobs, 0.8);
        const double controlGap = WorstGap(slow, packet, &job);
        NS_TEST_EXPECT_MSG_GT(controlGap, 0.05, "a flow engine 20% slower is caught");
    }
};

/// Contended: ECMP placements run slower than vClos's in both engines (same ordering).
class CollectiveContendedOrderingTestCase : public TestCase
{
  public:
    CollectiveContendedOrderingTestCase()
        : TestCase("ECMP is slower than vClos in both engines")
    {
    }

  private:
    void DoRun() override
    {
        const auto jobs = Jobs(4 * 1024 * 1024);
        auto meanRun = [](const EngineRun& r) {
            double sum = 0;
            for (const auto& [id, finish] : r.finish)
            {
                sum += (finish - r.start.at(id)).GetSeconds();
            }
            return sum / r.finish.size();
        };
        for (bool flowLevel : {false, true})
        {
            const double ecmp = meanRun(RunEngine(flowLevel, "ecmp-first-fit", jobs));
            const double vclos = meanRun(RunEngine(flowLevel, "vclos", jobs));
            std::cout << (flowLevel ? "flow" : "packet") << ": ECMP " << ecmp * 1e6 << " us, vClos "
                      << vclos * 1e6 << " us\n";
            NS_TEST_EXPECT_MSG_GT(ecmp, vclos, (flowLevel ? "flow" : "packet"));
        }
    }
};

/// The flow executor's isolated-job shortcut changes no result: ECMP jobs that collide
/// (their isolated runs are continued flow by flow) and vClos jobs, shortcut on and off.
class CollectiveIsolatedShortcutTestCase : public TestCase
{
  public:
    CollectiveIsolatedShortcutTestCase()
        : TestCase("the isolated-job shortcut gives the flow-by-flow results")
    {
    }

  private:
    void DoRun() override
    {
        // Staggered arrivals, so later jobs meet earlier ones mid-collective.
        std::vector<ClusterJobRequest> jobs;
        const ClusterCollectiveAlgorithm algorithms[] = {CLUSTER_RING,
                                                         CLUSTER_HALVING_DOUBLING,
                                                         CLUSTER_ALL_TO_ALL};
        for (uint32_t i = 0; i < 24; ++i)
        {
            ClusterJobRequest j;
            j.id = i;
            j.gpus = 4u << (i % 3);
            j.submit = MicroSeconds(37 * i);
            j.messageBytes = 1000000 + 12345 * i;
            j.computeTime = MicroSeconds(20 + 3 * i);
            j.iterations = 1 + i % 3;
            j.algorithm = algorithms[i % 3];
            jobs.push_back(j);
        }
        // Max-min on the 1:1 fabric; equal share on a 4:1 one (2 spines), where all-to-alls
        // overload their uplinks and their replays take FluidBurst's way.
        for (const auto& [sharing, spines, policy] :
             {std::make_tuple(std::string("MaxMin"), 8u, std::string("ecmp-first-fit")),
              std::make_tuple(std::string("MaxMin"), 8u, std::string("vclos")),
              std::make_tuple(std::string("EqualShare"), 2u, std::string("ecmp-first-fit"))})
        {
            // Equal share: 12-GPU all-to-alls, some alone, some meeting a later one.
            std::vector<ClusterJobRequest> bursts;
            for (uint32_t i = 0; i < 8; ++i)
            {
                ClusterJobRequest j = jobs[2];
                j.id = i;
                j.gpus = 12; // 8 + 4 GPUs: consecutive jobs share a leaf's uplinks
                j.submit = MicroSeconds(300 * i);
                j.messageBytes = 1000000 + 12345 * i;
                j.iterations = 1 + i % 2;
                bursts.push_back(j);
            }
            const auto& run = sharing == "EqualShare" ? bursts : jobs;
            FluidExecutor::Stats with;
            FluidExecutor::Stats without;
            const EngineRun a = RunEngine(true, policy, run, 1.0, true, &with, sharing, spines);
            const EngineRun b = RunEngine(true, policy, run, 1.0, false, &without, sharing, spines);
            // Alone runs computed ahead on the worker thread or on the simulator's thread
            // when needed: the same numbers, exactly.
            FluidExecutor::Stats inline_;
            const EngineRun c =
                RunEngine(true, policy, run, 1.0, true, &inline_, sharing, spines, false);
            NS_TEST_ASSERT_MSG_EQ(c.finish.size(), run.size(), policy << ": every job finished");
            for (const auto& [id, finish] : c.finish)
            {
                NS_TEST_EXPECT_MSG_EQ(a.finish.at(id), finish, policy << ": job " << id);
            }
            NS_TEST_EXPECT_MSG_EQ(with.isolatedJobs, inline_.isolatedJobs, policy);
            NS_TEST_EXPECT_MSG_EQ(with.conflictingCoreFlows, inline_.conflictingCoreFlows, policy);
            NS_TEST_ASSERT_MSG_EQ(a.finish.size(), run.size(), policy << ": every job finished");
            NS_TEST_ASSERT_MSG_EQ(b.finish.size(), run.size(), policy << ": every job finished");
            for (const auto& [id, finish] : b.finish)
            {
                NS_TEST_EXPECT_MSG_EQ((a.gpus.at(id) == b.gpus.at(id)), true, "job " << id);
                NS_TEST_EXPECT_MSG_LT(Abs(a.finish.at(id) - finish),
                                      NanoSeconds(50), // ns rounding of events, per step
                                      policy << ": job " << id << " ends alike");
            }
            NS_TEST_EXPECT_MSG_EQ(with.flows, without.flows, policy << ": transfers counted");
            // A materialized job's transfers in flight restart their conflict flag in the
            // shared engine, so with one materialized the counts may differ slightly.
            const double conflictGap = std::abs(static_cast<double>(with.conflictingCoreFlows) -
                                                static_cast<double>(without.conflictingCoreFlows));
            NS_TEST_EXPECT_MSG_LT_OR_EQ(conflictGap,
                                        0.01 * without.conflictingCoreFlows,
                                        policy << ": conflicts counted");
            for (const auto& [what, on, off] :
                 {std::make_tuple("core transfers", with.coreFlows, without.coreFlows),
                  std::make_tuple("sharing", with.sharingCoreFlows, without.sharingCoreFlows)})
            {
                const double gap = std::abs(static_cast<double>(on) - static_cast<double>(off));
                NS_TEST_EXPECT_MSG_LT_OR_EQ(gap, 0.01 * off, policy << ": " << what << " counted");
            }
            NS_TEST_EXPECT_MSG_GT(with.isolatedJobs, 0, policy << ": the shortcut was taken");
            // Both ways of timing an isolated job were taken: its own replay (flows meet on
            // the core) and the contention-free reference (they never do).
            if (sharing == "EqualShare")
            {
                NS_TEST_EXPECT_MSG_GT(with.burstReplays, 0, "all-to-alls replayed as bursts");
                NS_TEST_EXPECT_MSG_GT(with.materialized, 0, "one continued from its burst");
                std::cout << sharing << " " << policy << ": " << with.isolatedJobs << " isolated, "
                          << with.materialized << " continued flow by flow, " << with.burstReplays
                          << " replayed as bursts\n";
                continue;
            }
            NS_TEST_EXPECT_MSG_GT(with.referenceAlone, 0, policy << ": reference taken");
            std::cout << policy << ": " << with.isolatedJobs << " isolated, " << with.materialized
                      << " continued flow by flow, " << with.referenceAlone
                      << " timed by the reference\n";
            if (policy == "ecmp-first-fit")
            {
                NS_TEST_EXPECT_MSG_GT(with.isolatedJobs,
                                      with.referenceAlone,
                                      "an isolated ECMP job was replayed");
                NS_TEST_EXPECT_MSG_GT(with.materialized, 0, "colliding ECMP jobs were continued");
            }
        }
    }
};

class CollectiveCrossValidationTestSuite : public TestSuite
{
  public:
    CollectiveCrossValidationTestSuite()
        : TestSuite("collective-packet-executor-cross-validation", UNIT)
    {
        AddTestCase(new CollectiveContentionFreeAgreementTestCase, TestCase::QUICK);
        AddTestCase(new CollectiveContendedOrderingTestCase, TestCase::QUICK);
        AddTestCase(new CollectiveIsolatedShortcutTestCase, TestCase::QUICK);
    }
};

CollectiveCrossValidationTestSuite g_vclosCrossValidationTestSuite;

} // namespace

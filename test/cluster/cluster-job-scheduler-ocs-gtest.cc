/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// OCS-vClos through the scheduler core at flow level: circuits booked with the GPUs and
// released when the job ends, the reconfiguration delay charged exactly when a booking sets
// up a new circuit, the fixed full wiring the static policies run on, contention-freedom in
// the flow engine (ECMP on the same layer as negative control), and bad input refused.
// Tests: cluster-job-scheduler, cluster-ocs-state, fluid-executor

#include "../suite-error-of.h"

#include "ns3/boolean.h"
#include "ns3/callback.h"
#include "ns3/cluster-job-scheduler.h"
#include "ns3/cluster-ocs-placement.h"
#include "ns3/cluster-ocs-state.h"
#include "ns3/cluster-placement.h"
#include "ns3/cluster-topology.h"
#include "ns3/fluid-executor.h"
#include "ns3/nstime.h"
#include "ns3/simulator.h"
#include "ns3/string.h"

#include <gtest/gtest.h>
#include <map>
#include <random>
#include <set>
#include <tuple>

using namespace ns3;

namespace
{

/// A topology with an OCS layer. \param leaves L \param servers per leaf \param gpus per server
/// \param ocs K \param spines S \param perOcs P \return the configuration
ClusterTopologyConfig
OcsConfig(uint32_t leaves,
          uint32_t servers,
          uint32_t gpus,
          uint32_t ocs,
          uint32_t spines,
          uint32_t perOcs)
{
    ClusterTopologyConfig c;
    c.leaves = leaves;
    c.serversPerLeaf = servers;
    c.gpusPerServer = gpus;
    c.ocsCount = ocs;
    c.spines = spines;
    c.spinePorts = ocs * perOcs;
    return c;
}

/// A job. \param id id \param gpus N \param submit arrival \return the request
ClusterJobRequest
Job(uint32_t id, uint32_t gpus, Time submit, uint64_t bytes = 4000000)
{
    ClusterJobRequest r;
    r.id = id;
    r.gpus = gpus;
    r.submit = submit;
    r.messageBytes = bytes;
    r.computeTime = MicroSeconds(100);
    r.iterations = 2;
    return r;
}

/// A circuit as (leaf, ocs, toLeaf, peer, peerPort), a leaf-leaf one with its lower leaf first.
using CircuitKey = std::tuple<uint32_t, uint32_t, bool, uint32_t, uint32_t>;

/// \param c a circuit \return its key
CircuitKey
KeyOf(const ClusterOcsCircuit& c)
{
    if (c.toLeaf && c.peer < c.leaf)
    {
        return {c.peer, c.ocs, true, c.leaf, c.ocs};
    }
    return {c.leaf, c.ocs, c.toLeaf, c.peer, c.peerPort};
}

/// \param ocs a circuit state \return every circuit set up (owned or idle), read port by port
std::set<CircuitKey>
CircuitsOf(const ClusterOcsState& ocs)
{
    std::set<CircuitKey> out;
    for (uint32_t leaf = 0; leaf < ocs.GetLeaves(); ++leaf)
    {
        for (uint32_t k = 0; k < ocs.GetOcsCount(); ++k)
        {
            if (auto c = ocs.GetCircuitAtUplink(leaf, k))
            {
                out.insert(KeyOf(*c));
            }
        }
    }
    return out;
}

/**
 * \param ocs a circuit state
 * \param held each job's circuits as it was given them
 * \param running the jobs running
 * \return circuits of running jobs that are no longer theirs (owner, or the circuit, changed)
 */
uint32_t
CountViolations(const ClusterOcsState& ocs,
                const std::map<uint32_t, std::set<CircuitKey>>& held,
                const std::set<uint32_t>& running)
{
    uint32_t violations = 0;
    for (uint32_t id : running)
    {
        auto it = held.find(id);
        if (it == held.end())
        {
            continue; // no circuits
        }
        for (const auto& c : it->second)
        {
            const uint32_t leaf = std::get<0>(c);
            const uint32_t k = std::get<1>(c);
            const auto now = ocs.GetCircuitAtUplink(leaf, k);
            violations += ocs.GetUplinkOwner(leaf, k) != id || !now || KeyOf(*now) != c ? 1 : 0;
        }
    }
    return violations;
}

/**
 * Whether every cross-leaf transfer of a job can follow its circuits, checked against the
 * ports: from GPU a, its own uplink's circuit (owned by the job) reaches spine s =
 * uplinkSpine[a], and b's virtual leaf has a GPU whose uplink's circuit (owned by the job)
 * reaches s too; with uplinkSpine[a] = -1, a's uplink k is a leaf-leaf circuit to b's leaf
 * port k.
 * \param ocs the circuit state \param topology the cluster \param id the job
 * \param alloc its allocation \return pairs (a, b) with no such path
 */
uint32_t
CountUnreachablePairs(const ClusterOcsState& ocs,
                      const ClusterTopology& topology,
                      uint32_t id,
                      const ClusterJobAllocation& alloc)
{
    uint32_t bad = 0;
    const std::size_t n = alloc.gpus.size();
    auto spineAt = [&](std::size_t r) -> int64_t {
        if (alloc.uplinkPort[r] < 0)
        {
            return -2;
        }
        const uint32_t leaf = topology.GetLeafOfGpu(alloc.gpus[r]);
        const auto k = static_cast<uint32_t>(alloc.uplinkPort[r]);
        const auto c = ocs.GetCircuitAtUplink(leaf, k);
        if (!c || c->toLeaf || ocs.GetUplinkOwner(leaf, k) != id)
        {
            return -2;
        }
        return c->peer;
    };
    for (std::size_t a = 0; a < n; ++a)
    {
        for (std::size_t b = 0; b < n; ++b)
        {
            const uint32_t la = topology.GetLeafOfGpu(alloc.gpus[a]);
            const uint32_t lb = topology.GetLeafOfGpu(alloc.gpus[b]);
            if (la == lb)
            {
                continue;
            }
            if (alloc.uplinkPort[a] < 0)
            {
                ++bad;
                continue;
            }
            const auto k = static_cast<uint32_t>(alloc.uplinkPort[a]);
            if (alloc.uplinkSpine[a] < 0)
            {
                const auto c = ocs.GetCircuitAtUplink(la, k);
                bad += !c || !c->toLeaf || c->peer != lb || ocs.GetUplinkOwner(la, k) != id ? 1 : 0;
                continue;
            }
            bool found = spineAt(a) == alloc.uplinkSpine[a] ? false : true; // a's own circuit
            if (found)
            {
                ++bad;
                continue;
            }
            for (std::size_t c = 0; c < n && !found; ++c)
            {
                found = alloc.virtualLeaf[c] == alloc.virtualLeaf[b] &&
                        topology.GetLeafOfGpu(alloc.gpus[c]) == lb &&
                        spineAt(c) == alloc.uplinkSpine[a];
            }
            bad += found ? 0 : 1;
        }
    }
    return bad;
}

/// What a run under the scheduler recorded.
struct Record
{
    std::map<uint32_t, Time> placed;          //!< when the policy placed each job
    std::map<uint32_t, Time> started;         //!< when it started on the executor
    std::map<uint32_t, Time> finished;        //!< when it finished
    std::map<uint32_t, uint32_t> newCircuits; //!< circuits not set up before its booking (recount)
    std::map<uint32_t, std::set<CircuitKey>> held; //!< its circuits, at its placement
    uint32_t violations = 0;                       //!< a running job's circuit not its own
    uint32_t unreachable = 0;      //!< cross-leaf GPU pairs without a circuit path (at start)
    uint64_t crossPairs = 0;       //!< cross-leaf GPU pairs checked
    bool idleAtEnd = false;        //!< no port owned at the end
    uint32_t jobsHoldingAtEnd = 0; //!< jobs still holding circuits
    FluidExecutor::Stats stats;    //!< the executor's counts
};

/**
 * Run jobs under a policy on a flow executor and watch the circuit state after every
 * transition (independently of the scheduler: ports read one by one).
 */
Record
RunJobs(const ClusterTopologyConfig& config,
        const std::string& policy,
        const std::vector<ClusterJobRequest>& jobs,
        Time delay,
        bool keepIdleCircuits = true)
{
    Ptr<FluidExecutor> executor = CreateObject<FluidExecutor>();
    executor->SetAttribute("Sharing", StringValue("EqualShare"));
    executor->SetTopology(config);
    Ptr<ClusterJobScheduler> scheduler = CreateObject<ClusterJobScheduler>();
    // The OCS-vClos policy's attributes (a static policy has none).
    Ptr<ClusterPlacementPolicy> placement = ClusterCreatePlacementPolicy(policy);
    placement->SetAttributeFailSafe("ReconfigurationDelay", TimeValue(delay));
    placement->SetAttributeFailSafe("KeepIdleCircuits", BooleanValue(keepIdleCircuits));
    scheduler->Setup(Ptr<ClusterJobExecutor>(executor), placement);
    auto ocs = scheduler->GetOcsState();
    Record r;
    auto before = std::make_shared<std::set<CircuitKey>>();
    auto running = std::make_shared<std::set<uint32_t>>();
    auto check = [&r, ocs, running]() {
        if (!ocs)
        {
            return;
        }
        ocs->CheckInvariants();
        r.violations += CountViolations(*ocs, r.held, *running);
    };
    scheduler->TraceConnectWithoutContext(
        "Decision",
        Callback<void, const ClusterJobRequest&, bool, Time>(
            [&r, ocs, before, running, check](const ClusterJobRequest& j, bool ok, Time) {
                if (!ok)
                {
                    return;
                }
                r.placed[j.id] = Simulator::Now();
                uint32_t fresh = 0;
                if (ocs && ocs->HasJob(j.id))
                {
                    for (const auto& c : ocs->GetJobCircuits(j.id))
                    {
                        r.held[j.id].insert(KeyOf(c));
                        fresh += before->count(KeyOf(c)) == 0 ? 1 : 0;
                    }
                    *before = CircuitsOf(*ocs);
                }
                r.newCircuits[j.id] = fresh;
                check();
                running->insert(j.id);
            }));
    scheduler->TraceConnectWithoutContext(
        "JobStarted",
        Callback<void, const ClusterJobRequest&, const ClusterJobAllocation&>(
            [&r, check, ocs, &config](const ClusterJobRequest& j, const ClusterJobAllocation& a) {
                r.started[j.id] = Simulator::Now();
                check();
                if (ocs && !a.uplinkPort.empty())
                {
                    const ClusterTopology topology(config);
                    r.unreachable += CountUnreachablePairs(*ocs, topology, j.id, a);
                    for (uint32_t x : a.gpus)
                    {
                        for (uint32_t y : a.gpus)
                        {
                            r.crossPairs +=
                                topology.GetLeafOfGpu(x) != topology.GetLeafOfGpu(y) ? 1 : 0;
                        }
                    }
                }
            }));
    scheduler->TraceConnectWithoutContext(
        "JobFinished",
        Callback<void, const ClusterJobRequest&>([&r, running, check](const ClusterJobRequest& j) {
            r.finished[j.id] = Simulator::Now();
            running->erase(j.id);
            check();
        }));
    scheduler->Submit(jobs);
    Simulator::Run();
    if (ocs)
    {
        ocs->CheckInvariants();
        r.idleAtEnd = ocs->IsIdle();
        r.jobsHoldingAtEnd = static_cast<uint32_t>(ocs->GetJobCount());
    }
    r.stats = executor->GetStats();
    Simulator::Destroy();
    return r;
}

} // namespace

// The fixed layout of the static policies: every leaf reaches every spine by exactly one
// uplink (brute force over the circuits), the circuits book cleanly, and the uplink the
// executor uses for (leaf, spine) is that circuit's. Layers without one are refused.
TEST(ClusterJobSchedulerOcs, FullWiringIsALeafSpineClos)
{
    for (auto [leaves, spines, perOcs] :
         {std::make_tuple(16u, 8u, 2u), std::make_tuple(4u, 4u, 1u), std::make_tuple(12u, 4u, 4u)})
    {
        const ClusterTopology topology(OcsConfig(leaves, 2, 4, spines, spines, perOcs));
        ASSERT_EQ(ClusterOcsFullWiringCheck(topology), "");
        const auto circuits = ClusterOcsFullWiring(topology);
        ASSERT_EQ(circuits.size(), leaves * spines);
        std::map<std::pair<uint32_t, uint32_t>, uint32_t> links; // (leaf, spine) -> uplink
        for (const auto& c : circuits)
        {
            EXPECT_FALSE(c.toLeaf);
            EXPECT_EQ(c.peerPort / perOcs, c.ocs); // the spine port sits on the circuit's OCS
            EXPECT_TRUE(links.emplace(std::make_pair(c.leaf, c.peer), c.ocs).second);
        }
        EXPECT_EQ(links.size(), leaves * spines); // every pair once
        for (const auto& [pair, uplink] : links)
        {
            EXPECT_EQ(ClusterOcsFullWiringUplink(topology, pair.first, pair.second), uplink);
        }
        ClusterOcsState ocs(topology);
        EXPECT_NO_THROW(ocs.Book(1, circuits)); // no port used twice, every end on its OCS
        ocs.CheckInvariants();
        EXPECT_EQ(ocs.GetCircuitCount(), leaves * spines);
    }
    // The authors' 8,192-GPU layer (oxc_vclos): 32 uplinks, 128 spines.
    const ClusterTopology spec(OcsConfig(256, 8, 4, 32, 128, 2));
    EXPECT_NE(ClusterOcsFullWiringCheck(spec).find("OcsCount = Spines"), std::string::npos);
    // More leaves than a spine has ports for them.
    const ClusterTopology crowded(OcsConfig(20, 2, 4, 8, 8, 2));
    EXPECT_NE(ClusterOcsFullWiringCheck(crowded).find("Leaves <= SpinePorts"), std::string::npos);
    EXPECT_NE(ErrorOf<std::invalid_argument>([&]() { ClusterOcsFullWiring(crowded); }), "");
}

// Negative control of the check above: a job whose circuit was given to another job (its
// owner released and the port booked again to another spine) is seen.
TEST(ClusterJobSchedulerOcs, ViolationCheckSeesAStolenCircuit)
{
    ClusterOcsState ocs(4, 4, 4, 2);
    ClusterOcsCircuit a;
    a.leaf = 0;
    a.ocs = 1;
    a.peer = 2;
    a.peerPort = 2; // spine 2, port 2 on OCS 1
    ocs.Book(7, {a});
    const std::map<uint32_t, std::set<CircuitKey>> held{{7, {KeyOf(a)}}};
    EXPECT_EQ(CountViolations(ocs, held, {7}), 0u);
    ocs.Release(7); // a bug: the running job loses its circuit...
    ClusterOcsCircuit b = a;
    b.peer = 3; // ...and the port goes to another job's circuit
    ocs.Book(8, {b});
    EXPECT_EQ(CountViolations(ocs, held, {7}), 1u);
    ocs.Release(8);
    ocs.Book(9, {a}); // the same circuit, another owner
    EXPECT_EQ(CountViolations(ocs, held, {7}), 1u);
}

// The path check: two GPUs on leaves 0 and 1 (4 leaves x 1 server x 2 GPUs), their uplinks 1
// and 0 to spine 2; the check passes, and fails once the second circuit goes to spine 3, or
// when a GPU's spine is not the one its circuit reaches.
TEST(ClusterJobSchedulerOcs, PathCheckSeesAMissingCircuit)
{
    const ClusterTopology topology(OcsConfig(4, 1, 2, 4, 4, 2));
    ClusterOcsState ocs(topology);
    auto circuit = [](uint32_t leaf, uint32_t k, uint32_t spine) {
        ClusterOcsCircuit c;
        c.leaf = leaf;
        c.ocs = k;
        c.peer = spine;
        c.peerPort = k * 2 + leaf % 2;
        return c;
    };
    ClusterJobAllocation alloc;
    alloc.gpus = {0, 2}; // leaf 0 and leaf 1
    alloc.uplinkSpine = {2, 2};
    alloc.uplinkPort = {1, 0};
    alloc.virtualLeaf = {0, 1};
    ocs.Book(5, {circuit(0, 1, 2), circuit(1, 0, 2)});
    EXPECT_EQ(CountUnreachablePairs(ocs, topology, 5, alloc), 0u);
    ocs.Release(5);
    ocs.Book(5, {circuit(0, 1, 2), circuit(1, 0, 3)});
    EXPECT_EQ(CountUnreachablePairs(ocs, topology, 5, alloc), 2u);
    ocs.Release(5);
    ocs.Book(5, {circuit(0, 1, 2), circuit(1, 0, 2)});
    alloc.uplinkSpine = {2, 3}; // GPU 2's circuit does not go where its spine says
    EXPECT_EQ(CountUnreachablePairs(ocs, topology, 5, alloc), 1u);
}

// Hand-computed: 4 leaves x 2 servers x 2 GPUs, 4 OCSs, 4 spines of 8 ports. Job 0 (8 GPUs)
// needs two leaves: 4 new leaf-leaf circuits, so it starts exactly the delay (10 ms) after
// its arrival at 0. Job 1 (8 GPUs) arrives at 1 s, after job 0 ended: the same leaf pair is
// the best fit with all 4 circuits reusable, so it starts at 1 s exactly. Job 2 (2 GPUs, one
// leaf, no circuit) at 2 s starts at 2 s. The state is idle at the end.
TEST(ClusterJobSchedulerOcs, ReconfigurationDelayHandComputed)
{
    const auto config = OcsConfig(4, 2, 2, 4, 4, 2);
    const Record r = RunJobs(config,
                             "ocs-vclos",
                             {Job(0, 8, Seconds(0)), Job(1, 8, Seconds(1)), Job(2, 2, Seconds(2))},
                             MilliSeconds(10));
    ASSERT_EQ(r.finished.size(), 3u);
    EXPECT_LT(r.finished.at(0), Seconds(1)); // so that job 1 finds the circuits idle
    EXPECT_EQ(r.placed.at(0), Seconds(0));
    EXPECT_EQ(r.started.at(0), MilliSeconds(10));
    EXPECT_EQ(r.held.at(0).size(), 4u);
    EXPECT_EQ(r.newCircuits.at(0), 4u);
    EXPECT_EQ(r.placed.at(1), Seconds(1));
    EXPECT_EQ(r.started.at(1), Seconds(1)); // reused: no delay
    EXPECT_EQ(r.held.at(1), r.held.at(0));
    EXPECT_EQ(r.newCircuits.at(1), 0u);
    EXPECT_EQ(r.started.at(2), Seconds(2));
    EXPECT_EQ(r.held.count(2), 0u);
    EXPECT_TRUE(r.idleAtEnd);
    EXPECT_EQ(r.jobsHoldingAtEnd, 0u);
    EXPECT_EQ(r.violations, 0u);
    // Without a delay the same jobs start on arrival.
    const Record z = RunJobs(config,
                             "ocs-vclos",
                             {Job(0, 8, Seconds(0)), Job(1, 8, Seconds(1)), Job(2, 2, Seconds(2))},
                             Seconds(0));
    EXPECT_EQ(z.started.at(0), Seconds(0));
    EXPECT_EQ(z.started.at(1), Seconds(1));
}

// A random stream on 16 leaves x 2 x 4, 8 OCSs, 8 spines x 16 ports: after every transition
// the invariants hold and every running job still owns exactly the circuits it was given;
// every job starts exactly 25 ms after its placement when its booking needed a circuit that
// was not set up before (recounted from the ports), else at its placement; idle at the end.
// The default, as RapidNetSim: a job's circuits are torn down when it ends. The jobs of
// ReconfigurationDelayHandComputed: job 1 now sets up its 4 circuits anew and starts 10 ms
// after its arrival at 1 s, and no circuit is left at the end (control: KeepIdleCircuits
// leaves job 1's 4).
TEST(ClusterJobSchedulerOcs, CircuitsTornDownWhenJobsEndByDefault)
{
    const auto config = OcsConfig(4, 2, 2, 4, 4, 2);
    const std::vector<ClusterJobRequest> jobs{Job(0, 8, Seconds(0)), Job(1, 8, Seconds(1))};
    for (const bool keep : {false, true})
    {
        Ptr<FluidExecutor> executor = CreateObject<FluidExecutor>();
        executor->SetTopology(config);
        Ptr<ClusterJobScheduler> scheduler = CreateObject<ClusterJobScheduler>();
        Ptr<VclosOcsPolicy> placement = CreateObject<VclosOcsPolicy>();
        placement->SetAttribute("ReconfigurationDelay", TimeValue(MilliSeconds(10)));
        if (keep)
        {
            placement->SetAttribute("KeepIdleCircuits", BooleanValue(true));
        }
        scheduler->Setup(Ptr<ClusterJobExecutor>(executor), placement);
        std::map<uint64_t, Time> started;
        scheduler->TraceConnectWithoutContext(
            "JobStarted",
            Callback<void, const ClusterJobRequest&, const ClusterJobAllocation&>(
                [&started](const ClusterJobRequest& j, const ClusterJobAllocation&) {
                    started[j.id] = Simulator::Now();
                }));
        scheduler->Submit(jobs);
        Simulator::Run();
        ASSERT_EQ(scheduler->GetFinishedJobs(), 2u);
        EXPECT_EQ(started.at(0), MilliSeconds(10));
        EXPECT_EQ(started.at(1), keep ? Seconds(1) : Seconds(1) + MilliSeconds(10));
        EXPECT_EQ(scheduler->GetOcsState()->GetCircuitCount(), keep ? 4u : 0u);
        EXPECT_EQ(scheduler->GetReconfigurations(), keep ? 1u : 2u);
        Simulator::Destroy();
    }
}

TEST(ClusterJobSchedulerOcs, CircuitsBookedReleasedAndDelayCharged)
{
    const auto config = OcsConfig(16, 2, 4, 8, 8, 2);
    std::mt19937 rng(7);
    const uint32_t sizes[] = {1, 2, 4, 8, 12, 16, 24, 32, 64};
    std::vector<ClusterJobRequest> jobs;
    Time at;
    for (uint32_t id = 0; id < 80; ++id)
    {
        at += MicroSeconds(std::uniform_int_distribution<int>(0, 400)(rng));
        jobs.push_back(Job(id, sizes[rng() % 9], at, 400000));
    }
    const Time delay = MilliSeconds(25);
    const Record r = RunJobs(config, "ocs-vclos", jobs, delay);
    ASSERT_EQ(r.finished.size(), jobs.size());
    uint32_t delayed = 0;
    uint32_t reused = 0;
    for (const auto& job : jobs)
    {
        const Time want = r.newCircuits.at(job.id) > 0 ? delay : Time(0);
        EXPECT_EQ(r.started.at(job.id) - r.placed.at(job.id), want) << "job " << job.id;
        delayed += want.IsStrictlyPositive();
        reused += r.held.count(job.id) > 0 && r.newCircuits.at(job.id) == 0 ? 1 : 0;
    }
    std::cout << jobs.size() << " jobs: " << delayed << " delayed (new circuits), " << reused
              << " reused every circuit they got\n";
    EXPECT_GT(delayed, 0u);
    EXPECT_GT(reused, 0u); // both cases occur
    EXPECT_EQ(r.violations, 0u);
    EXPECT_GT(r.crossPairs, 0u);
    EXPECT_EQ(r.unreachable, 0u); // every cross-leaf transfer follows the job's own circuits
    EXPECT_TRUE(r.idleAtEnd);
    EXPECT_EQ(r.jobsHoldingAtEnd, 0u);
}

// Contention-freedom in the flow engine: 16 jobs of 16 and 32 GPUs at once on 128 GPUs (16
// leaves x 8 GPUs, 8 OCSs, 8 spines), ring, halving-doubling and all-to-all in turn. OCS-vClos jobs
// cross the core on their own circuits and no core flow ever has its rate set by another flow; ECMP
// on the same OCS layer (the fixed full wiring) shows conflicts (negative control).
TEST(ClusterJobSchedulerOcs, ContentionFreeInTheFlowEngine)
{
    const auto config = OcsConfig(16, 2, 4, 8, 8, 2);
    std::vector<ClusterJobRequest> jobs;
    for (uint32_t id = 0; id < 16; ++id)
    {
        jobs.push_back(Job(id, id % 2 == 0 ? 16 : 32, MicroSeconds(id), 20000000));
        const ClusterCollectiveAlgorithm algorithms[] = {CLUSTER_RING,
                                                         CLUSTER_HALVING_DOUBLING,
                                                         CLUSTER_ALL_TO_ALL};
        jobs.back().algorithm = algorithms[id % 3];
    }
    const Record ocs = RunJobs(config, "ocs-vclos", jobs, Seconds(0));
    ASSERT_EQ(ocs.finished.size(), jobs.size());
    EXPECT_GT(ocs.stats.coreFlows, 0u);
    EXPECT_EQ(ocs.stats.conflictingCoreFlows, 0u);
    EXPECT_TRUE(ocs.idleAtEnd);
    const Record ecmp = RunJobs(config, "ecmp-first-fit", jobs, Seconds(0));
    ASSERT_EQ(ecmp.finished.size(), jobs.size());
    EXPECT_GT(ecmp.stats.conflictingCoreFlows, 0u);
    std::cout << "core flows: ocs-vclos " << ocs.stats.coreFlows << " ("
              << ocs.stats.conflictingCoreFlows << " conflicting), ecmp-first-fit "
              << ecmp.stats.coreFlows << " (" << ecmp.stats.conflictingCoreFlows
              << " conflicting)\n";
}

// Bad input: each refused with one line.
TEST(ClusterJobSchedulerOcs, RefusesBadInput)
{
    // ocs-vclos without an OCS layer.
    {
        ClusterTopologyConfig plain;
        Ptr<FluidExecutor> executor = CreateObject<FluidExecutor>();
        executor->SetTopology(plain);
        Ptr<ClusterJobScheduler> scheduler = CreateObject<ClusterJobScheduler>();
        EXPECT_NE(ErrorOf<std::invalid_argument>([&]() {
                      scheduler->Setup(Ptr<ClusterJobExecutor>(executor), "ocs-vclos");
                  }).find("needs an OCS layer"),
                  std::string::npos);
        // Built by name without a topology, the policy has no circuits until Bind.
        EXPECT_NE(ErrorOf<std::logic_error>([]() {
                      ClusterState state(2, 1, 2, 2);
                      ClusterJobRequest job;
                      job.gpus = 1;
                      ClusterCreatePlacementPolicy("ocs-vclos")->Allocate(state, job);
                  }).find("Bind before Allocate"),
                  std::string::npos);
    }
    // A static policy on an OCS layer without a full wiring (the authors' oxc_vclos layer).
    {
        Ptr<FluidExecutor> executor = CreateObject<FluidExecutor>();
        executor->SetTopology(OcsConfig(256, 8, 4, 32, 128, 2));
        Ptr<ClusterJobScheduler> scheduler = CreateObject<ClusterJobScheduler>();
        EXPECT_NE(ErrorOf<std::invalid_argument>([&]() {
                      scheduler->Setup(Ptr<ClusterJobExecutor>(executor), "ecmp");
                  }).find("needs a fixed circuit layout"),
                  std::string::npos);
        EXPECT_NO_THROW(scheduler->Setup(Ptr<ClusterJobExecutor>(executor), "ocs-vclos"));
    }
    // A negative reconfiguration delay.
    {
        Ptr<VclosOcsPolicy> placement = CreateObject<VclosOcsPolicy>();
        EXPECT_FALSE(
            placement->SetAttributeFailSafe("ReconfigurationDelay", TimeValue(MilliSeconds(-1))));
        EXPECT_TRUE(
            placement->SetAttributeFailSafe("ReconfigurationDelay", TimeValue(MilliSeconds(1))));
    }
    Simulator::Destroy();
}

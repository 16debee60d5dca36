/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fluid-executor.h"

#include "ns3/boolean.h"
#include "ns3/cluster-ocs-state.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/fluid-burst.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/suite-check.h"
#include "ns3/suite-run-status.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <boost/asio/post.hpp>
#include <boost/asio/thread_pool.hpp>
#include <cmath>
#include <cstring>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FluidExecutor");

NS_OBJECT_ENSURE_REGISTERED(FluidExecutor);

TypeId
FluidExecutor::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FluidExecutor")
            .SetParent<ClusterJobExecutor>()
            .SetGroupName("Fluid")
            .AddConstructor<FluidExecutor>()
            .AddAttribute("Sharing",
                          "How flows share a link: MaxMin (max-min fair, progressive filling) "
                          "or EqualShare (the vClos authors' model: capacity / flows on the "
                          "most loaded link of the path). Set before the first job.",
                          EnumValue(MAX_MIN),
                          MakeEnumAccessor(&FluidExecutor::m_sharing),
                          MakeEnumChecker(MAX_MIN, "MaxMin", EQUAL_SHARE, "EqualShare"))
            .AddAttribute("EcmpSalt",
                          "Salt of the ECMP hash of unpinned transfers.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&FluidExecutor::m_salt),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute(
                "HashAlgorithm",
                "ECMP hash of unpinned transfers (the packet level's switches' "
                "functions).",
                EnumValue(CLUSTER_HASH_CRC32),
                MakeEnumAccessor(&FluidExecutor::m_hashAlgorithm),
                MakeEnumChecker(CLUSTER_HASH_CRC32, "Crc32", CLUSTER_HASH_XOR_FOLD, "XorFold"))
            .AddAttribute("WireEfficiency",
                          "Payload share of a link's rate (1: fluid bytes at line rate; "
                          "1448/1502 = 0.964: TCP/IPv4 with timestamps over PPP at MTU 1500, as "
                          "the packet level sends). Set before the first job.",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&FluidExecutor::m_wireEfficiency),
                          MakeDoubleChecker<double>(0.01, 1.0))
            .AddAttribute("IsolatedJobs",
                          "Exact shortcut: a job whose paths use no link another running job "
                          "uses runs in its alone time (computed once per paths' structure, "
                          "scaled by its bytes) instead of flow by flow; when a later job "
                          "touches one of its links it continues flow by flow from where it "
                          "is. Off: every job flow by flow (the same results, slower).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&FluidExecutor::m_isolatedJobs),
                          MakeBooleanChecker())
            .AddAttribute("ReplayAhead",
                          "With IsolatedJobs: replay each job alone on a second thread as soon "
                          "as it starts, so that the answer is ready when its first collective "
                          "begins; a replay the worker has not begun when it is needed runs on "
                          "the simulator's thread instead (the same results; off: all on the "
                          "simulator's thread, when needed).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&FluidExecutor::m_replayAhead),
                          MakeBooleanChecker())
            .AddAttribute("PathPerStep",
                          "Hash every transfer on its own (a new path per flow and step, as "
                          "the authors' simulator does) instead of once per connection.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&FluidExecutor::m_pathPerStep),
                          MakeBooleanChecker());
    return tid;
}

FluidExecutor::FluidExecutor()
    : m_replayAhead(true),
      m_sharing(MAX_MIN),
      m_salt(0),
      m_hashAlgorithm(CLUSTER_HASH_CRC32),
      m_pathPerStep(false),
      m_wireEfficiency(1.0),
      m_armedFor(0),
      m_isolatedJobs(true),
      m_epoch(0)
{
    NS_LOG_FUNCTION(this);
}

FluidExecutor::~FluidExecutor()
{
    StopWorker();
}

void
FluidExecutor::StopWorker()
{
    if (m_worker)
    {
        m_worker->stop(); // what has not begun is dropped
        m_worker->join();
        m_worker.reset();
    }
}

void
FluidExecutor::DoDispose()
{
    StopWorker();
    Simulator::Cancel(m_fire);
    m_slots.clear();
    m_slotOfJob.clear();
    m_engine.reset();
    m_replay.reset();
    m_aheadReplay.reset();
    ClusterJobExecutor::DoDispose();
}

void
FluidExecutor::SetTopology(const ClusterTopologyConfig& config)
{
    SUITE_REQUIRE(!m_engine, std::logic_error, "FluidExecutor::SetTopology: jobs have already run");
    m_topology = std::make_unique<ClusterTopology>(config);
}

const ClusterTopology&
FluidExecutor::GetTopology() const
{
    SUITE_REQUIRE(m_topology, std::logic_error, "FluidExecutor: SetTopology() first");
    return *m_topology;
}

std::vector<double>
FluidExecutor::Capacities() const
{
    std::vector<double> capacities = GetTopology().GetLinkCapacities();
    for (double& c : capacities)
    {
        c *= m_wireEfficiency;
    }
    return capacities;
}

FluidEngine::Sharing
FluidExecutor::EngineSharing() const
{
    return m_sharing == EQUAL_SHARE ? FluidEngine::Sharing::EQUAL_SHARE
                                    : FluidEngine::Sharing::MAX_MIN;
}

FluidEngine&
FluidExecutor::Engine()
{
    if (!m_engine)
    {
        const ClusterTopology& topology = GetTopology();
        m_engine = std::make_unique<FluidEngine>(Capacities(), EngineSharing());
        std::vector<bool> core(topology.GetLinkCount());
        for (uint32_t id = 0; id < core.size(); ++id)
        {
            const auto kind = topology.GetLink(id).kind;
            core[id] = kind == ClusterTopology::LinkKind::LEAF_UP ||
                       kind == ClusterTopology::LinkKind::LEAF_DOWN;
        }
        m_engine->SetWatchedLinks(core);
        m_coreLinks = core;
        m_capacities = Capacities();
        m_linkMark.assign(core.size(), 0);
        m_linkLoad.assign(core.size(), 0);
        m_replay = std::make_unique<FluidReplay>(m_capacities, core, EngineSharing());
        if (m_isolatedJobs && !m_pathPerStep && m_replayAhead)
        {
            m_aheadReplay = std::make_unique<FluidReplay>(m_capacities, core, EngineSharing());
            m_worker = std::make_unique<boost::asio::thread_pool>(1);
        }
        m_linkUse.assign(core.size(), 0);
        m_linkOwner.assign(core.size(), -1);
        m_engine->SetFinishHandler(
            [this](FluidEngine::FlowId id, uint64_t tag) { FlowFinished(id, tag); });
    }
    return *m_engine;
}

ClusterCollectiveShape
FluidExecutor::ShapeOf(const std::vector<uint32_t>& gpus,
                       ClusterCollectiveAlgorithm requested) const
{
    const ClusterTopology& topology = GetTopology();
    return ClusterShapeCollective(
        requested,
        gpus,
        [&](uint32_t gpu) { return topology.GetServerOfGpu(gpu); },
        [&](uint32_t gpu) { return topology.GetLeafOfGpu(gpu); });
}

std::shared_ptr<const FluidCollectivePlan>
FluidExecutor::PlanOf(const ClusterCollectiveShape& shape, uint32_t ranks)
{
    const ClusterCollectiveShape layout = ClusterScheduleLayout(shape); // shapes alike share
    const PlanKey key{static_cast<int>(layout.algorithm),
                      ranks,
                      layout.gpusPerServer,
                      layout.serversPerLeaf};
    auto it = m_plans.find(key);
    if (it == m_plans.end())
    {
        it = m_plans.emplace(key, std::make_shared<FluidCollectivePlan>(shape, ranks)).first;
    }
    return it->second;
}

uint32_t
FluidExecutor::AllocateSlot()
{
    uint32_t slot;
    if (!m_freeSlots.empty())
    {
        slot = m_freeSlots.back();
        m_freeSlots.pop_back();
    }
    else
    {
        slot = static_cast<uint32_t>(m_slots.size());
        m_slots.emplace_back();
    }
    return slot;
}

void
FluidExecutor::FillPlacement(Placement& placement,
                             const ClusterJobRequest& job,
                             const ClusterJobAllocation& allocation) const
{
    const ClusterTopology& topology = GetTopology();
    placement.jobId = job.id;
    placement.gpus = allocation.gpus;
    placement.spine = allocation.uplinkSpine;
    if (!allocation.uplinkPort.empty())
    {
        SUITE_REQUIRE(topology.HasOcs() && allocation.uplinkPort.size() == job.gpus &&
                          allocation.virtualLeaf.size() == job.gpus &&
                          allocation.uplinkSpine.size() == job.gpus,
                      std::invalid_argument,
                      "job " << job.id << ": uplink ports need an OCS layer and, per GPU, a "
                             << "spine and a virtual leaf");
        placement.port = allocation.uplinkPort;
        placement.virtualLeaf = allocation.virtualLeaf;
        for (uint32_t r = 0; r < job.gpus; ++r)
        {
            if (allocation.uplinkPort[r] >= 0 && allocation.uplinkSpine[r] >= 0)
            {
                placement.downPort[{allocation.virtualLeaf[r],
                                    static_cast<uint32_t>(allocation.uplinkSpine[r])}] =
                    static_cast<uint32_t>(allocation.uplinkPort[r]);
            }
        }
    }
    else if (topology.HasOcs())
    {
        const std::string bad = ClusterOcsFullWiringCheck(topology);
        SUITE_REQUIRE(bad.empty(),
                      std::invalid_argument,
                      "job " << job.id << " has no circuits of its own and " << bad);
    }
}

void
FluidExecutor::ReplayAhead(Job& state)
{
    // Its alone run, ahead on the worker: ready, or nearly, when its collective begins
    // (it is needed only if the job is isolated then).
    auto alone = std::make_shared<std::packaged_task<Alone()>>(
        [replay = m_aheadReplay.get(), plan = state.plan, paths = state.paths]() {
            return replay->Alone(*plan, *paths);
        });
    state.ahead = alone->get_future().share();
    state.taken = std::make_shared<std::atomic<bool>>(false);
    boost::asio::post(*m_worker, [alone, taken = state.taken]() {
        if (!taken->exchange(true))
        {
            (*alone)();
        }
    });
}

ClusterCollectiveAlgorithm
FluidExecutor::Start(const ClusterJobRequest& job,
                     const ClusterJobAllocation& allocation,
                     DoneCallback done)
{
    NS_LOG_FUNCTION(this << job.id);
    const ClusterTopology& topology = GetTopology();
    Engine();
    for (uint32_t gpu : allocation.gpus)
    {
        SUITE_REQUIRE(gpu < topology.GetGpus(),
                      std::out_of_range,
                      "job " << job.id << ": GPU " << gpu << " is outside the cluster");
    }
    const uint32_t slot = AllocateSlot();
    m_slots[slot] = std::make_unique<Job>();
    Job& state = *m_slots[slot];
    state.request = job;
    auto placement = std::make_shared<Placement>();
    state.placement = placement;
    FillPlacement(*placement, job, allocation);
    state.done = std::move(done);
    state.startedAt = Simulator::Now();
    m_slotOfJob[job.id] = slot;
    if (job.gpus == 1)
    {
        // One GPU: no collective, only compute.
        state.pending = Simulator::Schedule(job.computeTime * job.iterations, [this, slot]() {
            SuiteGuardEvent("flow executor", [&]() { m_slots.at(slot)->done(); });
        });
        return job.algorithm;
    }
    const ClusterCollectiveShape shape = ShapeOf(allocation.gpus, job.algorithm);
    state.plan = PlanOf(shape, job.gpus);
    state.run = std::make_unique<FluidCollectiveRun>(*state.plan, [this, slot](uint32_t transfer) {
        Launch(slot, transfer);
    });
    Routes routes = RoutesOf(*placement, *state.plan, m_linkMark, m_epoch);
    state.paths = std::move(routes.paths);
    state.links = std::move(routes.links);
    if (m_worker)
    {
        ReplayAhead(state);
    }
    // Its links are claimed when its first collective begins: a job that computes carries
    // nothing, so jobs whose collectives do not overlap in time never meet.
    state.pending = Simulator::Schedule(job.computeTime, [this, slot]() {
        SuiteGuardEvent("flow executor", [&]() { Claim(slot); });
    });
    return shape.algorithm;
}

void
FluidExecutor::Claim(uint32_t slot)
{
    Job& state = *m_slots.at(slot);
    const ClusterJobRequest& job = state.request;
    std::vector<uint32_t> touched;
    for (uint32_t l : state.links)
    {
        if (m_linkOwner[l] >= 0)
        {
            touched.push_back(static_cast<uint32_t>(m_linkOwner[l]));
        }
    }
    std::sort(touched.begin(), touched.end());
    touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
    for (uint32_t other : touched)
    {
        Materialize(other);
    }
    state.claimed = true;
    state.isolated = m_isolatedJobs && !m_pathPerStep;
    for (uint32_t l : state.links)
    {
        state.isolated = state.isolated && m_linkUse[l] == 0;
    }
    for (uint32_t l : state.links)
    {
        ++m_linkUse[l];
        if (state.isolated)
        {
            m_linkOwner[l] = slot;
        }
    }
    if (!state.isolated)
    {
        if (state.taken)
        {
            *state.taken = true; // not wanted: the worker skips it if it has not begun
        }
        BeginCollective(slot);
        return;
    }
    ++m_stats.isolatedJobs;
    // Its alone run may still be on the worker: go on with the simulation up to the earliest
    // time the job could end (its busiest link's bytes at full rate), and take the answer
    // then. Always so, with or without the worker and whether or not it is done, so that the
    // events, and their order, never depend on the worker's timing. (A hair earlier than the
    // bound, so that rounding never puts it past the end.)
    const double least = LeastCollectiveSecondsPerByte(state) * (1 - 1e-9);
    const Time earliest =
        state.startedAt +
        (job.computeTime + Seconds(least * static_cast<double>(job.messageBytes))) *
            job.iterations -
        NanoSeconds(1);
    state.pending =
        Simulator::Schedule(std::max(earliest - Simulator::Now(), Time(0)), [this, slot]() {
            SuiteGuardEvent("flow executor", [&]() { ScheduleIsolatedEnd(slot); });
        });
}

void
FluidExecutor::ScheduleIsolatedEnd(uint32_t slot)
{
    Job& state = *m_slots.at(slot);
    const ClusterJobRequest& job = state.request;
    ResolveAlone(state);
    const double collective = state.alone.secondsPerByte * static_cast<double>(job.messageBytes);
    const Time end = state.startedAt + (job.computeTime + Seconds(collective)) * job.iterations;
    state.pending = Simulator::Schedule(std::max(end - Simulator::Now(), Time(0)), [this, slot]() {
        SuiteGuardEvent("flow executor", [&]() { IsolatedDone(slot); });
    });
}

void
FluidExecutor::ResolveAlone(Job& job)
{
    if (!job.aloneKnown)
    {
        job.alone = AloneOf(job);
        job.aloneKnown = true;
    }
}

double
FluidExecutor::LeastCollectiveSecondsPerByte(const Job& job)
{
    // Every byte a transfer carries crosses each link of its path: no collective can end
    // before its busiest link has carried its bytes at full capacity.
    for (uint32_t l : job.links)
    {
        m_linkLoad[l] = 0;
    }
    // Only isolated jobs ask, and they have one path per connection (no PathPerStep): each
    // connection's transfers' bytes together.
    SUITE_REQUIRE(job.paths,
                  std::logic_error,
                  "job " << job.request.id << ": an earliest end needs paths per connection");
    const auto& totals = job.plan->GetConnectionTotals();
    for (uint32_t c = 0; c < totals.size(); ++c)
    {
        for (uint32_t l : (*job.paths)[c])
        {
            m_linkLoad[l] += totals[c].share;
        }
    }
    double least = 0;
    for (uint32_t l : job.links)
    {
        least = std::max(least, m_linkLoad[l] * 8.0 / m_capacities[l]);
    }
    return least;
}

ClusterPath
FluidExecutor::PathOf(const Job& job, uint32_t transfer) const
{
    if (job.paths)
    {
        return (*job.paths)[job.plan->GetTransfers()[transfer].connectionId];
    }
    return HashedPathOf(*job.placement, *job.plan, transfer);
}

FluidExecutor::Routes
FluidExecutor::RoutesOf(const Placement& placement,
                        const FluidCollectivePlan& plan,
                        std::vector<uint64_t>& mark,
                        uint64_t& epoch) const
{
    // The links its paths use (per connection; with PathPerStep paths change per step, and
    // the links are those of the first step's).
    Routes routes;
    std::shared_ptr<std::vector<ClusterPath>> paths;
    if (!m_pathPerStep)
    {
        paths = std::make_shared<std::vector<ClusterPath>>();
        paths->reserve(plan.GetConnectionTransfers().size());
    }
    ++epoch;
    for (uint32_t t : plan.GetConnectionTransfers())
    {
        const ClusterPath path = HashedPathOf(placement, plan, t);
        for (uint32_t l : path)
        {
            if (mark[l] != epoch)
            {
                mark[l] = epoch;
                routes.links.push_back(l);
            }
        }
        if (paths)
        {
            paths->push_back(path);
        }
    }
    routes.paths = std::move(paths);
    return routes;
}

ClusterPath
FluidExecutor::HashedPathOf(const Placement& job,
                            const FluidCollectivePlan& plan,
                            uint32_t transfer) const
{
    const FluidCollectivePlan::Transfer& t = plan.GetTransfers()[transfer];
    const ClusterTopology& topology = *m_topology;
    const uint32_t src = job.gpus[t.src];
    const uint32_t dst = job.gpus[t.dst];
    uint32_t spine = 0;
    const bool viaCore = topology.Classify(src, dst) == ClusterPathKind::VIA_CORE;
    if (viaCore && !job.port.empty())
    {
        // Its own circuits: up the source's port, down the destination virtual leaf's port
        // to the same spine (leaf-leaf circuit: the same port number).
        SUITE_REQUIRE(job.port[t.src] >= 0,
                      std::logic_error,
                      "job " << job.jobId << ": GPU " << src << " has no uplink port");
        const auto up = static_cast<uint32_t>(job.port[t.src]);
        uint32_t down = up;
        if (job.spine[t.src] >= 0)
        {
            auto it = job.downPort.find(
                {job.virtualLeaf[t.dst], static_cast<uint32_t>(job.spine[t.src])});
            SUITE_REQUIRE(it != job.downPort.end(),
                          std::logic_error,
                          "job " << job.jobId << ": GPU " << dst
                                 << "'s virtual leaf has no circuit to spine " << job.spine[t.src]);
            down = it->second;
        }
        return topology.GetPathVia(src, dst, up, down);
    }
    if (viaCore)
    {
        if (job.spine[t.src] >= 0)
        {
            spine = static_cast<uint32_t>(job.spine[t.src]);
        }
        else
        {
            ClusterFiveTuple key;
            key.srcAddress = src;
            key.dstAddress = dst;
            key.protocol = 6;
            key.dstPort = static_cast<uint16_t>(job.jobId);
            key.srcPort = static_cast<uint16_t>(m_pathPerStep ? transfer : t.connection);
            spine = ClusterHashToIndex(ClusterHashFiveTuple(key, m_salt, m_hashAlgorithm),
                                       topology.GetSpines());
        }
    }
    if (topology.HasOcs())
    {
        // The fixed full wiring: the ports whose static circuits reach the spine (unused
        // off the core).
        return viaCore
                   ? topology.GetPathVia(
                         src,
                         dst,
                         ClusterOcsFullWiringUplink(topology, topology.GetLeafOfGpu(src), spine),
                         ClusterOcsFullWiringUplink(topology, topology.GetLeafOfGpu(dst), spine))
                   : topology.GetPathVia(src, dst, 0, 0);
    }
    return topology.GetPath(src, dst, spine);
}

void
FluidExecutor::Count(const Alone& counts, uint64_t times)
{
    m_stats.flows += counts.flows * times;
    m_stats.coreFlows += counts.coreFlows * times;
    m_stats.sharingCoreFlows += counts.sharingCoreFlows * times;
    m_stats.conflictingCoreFlows += counts.conflictingCoreFlows * times;
}

FluidExecutor::Alone
FluidExecutor::AloneOf(Job& job)
{
    // The worker's answer, unless it has not begun the replay (it is behind): then take the
    // replay from it and run it here rather than wait. The same answer either way.
    const bool worker = job.ahead.valid() && job.taken->exchange(true);
    Alone alone = worker ? job.ahead.get() // rethrows what the worker's replay threw
                         : m_replay->Alone(*job.plan, *job.paths);
    job.ahead = {};
    if (alone.reference)
    {
        ++m_stats.referenceAlone;
        // Its time is the contention-free reference, cached by server layout.
        constexpr double PROBE_BYTES = 1e9;
        alone.secondsPerByte =
            GetContentionFreeSeconds(job.request.algorithm, job.placement->gpus, PROBE_BYTES) /
            PROBE_BYTES;
    }
    return alone;
}

void
FluidExecutor::IsolatedDone(uint32_t slot)
{
    Job& job = *m_slots.at(slot);
    Count(job.alone, job.request.iterations);
    job.done();
}

void
FluidExecutor::Materialize(uint32_t slot)
{
    Job& job = *m_slots.at(slot);
    NS_LOG_FUNCTION(this << job.request.id);
    ResolveAlone(job); // its end may not have been scheduled yet
    ++m_stats.materialized;
    job.isolated = false;
    for (uint32_t l : job.links)
    {
        m_linkOwner[l] = -1;
    }
    Simulator::Cancel(job.pending);
    const double compute = job.request.computeTime.GetSeconds();
    const double collective =
        job.alone.secondsPerByte * static_cast<double>(job.request.messageBytes);
    const double period = compute + collective;
    const double offset = (Simulator::Now() - job.startedAt).GetSeconds();
    auto iteration = static_cast<uint32_t>(period > 0 ? std::floor(offset / period) : 0);
    iteration = std::min(iteration, job.request.iterations - 1);
    Count(job.alone, iteration);
    job.iteration = iteration;
    const double within = offset - iteration * period;
    if (within < compute)
    {
        job.pending = Simulator::Schedule(Seconds(compute - within), [this, slot]() {
            SuiteGuardEvent("flow executor", [&]() { BeginCollective(slot); });
        });
        return;
    }
    // Where its collective would be now, alone: replay it privately, then move what is in
    // flight into the engine.
    Alone partial;
    std::vector<std::pair<uint32_t, double>> active;
    const double ended = m_replay->Run(*job.plan,
                                       *job.paths,
                                       static_cast<double>(job.request.messageBytes),
                                       within - compute,
                                       partial,
                                       active,
                                       job.run);
    Count(partial, 1);
    if (ended >= 0)
    {
        // It ends at this very instant (rounding): finish the iteration as the engine would.
        job.run = std::make_unique<FluidCollectiveRun>(*job.plan, [this, slot](uint32_t transfer) {
            Launch(slot, transfer);
        });
        EndIteration(slot);
        return;
    }
    job.run->SetLaunch([this, slot](uint32_t transfer) { Launch(slot, transfer); });
    Sync();
    for (const auto& [transfer, left] : active)
    {
        StartInEngine(slot, transfer, std::max(left, 1e-9));
    }
    Arm();
}

void
FluidExecutor::BeginCollective(uint32_t slot)
{
    Sync();
    m_slots.at(slot)->run->Begin();
    Arm();
}

void
FluidExecutor::Launch(uint32_t slot, uint32_t transfer)
{
    const Job& job = *m_slots[slot];
    const double share = job.plan->GetTransfers()[transfer].share;
    StartInEngine(slot,
                  transfer,
                  std::max(1.0, std::round(share * static_cast<double>(job.request.messageBytes))));
}

void
FluidExecutor::StartInEngine(uint32_t slot, uint32_t transfer, double bytes)
{
    const ClusterPath path = PathOf(*m_slots[slot], transfer);
    const FluidEngine::FlowId id =
        m_engine->StartFlow(path.links.data(),
                            path.size,
                            bytes,
                            (static_cast<uint64_t>(slot) << 32) | transfer);
    if (id >= m_flowCrossesCore.size())
    {
        m_flowCrossesCore.resize(id + 1);
    }
    m_flowCrossesCore[id] = path.kind == ClusterPathKind::VIA_CORE;
}

void
FluidExecutor::FlowFinished(FluidEngine::FlowId id, uint64_t tag)
{
    ++m_stats.flows;
    if (m_flowCrossesCore[id])
    {
        ++m_stats.coreFlows;
        if (m_engine->GetMaxSharing(id) >= 2)
        {
            ++m_stats.sharingCoreFlows;
        }
        if (m_engine->IsWatchedLimited(id))
        {
            ++m_stats.conflictingCoreFlows;
        }
    }
    const auto slot = static_cast<uint32_t>(tag >> 32);
    const auto transfer = static_cast<uint32_t>(tag & 0xFFFFFFFFu);
    if (m_slots.at(slot)->run->Arrived(transfer))
    {
        EndIteration(slot);
    }
}

void
FluidExecutor::EndIteration(uint32_t slot)
{
    // The iteration is over on every rank.
    Job& job = *m_slots.at(slot);
    if (++job.iteration < job.request.iterations)
    {
        job.pending = Simulator::Schedule(job.request.computeTime, [this, slot]() {
            SuiteGuardEvent("flow executor", [&]() { BeginCollective(slot); });
        });
        return;
    }
    job.pending = Simulator::ScheduleNow(
        [this, slot]() { SuiteGuardEvent("flow executor", [&]() { m_slots.at(slot)->done(); }); });
}

void
FluidExecutor::Stop(const ClusterJobRequest& job, const ClusterJobAllocation& allocation)
{
    auto it = m_slotOfJob.find(job.id);
    SUITE_REQUIRE(it != m_slotOfJob.end(),
                  std::logic_error,
                  "FluidExecutor::Stop: job " << job.id << " is not running");
    const Job& state = *m_slots[it->second];
    Simulator::Cancel(state.pending);
    for (uint32_t l : state.links)
    {
        if (!state.claimed)
        {
            break;
        }
        --m_linkUse[l];
        if (m_linkOwner[l] == static_cast<int64_t>(it->second))
        {
            m_linkOwner[l] = -1;
        }
    }
    m_slots[it->second].reset();
    m_freeSlots.push_back(it->second);
    m_slotOfJob.erase(it);
}

void
FluidExecutor::Sync()
{
    Engine().AdvanceTo(std::max(Simulator::Now().GetSeconds(), m_engine->GetNow()));
}

void
FluidExecutor::Arm()
{
    const double next = m_engine->GetNextTime();
    Simulator::Cancel(m_fire);
    if (!std::isfinite(next))
    {
        return;
    }
    // The simulator's clock is in ns: the event is at the first ns not before the instant,
    // and runs the instant itself even if the ns rounds a hair below it.
    m_armedFor = next;
    const Time at = NanoSeconds(static_cast<int64_t>(std::ceil(next * 1e9)));
    m_fire =
        Simulator::Schedule(std::max(at - Simulator::Now(), Time(0)), &FluidExecutor::Fire, this);
}

void
FluidExecutor::Fire()
{
    SuiteGuardEvent("flow executor", [&]() {
        m_engine->AdvanceTo(
            std::max({Simulator::Now().GetSeconds(), m_armedFor, m_engine->GetNow()}));
        Arm();
    });
}

namespace
{
/// The contention-free reference's message: the job alone, 1 GB per message.
constexpr double REFERENCE_PROBE_BYTES = 1e9;

/**
 * \param topology the cluster \param rankGpus a job's GPUs in rank order
 * \return the runs of consecutive ranks on one server, in rank order (their lengths)
 */
std::vector<uint32_t>
ServerRuns(const ClusterTopology& topology, const std::vector<uint32_t>& rankGpus)
{
    std::vector<uint32_t> runs{1};
    for (std::size_t r = 1; r < rankGpus.size(); ++r)
    {
        if (topology.GetServerOfGpu(rankGpus[r]) == topology.GetServerOfGpu(rankGpus[r - 1]))
        {
            ++runs.back();
        }
        else
        {
            runs.push_back(1);
        }
    }
    return runs;
}

/**
 * \param topology the cluster \param rankGpus a job's GPUs in rank order
 * \param t one of its transfers
 * \return its path when the core does not constrain: only NIC and intra-server links
 */
ClusterPath
ContentionFreePath(const ClusterTopology& topology,
                   const std::vector<uint32_t>& rankGpus,
                   const FluidCollectivePlan::Transfer& t)
{
    const uint32_t src = rankGpus[t.src];
    const uint32_t dst = rankGpus[t.dst];
    ClusterPath path = topology.GetPathVia(src, dst, 0, 0); // the core is not used
    if (path.kind == ClusterPathKind::VIA_CORE)
    {
        path.links = {topology.GetNicUp(src), topology.GetNicDown(dst), 0, 0};
        path.size = 2;
    }
    return path;
}
} // namespace

bool
FluidExecutor::BurstReferenceSeconds(const FluidCollectivePlan& plan,
                                     const std::vector<uint32_t>& rankGpus,
                                     double& seconds)
{
    // Every transfer starts at once: FluidBurst gives the engine's end exactly.
    Engine(); // the link tables
    const ClusterTopology& topology = GetTopology();
    const auto& transfers = plan.GetTransfers();
    std::vector<ClusterPath> paths;
    std::vector<double> sizes;
    paths.reserve(transfers.size());
    sizes.reserve(transfers.size());
    for (const auto& t : transfers)
    {
        paths.push_back(ContentionFreePath(topology, rankGpus, t));
        sizes.push_back(std::max(1.0, t.share * REFERENCE_PROBE_BYTES));
    }
    constexpr uint32_t MAX_INSTANTS = 64;
    const FluidBurst::Result r = FluidBurst::Run(m_capacities,
                                                 m_coreLinks,
                                                 paths,
                                                 sizes,
                                                 std::numeric_limits<double>::infinity(),
                                                 MAX_INSTANTS);
    if (!r.complete)
    {
        return false;
    }
    seconds = r.end;
    return true;
}

double
FluidExecutor::EngineReferenceSeconds(const FluidCollectivePlan& plan,
                                      const std::vector<uint32_t>& rankGpus) const
{
    const ClusterTopology& topology = GetTopology();
    const auto& transfers = plan.GetTransfers();
    FluidEngine engine(Capacities(), EngineSharing());
    FluidCollectiveRun* runPtr = nullptr;
    bool over = false;
    engine.SetFinishHandler([&](FluidEngine::FlowId, uint64_t transfer) {
        over = runPtr->Arrived(static_cast<uint32_t>(transfer)) || over;
    });
    FluidCollectiveRun run(plan, [&](uint32_t transfer) {
        const auto& t = transfers[transfer];
        const ClusterPath path = ContentionFreePath(topology, rankGpus, t);
        engine.StartFlow(path.links.data(),
                         path.size,
                         std::max(1.0, t.share * REFERENCE_PROBE_BYTES),
                         transfer);
    });
    runPtr = &run;
    run.Begin();
    engine.Run();
    SUITE_REQUIRE(over,
                  std::logic_error,
                  "contention-free reference: the collective of " << rankGpus.size()
                                                                  << " ranks did not end");
    return engine.GetNow();
}

double
FluidExecutor::GetContentionFreeSeconds(ClusterCollectiveAlgorithm algorithm,
                                        const std::vector<uint32_t>& rankGpus,
                                        double messageBytes)
{
    SUITE_REQUIRE(std::isfinite(messageBytes) && messageBytes >= 0,
                  std::invalid_argument,
                  "GetContentionFreeSeconds: message bytes must be >= 0 (got " << messageBytes
                                                                               << ")");
    if (rankGpus.size() < 2)
    {
        return 0;
    }
    const ClusterTopology& topology = GetTopology();
    const ClusterCollectiveShape shape = ShapeOf(rankGpus, algorithm);
    // Key: what runs, and which consecutive ranks share a server (nothing else matters
    // when the core does not constrain).
    const auto key = std::make_tuple(static_cast<int>(shape.algorithm),
                                     shape.gpusPerServer * 65536u + shape.serversPerLeaf,
                                     ServerRuns(topology, rankGpus));
    auto it = m_reference.find(key);
    if (it == m_reference.end())
    {
        auto plan = PlanOf(shape, static_cast<uint32_t>(rankGpus.size()));
        double seconds = 0;
        if (m_sharing == EQUAL_SHARE && plan->GetInitial().size() == plan->GetTransfers().size() &&
            BurstReferenceSeconds(*plan, rankGpus, seconds))
        {
            ++m_stats.burstReferences;
            it = m_reference.emplace(key, seconds / REFERENCE_PROBE_BYTES).first;
            return it->second * messageBytes;
        }
        it = m_reference
                 .emplace(key, EngineReferenceSeconds(*plan, rankGpus) / REFERENCE_PROBE_BYTES)
                 .first;
    }
    return it->second * messageBytes;
}

FluidExecutor::Stats
FluidExecutor::GetStats() const
{
    Stats stats = m_stats;
    stats.burstReplays = (m_replay ? m_replay->GetBurstReplays() : 0) +
                         (m_aheadReplay ? m_aheadReplay->GetBurstReplays() : 0);
    return stats;
}

FluidEngine::Stats
FluidExecutor::GetEngineStats() const
{
    return m_engine ? m_engine->GetStats() : FluidEngine::Stats{};
}

double
FluidExecutor::GetConflictingFlowShare() const
{
    return m_stats.coreFlows == 0 ? 0.0
                                  : static_cast<double>(m_stats.conflictingCoreFlows) /
                                        static_cast<double>(m_stats.coreFlows);
}

} // namespace ns3

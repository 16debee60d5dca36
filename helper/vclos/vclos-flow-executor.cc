/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "vclos-flow-executor.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"
#include "ns3/vclos-check.h"
#include "ns3/vclos-flow-burst.h"
#include "ns3/vclos-ocs-state.h"
#include "ns3/vclos-run-status.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("VclosFlowExecutor");

NS_OBJECT_ENSURE_REGISTERED(VclosFlowExecutor);

TypeId
VclosFlowExecutor::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::VclosFlowExecutor")
            .SetParent<VclosJobExecutor>()
            .SetGroupName("Vclos")
            .AddConstructor<VclosFlowExecutor>()
            .AddAttribute("Sharing",
                          "How flows share a link: MaxMin (max-min fair, progressive filling) "
                          "or EqualShare (the vClos authors' model: capacity / flows on the "
                          "most loaded link of the path). Set before the first job.",
                          EnumValue(MAX_MIN),
                          MakeEnumAccessor(&VclosFlowExecutor::m_sharing),
                          MakeEnumChecker(MAX_MIN, "MaxMin", EQUAL_SHARE, "EqualShare"))
            .AddAttribute("EcmpSalt",
                          "Salt of the ECMP hash of unpinned transfers.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&VclosFlowExecutor::m_salt),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute(
                "HashAlgorithm",
                "ECMP hash of unpinned transfers (the packet level's switches' "
                "functions).",
                EnumValue(VCLOS_HASH_CRC32),
                MakeEnumAccessor(&VclosFlowExecutor::m_hashAlgorithm),
                MakeEnumChecker(VCLOS_HASH_CRC32, "Crc32", VCLOS_HASH_XOR_FOLD, "XorFold"))
            .AddAttribute("WireEfficiency",
                          "Payload share of a link's rate (1: fluid bytes at line rate; "
                          "1448/1502 = 0.964: TCP/IPv4 with timestamps over PPP at MTU 1500, as "
                          "the packet level sends). Set before the first job.",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&VclosFlowExecutor::m_wireEfficiency),
                          MakeDoubleChecker<double>(0.01, 1.0))
            .AddAttribute("IsolatedJobs",
                          "Exact shortcut: a job whose paths use no link another running job "
                          "uses runs in its alone time (computed once per paths' structure, "
                          "scaled by its bytes) instead of flow by flow; when a later job "
                          "touches one of its links it continues flow by flow from where it "
                          "is. Off: every job flow by flow (the same results, slower).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&VclosFlowExecutor::m_isolatedJobs),
                          MakeBooleanChecker())
            .AddAttribute("PathPerStep",
                          "Hash every transfer on its own (a new path per flow and step, as "
                          "the authors' simulator does) instead of once per connection.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&VclosFlowExecutor::m_pathPerStep),
                          MakeBooleanChecker());
    return tid;
}

VclosFlowExecutor::VclosFlowExecutor()
    : m_sharing(MAX_MIN),
      m_salt(0),
      m_hashAlgorithm(VCLOS_HASH_CRC32),
      m_pathPerStep(false),
      m_wireEfficiency(1.0),
      m_armedFor(0),
      m_isolatedJobs(true),
      m_epoch(0)
{
    NS_LOG_FUNCTION(this);
}

VclosFlowExecutor::~VclosFlowExecutor() = default;

void
VclosFlowExecutor::DoDispose()
{
    Simulator::Cancel(m_fire);
    m_slots.clear();
    m_slotOfJob.clear();
    m_engine.reset();
    m_scratch.reset();
    VclosJobExecutor::DoDispose();
}

void
VclosFlowExecutor::SetTopology(const VclosTopologyConfig& config)
{
    VCLOS_REQUIRE(!m_engine,
                  std::logic_error,
                  "VclosFlowExecutor::SetTopology: jobs have already run");
    m_topology = std::make_unique<VclosTopology>(config);
}

const VclosTopology&
VclosFlowExecutor::GetTopology() const
{
    VCLOS_REQUIRE(m_topology, std::logic_error, "VclosFlowExecutor: SetTopology() first");
    return *m_topology;
}

std::vector<double>
VclosFlowExecutor::Capacities() const
{
    std::vector<double> capacities = GetTopology().GetLinkCapacities();
    for (double& c : capacities)
    {
        c *= m_wireEfficiency;
    }
    return capacities;
}

VclosFlowEngine::Sharing
VclosFlowExecutor::EngineSharing() const
{
    return m_sharing == EQUAL_SHARE ? VclosFlowEngine::Sharing::EQUAL_SHARE
                                    : VclosFlowEngine::Sharing::MAX_MIN;
}

VclosFlowEngine&
VclosFlowExecutor::Engine()
{
    if (!m_engine)
    {
        const VclosTopology& topology = GetTopology();
        m_engine = std::make_unique<VclosFlowEngine>(Capacities(), EngineSharing());
        std::vector<bool> core(topology.GetLinkCount());
        for (uint32_t id = 0; id < core.size(); ++id)
        {
            const auto kind = topology.GetLink(id).kind;
            core[id] = kind == VclosTopology::LinkKind::LEAF_UP ||
                       kind == VclosTopology::LinkKind::LEAF_DOWN;
        }
        m_engine->SetWatchedLinks(core);
        m_coreLinks = core;
        m_capacities = Capacities();
        m_linkMark.assign(core.size(), 0);
        m_linkName.assign(core.size(), 0);
        m_linkShare.assign(core.size(), 0);
        m_linkUse.assign(core.size(), 0);
        m_linkOwner.assign(core.size(), -1);
        m_engine->SetFinishHandler(
            [this](VclosFlowEngine::FlowId id, uint64_t tag) { FlowFinished(id, tag); });
    }
    return *m_engine;
}

VclosCollectiveShape
VclosFlowExecutor::ShapeOf(const std::vector<uint32_t>& gpus,
                           VclosCollectiveAlgorithm requested) const
{
    const VclosTopology& topology = GetTopology();
    return VclosShapeCollective(
        requested,
        gpus,
        [&](uint32_t gpu) { return topology.GetServerOfGpu(gpu); },
        [&](uint32_t gpu) { return topology.GetLeafOfGpu(gpu); });
}

std::shared_ptr<const VclosFlowCollectivePlan>
VclosFlowExecutor::PlanOf(const VclosCollectiveShape& shape, uint32_t ranks)
{
    const VclosCollectiveShape layout = VclosScheduleLayout(shape); // shapes alike share
    const PlanKey key{static_cast<int>(layout.algorithm),
                      ranks,
                      layout.gpusPerServer,
                      layout.serversPerLeaf};
    auto it = m_plans.find(key);
    if (it == m_plans.end())
    {
        it = m_plans.emplace(key, std::make_shared<VclosFlowCollectivePlan>(shape, ranks)).first;
    }
    return it->second;
}

VclosCollectiveAlgorithm
VclosFlowExecutor::Start(const VclosJobRequest& job,
                         const VclosJobAllocation& allocation,
                         DoneCallback done)
{
    NS_LOG_FUNCTION(this << job.id);
    const VclosTopology& topology = GetTopology();
    Engine();
    for (uint32_t gpu : allocation.gpus)
    {
        VCLOS_REQUIRE(gpu < topology.GetGpus(),
                      std::out_of_range,
                      "job " << job.id << ": GPU " << gpu << " is outside the cluster");
    }
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
    m_slots[slot] = std::make_unique<Job>();
    Job& state = *m_slots[slot];
    state.request = job;
    state.gpus = allocation.gpus;
    state.spine = allocation.uplinkSpine;
    if (!allocation.uplinkPort.empty())
    {
        VCLOS_REQUIRE(topology.HasOcs() && allocation.uplinkPort.size() == job.gpus &&
                          allocation.virtualLeaf.size() == job.gpus &&
                          allocation.uplinkSpine.size() == job.gpus,
                      std::invalid_argument,
                      "job " << job.id << ": uplink ports need an OCS layer and, per GPU, a "
                             << "spine and a virtual leaf");
        state.port = allocation.uplinkPort;
        state.virtualLeaf = allocation.virtualLeaf;
        for (uint32_t r = 0; r < job.gpus; ++r)
        {
            if (allocation.uplinkPort[r] >= 0 && allocation.uplinkSpine[r] >= 0)
            {
                state.downPort[{allocation.virtualLeaf[r],
                                static_cast<uint32_t>(allocation.uplinkSpine[r])}] =
                    static_cast<uint32_t>(allocation.uplinkPort[r]);
            }
        }
    }
    else if (topology.HasOcs())
    {
        const std::string bad = VclosOcsFullWiringCheck(topology);
        VCLOS_REQUIRE(bad.empty(),
                      std::invalid_argument,
                      "job " << job.id << " has no circuits of its own and " << bad);
    }
    state.done = std::move(done);
    state.startedAt = Simulator::Now();
    m_slotOfJob[job.id] = slot;
    if (job.gpus == 1)
    {
        // One GPU: no collective, only compute.
        state.pending = Simulator::Schedule(job.computeTime * job.iterations, [this, slot]() {
            VclosGuardEvent("flow executor", [&]() { m_slots.at(slot)->done(); });
        });
        return job.algorithm;
    }
    const VclosCollectiveShape shape = ShapeOf(allocation.gpus, job.algorithm);
    state.plan = PlanOf(shape, job.gpus);
    state.run =
        std::make_unique<VclosFlowCollectiveRun>(*state.plan, [this, slot](uint32_t transfer) {
            Launch(slot, transfer);
        });
    // The links its paths use (per connection; with PathPerStep paths change per step).
    ++m_epoch;
    if (!m_pathPerStep)
    {
        for (uint32_t t : state.plan->GetConnectionTransfers())
        {
            state.paths.push_back(HashedPathOf(state, t));
        }
    }
    for (uint32_t t : state.plan->GetConnectionTransfers())
    {
        for (uint32_t l : PathOf(state, t))
        {
            if (m_linkMark[l] != m_epoch)
            {
                m_linkMark[l] = m_epoch;
                state.links.push_back(l);
            }
        }
    }
    // Its links are claimed when its first collective begins: a job that computes carries
    // nothing, so jobs whose collectives do not overlap in time never meet.
    state.pending = Simulator::Schedule(job.computeTime, [this, slot]() {
        VclosGuardEvent("flow executor", [&]() { Claim(slot); });
    });
    return shape.algorithm;
}

void
VclosFlowExecutor::Claim(uint32_t slot)
{
    Job& state = *m_slots.at(slot);
    const VclosJobRequest& job = state.request;
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
        BeginCollective(slot);
        return;
    }
    ++m_stats.isolatedJobs;
    state.alone = AloneOf(state);
    const double collective = state.alone.secondsPerByte * static_cast<double>(job.messageBytes);
    const Time end = state.startedAt + (job.computeTime + Seconds(collective)) * job.iterations;
    state.pending = Simulator::Schedule(std::max(end - Simulator::Now(), Time(0)), [this, slot]() {
        VclosGuardEvent("flow executor", [&]() { IsolatedDone(slot); });
    });
}

VclosPath
VclosFlowExecutor::PathOf(const Job& job, uint32_t transfer) const
{
    if (!job.paths.empty())
    {
        return job.paths[job.plan->GetTransfers()[transfer].connectionId];
    }
    return HashedPathOf(job, transfer);
}

VclosPath
VclosFlowExecutor::ConnectionPath(const Job& job, uint32_t connection) const
{
    // A connection's first transfer carries its connection id (the plan numbers them so).
    return job.paths.empty() ? HashedPathOf(job, job.plan->GetConnectionTransfers()[connection])
                             : job.paths[connection];
}

VclosPath
VclosFlowExecutor::HashedPathOf(const Job& job, uint32_t transfer) const
{
    const VclosFlowCollectivePlan::Transfer& t = job.plan->GetTransfers()[transfer];
    const VclosTopology& topology = *m_topology;
    const uint32_t src = job.gpus[t.src];
    const uint32_t dst = job.gpus[t.dst];
    uint32_t spine = 0;
    const bool viaCore = topology.Classify(src, dst) == VclosPathKind::VIA_CORE;
    if (viaCore && !job.port.empty())
    {
        // Its own circuits: up the source's port, down the destination virtual leaf's port
        // to the same spine (leaf-leaf circuit: the same port number).
        VCLOS_REQUIRE(job.port[t.src] >= 0,
                      std::logic_error,
                      "job " << job.request.id << ": GPU " << src << " has no uplink port");
        const auto up = static_cast<uint32_t>(job.port[t.src]);
        uint32_t down = up;
        if (job.spine[t.src] >= 0)
        {
            auto it = job.downPort.find(
                {job.virtualLeaf[t.dst], static_cast<uint32_t>(job.spine[t.src])});
            VCLOS_REQUIRE(it != job.downPort.end(),
                          std::logic_error,
                          "job " << job.request.id << ": GPU " << dst
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
            VclosFiveTuple key;
            key.srcAddress = src;
            key.dstAddress = dst;
            key.protocol = 6;
            key.dstPort = static_cast<uint16_t>(job.request.id);
            key.srcPort = static_cast<uint16_t>(m_pathPerStep ? transfer : t.connection);
            spine = VclosHashToIndex(VclosHashFiveTuple(key, m_salt, m_hashAlgorithm),
                                     topology.GetSpines());
        }
    }
    if (topology.HasOcs())
    {
        // The fixed full wiring: the ports whose static circuits reach the spine (unused
        // off the core).
        return viaCore ? topology.GetPathVia(
                             src,
                             dst,
                             VclosOcsFullWiringUplink(topology, topology.GetLeafOfGpu(src), spine),
                             VclosOcsFullWiringUplink(topology, topology.GetLeafOfGpu(dst), spine))
                       : topology.GetPathVia(src, dst, 0, 0);
    }
    return topology.GetPath(src, dst, spine);
}

void
VclosFlowExecutor::Count(const Alone& counts, uint64_t times)
{
    m_stats.flows += counts.flows * times;
    m_stats.coreFlows += counts.coreFlows * times;
    m_stats.sharingCoreFlows += counts.sharingCoreFlows * times;
    m_stats.conflictingCoreFlows += counts.conflictingCoreFlows * times;
}

bool
VclosFlowExecutor::RunBurst(Job& job,
                            double bytes,
                            double until,
                            Alone& counts,
                            std::vector<std::pair<uint32_t, double>>& active,
                            double& end)
{
    // A collective whose transfers all start at once (an all-to-all) under equal share: few
    // instants, many flows, so VclosFlowBurst rather than the engine (the same results).
    const auto& transfers = job.plan->GetTransfers();
    if (m_sharing != EQUAL_SHARE || job.plan->GetInitial().size() != transfers.size())
    {
        return false;
    }
    std::vector<uint32_t> order; // transfers in launch order
    auto run = std::make_unique<VclosFlowCollectiveRun>(
        *job.plan,
        [&order](uint32_t transfer) { order.push_back(transfer); });
    run->Begin();
    std::vector<VclosPath> paths;
    std::vector<double> sizes;
    paths.reserve(order.size());
    sizes.reserve(order.size());
    for (uint32_t t : order)
    {
        paths.push_back(PathOf(job, t));
        sizes.push_back(std::max(1.0, std::round(transfers[t].share * bytes)));
    }
    constexpr uint32_t MAX_INSTANTS = 64; // beyond, the engine's per-instant work is less
    const VclosFlowBurst::Result r =
        VclosFlowBurst::Run(m_capacities, m_coreLinks, paths, sizes, until, MAX_INSTANTS);
    if (!r.complete)
    {
        return false;
    }
    ++m_stats.burstReplays;
    active.clear();
    bool over = false;
    for (std::size_t i = 0; i < order.size(); ++i)
    {
        if (r.finish[i] > until)
        {
            active.emplace_back(order[i], r.remaining[i]);
            continue;
        }
        ++counts.flows;
        bool core = false;
        for (uint32_t l : paths[i])
        {
            core = core || m_coreLinks[l];
        }
        if (core)
        {
            ++counts.coreFlows;
            counts.sharingCoreFlows += r.maxSharing[i] >= 2 ? 1 : 0;
            counts.conflictingCoreFlows += r.watchedLimited[i] ? 1 : 0;
        }
        over = run->Arrived(order[i]) || over;
    }
    if (over)
    {
        end = r.end;
        return true;
    }
    job.run = std::move(run);
    end = -1;
    return true;
}

double
VclosFlowExecutor::RunAlone(Job& job,
                            double bytes,
                            double until,
                            Alone& counts,
                            std::vector<std::pair<uint32_t, double>>& active)
{
    double end = -1;
    if (RunBurst(job, bytes, until, counts, active, end))
    {
        return end;
    }
    if (!m_scratch)
    {
        m_scratch = std::make_unique<VclosFlowEngine>(m_capacities, EngineSharing());
        m_scratch->SetWatchedLinks(m_coreLinks);
    }
    VclosFlowEngine& engine = *m_scratch;
    engine.Reset();
    const auto& transfers = job.plan->GetTransfers();
    const auto& firsts = job.plan->GetConnectionTransfers();
    // A connection whose links no other connection of the job uses (the job is alone) carries
    // one flow at a time at its path's slowest capacity, under either sharing model: its
    // transfers run as timers of that length instead of through the rate computation.
    CountConnections(job);
    constexpr uint32_t NONE = VclosFlowCollectivePlan::NONE;
    std::vector<double> fixedRate(firsts.size(), 0); // bytes/s; 0: through the engine
    std::vector<uint8_t> crossesCore(firsts.size(), 0);
    std::vector<uint32_t> inFlight(firsts.size(), NONE); // fixed-rate transfer in flight
    std::vector<double> sentAt(firsts.size(), 0);
    for (std::size_t c = 0; c < firsts.size(); ++c)
    {
        bool alone = !m_pathPerStep;
        double rate = std::numeric_limits<double>::infinity();
        for (uint32_t l : PathOf(job, firsts[c]))
        {
            alone = alone && m_linkName[l] == 1;
            rate = std::min(rate, m_capacities[l] / 8.0);
            crossesCore[c] = crossesCore[c] || m_coreLinks[l];
        }
        fixedRate[c] = alone ? rate : 0;
    }
    auto sizeOf = [&](uint32_t transfer) {
        return std::max(1.0, std::round(transfers[transfer].share * bytes));
    };
    std::vector<uint32_t> live; // transfer by engine flow id
    bool over = false;
    std::unique_ptr<VclosFlowCollectiveRun> run;
    auto arrived = [&](uint32_t transfer, bool sharing, bool conflicting) {
        const uint32_t c = transfers[transfer].connectionId;
        if (inFlight[c] == transfer)
        {
            inFlight[c] = NONE;
        }
        ++counts.flows;
        if (crossesCore[c])
        {
            ++counts.coreFlows;
            counts.sharingCoreFlows += sharing ? 1 : 0;
            counts.conflictingCoreFlows += conflicting ? 1 : 0;
        }
        over = run->Arrived(transfer) || over;
    };
    run = std::make_unique<VclosFlowCollectiveRun>(*job.plan, [&](uint32_t transfer) {
        const uint32_t c = transfers[transfer].connectionId;
        if (fixedRate[c] > 0)
        {
            inFlight[c] = transfer;
            sentAt[c] = engine.GetNow();
            engine.Schedule(sizeOf(transfer) / fixedRate[c],
                            [&arrived, transfer]() { arrived(transfer, false, false); });
            return;
        }
        const VclosPath path = PathOf(job, transfer);
        const VclosFlowEngine::FlowId id =
            engine.StartFlow(path.links.data(), path.size, sizeOf(transfer), transfer);
        if (id >= live.size())
        {
            live.resize(id + 1, NONE);
        }
        live[id] = transfer;
    });
    engine.SetFinishHandler([&](VclosFlowEngine::FlowId id, uint64_t transfer) {
        live[id] = NONE;
        arrived(static_cast<uint32_t>(transfer),
                engine.GetMaxSharing(id) >= 2,
                engine.IsWatchedLimited(id));
    });
    run->Begin();
    while (!over && engine.GetNextTime() <= until)
    {
        engine.Step();
    }
    if (over)
    {
        return engine.GetNow();
    }
    engine.AdvanceTo(until);
    active.clear();
    for (VclosFlowEngine::FlowId id = 0; id < live.size(); ++id)
    {
        if (live[id] != NONE)
        {
            active.emplace_back(live[id], engine.GetRemainingBytes(id));
        }
    }
    for (std::size_t c = 0; c < firsts.size(); ++c)
    {
        if (inFlight[c] != NONE)
        {
            const double left = sizeOf(inFlight[c]) - fixedRate[c] * (until - sentAt[c]);
            active.emplace_back(inFlight[c], std::max(0.0, left));
        }
    }
    job.run = std::move(run);
    return -1;
}

void
VclosFlowExecutor::CountConnections(const Job& job)
{
    ++m_epoch;
    const auto connections = static_cast<uint32_t>(job.plan->GetConnectionTransfers().size());
    for (uint32_t c = 0; c < connections; ++c)
    {
        for (uint32_t l : ConnectionPath(job, c))
        {
            m_linkName[l] = m_linkMark[l] == m_epoch ? m_linkName[l] + 1 : 1;
            m_linkMark[l] = m_epoch;
        }
    }
}

bool
VclosFlowExecutor::CoreNeverBinds(const Job& job, Alone& counts)
{
    const auto& transfers = job.plan->GetTransfers();
    const auto& firsts = job.plan->GetConnectionTransfers();
    CountConnections(job);
    // (a) Every leaf-spine link carries one of its connections and is no slower than the NIC
    //     the connection leaves by: a connection sends one step at a time, so such a link
    //     holds at most one flow, which its NIC already limits as much.
    // (b) Every transfer starts at once, one per connection, with the same bytes; every flow
    //     through a NIC gets the same share r of its NIC links, and every leaf-spine link's
    //     share is above r: all of them run at r and end together, so counts never change
    //     while they run (intra-server flows use links of their own).
    bool single = true;
    bool together = job.plan->GetInitial().size() == transfers.size() &&
                    firsts.size() == transfers.size();
    double rate = -1;                                       // r
    double bytes = -1;                                      // their share of the message
    double coreShare = std::numeric_limits<double>::infinity(); // least leaf-spine share
    counts = Alone();
    counts.flows = transfers.size();
    // Each link's share of its capacity, once per link rather than per connection.
    for (uint32_t l : job.links)
    {
        m_linkShare[l] = m_capacities[l] / m_linkName[l];
    }
    for (uint32_t c = 0; c < firsts.size(); ++c)
    {
        const uint32_t t = firsts[c];
        const VclosPath path = ConnectionPath(job, c);
        uint32_t most = 0;
        double nicShare = std::numeric_limits<double>::infinity();
        for (uint32_t l : path)
        {
            const double share = m_linkShare[l];
            if (m_coreLinks[l])
            {
                most = std::max(most, m_linkName[l]);
                coreShare = std::min(coreShare, share);
                single = single && m_linkName[l] == 1 &&
                         m_capacities[l] >= m_capacities[path.links[0]];
            }
            else
            {
                nicShare = std::min(nicShare, share);
            }
        }
        if (path.kind == VclosPathKind::SAME_LEAF || path.kind == VclosPathKind::VIA_CORE)
        {
            together = together && (rate < 0 || (nicShare == rate && transfers[t].share == bytes));
            rate = nicShare;
            bytes = transfers[t].share;
        }
        if (most > 0)
        {
            uint64_t steps = 0;
            for (uint32_t s = t; s != VclosFlowCollectivePlan::NONE;
                 s = transfers[s].nextOnConnection)
            {
                ++steps;
            }
            counts.coreFlows += steps;
            counts.sharingCoreFlows += most >= 2 ? steps : 0;
        }
    }
    return single || (together && coreShare > rate);
}

VclosFlowExecutor::Alone
VclosFlowExecutor::AloneOf(Job& job)
{
    Alone alone;
    if (CoreNeverBinds(job, alone))
    {
        ++m_stats.referenceAlone;
        // Its time is the contention-free reference, cached by server layout.
        constexpr double PROBE_BYTES = 1e9;
        alone.secondsPerByte =
            GetContentionFreeSeconds(job.request.algorithm, job.gpus, PROBE_BYTES) / PROBE_BYTES;
        return alone;
    }
    // Key: the plan, and every connection's path with links renamed in order of first use
    // and their capacities: jobs alike in these run alike, whatever GPUs and spines. The
    // sequence is kept as two independent 64-bit fingerprints.
    uint64_t fnv = 0xcbf29ce484222325ull;
    uint64_t mix = 0x9E3779B97F4A7C15ull;
    auto add = [&](uint64_t v) {
        fnv = (fnv ^ v) * 0x100000001b3ull;
        mix += v + 0x9E3779B97F4A7C15ull;
        mix = (mix ^ (mix >> 30)) * 0xbf58476d1ce4e5b9ull;
        mix = (mix ^ (mix >> 27)) * 0x94d049bb133111ebull;
        mix ^= mix >> 31;
    };
    // A link's capacity enters once, where the link is first named (the same information as
    // at every use: names are given in order of first use).
    ++m_epoch;
    uint32_t names = 0;
    const std::vector<double>& capacities = m_capacities;
    const auto connections = static_cast<uint32_t>(job.plan->GetConnectionTransfers().size());
    for (uint32_t c = 0; c < connections; ++c)
    {
        add(UINT64_MAX); // separator
        for (uint32_t l : ConnectionPath(job, c))
        {
            if (m_linkMark[l] != m_epoch)
            {
                m_linkMark[l] = m_epoch;
                m_linkName[l] = names++;
                uint64_t bits;
                std::memcpy(&bits, &capacities[l], sizeof bits);
                add(bits);
            }
            add(m_linkName[l]);
        }
    }
    const std::vector<uint64_t> key{fnv,
                                    mix,
                                    reinterpret_cast<uintptr_t>(job.plan.get()),
                                    job.plan->GetTransfers().size()};
    auto it = m_alone.find(key);
    if (it == m_alone.end())
    {
        constexpr double PROBE_BYTES = 1e9;
        alone = Alone();
        std::vector<std::pair<uint32_t, double>> active;
        auto keep = std::move(job.run);
        const double seconds =
            RunAlone(job, PROBE_BYTES, std::numeric_limits<double>::infinity(), alone, active);
        job.run = std::move(keep);
        VCLOS_REQUIRE(seconds >= 0,
                      std::logic_error,
                      "flow executor: job " << job.request.id << "'s collective did not end alone");
        alone.secondsPerByte = seconds / PROBE_BYTES;
        it = m_alone.emplace(key, alone).first;
    }
    return it->second;
}

void
VclosFlowExecutor::IsolatedDone(uint32_t slot)
{
    Job& job = *m_slots.at(slot);
    Count(job.alone, job.request.iterations);
    job.done();
}

void
VclosFlowExecutor::Materialize(uint32_t slot)
{
    Job& job = *m_slots.at(slot);
    NS_LOG_FUNCTION(this << job.request.id);
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
            VclosGuardEvent("flow executor", [&]() { BeginCollective(slot); });
        });
        return;
    }
    // Where its collective would be now, alone: replay it privately, then move what is in
    // flight into the engine.
    Alone partial;
    std::vector<std::pair<uint32_t, double>> active;
    const double ended = RunAlone(job,
                                  static_cast<double>(job.request.messageBytes),
                                  within - compute,
                                  partial,
                                  active);
    Count(partial, 1);
    if (ended >= 0)
    {
        // It ends at this very instant (rounding): finish the iteration as the engine would.
        job.run =
            std::make_unique<VclosFlowCollectiveRun>(*job.plan, [this, slot](uint32_t transfer) {
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
VclosFlowExecutor::BeginCollective(uint32_t slot)
{
    Sync();
    m_slots.at(slot)->run->Begin();
    Arm();
}

void
VclosFlowExecutor::Launch(uint32_t slot, uint32_t transfer)
{
    const Job& job = *m_slots[slot];
    const double share = job.plan->GetTransfers()[transfer].share;
    StartInEngine(slot,
                  transfer,
                  std::max(1.0, std::round(share * static_cast<double>(job.request.messageBytes))));
}

void
VclosFlowExecutor::StartInEngine(uint32_t slot, uint32_t transfer, double bytes)
{
    const VclosPath path = PathOf(*m_slots[slot], transfer);
    const VclosFlowEngine::FlowId id =
        m_engine->StartFlow(path.links.data(),
                            path.size,
                            bytes,
                            (static_cast<uint64_t>(slot) << 32) | transfer);
    if (id >= m_flowCrossesCore.size())
    {
        m_flowCrossesCore.resize(id + 1);
    }
    m_flowCrossesCore[id] = path.kind == VclosPathKind::VIA_CORE;
}

void
VclosFlowExecutor::FlowFinished(VclosFlowEngine::FlowId id, uint64_t tag)
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
VclosFlowExecutor::EndIteration(uint32_t slot)
{
    // The iteration is over on every rank.
    Job& job = *m_slots.at(slot);
    if (++job.iteration < job.request.iterations)
    {
        job.pending = Simulator::Schedule(job.request.computeTime, [this, slot]() {
            VclosGuardEvent("flow executor", [&]() { BeginCollective(slot); });
        });
        return;
    }
    job.pending = Simulator::ScheduleNow(
        [this, slot]() { VclosGuardEvent("flow executor", [&]() { m_slots.at(slot)->done(); }); });
}

void
VclosFlowExecutor::Stop(const VclosJobRequest& job, const VclosJobAllocation& allocation)
{
    auto it = m_slotOfJob.find(job.id);
    VCLOS_REQUIRE(it != m_slotOfJob.end(),
                  std::logic_error,
                  "VclosFlowExecutor::Stop: job " << job.id << " is not running");
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
VclosFlowExecutor::Sync()
{
    Engine().AdvanceTo(std::max(Simulator::Now().GetSeconds(), m_engine->GetNow()));
}

void
VclosFlowExecutor::Arm()
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
    m_fire = Simulator::Schedule(std::max(at - Simulator::Now(), Time(0)),
                                 &VclosFlowExecutor::Fire,
                                 this);
}

void
VclosFlowExecutor::Fire()
{
    VclosGuardEvent("flow executor", [&]() {
        m_engine->AdvanceTo(
            std::max({Simulator::Now().GetSeconds(), m_armedFor, m_engine->GetNow()}));
        Arm();
    });
}

double
VclosFlowExecutor::GetContentionFreeSeconds(VclosCollectiveAlgorithm algorithm,
                                            const std::vector<uint32_t>& rankGpus,
                                            double messageBytes)
{
    VCLOS_REQUIRE(std::isfinite(messageBytes) && messageBytes >= 0,
                  std::invalid_argument,
                  "GetContentionFreeSeconds: message bytes must be >= 0 (got " << messageBytes
                                                                               << ")");
    if (rankGpus.size() < 2)
    {
        return 0;
    }
    const VclosTopology& topology = GetTopology();
    const VclosCollectiveShape shape = ShapeOf(rankGpus, algorithm);
    // Key: what runs, and which consecutive ranks share a server (nothing else matters
    // when the core does not constrain).
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
    const auto key = std::make_tuple(static_cast<int>(shape.algorithm),
                                     shape.gpusPerServer * 65536u + shape.serversPerLeaf,
                                     runs);
    auto it = m_reference.find(key);
    if (it == m_reference.end())
    {
        // The job alone, 1 GB per message, only NIC and intra-server links.
        constexpr double PROBE_BYTES = 1e9;
        auto plan = PlanOf(shape, static_cast<uint32_t>(rankGpus.size()));
        auto pathOf = [&](const VclosFlowCollectivePlan::Transfer& t) {
            const uint32_t src = rankGpus[t.src];
            const uint32_t dst = rankGpus[t.dst];
            VclosPath path = topology.GetPathVia(src, dst, 0, 0); // the core is not used
            if (path.kind == VclosPathKind::VIA_CORE)
            {
                path.links = {topology.GetNicUp(src), topology.GetNicDown(dst), 0, 0};
                path.size = 2;
            }
            return path;
        };
        const auto& transfers = plan->GetTransfers();
        if (m_sharing == EQUAL_SHARE && plan->GetInitial().size() == transfers.size())
        {
            // Every transfer starts at once: VclosFlowBurst gives the engine's end exactly.
            Engine(); // the link tables
            std::vector<VclosPath> paths;
            std::vector<double> sizes;
            paths.reserve(transfers.size());
            sizes.reserve(transfers.size());
            for (const auto& t : transfers)
            {
                paths.push_back(pathOf(t));
                sizes.push_back(std::max(1.0, t.share * PROBE_BYTES));
            }
            constexpr uint32_t MAX_INSTANTS = 64;
            const VclosFlowBurst::Result r =
                VclosFlowBurst::Run(m_capacities,
                                    m_coreLinks,
                                    paths,
                                    sizes,
                                    std::numeric_limits<double>::infinity(),
                                    MAX_INSTANTS);
            if (r.complete)
            {
                ++m_stats.burstReferences;
                it = m_reference.emplace(key, r.end / PROBE_BYTES).first;
                return it->second * messageBytes;
            }
        }
        VclosFlowEngine engine(Capacities(), EngineSharing());
        VclosFlowCollectiveRun* runPtr = nullptr;
        bool over = false;
        engine.SetFinishHandler([&](VclosFlowEngine::FlowId, uint64_t transfer) {
            over = runPtr->Arrived(static_cast<uint32_t>(transfer)) || over;
        });
        VclosFlowCollectiveRun run(*plan, [&](uint32_t transfer) {
            const auto& t = transfers[transfer];
            const VclosPath path = pathOf(t);
            engine.StartFlow(path.links.data(),
                             path.size,
                             std::max(1.0, t.share * PROBE_BYTES),
                             transfer);
        });
        runPtr = &run;
        run.Begin();
        engine.Run();
        VCLOS_REQUIRE(over,
                      std::logic_error,
                      "contention-free reference: the collective of " << rankGpus.size()
                                                                      << " ranks did not end");
        it = m_reference.emplace(key, engine.GetNow() / PROBE_BYTES).first;
    }
    return it->second * messageBytes;
}

const VclosFlowExecutor::Stats&
VclosFlowExecutor::GetStats() const
{
    return m_stats;
}

VclosFlowEngine::Stats
VclosFlowExecutor::GetEngineStats() const
{
    return m_engine ? m_engine->GetStats() : VclosFlowEngine::Stats{};
}

double
VclosFlowExecutor::GetConflictingFlowShare() const
{
    return m_stats.coreFlows == 0 ? 0.0
                                  : static_cast<double>(m_stats.conflictingCoreFlows) /
                                        static_cast<double>(m_stats.coreFlows);
}

} // namespace ns3

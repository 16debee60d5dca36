/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "vclos-flow-executor.h"

#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"
#include "ns3/vclos-check.h"
#include "ns3/vclos-run-status.h"

#include <algorithm>
#include <cmath>

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
      m_armedFor(0)
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
        m_engine = std::make_unique<VclosFlowEngine>(topology.GetLinkCapacities(), EngineSharing());
        std::vector<bool> core(topology.GetLinkCount());
        for (uint32_t id = 0; id < core.size(); ++id)
        {
            const auto kind = topology.GetLink(id).kind;
            core[id] = kind == VclosTopology::LinkKind::LEAF_UP ||
                       kind == VclosTopology::LinkKind::LEAF_DOWN;
        }
        m_engine->SetWatchedLinks(core);
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
    const PlanKey key{static_cast<int>(shape.algorithm),
                      ranks,
                      shape.gpusPerServer,
                      shape.serversPerLeaf};
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
    for (uint32_t gpu : allocation.gpus)
    {
        VCLOS_REQUIRE(gpu < topology.GetGpus(),
                      std::out_of_range,
                      "job " << job.id << ": GPU " << gpu << " is outside the cluster");
    }
    auto state = std::make_unique<Job>();
    state->request = job;
    state->gpus = allocation.gpus;
    state->spine = allocation.uplinkSpine;
    state->done = std::move(done);
    VclosCollectiveAlgorithm runs = job.algorithm;
    if (job.gpus > 1)
    {
        const VclosCollectiveShape shape = ShapeOf(allocation.gpus, job.algorithm);
        runs = shape.algorithm;
        state->plan = PlanOf(shape, job.gpus);
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
    if (state->plan)
    {
        state->run =
            std::make_unique<VclosFlowCollectiveRun>(*state->plan, [this, slot](uint32_t transfer) {
                Launch(slot, transfer);
            });
    }
    m_slots[slot] = std::move(state);
    m_slotOfJob[job.id] = slot;
    if (job.gpus == 1)
    {
        // One GPU: no collective, only compute.
        Simulator::Schedule(job.computeTime * job.iterations, [this, slot]() {
            VclosGuardEvent("flow executor", [&]() { m_slots.at(slot)->done(); });
        });
    }
    else
    {
        Simulator::Schedule(job.computeTime, [this, slot]() {
            VclosGuardEvent("flow executor", [&]() { BeginCollective(slot); });
        });
    }
    return runs;
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
    const VclosFlowCollectivePlan::Transfer& t = job.plan->GetTransfers()[transfer];
    const VclosTopology& topology = *m_topology;
    const uint32_t src = job.gpus[t.src];
    const uint32_t dst = job.gpus[t.dst];
    uint32_t spine = 0;
    const VclosPathKind kind = topology.Classify(src, dst);
    if (kind == VclosPathKind::VIA_CORE)
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
    const VclosPath path = topology.GetPath(src, dst, spine);
    const double bytes =
        std::max(1.0, std::round(t.share * static_cast<double>(job.request.messageBytes)));
    const VclosFlowEngine::FlowId id =
        m_engine->StartFlow(path.links.data(),
                            path.size,
                            bytes,
                            (static_cast<uint64_t>(slot) << 32) | transfer);
    if (id >= m_flowCrossesCore.size())
    {
        m_flowCrossesCore.resize(id + 1);
    }
    m_flowCrossesCore[id] = kind == VclosPathKind::VIA_CORE;
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
            ++m_stats.conflictingCoreFlows;
        }
    }
    const auto slot = static_cast<uint32_t>(tag >> 32);
    const auto transfer = static_cast<uint32_t>(tag & 0xFFFFFFFFu);
    Job& job = *m_slots.at(slot);
    if (!job.run->Arrived(transfer))
    {
        return;
    }
    // The iteration is over on every rank.
    if (++job.iteration < job.request.iterations)
    {
        Simulator::Schedule(job.request.computeTime, [this, slot]() {
            VclosGuardEvent("flow executor", [&]() { BeginCollective(slot); });
        });
        return;
    }
    Simulator::ScheduleNow(
        [this, slot]() { VclosGuardEvent("flow executor", [&]() { m_slots.at(slot)->done(); }); });
}

void
VclosFlowExecutor::Stop(const VclosJobRequest& job, const VclosJobAllocation& allocation)
{
    auto it = m_slotOfJob.find(job.id);
    VCLOS_REQUIRE(it != m_slotOfJob.end(),
                  std::logic_error,
                  "VclosFlowExecutor::Stop: job " << job.id << " is not running");
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
        VclosFlowEngine engine(topology.GetLinkCapacities(), EngineSharing());
        VclosFlowCollectiveRun* runPtr = nullptr;
        bool over = false;
        engine.SetFinishHandler([&](VclosFlowEngine::FlowId, uint64_t transfer) {
            over = runPtr->Arrived(static_cast<uint32_t>(transfer)) || over;
        });
        VclosFlowCollectiveRun run(*plan, [&](uint32_t transfer) {
            const auto& t = plan->GetTransfers()[transfer];
            const uint32_t src = rankGpus[t.src];
            const uint32_t dst = rankGpus[t.dst];
            VclosPath path = topology.GetPath(src, dst, 0);
            if (path.kind == VclosPathKind::VIA_CORE)
            {
                path.links = {topology.GetNicUp(src), topology.GetNicDown(dst), 0, 0};
                path.size = 2;
            }
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

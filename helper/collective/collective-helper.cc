/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "collective-helper.h"

#include "ns3/boolean.h"
#include "ns3/collective-app.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/suite-check.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <map>
#include <set>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CollectiveHelper");

NS_OBJECT_ENSURE_REGISTERED(CollectiveHelper);

namespace
{
/// Starts every rank of a job once all of them have their connections up.
struct JobStarter : public SimpleRefCount<JobStarter>
{
    std::vector<Ptr<CollectiveApp>> ranks; //!< the job
    uint32_t ready = 0;                    //!< ranks ready so far

    /// \param starter the job \param rank a rank that became ready
    static void RankReady(Ptr<JobStarter> starter, uint32_t rank)
    {
        if (++starter->ready == starter->ranks.size())
        {
            for (const auto& app : starter->ranks)
            {
                if (app->GetNode()->GetSystemId() == Simulator::GetSystemId())
                {
                    // (another process runs a rank on one of its nodes: this one only set
                    // up its QPs)
                    Simulator::ScheduleNow(&CollectiveApp::StartIterations, app);
                }
            }
            starter->ranks.clear(); // no cycle with the apps' callbacks
        }
    }
};

/// Barrier-per-step mode: releases step k + 1 of every rank once every rank received step k.
struct StepBarrier : public SimpleRefCount<StepBarrier>
{
    std::vector<CollectiveApp*> ranks; //!< the job (its nodes own it: no Ptr cycle)
    std::map<std::pair<uint32_t, uint32_t>, uint32_t> done; //!< (iteration, step) -> ranks

    /// \param barrier the job \param rank a rank \param iteration its iteration \param step the
    /// step it received
    static void StepDone(Ptr<StepBarrier> barrier, uint32_t rank, uint32_t iteration, uint32_t step)
    {
        if (++barrier->done[{iteration, step}] == barrier->ranks.size())
        {
            barrier->done.erase({iteration, step});
            for (const auto& app : barrier->ranks)
            {
                Simulator::ScheduleNow(&CollectiveApp::ReleaseStep, app, iteration, step + 1);
            }
        }
    }
};
} // namespace

TypeId
CollectiveHelper::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::CollectiveHelper")
            .SetParent<Object>()
            .SetGroupName("Collective")
            .AddConstructor<CollectiveHelper>()
            .AddAttribute("Algorithm",
                          "The collective each iteration runs. Ring: RapidNetSim's ring family "
                          "(flat ring within one server, hierarchical ring over equal servers, "
                          "fusion pairs when N is not a power of two); FlatRing: one ring over "
                          "all ranks.",
                          EnumValue(CLUSTER_RING),
                          MakeEnumAccessor(&CollectiveHelper::m_algorithm),
                          MakeEnumChecker(CLUSTER_RING,
                                          "Ring",
                                          CLUSTER_FLAT_RING,
                                          "FlatRing",
                                          CLUSTER_HIERARCHICAL_RING,
                                          "HierarchicalRing",
                                          CLUSTER_HALVING_DOUBLING,
                                          "HalvingDoubling",
                                          CLUSTER_ALL_TO_ALL,
                                          "AllToAll"))
            .AddAttribute("MessageBytes",
                          "M: bytes all-reduced (all-to-all: bytes sent to each peer).",
                          UintegerValue(100 * 1024 * 1024),
                          MakeUintegerAccessor(&CollectiveHelper::m_messageBytes),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("ChunkBytes",
                          "Pipelining unit (NCCL's default: 512 KiB).",
                          UintegerValue(512 * 1024),
                          MakeUintegerAccessor(&CollectiveHelper::m_chunkBytes),
                          MakeUintegerChecker<uint64_t>(1))
            .AddAttribute("Iterations",
                          "Iterations of the job.",
                          UintegerValue(1),
                          MakeUintegerAccessor(&CollectiveHelper::m_iterations),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("ComputeTime",
                          "Compute phase before each collective (no overlap with it).",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&CollectiveHelper::m_computeTime),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("Port",
                          "Port of the next job installed; each Install() takes the next one.",
                          UintegerValue(7000),
                          MakeUintegerAccessor(&CollectiveHelper::m_port),
                          MakeUintegerChecker<uint16_t>(1))
            .AddAttribute("StartTime",
                          "When the job's ranks open their connections.",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&CollectiveHelper::m_startTime),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("Transport",
                          "The ranks' CollectiveApp::Transport: tcp or rdma (RoCEv2 queue "
                          "pairs; the GPUs need a RoceNic, see RoceHelper).",
                          StringValue("tcp"),
                          MakeStringAccessor(&CollectiveHelper::m_transport),
                          MakeStringChecker())
            .AddAttribute("StepBarrier",
                          "Barrier per step: no rank sends step k + 1 before every rank has "
                          "received step k (as flow-level simulators run collectives). Off: "
                          "data-driven, as NCCL. Needs the same number of steps on every rank.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&CollectiveHelper::m_stepBarrier),
                          MakeBooleanChecker())
            .AddAttribute(
                "RankOrder",
                "How the GPU list becomes ranks: Topology (leaf, server, GPU), "
                "AsGiven, or Random.",
                EnumValue(TOPOLOGY),
                MakeEnumAccessor(&CollectiveHelper::m_rankOrder),
                MakeEnumChecker(TOPOLOGY, "Topology", AS_GIVEN, "AsGiven", RANDOM, "Random"));
    return tid;
}

CollectiveHelper::CollectiveHelper()
    : m_algorithm(CLUSTER_RING),
      m_installedAlgorithm(CLUSTER_RING),
      m_messageBytes(0),
      m_chunkBytes(0),
      m_iterations(0),
      m_port(0),
      m_rankOrder(TOPOLOGY),
      m_stepBarrier(false),
      m_rng(CreateObject<UniformRandomVariable>())
{
    NS_LOG_FUNCTION(this);
}

int64_t
CollectiveHelper::AssignStreams(int64_t stream)
{
    m_rng->SetStream(stream);
    return 1;
}

ClusterCollectiveAlgorithm
CollectiveHelper::GetInstalledAlgorithm() const
{
    return m_installedAlgorithm;
}

uint32_t
CollectiveHelper::EqualServerRuns(Ptr<ClosFabric> fabric, const std::vector<uint32_t>& gpus)
{
    return EqualRuns(gpus, [&](uint32_t gpu) { return fabric->GetServerOfGpu(gpu); });
}

uint32_t
CollectiveHelper::EqualRuns(const std::vector<uint32_t>& gpus,
                            const std::function<uint32_t(uint32_t)>& groupOf)
{
    return ClusterEqualRuns(gpus, groupOf);
}

const std::vector<uint32_t>&
CollectiveHelper::GetRankGpus() const
{
    return m_rankGpus;
}

ApplicationContainer
CollectiveHelper::Install(Ptr<ClosFabric> fabric, const std::vector<uint32_t>& gpus)
{
    NS_LOG_FUNCTION(this << fabric << gpus.size());
    CheckJob(fabric, gpus);
    OrderRanks(gpus);
    const std::vector<ClusterRankSchedule> schedule = BuildSchedule(fabric);
    ApplicationContainer apps = CreateRankApps(fabric, schedule);
    m_port = m_port == 65535 ? 0 : m_port + 1; // 0: none left (CheckJob refuses the next job)
    return apps;
}

void
CollectiveHelper::CheckJob(Ptr<ClosFabric> fabric, const std::vector<uint32_t>& gpus) const
{
    SUITE_REQUIRE(m_port >= 1,
                  std::out_of_range,
                  "no TCP port left for another job (the last one took 65535); set Port lower");
    SUITE_REQUIRE(m_transport == "tcp" || m_transport == "rdma",
                  std::invalid_argument,
                  "ns3::CollectiveHelper::Transport=" << m_transport << ": must be tcp or rdma");
    SUITE_REQUIRE(gpus.size() >= 2,
                  std::invalid_argument,
                  "a collective job needs at least 2 GPUs (got " << gpus.size() << ")");
    SUITE_REQUIRE(m_messageBytes >= 1, std::invalid_argument, "MessageBytes must be at least 1");
    std::set<uint32_t> seen;
    for (uint32_t gpu : gpus)
    {
        SUITE_REQUIRE(gpu < fabric->GetGpuCount(),
                      std::out_of_range,
                      "GPU " << gpu << " is outside the fabric (0.." << fabric->GetGpuCount() - 1
                             << ")");
        SUITE_REQUIRE(seen.insert(gpu).second,
                      std::invalid_argument,
                      "GPU " << gpu << " is listed twice in the job");
    }
    // A distributed run (ClosFabricHelper::Systems > 1): every process builds every rank,
    // in the same order, so that each sets up the same QPs (RoceNic::Connect is out of
    // band and reserves the responder's QP number); only its own ranks start (JobStarter).
    const bool distributed = std::any_of(gpus.begin(), gpus.end(), [&](uint32_t gpu) {
        return fabric->GetGpus().Get(gpu)->GetSystemId() != Simulator::GetSystemId();
    });
    SUITE_REQUIRE(!distributed || (m_transport == "rdma" && !m_stepBarrier),
                  std::invalid_argument,
                  "a job over processes of a distributed run needs Transport=rdma and no "
                  "StepBarrier (TCP connects and the barrier would need messages between "
                  "processes)");
}

void
CollectiveHelper::OrderRanks(const std::vector<uint32_t>& gpus)
{
    m_rankGpus = gpus;
    if (m_rankOrder == TOPOLOGY)
    {
        std::sort(m_rankGpus.begin(), m_rankGpus.end());
    }
    else if (m_rankOrder == RANDOM)
    {
        for (std::size_t i = m_rankGpus.size() - 1; i > 0; --i) // Fisher-Yates
        {
            std::swap(m_rankGpus[i], m_rankGpus[m_rng->GetInteger(0, static_cast<uint32_t>(i))]);
        }
    }
}

std::vector<ClusterRankSchedule>
CollectiveHelper::BuildSchedule(Ptr<ClosFabric> fabric)
{
    const auto ranks = static_cast<uint32_t>(m_rankGpus.size());
    // The ring family and the hierarchical ring need runs of consecutive ranks per server,
    // all of one size (0: unequal). A hierarchical ring over unequal servers (a packing
    // remainder such as 4 + 2 GPUs) runs the ring family instead.
    const ClusterCollectiveShape shape = ClusterShapeCollective(
        m_algorithm,
        m_rankGpus,
        [&](uint32_t gpu) { return fabric->GetServerOfGpu(gpu); },
        [&](uint32_t gpu) { return fabric->GetLeafOfGpu(gpu); });
    m_installedAlgorithm = shape.algorithm;
    if (m_installedAlgorithm != m_algorithm)
    {
        NS_LOG_WARN("hierarchical ring over unequal servers: job on port "
                    << m_port << " (" << ranks << " GPUs) runs the ring family instead");
    }
    return ClusterBuildCollectiveSchedule(m_installedAlgorithm,
                                          ranks,
                                          m_messageBytes,
                                          shape.gpusPerServer,
                                          shape.serversPerLeaf);
}

ApplicationContainer
CollectiveHelper::CreateRankApps(Ptr<ClosFabric> fabric,
                                 const std::vector<ClusterRankSchedule>& schedule) const
{
    const auto ranks = static_cast<uint32_t>(m_rankGpus.size());
    auto addresses = std::make_shared<std::vector<Ipv4Address>>();
    auto rankOfAddress = std::make_shared<std::map<uint32_t, uint32_t>>();
    for (uint32_t r = 0; r < ranks; ++r)
    {
        Ipv4Address nic = fabric->GetGpuAddress(m_rankGpus[r]);
        addresses->push_back(nic);
        (*rankOfAddress)[nic.Get()] = r;
        (*rankOfAddress)[fabric->GetGpuIntraServerAddress(m_rankGpus[r]).Get()] = r;
    }

    Ptr<JobStarter> starter = Create<JobStarter>();
    Ptr<StepBarrier> barrier;
    if (m_stepBarrier)
    {
        for (const auto& steps : schedule)
        {
            SUITE_REQUIRE(steps.size() == schedule.front().size(),
                          std::invalid_argument,
                          "StepBarrier needs the same number of steps on every rank, which "
                              << ClusterCollectiveAlgorithmName(m_installedAlgorithm) << " over "
                              << ranks << " ranks does not have");
        }
        barrier = Create<StepBarrier>();
    }
    ApplicationContainer apps;
    for (uint32_t r = 0; r < ranks; ++r)
    {
        Ptr<CollectiveApp> app = CreateObject<CollectiveApp>();
        app->SetAttribute("Port", UintegerValue(m_port));
        app->SetAttribute("Transport", StringValue(m_transport));
        app->SetAttribute("ChunkBytes", UintegerValue(m_chunkBytes));
        app->SetAttribute("Iterations", UintegerValue(m_iterations));
        app->SetAttribute("ComputeTime", TimeValue(m_computeTime));
        app->Configure(r, schedule[r], addresses, rankOfAddress);
        app->SetReadyCallback(MakeBoundCallback(&JobStarter::RankReady, starter));
        app->SetStartTime(m_startTime);
        fabric->GetGpus().Get(m_rankGpus[r])->AddApplication(app);
        starter->ranks.push_back(app);
        if (barrier)
        {
            app->EnableStepBarrier();
            app->TraceConnectWithoutContext("StepComplete",
                                            MakeBoundCallback(&StepBarrier::StepDone, barrier));
            barrier->ranks.push_back(PeekPointer(app));
        }
        apps.Add(app);
    }
    return apps;
}

} // namespace ns3

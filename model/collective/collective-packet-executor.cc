/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "collective-packet-executor.h"

#include "ns3/cluster-ocs-state.h"
#include "ns3/collective-app.h"
#include "ns3/collective-helper.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/ocs-switch.h"
#include "ns3/roce-helper.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/suite-check.h"
#include "ns3/suite-run-status.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CollectivePacketExecutor");

NS_OBJECT_ENSURE_REGISTERED(CollectivePacketExecutor);

TypeId
CollectivePacketExecutor::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::CollectivePacketExecutor")
            .SetParent<ClusterJobExecutor>()
            .SetGroupName("Collective")
            .AddConstructor<CollectivePacketExecutor>()
            .AddAttribute("BasePort",
                          "Port of the first job's connections. Each job of 2 or more GPUs "
                          "takes the next port not held by a running job, cycling through "
                          "BasePort..65535 (never 0); a job waits while every port is held.",
                          UintegerValue(20000),
                          MakeUintegerAccessor(&CollectivePacketExecutor::m_basePort),
                          MakeUintegerChecker<uint16_t>(1))
            .AddAttribute("Transport",
                          "How ranks move bytes: tcp (TCP sockets) or rdma (RoCEv2 queue pairs, "
                          "one per peer; SetFabric installs a RoceNic on every GPU node, "
                          "so set this first). Same byte counts and step semantics.",
                          EnumValue(TCP),
                          MakeEnumAccessor(&CollectivePacketExecutor::m_transport),
                          MakeEnumChecker(TCP, "tcp", RDMA, "rdma"))
            .AddTraceSource("JobBytes",
                            "A job of 2 or more GPUs stopped: the bytes its ranks sent and "
                            "received, all ranks and iterations.",
                            MakeTraceSourceAccessor(&CollectivePacketExecutor::m_jobBytesTrace),
                            "ns3::CollectivePacketExecutor::JobBytesTracedCallback");
    return tid;
}

CollectivePacketExecutor::CollectivePacketExecutor()
    : m_basePort(20000),
      m_nextPort(0),
      m_transport(TCP),
      m_nicsInstalled(false)
{
    NS_LOG_FUNCTION(this);
}

void
CollectivePacketExecutor::DoDispose()
{
    m_fabric = nullptr;
    m_running.clear();
    ClusterJobExecutor::DoDispose();
}

void
CollectivePacketExecutor::SetFabric(Ptr<ClosFabric> fabric)
{
    SUITE_REQUIRE(fabric, std::invalid_argument, "CollectivePacketExecutor needs a fabric");
    m_fabric = fabric;
    ClusterTopologyConfig config;
    config.leaves = fabric->GetLeafCount();
    config.spines = fabric->GetSpineCount();
    config.serversPerLeaf = fabric->GetServersPerLeaf();
    config.gpusPerServer = fabric->GetGpusPerServer();
    config.ocsCount = fabric->GetOcsCount();
    config.spinePorts = fabric->GetOcsCount() * fabric->GetSpinePortsPerOcs();
    m_topology = std::make_unique<ClusterTopology>(config);
    if (m_transport == RDMA && !m_nicsInstalled)
    {
        // Validates the NIC attributes (and its rate controller's) before any node changes.
        RoceHelper().Install(fabric->GetGpus());
        m_nicsInstalled = true;
    }
}

CollectivePacketExecutor::Transport
CollectivePacketExecutor::GetTransport() const
{
    return m_transport;
}

Ptr<ClosFabric>
CollectivePacketExecutor::GetFabric() const
{
    return m_fabric;
}

const ClusterTopology&
CollectivePacketExecutor::GetTopology() const
{
    SUITE_REQUIRE(m_topology, std::logic_error, "CollectivePacketExecutor: SetFabric() first");
    return *m_topology;
}

std::optional<uint16_t>
CollectivePacketExecutor::TakePort()
{
    const uint32_t span = 65536 - m_basePort;
    const uint32_t first = m_nextPort < m_basePort ? m_basePort : m_nextPort;
    for (uint32_t i = 0; i < span; ++i)
    {
        auto port = static_cast<uint16_t>(m_basePort + (first - m_basePort + i) % span);
        if (m_portsInUse.insert(port).second)
        {
            m_nextPort = port + 1u; // 65536 wraps to BasePort on the next call
            return port;
        }
    }
    return std::nullopt;
}

bool
CollectivePacketExecutor::CanStart(const ClusterJobRequest& job)
{
    if (job.gpus > 1 && m_portsInUse.size() >= 65536u - m_basePort)
    {
        NS_LOG_INFO("job " << job.id << " waits: every port from " << m_basePort
                           << " to 65535 is held by a running job");
        return false;
    }
    return true;
}

void
CollectivePacketExecutor::Placed(const ClusterJobRequest& job,
                                 const ClusterJobAllocation& allocation,
                                 const ClusterOcsState* ocs)
{
    FollowCircuits(ocs);
}

void
CollectivePacketExecutor::Released(const ClusterJobRequest& job, const ClusterOcsState* ocs)
{
    FollowCircuits(ocs);
}

void
CollectivePacketExecutor::FollowCircuits(const ClusterOcsState* ocs)
{
    SUITE_REQUIRE(m_fabric, std::logic_error, "CollectivePacketExecutor: SetFabric() first");
    if (ocs != nullptr && m_fabric->GetOcsCount() > 0)
    {
        MirrorCircuits(*ocs);
    }
}

void
CollectivePacketExecutor::MirrorCircuits(const ClusterOcsState& state)
{
    const uint32_t leaves = m_fabric->GetLeafCount();
    const uint32_t perOcs = m_fabric->GetSpinePortsPerOcs();
    for (uint32_t k = 0; k < m_fabric->GetOcsCount(); ++k)
    {
        Ptr<OcsSwitch> ocs = m_fabric->GetOcs(k);
        // The circuits the state holds on OCS k, as (leaf port, other port).
        std::set<OcsSwitch::Circuit> wanted;
        for (uint32_t leaf = 0; leaf < leaves; ++leaf)
        {
            std::optional<ClusterOcsCircuit> c = state.GetCircuitAtUplink(leaf, k);
            if (!c)
            {
                continue;
            }
            const uint32_t a = m_fabric->GetLeafOcsPort(leaf, k);
            const uint32_t b = c->toLeaf
                                   ? m_fabric->GetLeafOcsPort(c->peer, k)
                                   : m_fabric->GetSpineOcsPort(c->peer, k, c->peerPort % perOcs);
            wanted.insert({std::min(a, b), std::max(a, b)});
        }
        // Tear down what the state no longer holds (idle circuits its booking reused the
        // ports of), then request the new ones in one batch.
        for (const OcsSwitch::Circuit& up : ocs->GetCircuits())
        {
            if (wanted.count(up) == 0)
            {
                std::string error;
                SUITE_REQUIRE(ocs->Disconnect(up.first, &error),
                              std::logic_error,
                              "CollectivePacketExecutor: OCS " << k << ": " << error);
            }
        }
        std::vector<OcsSwitch::Circuit> batch;
        for (const OcsSwitch::Circuit& c : wanted)
        {
            const bool settingUp = ocs->GetPortState(c.first) == OcsSwitch::PORT_DARK;
            if (ocs->GetPeer(c.first) != c.second && !settingUp)
            {
                batch.push_back(c);
            }
        }
        if (!batch.empty())
        {
            NS_LOG_INFO("OCS " << k << ": " << batch.size() << " circuits requested");
            std::string error;
            SUITE_REQUIRE(ocs->Reconfigure(batch, &error),
                          std::logic_error,
                          "CollectivePacketExecutor: OCS " << k << ": " << error);
        }
    }
}

void
CollectivePacketExecutor::PinSpinePairs(const ClusterJobAllocation& allocation, bool pin)
{
    // The flow executor's path: up the source's port to its spine, down the port of the
    // destination's virtual leaf whose circuit reaches that spine.
    const uint32_t n = static_cast<uint32_t>(allocation.gpus.size());
    std::map<std::pair<uint32_t, uint32_t>, uint32_t> downPort; // (virtual leaf, spine) -> k
    for (uint32_t r = 0; r < n; ++r)
    {
        if (allocation.uplinkPort[r] >= 0 && allocation.uplinkSpine[r] >= 0)
        {
            downPort[{allocation.virtualLeaf[r],
                      static_cast<uint32_t>(allocation.uplinkSpine[r])}] =
                static_cast<uint32_t>(allocation.uplinkPort[r]);
        }
    }
    for (uint32_t a = 0; a < n; ++a)
    {
        if (allocation.uplinkSpine[a] < 0)
        {
            continue; // a leaf-leaf circuit: the leaf's source pin is the whole path
        }
        const auto spine = static_cast<uint32_t>(allocation.uplinkSpine[a]);
        for (uint32_t b = 0; b < n; ++b)
        {
            const uint32_t src = allocation.gpus[a];
            const uint32_t dst = allocation.gpus[b];
            if (m_fabric->GetLeafOfGpu(src) == m_fabric->GetLeafOfGpu(dst))
            {
                continue;
            }
            if (!pin)
            {
                m_fabric->UnpinPairAtSpine(src, dst, spine);
                continue;
            }
            auto it = downPort.find({allocation.virtualLeaf[b], spine});
            SUITE_REQUIRE(it != downPort.end() &&
                              m_fabric->PinPairAtSpine(src, dst, spine, it->second),
                          std::logic_error,
                          "CollectivePacketExecutor: GPU " << dst << "'s virtual leaf has no lit "
                                                           << "circuit to spine " << spine);
        }
    }
}

ClusterCollectiveAlgorithm
CollectivePacketExecutor::Start(const ClusterJobRequest& job,
                                const ClusterJobAllocation& allocation,
                                DoneCallback done)
{
    SUITE_REQUIRE(m_fabric, std::logic_error, "CollectivePacketExecutor: SetFabric() first");
    const bool ownCircuits = !allocation.uplinkPort.empty();
    for (uint32_t r = 0; r < job.gpus; ++r)
    {
        if (ownCircuits && allocation.uplinkPort[r] >= 0)
        {
            m_fabric->PinSourceToUplink(allocation.gpus[r],
                                        static_cast<uint32_t>(allocation.uplinkPort[r]));
        }
        else if (!ownCircuits && allocation.uplinkSpine[r] >= 0)
        {
            m_fabric->PinSourceToSpine(allocation.gpus[r],
                                       static_cast<uint32_t>(allocation.uplinkSpine[r]));
        }
    }
    if (ownCircuits)
    {
        PinSpinePairs(allocation, true);
    }
    Running& running = m_running[job.id];
    running.iterations = job.iterations;
    running.ranks = job.gpus;
    running.done = std::move(done);
    if (job.gpus == 1)
    {
        // One GPU: no collective, only compute.
        Simulator::Schedule(job.computeTime * job.iterations, [this, id = job.id]() {
            SuiteGuardEvent("packet executor", [&]() { m_running.at(id).done(); });
        });
        return job.algorithm;
    }
    SUITE_REQUIRE(m_transport == TCP || m_nicsInstalled,
                  std::logic_error,
                  "CollectivePacketExecutor: Transport=rdma must be set before SetFabric()");
    running.port = TakePort();
    SUITE_REQUIRE(running.port,
                  std::logic_error,
                  "CollectivePacketExecutor: job " << job.id << " started without a free port");
    Ptr<CollectiveHelper> helper = CreateObject<CollectiveHelper>();
    helper->SetAttribute("Algorithm", EnumValue(job.algorithm));
    helper->SetAttribute("MessageBytes", UintegerValue(job.messageBytes));
    helper->SetAttribute("ComputeTime", TimeValue(job.computeTime));
    helper->SetAttribute("Iterations", UintegerValue(job.iterations));
    helper->SetAttribute("Port", UintegerValue(*running.port));
    helper->SetAttribute("RankOrder", EnumValue(CollectiveHelper::AS_GIVEN));
    helper->SetAttribute("Transport", StringValue(m_transport == RDMA ? "rdma" : "tcp"));
    ApplicationContainer apps = helper->Install(m_fabric, allocation.gpus);
    running.apps = apps;
    Ptr<CollectivePacketExecutor> self(this);
    for (uint32_t r = 0; r < apps.GetN(); ++r)
    {
        apps.Get(r)->TraceConnectWithoutContext(
            "IterationEnd",
            MakeBoundCallback(&CollectivePacketExecutor::RankIterationEnded, self, job.id));
    }
    return helper->GetInstalledAlgorithm();
}

void
CollectivePacketExecutor::RankIterationEnded(Ptr<CollectivePacketExecutor> executor,
                                             uint32_t job,
                                             uint32_t rank,
                                             uint32_t iteration)
{
    SuiteGuardEvent("packet executor", [&]() {
        Running& running = executor->m_running.at(job);
        if (iteration + 1 == running.iterations && ++running.ranksDone == running.ranks)
        {
            Simulator::ScheduleNow([executor, job]() {
                SuiteGuardEvent("packet executor", [&]() { executor->m_running.at(job).done(); });
            });
        }
    });
}

void
CollectivePacketExecutor::Stop(const ClusterJobRequest& job, const ClusterJobAllocation& allocation)
{
    auto it = m_running.find(job.id);
    SUITE_REQUIRE(it != m_running.end(),
                  std::logic_error,
                  "CollectivePacketExecutor::Stop: job " << job.id << " is not running");
    if (it->second.port)
    {
        // Its ranks closed their listeners when their last iteration ended.
        m_portsInUse.erase(*it->second.port);
        uint64_t sent = 0;
        uint64_t received = 0;
        for (uint32_t r = 0; r < it->second.apps.GetN(); ++r)
        {
            Ptr<CollectiveApp> app = DynamicCast<CollectiveApp>(it->second.apps.Get(r));
            sent += app->GetBytesSent();
            received += app->GetBytesReceived();
        }
        m_jobBytesTrace(job.id, sent, received);
    }
    m_running.erase(it);
    const bool ownCircuits = !allocation.uplinkPort.empty();
    for (uint32_t r = 0; r < job.gpus; ++r)
    {
        if (ownCircuits ? allocation.uplinkPort[r] >= 0 : allocation.uplinkSpine[r] >= 0)
        {
            m_fabric->UnpinSource(allocation.gpus[r]);
        }
    }
    if (ownCircuits)
    {
        // Its circuits stay up, idle, as the scheduler's state keeps them for reuse.
        PinSpinePairs(allocation, false);
    }
}

Ptr<CollectivePacketExecutor>
CollectivePacketExecutorOn(Ptr<ClosFabric> fabric)
{
    SUITE_REQUIRE(fabric, std::invalid_argument, "CollectivePacketExecutorOn needs a fabric");
    Ptr<CollectivePacketExecutor> executor = CreateObject<CollectivePacketExecutor>();
    executor->SetFabric(fabric);
    return executor;
}

} // namespace ns3

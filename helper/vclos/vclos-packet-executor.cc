/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "vclos-packet-executor.h"

#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"
#include "ns3/vclos-check.h"
#include "ns3/vclos-collective-helper.h"
#include "ns3/vclos-run-status.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("VclosPacketExecutor");

NS_OBJECT_ENSURE_REGISTERED(VclosPacketExecutor);

TypeId
VclosPacketExecutor::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::VclosPacketExecutor")
            .SetParent<VclosJobExecutor>()
            .SetGroupName("Vclos")
            .AddConstructor<VclosPacketExecutor>()
            .AddAttribute("BasePort",
                          "Port of the first job's connections. Each job of 2 or more GPUs "
                          "takes the next port not held by a running job, cycling through "
                          "BasePort..65535 (never 0); a job waits while every port is held.",
                          UintegerValue(20000),
                          MakeUintegerAccessor(&VclosPacketExecutor::m_basePort),
                          MakeUintegerChecker<uint16_t>(1));
    return tid;
}

VclosPacketExecutor::VclosPacketExecutor()
    : m_basePort(20000),
      m_nextPort(0)
{
    NS_LOG_FUNCTION(this);
}

void
VclosPacketExecutor::DoDispose()
{
    m_fabric = nullptr;
    m_running.clear();
    VclosJobExecutor::DoDispose();
}

void
VclosPacketExecutor::SetFabric(Ptr<VclosFabric> fabric)
{
    VCLOS_REQUIRE(fabric, std::invalid_argument, "VclosPacketExecutor needs a fabric");
    m_fabric = fabric;
    VclosTopologyConfig config;
    config.leaves = fabric->GetLeafCount();
    config.spines = fabric->GetSpineCount();
    config.serversPerLeaf = fabric->GetServersPerLeaf();
    config.gpusPerServer = fabric->GetGpusPerServer();
    m_topology = std::make_unique<VclosTopology>(config);
}

Ptr<VclosFabric>
VclosPacketExecutor::GetFabric() const
{
    return m_fabric;
}

const VclosTopology&
VclosPacketExecutor::GetTopology() const
{
    VCLOS_REQUIRE(m_topology, std::logic_error, "VclosPacketExecutor: SetFabric() first");
    return *m_topology;
}

std::optional<uint16_t>
VclosPacketExecutor::TakePort()
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
VclosPacketExecutor::CanStart(const VclosJobRequest& job)
{
    if (job.gpus > 1 && m_portsInUse.size() >= 65536u - m_basePort)
    {
        NS_LOG_INFO("job " << job.id << " waits: every port from " << m_basePort
                           << " to 65535 is held by a running job");
        return false;
    }
    return true;
}

VclosCollectiveAlgorithm
VclosPacketExecutor::Start(const VclosJobRequest& job,
                           const VclosJobAllocation& allocation,
                           DoneCallback done)
{
    VCLOS_REQUIRE(m_fabric, std::logic_error, "VclosPacketExecutor: SetFabric() first");
    for (uint32_t r = 0; r < job.gpus; ++r)
    {
        if (allocation.uplinkSpine[r] >= 0)
        {
            m_fabric->PinSourceToSpine(allocation.gpus[r],
                                       static_cast<uint32_t>(allocation.uplinkSpine[r]));
        }
    }
    Running& running = m_running[job.id];
    running.iterations = job.iterations;
    running.ranks = job.gpus;
    running.done = std::move(done);
    if (job.gpus == 1)
    {
        // One GPU: no collective, only compute.
        Simulator::Schedule(job.computeTime * job.iterations, [this, id = job.id]() {
            VclosGuardEvent("packet executor", [&]() { m_running.at(id).done(); });
        });
        return job.algorithm;
    }
    running.port = TakePort();
    VCLOS_REQUIRE(running.port,
                  std::logic_error,
                  "VclosPacketExecutor: job " << job.id << " started without a free port");
    Ptr<VclosCollectiveHelper> helper = CreateObject<VclosCollectiveHelper>();
    helper->SetAttribute("Algorithm", EnumValue(job.algorithm));
    helper->SetAttribute("MessageBytes", UintegerValue(job.messageBytes));
    helper->SetAttribute("ComputeTime", TimeValue(job.computeTime));
    helper->SetAttribute("Iterations", UintegerValue(job.iterations));
    helper->SetAttribute("Port", UintegerValue(*running.port));
    helper->SetAttribute("RankOrder", EnumValue(VclosCollectiveHelper::AS_GIVEN));
    ApplicationContainer apps = helper->Install(m_fabric, allocation.gpus);
    Ptr<VclosPacketExecutor> self(this);
    for (uint32_t r = 0; r < apps.GetN(); ++r)
    {
        apps.Get(r)->TraceConnectWithoutContext(
            "IterationEnd",
            MakeBoundCallback(&VclosPacketExecutor::RankIterationEnded, self, job.id));
    }
    return helper->GetInstalledAlgorithm();
}

void
VclosPacketExecutor::RankIterationEnded(Ptr<VclosPacketExecutor> executor,
                                        uint32_t job,
                                        uint32_t rank,
                                        uint32_t iteration)
{
    VclosGuardEvent("packet executor", [&]() {
        Running& running = executor->m_running.at(job);
        if (iteration + 1 == running.iterations && ++running.ranksDone == running.ranks)
        {
            Simulator::ScheduleNow([executor, job]() {
                VclosGuardEvent("packet executor", [&]() { executor->m_running.at(job).done(); });
            });
        }
    });
}

void
VclosPacketExecutor::Stop(const VclosJobRequest& job, const VclosJobAllocation& allocation)
{
    auto it = m_running.find(job.id);
    VCLOS_REQUIRE(it != m_running.end(),
                  std::logic_error,
                  "VclosPacketExecutor::Stop: job " << job.id << " is not running");
    if (it->second.port)
    {
        // Its ranks closed their listeners when their last iteration ended.
        m_portsInUse.erase(*it->second.port);
    }
    m_running.erase(it);
    for (uint32_t r = 0; r < job.gpus; ++r)
    {
        if (allocation.uplinkSpine[r] >= 0)
        {
            m_fabric->UnpinSource(allocation.gpus[r]);
        }
    }
}

} // namespace ns3

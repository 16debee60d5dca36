/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "vclos-job-scheduler.h"

#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"
#include "ns3/vclos-check.h"
#include "ns3/vclos-collective-helper.h"
#include "ns3/vclos-placement.h"
#include "ns3/vclos-run-status.h"

#include <chrono>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("VclosJobScheduler");

NS_OBJECT_ENSURE_REGISTERED(VclosJobScheduler);

TypeId
VclosJobScheduler::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::VclosJobScheduler")
            .SetParent<Object>()
            .SetGroupName("Vclos")
            .AddConstructor<VclosJobScheduler>()
            .AddAttribute("Backfill",
                          "Try every queued job on each event, not only the head (FIFO "
                          "without head-of-line blocking).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&VclosJobScheduler::m_backfill),
                          MakeBooleanChecker())
            .AddAttribute("BasePort",
                          "Port of the first job's connections. Each job of 2 or more GPUs "
                          "takes the next port not held by a running job, cycling through "
                          "BasePort..65535 (never 0); a job waits while every port is held.",
                          UintegerValue(20000),
                          MakeUintegerAccessor(&VclosJobScheduler::m_basePort),
                          MakeUintegerChecker<uint16_t>(1))
            .AddTraceSource("QueueLength",
                            "Jobs waiting.",
                            MakeTraceSourceAccessor(&VclosJobScheduler::m_queueLength),
                            "ns3::TracedValueCallback::Uint32")
            .AddTraceSource("BusyGpus",
                            "GPUs held by running jobs.",
                            MakeTraceSourceAccessor(&VclosJobScheduler::m_busyGpus),
                            "ns3::TracedValueCallback::Uint32")
            .AddTraceSource("JobArrived",
                            "A job arrived.",
                            MakeTraceSourceAccessor(&VclosJobScheduler::m_arrivedTrace),
                            "ns3::VclosJobScheduler::JobTracedCallback")
            .AddTraceSource("JobStarted",
                            "A job got room and started, with where it runs. Its algorithm is the "
                            "one its ranks run (the flat ring for a hierarchical ring on "
                            "unequal servers).",
                            MakeTraceSourceAccessor(&VclosJobScheduler::m_startedTrace),
                            "ns3::VclosJobScheduler::JobStartedTracedCallback")
            .AddTraceSource("JobFinished",
                            "A job's last iteration ended on every rank; its room is free.",
                            MakeTraceSourceAccessor(&VclosJobScheduler::m_finishedTrace),
                            "ns3::VclosJobScheduler::JobTracedCallback")
            .AddTraceSource("Decision",
                            "The placement policy decided on a job (placed or not), with the "
                            "wall-clock time it took.",
                            MakeTraceSourceAccessor(&VclosJobScheduler::m_decisionTrace),
                            "ns3::VclosJobScheduler::DecisionTracedCallback")
            .AddTraceSource("PlacementFailed",
                            "The policy declined a job (fired after Decision): the cause, "
                            "not enough free GPUs, GPU fragmentation or network "
                            "fragmentation (only with a diagnose function: a policy by name).",
                            MakeTraceSourceAccessor(&VclosJobScheduler::m_failedTrace),
                            "ns3::VclosJobScheduler::PlacementFailedTracedCallback");
    return tid;
}

VclosJobScheduler::VclosJobScheduler()
    : m_backfill(false),
      m_basePort(20000),
      m_nextPort(0),
      m_finished(0),
      m_queueLength(0),
      m_busyGpus(0)
{
    NS_LOG_FUNCTION(this);
}

void
VclosJobScheduler::DoDispose()
{
    m_fabric = nullptr;
    m_place = nullptr;
    m_release = nullptr;
    Object::DoDispose();
}

void
VclosJobScheduler::Setup(Ptr<VclosFabric> fabric,
                         PlaceFunction place,
                         ReleaseFunction release,
                         DiagnoseFunction diagnose)
{
    VCLOS_REQUIRE(fabric && place && release,
                  std::invalid_argument,
                  "VclosJobScheduler::Setup needs a fabric, a place and a release function");
    m_fabric = fabric;
    m_place = std::move(place);
    m_release = std::move(release);
    m_diagnose = std::move(diagnose);
}

void
VclosJobScheduler::Setup(Ptr<VclosFabric> fabric, const std::string& policyName)
{
    VCLOS_REQUIRE(fabric, std::invalid_argument, "VclosJobScheduler::Setup needs a fabric");
    std::shared_ptr<VclosPlacementPolicy> policy = VclosCreatePlacementPolicy(policyName);
    auto state = std::make_shared<VclosClusterState>(fabric->GetLeafCount(),
                                                     fabric->GetServersPerLeaf(),
                                                     fabric->GetGpusPerServer(),
                                                     fabric->GetSpineCount());
    m_state = state;
    m_policy = policy;
    m_everPlaceable.clear();
    Setup(
        fabric,
        [policy, state](const VclosJobRequest& job) -> std::optional<VclosJobAllocation> {
            std::optional<VclosPlacement> p = policy->Place(*state, job.id, job.gpus);
            if (!p)
            {
                return std::nullopt;
            }
            state->Allocate(job.id, p->gpus, p->links);
            return VclosJobAllocation{p->gpus, p->uplinkSpine};
        },
        [state](const VclosJobRequest& job) { state->Release(job.id); },
        [policy, state](const VclosJobRequest& job) { return policy->Diagnose(*state, job.gpus); });
}

std::shared_ptr<const VclosClusterState>
VclosJobScheduler::GetClusterState() const
{
    return m_state;
}

void
VclosJobScheduler::Submit(const std::vector<VclosJobRequest>& jobs)
{
    VCLOS_REQUIRE(m_fabric, std::logic_error, "VclosJobScheduler: Setup() before Submit()");
    for (const auto& job : jobs)
    {
        VCLOS_REQUIRE(job.gpus >= 1 && job.gpus <= m_fabric->GetGpuCount(),
                      std::invalid_argument,
                      "job " << job.id << " asks for " << job.gpus << " GPUs; the fabric has "
                             << m_fabric->GetGpuCount());
        if (m_policy)
        {
            auto known = m_everPlaceable.find(job.gpus);
            if (known == m_everPlaceable.end())
            {
                known =
                    m_everPlaceable.emplace(job.gpus, m_policy->CanEverPlace(*m_state, job.gpus))
                        .first;
            }
            VCLOS_REQUIRE(known->second,
                          std::invalid_argument,
                          "job " << job.id << ": gpus " << job.gpus
                                 << " can never be placed by policy '" << m_policy->GetName()
                                 << "' on this fabric (" << m_fabric->GetLeafCount() << " leaves x "
                                 << m_fabric->GetGpusPerLeaf() << " GPUs, "
                                 << m_fabric->GetSpineCount() << " spines), even idle");
        }
        VCLOS_REQUIRE(job.iterations >= 1,
                      std::invalid_argument,
                      "job " << job.id << ": iterations must be at least 1");
        VCLOS_REQUIRE(job.submit >= Simulator::Now(),
                      std::invalid_argument,
                      "job " << job.id << " is submitted in the past");
        Simulator::Schedule(job.submit - Simulator::Now(), &VclosJobScheduler::Arrive, this, job);
    }
}

uint32_t
VclosJobScheduler::GetFinishedJobs() const
{
    return m_finished;
}

Ptr<VclosFabric>
VclosJobScheduler::GetFabric() const
{
    return m_fabric;
}

uint32_t
VclosJobScheduler::GetQueueLength() const
{
    return m_queueLength;
}

uint32_t
VclosJobScheduler::GetRunningJobs() const
{
    return static_cast<uint32_t>(m_running.size());
}

void
VclosJobScheduler::Arrive(const VclosJobRequest& job)
{
    NS_LOG_FUNCTION(this << job.id);
    VclosGuardEvent("job scheduler", [this, &job]() {
        m_arrivedTrace(job);
        m_queue.push_back(job);
        m_queueLength = static_cast<uint32_t>(m_queue.size());
        Schedule();
    });
}

std::optional<uint16_t>
VclosJobScheduler::TakePort()
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

void
VclosJobScheduler::Schedule()
{
    for (auto it = m_queue.begin(); it != m_queue.end();)
    {
        if (TryStart(*it))
        {
            it = m_queue.erase(it);
            continue;
        }
        if (!m_backfill)
        {
            break; // head-of-line blocking
        }
        ++it;
    }
    m_queueLength = static_cast<uint32_t>(m_queue.size());
}

bool
VclosJobScheduler::TryStart(const VclosJobRequest& job)
{
    std::optional<uint16_t> port;
    if (job.gpus > 1)
    {
        port = TakePort();
        if (!port)
        {
            NS_LOG_INFO("job " << job.id << " waits: every port from " << m_basePort
                               << " to 65535 is held by a running job");
            return false;
        }
    }
    auto start = std::chrono::steady_clock::now();
    std::optional<VclosJobAllocation> allocation = m_place(job);
    Time decision =
        Seconds(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    m_decisionTrace(job, allocation.has_value(), decision);
    if (!allocation && m_diagnose)
    {
        m_failedTrace(job, m_diagnose(job));
    }
    if (!allocation)
    {
        if (port)
        {
            m_portsInUse.erase(*port);
            m_nextPort = *port; // the next job takes it, as if it had not been taken
        }
        return false;
    }
    VCLOS_REQUIRE(allocation->gpus.size() == job.gpus && allocation->uplinkSpine.size() == job.gpus,
                  std::logic_error,
                  "placement gave job " << job.id << " " << allocation->gpus.size() << " GPUs for "
                                        << job.gpus);
    NS_LOG_INFO("job " << job.id << " starts on " << job.gpus << " GPUs");
    for (uint32_t r = 0; r < job.gpus; ++r)
    {
        if (allocation->uplinkSpine[r] >= 0)
        {
            m_fabric->PinSourceToSpine(allocation->gpus[r],
                                       static_cast<uint32_t>(allocation->uplinkSpine[r]));
        }
    }
    Running running;
    running.request = job;
    running.allocation = *allocation;
    running.port = port;
    if (job.gpus == 1)
    {
        // One GPU: no collective, only compute.
        Simulator::Schedule(job.computeTime * job.iterations,
                            &VclosJobScheduler::Finish,
                            this,
                            job.id);
    }
    else
    {
        Ptr<VclosCollectiveHelper> helper = CreateObject<VclosCollectiveHelper>();
        helper->SetAttribute("Algorithm", EnumValue(job.algorithm));
        helper->SetAttribute("MessageBytes", UintegerValue(job.messageBytes));
        helper->SetAttribute("ComputeTime", TimeValue(job.computeTime));
        helper->SetAttribute("Iterations", UintegerValue(job.iterations));
        helper->SetAttribute("Port", UintegerValue(*port));
        helper->SetAttribute("RankOrder", EnumValue(VclosCollectiveHelper::AS_GIVEN));
        ApplicationContainer apps = helper->Install(m_fabric, allocation->gpus);
        running.request.algorithm = helper->GetInstalledAlgorithm();
        Ptr<VclosJobScheduler> self(this);
        for (uint32_t r = 0; r < apps.GetN(); ++r)
        {
            apps.Get(r)->TraceConnectWithoutContext(
                "IterationEnd",
                MakeBoundCallback(&VclosJobScheduler::RankIterationEnded, self, job.id));
        }
    }
    m_running[job.id] = running;
    m_busyGpus = m_busyGpus + job.gpus;
    m_startedTrace(running.request, *allocation);
    return true;
}

void
VclosJobScheduler::RankIterationEnded(Ptr<VclosJobScheduler> scheduler,
                                      uint32_t job,
                                      uint32_t rank,
                                      uint32_t iteration)
{
    VclosGuardEvent("job scheduler", [&]() {
        Running& running = scheduler->m_running.at(job);
        if (iteration + 1 == running.request.iterations &&
            ++running.ranksDone == running.request.gpus)
        {
            Simulator::ScheduleNow(&VclosJobScheduler::Finish, scheduler, job);
        }
    });
}

void
VclosJobScheduler::Finish(uint32_t job)
{
    NS_LOG_FUNCTION(this << job);
    VclosGuardEvent("job scheduler", [this, job]() { DoFinish(job); });
}

void
VclosJobScheduler::DoFinish(uint32_t job)
{
    Running running = m_running.at(job);
    m_running.erase(job);
    if (running.port)
    {
        // Its ranks closed their listeners when their last iteration ended.
        m_portsInUse.erase(*running.port);
    }
    for (uint32_t r = 0; r < running.request.gpus; ++r)
    {
        if (running.allocation.uplinkSpine[r] >= 0)
        {
            m_fabric->UnpinSource(running.allocation.gpus[r]);
        }
    }
    m_release(running.request);
    m_busyGpus = m_busyGpus - running.request.gpus;
    ++m_finished;
    m_finishedTrace(running.request);
    Schedule();
}

} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "vclos-job-scheduler.h"

#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"
#include "ns3/vclos-check.h"
#include "ns3/vclos-ocs-placement.h"
#include "ns3/vclos-packet-executor.h"
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
            .AddAttribute("ReconfigurationDelay",
                          "How long a job waits, GPUs and circuits held, before it starts when "
                          "its booking set up at least one new OCS circuit (ocs-vclos; spec "
                          "5.2). Reused idle circuits cost nothing.",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&VclosJobScheduler::m_reconfigurationDelay),
                          MakeTimeChecker(Seconds(0), Seconds(3600)))
            .AddAttribute("KeepIdleCircuits",
                          "ocs-vclos: a finished job's circuits stay connected, idle, and a "
                          "later job that needs the same ones reuses them without a "
                          "reconfiguration (true), or they are torn down when it ends, as in "
                          "the spec (false). Set before Setup.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&VclosJobScheduler::m_keepIdleCircuits),
                          MakeBooleanChecker())
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
    : m_reconfigurations(0),
      m_backfill(false),
      m_finished(0),
      m_queueLength(0),
      m_busyGpus(0)
{
    NS_LOG_FUNCTION(this);
}

void
VclosJobScheduler::DoDispose()
{
    m_executor = nullptr;
    m_place = nullptr;
    m_release = nullptr;
    Object::DoDispose();
}

void
VclosJobScheduler::Setup(Ptr<VclosJobExecutor> executor,
                         PlaceFunction place,
                         ReleaseFunction release,
                         DiagnoseFunction diagnose)
{
    VCLOS_REQUIRE(executor && place && release,
                  std::invalid_argument,
                  "VclosJobScheduler::Setup needs an executor, a place and a release function");
    m_executor = executor;
    m_place = std::move(place);
    m_release = std::move(release);
    m_diagnose = std::move(diagnose);
}

void
VclosJobScheduler::Setup(Ptr<VclosJobExecutor> executor, const std::string& policyName)
{
    VCLOS_REQUIRE(executor, std::invalid_argument, "VclosJobScheduler::Setup needs an executor");
    const VclosTopology& topology = executor->GetTopology();
    std::shared_ptr<VclosPlacementPolicy> policy = VclosCreatePlacementPolicy(policyName, topology);
    auto state = std::make_shared<VclosClusterState>(topology.GetLeaves(),
                                                     topology.GetServersPerLeaf(),
                                                     topology.GetGpusPerServer(),
                                                     topology.GetSpines());
    m_state = state;
    m_policy = policy;
    m_ocs = nullptr;
    m_everPlaceable.clear();
    auto ocsPolicy = std::dynamic_pointer_cast<const VclosOcsVclosPlacement>(m_policy);
    if (ocsPolicy)
    {
        auto ocs = std::make_shared<VclosOcsState>(topology);
        m_ocs = ocs;
        Setup(
            executor,
            [ocsPolicy, state, ocs](
                const VclosJobRequest& job) -> std::optional<VclosJobAllocation> {
                std::optional<VclosOcsPlacement> p =
                    ocsPolicy->Place(*state, *ocs, job.id, job.gpus);
                if (!p)
                {
                    return std::nullopt;
                }
                // Book the circuits first: Book checks the whole request and changes nothing
                // when it refuses, so a bad placement leaves both states as they were.
                const VclosOcsBookingReport report = ocs->Book(job.id, p->circuits);
                state->Allocate(job.id, p->placement.gpus, {});
                VclosJobAllocation allocation;
                allocation.gpus = p->placement.gpus;
                allocation.uplinkSpine = p->placement.uplinkSpine;
                allocation.uplinkPort = p->uplinkOcs;
                allocation.virtualLeaf = p->virtualLeaf;
                allocation.circuitsSetUp = report.setUp;
                return allocation;
            },
            [state, ocs, keep = m_keepIdleCircuits](const VclosJobRequest& job) {
                state->Release(job.id);
                if (ocs->HasJob(job.id))
                {
                    ocs->Release(job.id, keep);
                }
            },
            [ocsPolicy, state, ocs](const VclosJobRequest& job) {
                return ocsPolicy->Diagnose(*state, *ocs, job.gpus);
            });
        return;
    }
    Setup(
        executor,
        [policy, state](const VclosJobRequest& job) -> std::optional<VclosJobAllocation> {
            std::optional<VclosPlacement> p = policy->Place(*state, job.id, job.gpus);
            if (!p)
            {
                return std::nullopt;
            }
            state->Allocate(job.id, p->gpus, p->links);
            return VclosJobAllocation{p->gpus, p->uplinkSpine, {}, {}, 0};
        },
        [state](const VclosJobRequest& job) { state->Release(job.id); },
        [policy, state](const VclosJobRequest& job) { return policy->Diagnose(*state, job.gpus); });
}

namespace
{
/// \param fabric a fabric \return a packet executor on it
Ptr<VclosJobExecutor>
PacketExecutorOn(Ptr<VclosFabric> fabric)
{
    VCLOS_REQUIRE(fabric, std::invalid_argument, "VclosJobScheduler::Setup needs a fabric");
    Ptr<VclosPacketExecutor> executor = CreateObject<VclosPacketExecutor>();
    executor->SetFabric(fabric);
    return executor;
}
} // namespace

void
VclosJobScheduler::Setup(Ptr<VclosFabric> fabric,
                         PlaceFunction place,
                         ReleaseFunction release,
                         DiagnoseFunction diagnose)
{
    Setup(PacketExecutorOn(fabric), std::move(place), std::move(release), std::move(diagnose));
}

void
VclosJobScheduler::Setup(Ptr<VclosFabric> fabric, const std::string& policyName)
{
    Setup(PacketExecutorOn(fabric), policyName);
}

std::shared_ptr<const VclosClusterState>
VclosJobScheduler::GetClusterState() const
{
    return m_state;
}

std::shared_ptr<const VclosOcsState>
VclosJobScheduler::GetOcsState() const
{
    return m_ocs;
}

uint32_t
VclosJobScheduler::GetReconfigurations() const
{
    return m_reconfigurations;
}

void
VclosJobScheduler::Submit(const std::vector<VclosJobRequest>& jobs)
{
    VCLOS_REQUIRE(m_executor, std::logic_error, "VclosJobScheduler: Setup() before Submit()");
    const VclosTopology& topology = m_executor->GetTopology();
    for (const auto& job : jobs)
    {
        VCLOS_REQUIRE(job.gpus >= 1 && job.gpus <= topology.GetGpus(),
                      std::invalid_argument,
                      "job " << job.id << " asks for " << job.gpus << " GPUs; the fabric has "
                             << topology.GetGpus());
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
                                 << "' on this fabric (" << topology.GetLeaves() << " leaves x "
                                 << topology.GetGpusPerLeaf() << " GPUs, " << topology.GetSpines()
                                 << " spines), even idle");
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

Ptr<VclosJobExecutor>
VclosJobScheduler::GetExecutor() const
{
    return m_executor;
}

const VclosTopology&
VclosJobScheduler::GetTopology() const
{
    VCLOS_REQUIRE(m_executor, std::logic_error, "VclosJobScheduler: Setup() first");
    return m_executor->GetTopology();
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
    if (!m_executor->CanStart(job))
    {
        return false;
    }
    auto start = std::chrono::steady_clock::now();
    std::optional<VclosJobAllocation> allocation = m_place(job);
    Time decision =
        Seconds(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    m_decisionTrace(job, allocation.has_value(), decision);
    if (!allocation)
    {
        if (m_diagnose)
        {
            m_failedTrace(job, m_diagnose(job));
        }
        return false;
    }
    VCLOS_REQUIRE(allocation->gpus.size() == job.gpus && allocation->uplinkSpine.size() == job.gpus,
                  std::logic_error,
                  "placement gave job " << job.id << " " << allocation->gpus.size() << " GPUs for "
                                        << job.gpus);
    Running running;
    running.request = job;
    running.allocation = *allocation;
    m_running[job.id] = running;
    m_busyGpus = m_busyGpus + job.gpus;
    m_reconfigurations += allocation->circuitsSetUp > 0 ? 1 : 0;
    m_executor->Placed(job, *allocation, m_ocs.get());
    if (allocation->circuitsSetUp > 0 && m_reconfigurationDelay.IsStrictlyPositive())
    {
        // The GPUs and circuits are held from now; the job runs once the OCSs have moved.
        NS_LOG_INFO("job " << job.id << " set up " << allocation->circuitsSetUp
                           << " circuits: starts in " << m_reconfigurationDelay.As(Time::MS));
        Ptr<VclosJobScheduler> self(this);
        Simulator::Schedule(m_reconfigurationDelay, [self, id = job.id]() {
            VclosGuardEvent("job scheduler", [&self, id]() { self->Launch(id); });
        });
    }
    else
    {
        Launch(job.id);
    }
    return true;
}

void
VclosJobScheduler::Launch(uint32_t job)
{
    Running& running = m_running.at(job);
    NS_LOG_INFO("job " << job << " starts on " << running.request.gpus << " GPUs");
    Ptr<VclosJobScheduler> self(this);
    running.request.algorithm = m_executor->Start(running.request,
                                                  running.allocation,
                                                  [self, job]() { self->Finish(job); });
    m_startedTrace(running.request, running.allocation);
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
    m_executor->Stop(running.request, running.allocation);
    m_release(running.request);
    m_executor->Released(running.request, m_ocs.get());
    m_busyGpus = m_busyGpus - running.request.gpus;
    ++m_finished;
    m_finishedTrace(running.request);
    Schedule();
}

} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "cluster-job-scheduler.h"

#include "ns3/boolean.h"
#include "ns3/cluster-placement.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/simulator.h"
#include "ns3/suite-check.h"
#include "ns3/suite-run-status.h"
#include "ns3/uinteger.h"

#include <chrono>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ClusterJobScheduler");

NS_OBJECT_ENSURE_REGISTERED(ClusterJobScheduler);

TypeId
ClusterJobScheduler::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::ClusterJobScheduler")
            .SetParent<Object>()
            .SetGroupName("Cluster")
            .AddConstructor<ClusterJobScheduler>()
            .AddAttribute("Backfill",
                          "Try every queued job on each event, not only the head (FIFO "
                          "without head-of-line blocking).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&ClusterJobScheduler::m_backfill),
                          MakeBooleanChecker())
            .AddTraceSource("QueueLength",
                            "Jobs waiting.",
                            MakeTraceSourceAccessor(&ClusterJobScheduler::m_queueLength),
                            "ns3::TracedValueCallback::Uint32")
            .AddTraceSource("BusyGpus",
                            "GPUs held by running jobs.",
                            MakeTraceSourceAccessor(&ClusterJobScheduler::m_busyGpus),
                            "ns3::TracedValueCallback::Uint32")
            .AddTraceSource("JobArrived",
                            "A job arrived.",
                            MakeTraceSourceAccessor(&ClusterJobScheduler::m_arrivedTrace),
                            "ns3::ClusterJobScheduler::JobTracedCallback")
            .AddTraceSource("JobStarted",
                            "A job got room and started, with where it runs. Its algorithm is the "
                            "one its ranks run (the flat ring for a hierarchical ring on "
                            "unequal servers).",
                            MakeTraceSourceAccessor(&ClusterJobScheduler::m_startedTrace),
                            "ns3::ClusterJobScheduler::JobStartedTracedCallback")
            .AddTraceSource("JobFinished",
                            "A job's last iteration ended on every rank; its room is free.",
                            MakeTraceSourceAccessor(&ClusterJobScheduler::m_finishedTrace),
                            "ns3::ClusterJobScheduler::JobTracedCallback")
            .AddTraceSource("Decision",
                            "The placement policy decided on a job (placed or not), with the "
                            "wall-clock time it took.",
                            MakeTraceSourceAccessor(&ClusterJobScheduler::m_decisionTrace),
                            "ns3::ClusterJobScheduler::DecisionTracedCallback")
            .AddTraceSource("PlacementFailed",
                            "The policy declined a job (fired after Decision): the cause, "
                            "not enough free GPUs, GPU fragmentation or network "
                            "fragmentation (only with a diagnose function: a policy by name).",
                            MakeTraceSourceAccessor(&ClusterJobScheduler::m_failedTrace),
                            "ns3::ClusterJobScheduler::PlacementFailedTracedCallback");
    return tid;
}

ClusterJobScheduler::ClusterJobScheduler()
    : m_reconfigurations(0),
      m_backfill(false),
      m_finished(0),
      m_queueLength(0),
      m_busyGpus(0)
{
    NS_LOG_FUNCTION(this);
}

void
ClusterJobScheduler::DoDispose()
{
    m_executor = nullptr;
    m_place = nullptr;
    m_release = nullptr;
    Object::DoDispose();
}

void
ClusterJobScheduler::Setup(Ptr<ClusterJobExecutor> executor,
                           PlaceFunction place,
                           ReleaseFunction release,
                           DiagnoseFunction diagnose)
{
    SUITE_REQUIRE(executor && place && release,
                  std::invalid_argument,
                  "ClusterJobScheduler::Setup needs an executor, a place and a release function");
    m_executor = executor;
    m_state = nullptr;
    m_policy = nullptr;
    m_place = std::move(place);
    m_release = std::move(release);
    m_diagnose = std::move(diagnose);
}

void
ClusterJobScheduler::Setup(Ptr<ClusterJobExecutor> executor, Ptr<ClusterPlacementPolicy> policy)
{
    SUITE_REQUIRE(executor, std::invalid_argument, "ClusterJobScheduler::Setup needs an executor");
    SUITE_REQUIRE(policy, std::invalid_argument, "ClusterJobScheduler::Setup needs a policy");
    const ClusterTopology& topology = executor->GetTopology();
    policy->Bind(topology);
    auto state = std::make_shared<ClusterState>(topology.GetLeaves(),
                                                topology.GetServersPerLeaf(),
                                                topology.GetGpusPerServer(),
                                                topology.GetSpines());
    Setup(
        executor,
        [policy, state](const ClusterJobRequest& job) { return policy->Allocate(*state, job); },
        [policy, state](const ClusterJobRequest& job) { policy->Release(*state, job); },
        [policy, state](const ClusterJobRequest& job) {
            return policy->Diagnose(*state, job.gpus);
        });
    m_state = state;
    m_policy = policy;
    m_everPlaceable.clear();
}

void
ClusterJobScheduler::Setup(Ptr<ClusterJobExecutor> executor, const std::string& policyName)
{
    Setup(executor, ClusterCreatePlacementPolicy(policyName));
}

Ptr<ClusterPlacementPolicy>
ClusterJobScheduler::GetPolicy() const
{
    return m_policy;
}

std::shared_ptr<const ClusterState>
ClusterJobScheduler::GetClusterState() const
{
    return m_state;
}

std::shared_ptr<const ClusterOcsState>
ClusterJobScheduler::GetOcsState() const
{
    return m_policy ? m_policy->GetCircuitState() : nullptr;
}

uint32_t
ClusterJobScheduler::GetReconfigurations() const
{
    return m_reconfigurations;
}

void
ClusterJobScheduler::Submit(const std::vector<ClusterJobRequest>& jobs)
{
    SUITE_REQUIRE(m_executor, std::logic_error, "ClusterJobScheduler: Setup() before Submit()");
    const ClusterTopology& topology = m_executor->GetTopology();
    for (const auto& job : jobs)
    {
        SUITE_REQUIRE(job.gpus >= 1 && job.gpus <= topology.GetGpus(),
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
            SUITE_REQUIRE(known->second,
                          std::invalid_argument,
                          "job " << job.id << ": gpus " << job.gpus
                                 << " can never be placed by policy '" << m_policy->GetName()
                                 << "' on this fabric (" << topology.GetLeaves() << " leaves x "
                                 << topology.GetGpusPerLeaf() << " GPUs, " << topology.GetSpines()
                                 << " spines), even idle");
        }
        SUITE_REQUIRE(job.iterations >= 1,
                      std::invalid_argument,
                      "job " << job.id << ": iterations must be at least 1");
        SUITE_REQUIRE(job.submit >= Simulator::Now(),
                      std::invalid_argument,
                      "job " << job.id << " is submitted in the past");
        Simulator::Schedule(job.submit - Simulator::Now(), &ClusterJobScheduler::Arrive, this, job);
    }
}

uint32_t
ClusterJobScheduler::GetFinishedJobs() const
{
    return m_finished;
}

Ptr<ClusterJobExecutor>
ClusterJobScheduler::GetExecutor() const
{
    return m_executor;
}

const ClusterTopology&
ClusterJobScheduler::GetTopology() const
{
    SUITE_REQUIRE(m_executor, std::logic_error, "ClusterJobScheduler: Setup() first");
    return m_executor->GetTopology();
}

uint32_t
ClusterJobScheduler::GetQueueLength() const
{
    return m_queueLength;
}

uint32_t
ClusterJobScheduler::GetRunningJobs() const
{
    return static_cast<uint32_t>(m_running.size());
}

void
ClusterJobScheduler::Arrive(const ClusterJobRequest& job)
{
    NS_LOG_FUNCTION(this << job.id);
    SuiteGuardEvent("job scheduler", [this, &job]() {
        m_arrivedTrace(job);
        m_queue.push_back(job);
        m_queueLength = static_cast<uint32_t>(m_queue.size());
        Schedule();
    });
}

void
ClusterJobScheduler::Schedule()
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
ClusterJobScheduler::TryStart(const ClusterJobRequest& job)
{
    if (!m_executor->CanStart(job))
    {
        return false;
    }
    auto start = std::chrono::steady_clock::now();
    std::optional<ClusterJobAllocation> allocation = m_place(job);
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
    SUITE_REQUIRE(allocation->gpus.size() == job.gpus && allocation->uplinkSpine.size() == job.gpus,
                  std::logic_error,
                  "placement gave job " << job.id << " " << allocation->gpus.size() << " GPUs for "
                                        << job.gpus);
    Running running;
    running.request = job;
    running.allocation = *allocation;
    m_running[job.id] = running;
    m_busyGpus = m_busyGpus + job.gpus;
    m_reconfigurations += allocation->circuitsSetUp > 0 ? 1 : 0;
    m_executor->Placed(job, *allocation, GetOcsState().get());
    const Time delay = m_policy ? m_policy->GetStartDelay(*allocation) : Time(0);
    if (delay.IsStrictlyPositive())
    {
        // The job holds its room from now; it runs once the policy's delay is over (the OCSs
        // have moved).
        NS_LOG_INFO("job " << job.id << " set up " << allocation->circuitsSetUp
                           << " circuits: starts in " << delay.As(Time::MS));
        Ptr<ClusterJobScheduler> self(this);
        Simulator::Schedule(delay, [self, id = job.id]() {
            SuiteGuardEvent("job scheduler", [&self, id]() { self->Launch(id); });
        });
    }
    else
    {
        Launch(job.id);
    }
    return true;
}

void
ClusterJobScheduler::Launch(uint32_t job)
{
    Running& running = m_running.at(job);
    NS_LOG_INFO("job " << job << " starts on " << running.request.gpus << " GPUs");
    Ptr<ClusterJobScheduler> self(this);
    running.request.algorithm = m_executor->Start(running.request,
                                                  running.allocation,
                                                  [self, job]() { self->Finish(job); });
    m_startedTrace(running.request, running.allocation);
}

void
ClusterJobScheduler::Finish(uint32_t job)
{
    NS_LOG_FUNCTION(this << job);
    SuiteGuardEvent("job scheduler", [this, job]() { DoFinish(job); });
}

void
ClusterJobScheduler::DoFinish(uint32_t job)
{
    Running running = m_running.at(job);
    m_running.erase(job);
    m_executor->Stop(running.request, running.allocation);
    m_release(running.request);
    m_executor->Released(running.request, GetOcsState().get());
    m_busyGpus = m_busyGpus - running.request.gpus;
    ++m_finished;
    m_finishedTrace(running.request);
    Schedule();
}

} // namespace ns3

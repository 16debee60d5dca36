/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "scenario-runner.h"

#include "scenario-engine.h"

#include "ns3/boolean.h"
#include "ns3/cluster-job-scheduler.h"
#include "ns3/cluster-ocs-placement.h"
#include "ns3/config.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/suite-check.h"
#include "ns3/suite-run-status.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <memory>
#include <sys/resource.h>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ScenarioRunner");

namespace
{

/// The progress line: at most two a second, and the last job's.
void
ShowProgress(Ptr<ClusterJobScheduler> scheduler,
             const std::string& name,
             const std::string& label,
             Ptr<ClusterSchedulerTracker> tracker,
             uint32_t total,
             std::chrono::steady_clock::time_point wallStart)
{
    scheduler->TraceConnectWithoutContext(
        "JobFinished",
        Callback<void, const ClusterJobRequest&>([=, shown = std::make_shared<double>(-1)](
                                                     const ClusterJobRequest&) {
            double wall =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count();
            if (wall < *shown + 0.5 && tracker->GetFinishedJobs() < total)
            {
                return;
            }
            *shown = wall;
            std::cerr << "\r[" << name << "] " << label << ": " << tracker->GetFinishedJobs() << "/"
                      << total << " jobs, " << std::fixed << std::setprecision(2)
                      << Simulator::Now().GetSeconds() * 1e3 << " ms simulated, "
                      << std::setprecision(0) << wall << " s wall   " << std::flush;
        }));
}

/// The figures of a run that went to its end.
void
Collect(const ScenarioConfig& s,
        const ClusterJobScheduler& scheduler,
        const ScenarioEngine& engine,
        const std::vector<ClusterJobRequest>& jobs,
        ScenarioPolicyRun& run)
{
    for (const auto& [id, r] : run.jobs->GetJobs())
    {
        run.end = std::max(run.end, r.finish);
    }
    SUITE_REQUIRE(run.jobs->GetFinishedJobs() == jobs.size(),
                  std::runtime_error,
                  run.policy << ": only " << run.jobs->GetFinishedJobs() << " of " << jobs.size()
                             << " jobs finished");
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    run.peakRssMb = usage.ru_maxrss / 1024.0;
    run.reconfigurations = scheduler.GetReconfigurations();
    engine.Collect(s, run);
}

} // namespace

ScenarioRunner::ScenarioRunner(const ScenarioConfig& scenario)
    : m_scenario(scenario),
      m_progressName("scenario")
{
}

void
ScenarioRunner::SetOutputs(bool outputs)
{
    m_outputs = outputs;
}

void
ScenarioRunner::SetProgressName(const std::string& name)
{
    m_progressName = name;
}

void
ScenarioRunner::SetFinishedHook(FinishedHook hook)
{
    m_finished = std::move(hook);
}

void
ScenarioRunner::SetInterruption(SuiteRunInterruption* interruption)
{
    m_interruption = interruption;
}

void
ScenarioRunner::ConnectFinished(Ptr<ClusterJobScheduler> scheduler,
                                Ptr<ClusterSchedulerTracker> tracker,
                                const std::string& label,
                                uint32_t total) const
{
    // Stop when the last job finishes: TCP's closing timers (and FlowMonitor's periodic
    // check, which never ends) would otherwise keep the simulation running.
    scheduler->TraceConnectWithoutContext(
        "JobFinished",
        Callback<void, const ClusterJobRequest&>([tracker, total](const ClusterJobRequest&) {
            if (tracker->GetFinishedJobs() == total)
            {
                Simulator::Stop();
            }
        }));
    if (m_finished)
    {
        scheduler->TraceConnectWithoutContext(
            "JobFinished",
            Callback<void, const ClusterJobRequest&>(
                [tracker, label, hook = m_finished](const ClusterJobRequest& job) {
                    hook(label, job.id, tracker->GetJobs().at(job.id));
                }));
    }
}

ScenarioPolicyRun
ScenarioRunner::Run(const std::string& policy,
                    const std::vector<ClusterJobRequest>& jobs,
                    uint32_t saltRun) const
{
    const ScenarioConfig& s = m_scenario;
    const std::string label = saltRun == 0 ? policy : policy + "#" + std::to_string(saltRun + 1);
    Ptr<ClusterJobScheduler> scheduler = CreateObject<ClusterJobScheduler>();
    scheduler->SetAttribute("Backfill", BooleanValue(s.scheduler.backfill));
    // The OCS-vClos policy's parameters: its objects are created by name in Setup.
    Config::SetDefault("ns3::VclosOcsPolicy::ReconfigurationDelay",
                       TimeValue(Time::FromDouble(s.scheduler.reconfigurationMs, Time::MS)));
    Config::SetDefault("ns3::VclosOcsPolicy::KeepIdleCircuits",
                       BooleanValue(s.scheduler.keepIdleCircuits));
    Ptr<ScenarioEngine> engine = ScenarioCreateEngine(s.scheduler.engine);
    scheduler->Setup(engine->Build(s, label, saltRun, m_outputs), policy);
    ScenarioPolicyRun run;
    run.policy = label;
    run.placement = policy;
    run.jobs = CreateObject<ClusterSchedulerTracker>();
    run.jobs->Install(scheduler);
    engine->Track(s, m_outputs);
    auto* placed = &run.gpus; // each job's GPUs, in rank order
    scheduler->TraceConnectWithoutContext(
        "JobStarted",
        Callback<void, const ClusterJobRequest&, const ClusterJobAllocation&>(
            [placed](const ClusterJobRequest& job, const ClusterJobAllocation& allocation) {
                (*placed)[job.id] = allocation.gpus;
            }));
    const auto wallStart = std::chrono::steady_clock::now();
    const auto total = static_cast<uint32_t>(jobs.size());
    const bool progress = m_outputs && s.output.progress;
    if (progress)
    {
        ShowProgress(scheduler, m_progressName, label, run.jobs, total, wallStart);
    }
    ConnectFinished(scheduler, run.jobs, label, total);
    scheduler->Submit(jobs);
    const uint64_t eventsBefore = Simulator::GetEventCount();
    const uint64_t checksBefore = m_interruption ? m_interruption->GetChecks() : 0;
    if (m_interruption)
    {
        m_interruption->Start();
    }
    Simulator::Run();
    run.wallSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count();
    const uint64_t checks = m_interruption ? m_interruption->GetChecks() - checksBefore : 0;
    run.events = Simulator::GetEventCount() - eventsBefore - checks;
    if (progress)
    {
        std::cerr << "\n";
    }
    SuiteCheckRunStatus(); // a model that could not go on: "error: <cause>"
    run.interrupted = m_interruption && m_interruption->Due();
    if (!run.interrupted)
    {
        try
        {
            Collect(s, *scheduler, *engine, jobs, run);
        }
        catch (...)
        {
            Simulator::Destroy(); // the caller may go on (a test, the next policy)
            throw;
        }
    }
    Simulator::Destroy();
    return run;
}

} // namespace ns3

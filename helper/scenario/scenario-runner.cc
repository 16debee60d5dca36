/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "scenario-runner.h"

#include "ns3/boolean.h"
#include "ns3/clos-fabric-helper.h"
#include "ns3/clos-link-load-tracker.h"
#include "ns3/cluster-job-scheduler.h"
#include "ns3/collective-packet-executor.h"
#include "ns3/config.h"
#include "ns3/flow-monitor-helper.h"
#include "ns3/fluid-executor.h"
#include "ns3/log.h"
#include "ns3/rng-seed-manager.h"
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

/// The engine side of one run: what Run builds before the scheduler starts.
struct Engine
{
    Ptr<ClusterJobScheduler> scheduler;             //!< the scheduler
    Ptr<FluidExecutor> flow;                        //!< flow level
    Ptr<ClosFabricHelper> fabricHelper;             //!< packet level
    Ptr<ClosFabric> fabric;                         //!< packet level
    Ptr<ClosLinkLoadTracker> links;                 //!< packet level
    std::unique_ptr<FlowMonitorHelper> flowMonitor; //!< packet level, with output.flowMonitor
};

/// Build the scheduler and the scenario's engine for one policy.
Engine
BuildEngine(const ScenarioConfig& s,
            const std::string& policy,
            const std::string& label,
            uint32_t saltRun,
            bool outputs)
{
    Engine e;
    e.fabricHelper = CreateObject<ClosFabricHelper>();
    e.scheduler = CreateObject<ClusterJobScheduler>();
    e.scheduler->SetAttribute("Backfill", BooleanValue(s.scheduler.backfill));
    // The OCS-vClos policy's parameters: its objects are created by name in Setup.
    const Time reconfiguration = Time::FromDouble(s.scheduler.reconfigurationMs, Time::MS);
    Config::SetDefault("ns3::VclosOcsPolicy::ReconfigurationDelay", TimeValue(reconfiguration));
    Config::SetDefault("ns3::VclosOcsPolicy::KeepIdleCircuits",
                       BooleanValue(s.scheduler.keepIdleCircuits));
    if (s.scheduler.engine == "flow")
    {
        e.flow = ScenarioFlowExecutor(s, saltRun);
        e.scheduler->Setup(Ptr<ClusterJobExecutor>(e.flow), policy);
        return e;
    }
    RngSeedManager::SetRun(s.seeds.rngRun + saltRun);
    // Circuits an OCS-vClos booking sets up are lit when the scheduler starts the job.
    e.fabricHelper->SetAttribute("OcsReconfigurationTime", TimeValue(reconfiguration));
    e.fabric = e.fabricHelper->Install();
    e.fabricHelper->AssignStreams(e.fabric, 0);
    if (outputs && s.output.pcap)
    {
        e.fabricHelper->EnablePcap(s.output.prefix + "-" + label, e.fabric);
    }
    e.scheduler->Setup(CollectivePacketExecutorOn(e.fabric), policy);
    return e;
}

/// Track the packet level's links (and flows, with output.flowMonitor).
void
TrackLinks(const ScenarioConfig& s, Engine& e, bool outputs)
{
    if (e.flow)
    {
        return;
    }
    e.links = CreateObject<ClosLinkLoadTracker>();
    e.links->SetAttribute("IdleGap",
                          TimeValue(NanoSeconds(std::llround(s.metrics.idleGapUs * 1e3))));
    e.links->Install(e.fabric);
    if (outputs && s.output.flowMonitor)
    {
        e.flowMonitor = std::make_unique<FlowMonitorHelper>();
        e.flowMonitor->InstallAll();
    }
}

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
        const Engine& e,
        const std::vector<ClusterJobRequest>& jobs,
        bool outputs,
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
    run.reconfigurations = e.scheduler->GetReconfigurations();
    if (e.flow)
    {
        run.conflictingShare = e.flow->GetConflictingFlowShare();
        run.flows = e.flow->GetStats().flows;
        run.isolatedJobs = e.flow->GetStats().isolatedJobs;
        run.materialized = e.flow->GetStats().materialized;
        return;
    }
    run.conflictingShare = e.links->GetSpineConflictingFlowShare();
    if (e.flowMonitor)
    {
        e.flowMonitor->SerializeToXmlFile(s.output.prefix + "-" + run.policy + "-flowmon.xml",
                                          true,
                                          true);
    }
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
ScenarioRunner::SetInterruption(Interruption interruption)
{
    m_interruption = std::move(interruption);
}

ScenarioPolicyRun
ScenarioRunner::Run(const std::string& policy,
                    const std::vector<ClusterJobRequest>& jobs,
                    uint32_t saltRun) const
{
    const ScenarioConfig& s = m_scenario;
    const std::string label = saltRun == 0 ? policy : policy + "#" + std::to_string(saltRun + 1);
    Engine e = BuildEngine(s, policy, label, saltRun, m_outputs);
    ScenarioPolicyRun run;
    run.policy = label;
    run.placement = policy;
    run.jobs = CreateObject<ClusterSchedulerTracker>();
    run.jobs->Install(e.scheduler);
    TrackLinks(s, e, m_outputs);
    auto* placed = &run.gpus;
    e.scheduler->TraceConnectWithoutContext(
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
        ShowProgress(e.scheduler, m_progressName, label, run.jobs, total, wallStart);
    }
    // Stop when the last job finishes: TCP's closing timers (and FlowMonitor's periodic
    // check, which never ends) would otherwise keep the simulation running.
    Ptr<ClusterSchedulerTracker> tracker = run.jobs;
    e.scheduler->TraceConnectWithoutContext(
        "JobFinished",
        Callback<void, const ClusterJobRequest&>([tracker, total](const ClusterJobRequest&) {
            if (tracker->GetFinishedJobs() == total)
            {
                Simulator::Stop();
            }
        }));
    if (m_finished)
    {
        e.scheduler->TraceConnectWithoutContext(
            "JobFinished",
            Callback<void, const ClusterJobRequest&>(
                [tracker, label, hook = m_finished](const ClusterJobRequest& job) {
                    hook(label, job.id, tracker->GetJobs().at(job.id));
                }));
    }
    e.scheduler->Submit(jobs);
    const uint64_t eventsBefore = Simulator::GetEventCount();
    const uint64_t checksBefore = m_interruption.checks ? m_interruption.checks() : 0;
    if (m_interruption.start)
    {
        m_interruption.start(e.flow != nullptr);
    }
    Simulator::Run();
    run.wallSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count();
    const uint64_t checks = m_interruption.checks ? m_interruption.checks() - checksBefore : 0;
    run.events = Simulator::GetEventCount() - eventsBefore - checks;
    if (progress)
    {
        std::cerr << "\n";
    }
    SuiteCheckRunStatus(); // a model that could not go on: "error: <cause>"
    run.interrupted = m_interruption.stopped && m_interruption.stopped();
    if (!run.interrupted)
    {
        try
        {
            Collect(s, e, jobs, m_outputs, run);
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

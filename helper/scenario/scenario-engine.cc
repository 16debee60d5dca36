/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "scenario-engine.h"

#include "scenario-runner.h"

#include "ns3/clos-fabric-helper.h"
#include "ns3/clos-link-load-tracker.h"
#include "ns3/collective-packet-executor.h"
#include "ns3/flow-monitor-helper.h"
#include "ns3/fluid-executor.h"
#include "ns3/log.h"
#include "ns3/object-factory.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/suite-check.h"
#include "ns3/suite-shown-text.h"

#include <cmath>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ScenarioEngine");

NS_OBJECT_ENSURE_REGISTERED(ScenarioEngine);
NS_OBJECT_ENSURE_REGISTERED(ScenarioFlowEngine);
NS_OBJECT_ENSURE_REGISTERED(ScenarioPacketEngine);

/// A scenario field the engine cannot honour: one line naming it.
#define SCENARIO_ENGINE_CHECK(condition, field, message)                                           \
    SUITE_REQUIRE(condition, std::invalid_argument, "scenario: " << field << ": " << message)

TypeId
ScenarioEngine::GetTypeId()
{
    static TypeId tid = TypeId("ns3::ScenarioEngine").SetParent<Object>().SetGroupName("Scenario");
    return tid;
}

void
ScenarioEngine::CheckLimits() const
{
}

void
ScenarioEngine::Track(const ScenarioConfig& /* s */, bool /* outputs */)
{
}

TypeId
ScenarioFlowEngine::GetTypeId()
{
    static TypeId tid = TypeId("ns3::ScenarioFlowEngine")
                            .SetParent<ScenarioEngine>()
                            .SetGroupName("Scenario")
                            .AddConstructor<ScenarioFlowEngine>();
    return tid;
}

void
ScenarioFlowEngine::Validate(const ScenarioConfig& s) const
{
    SCENARIO_ENGINE_CHECK(!s.output.pcap,
                          "output.pcap",
                          "needs packets (scheduler.engine is flow)");
    SCENARIO_ENGINE_CHECK(!s.output.flowMonitor,
                          "output.flowMonitor",
                          "needs packets (scheduler.engine is flow)");
}

Ptr<ClusterJobExecutor>
ScenarioFlowEngine::Build(const ScenarioConfig& s,
                          const std::string& /* label */,
                          uint32_t saltRun,
                          bool /* outputs */)
{
    m_executor = ScenarioFlowExecutor(s, saltRun);
    return m_executor;
}

void
ScenarioFlowEngine::Collect(const ScenarioConfig& /* s */, ScenarioPolicyRun& run) const
{
    run.conflictingShare = m_executor->GetConflictingFlowShare();
    run.flows = m_executor->GetStats().flows;
    run.isolatedJobs = m_executor->GetStats().isolatedJobs;
    run.materialized = m_executor->GetStats().materialized;
}

void
ScenarioFlowEngine::DoDispose()
{
    m_executor = nullptr;
    ScenarioEngine::DoDispose();
}

TypeId
ScenarioPacketEngine::GetTypeId()
{
    static TypeId tid = TypeId("ns3::ScenarioPacketEngine")
                            .SetParent<ScenarioEngine>()
                            .SetGroupName("Scenario")
                            .AddConstructor<ScenarioPacketEngine>();
    return tid;
}

ScenarioPacketEngine::ScenarioPacketEngine() = default;

ScenarioPacketEngine::~ScenarioPacketEngine() = default;

void
ScenarioPacketEngine::Validate(const ScenarioConfig& s) const
{
    SCENARIO_ENGINE_CHECK(s.scheduler.sharing == "max-min",
                          "scheduler.sharing",
                          "equal-share is a flow-engine model (scheduler.engine is packet)");
    SCENARIO_ENGINE_CHECK(!s.scheduler.ecmpPathPerStep,
                          "scheduler.ecmpPathPerStep",
                          "is a flow-engine option (scheduler.engine is packet)");
}

void
ScenarioPacketEngine::CheckLimits() const
{
    CreateObject<ClosFabricHelper>()->Install(); // the fabric's own limits, up front
    Simulator::Destroy();
}

Ptr<ClusterJobExecutor>
ScenarioPacketEngine::Build(const ScenarioConfig& s,
                            const std::string& label,
                            uint32_t saltRun,
                            bool outputs)
{
    RngSeedManager::SetRun(s.seeds.rngRun + saltRun);
    Ptr<ClosFabricHelper> helper = CreateObject<ClosFabricHelper>();
    // Circuits an OCS-vClos booking sets up are lit when the scheduler starts the job.
    helper->SetAttribute("OcsReconfigurationTime",
                         TimeValue(Time::FromDouble(s.scheduler.reconfigurationMs, Time::MS)));
    m_fabric = helper->Install();
    helper->AssignStreams(m_fabric, 0);
    if (outputs && s.output.pcap)
    {
        helper->EnablePcap(s.output.prefix + "-" + label, m_fabric);
    }
    return CollectivePacketExecutorOn(m_fabric);
}

void
ScenarioPacketEngine::Track(const ScenarioConfig& s, bool outputs)
{
    m_links = CreateObject<ClosLinkLoadTracker>();
    m_links->SetAttribute("IdleGap",
                          TimeValue(NanoSeconds(std::llround(s.metrics.idleGapUs * 1e3))));
    m_links->Install(m_fabric);
    if (outputs && s.output.flowMonitor)
    {
        m_flowMonitor = std::make_unique<FlowMonitorHelper>();
        m_flowMonitor->InstallAll();
    }
}

void
ScenarioPacketEngine::Collect(const ScenarioConfig& s, ScenarioPolicyRun& run) const
{
    run.conflictingShare = m_links->GetSpineConflictingFlowShare();
    if (m_flowMonitor)
    {
        m_flowMonitor->SerializeToXmlFile(s.output.prefix + "-" + run.policy + "-flowmon.xml",
                                          true,
                                          true);
    }
}

void
ScenarioPacketEngine::DoDispose()
{
    m_fabric = nullptr;
    m_links = nullptr;
    m_flowMonitor.reset();
    ScenarioEngine::DoDispose();
}

const std::vector<ScenarioEngineName>&
ScenarioEngineNames()
{
    static const std::vector<ScenarioEngineName> names{
        {"packet", ScenarioPacketEngine::GetTypeId()},
        {"flow", ScenarioFlowEngine::GetTypeId()}};
    return names;
}

Ptr<ScenarioEngine>
ScenarioCreateEngine(const std::string& name)
{
    std::string known;
    for (const auto& entry : ScenarioEngineNames())
    {
        if (entry.name == name)
        {
            ObjectFactory factory;
            factory.SetTypeId(entry.tid);
            return factory.Create<ScenarioEngine>();
        }
        known += (known.empty() ? "" : " or ") + entry.name;
    }
    SCENARIO_ENGINE_CHECK(false,
                          "scheduler.engine",
                          "must be " << known << " (got '" << SuiteShownText(name) << "')");
    return nullptr;
}

} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Engines chosen by TypeId from one table; what each engine refuses; warnings for fields no
// policy uses.
// Tests: scenario-engine
#include "../suite-error-of.h"

#include "ns3/object-factory.h"
#include "ns3/scenario-config.h"
#include "ns3/scenario-engine.h"

#include <gtest/gtest.h>
#include <set>

using namespace ns3;

TEST(ScenarioEngine, NamesMapToTheirTypeIds)
{
    // The scenario file's two engine names, and the classes they stand for (by hand).
    const std::map<std::string, std::string> expected{{"packet", "ns3::ScenarioPacketEngine"},
                                                      {"flow", "ns3::ScenarioFlowEngine"}};
    ASSERT_EQ(ScenarioEngineNames().size(), expected.size());
    for (const auto& entry : ScenarioEngineNames())
    {
        ASSERT_EQ(expected.count(entry.name), 1U) << entry.name;
        EXPECT_EQ(entry.tid.GetName(), expected.at(entry.name));
        Ptr<ScenarioEngine> engine = ScenarioCreateEngine(entry.name);
        ASSERT_TRUE(engine);
        EXPECT_EQ(engine->GetInstanceTypeId().GetName(), expected.at(entry.name));
    }
    // A user's engine is an ns-3 Object like the others: created from its TypeId.
    ObjectFactory factory("ns3::ScenarioFlowEngine");
    EXPECT_TRUE(factory.Create<ScenarioEngine>());
}

TEST(ScenarioEngine, UnknownNameIsOneLineNamingTheField)
{
    const std::string e = ErrorOf([] { ScenarioCreateEngine("fluid"); });
    EXPECT_EQ(e, "scenario: scheduler.engine: must be packet or flow (got 'fluid')");
    // Control: the known names are accepted.
    EXPECT_EQ(ErrorOf([] { ScenarioCreateEngine("flow"); }), "");
}

TEST(ScenarioEngine, EachEngineRefusesWhatOnlyTheOtherDoes)
{
    ScenarioConfig s;
    s.scheduler.sharing = "equal-share";
    EXPECT_NE(ErrorOf([&] {
                  ScenarioCreateEngine("packet")->Validate(s);
              }).find("scheduler.sharing: equal-share is a flow-engine model"),
              std::string::npos);
    EXPECT_EQ(ErrorOf([&] { ScenarioCreateEngine("flow")->Validate(s); }), "");
    s = ScenarioConfig();
    s.output.pcap = true;
    EXPECT_NE(ErrorOf([&] {
                  ScenarioCreateEngine("flow")->Validate(s);
              }).find("output.pcap: needs packets"),
              std::string::npos);
    EXPECT_EQ(ErrorOf([&] { ScenarioCreateEngine("packet")->Validate(s); }), "");
}

TEST(ScenarioWarnings, CircuitFieldsWithoutACircuitPolicy)
{
    ScenarioConfig s;
    s.scheduler.policies = {"ecmp-first-fit", "vclos"};
    EXPECT_TRUE(ScenarioWarnings(s).empty()) << "control: defaults say nothing";
    s.scheduler.reconfigurationMs = 10;
    s.scheduler.keepIdleCircuits = true;
    const auto warnings = ScenarioWarnings(s);
    ASSERT_EQ(warnings.size(), 2U);
    EXPECT_EQ(warnings[0].rfind("scenario: scheduler.reconfigurationMs: ", 0), 0U);
    EXPECT_EQ(warnings[1].rfind("scenario: scheduler.keepIdleCircuits: ", 0), 0U);
    // Control: with ocs-vclos among the policies both fields are used.
    s.scheduler.policies.push_back("ocs-vclos");
    EXPECT_TRUE(ScenarioWarnings(s).empty());
}

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Scenario files with values of megabytes: every one-line error echoes the value cut to 64
// characters and its length, not the whole value (which it used to).
// Tests: scenario-config
#include "../suite-error-of.h"
#include "../suite-test-file.h"

#include "ns3/config.h"
#include "ns3/scenario-config.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{
/// A 2,000,000-character value and how a message shows it.
const std::string HUGE(2000000, 'q');
const std::string CUT = std::string(64, 'q') + "... (2000000 characters)";

/// Write the running test's scenario file and return its path.
std::string
ScenarioFile(const std::string& json)
{
    return SuiteTestFile("shown-", json, ".json");
}

/// Expect one short line with `expected` in it.
void
ExpectShort(const std::string& e, const std::string& expected)
{
    EXPECT_NE(e.find(expected), std::string::npos) << e.substr(0, 400);
    EXPECT_EQ(e.find('\n'), std::string::npos) << e.substr(0, 400);
    EXPECT_LT(e.size(), 400u) << e.substr(0, 400);
}
} // namespace

TEST(ScenarioConfigShown, ReaderErrorsCutHugeValues)
{
    // An unknown field with a huge name.
    std::string path = ScenarioFile("{\"" + HUGE + "\": 1}");
    ExpectShort(ErrorOf([&] { ScenarioRead(path); }),
                "scenario " + path + ": " + CUT + ": unknown field (known: ");
    // A field of the wrong type: its JSON text.
    path = ScenarioFile("{\"name\": [\"" + HUGE + "\"]}");
    ExpectShort(ErrorOf([&] { ScenarioRead(path); }),
                "scenario " + path + ": name: expected a string, got [\"" + std::string(62, 'q') +
                    "... (2000004 characters)");
    // A fabric value of the wrong type, a huge key in it.
    path = ScenarioFile("{\"fabric\": {\"" + HUGE + "\": null}}");
    ExpectShort(ErrorOf([&] { ScenarioRead(path); }),
                "scenario " + path + ": fabric." + CUT +
                    ": expected a number, string or boolean, got null");
    // Malformed JSON: the parser's "last read" token, a whole unterminated string.
    path = ScenarioFile("{\"name\": \"" + HUGE);
    ExpectShort(ErrorOf([&] { ScenarioRead(path); }),
                "missing closing quote; last read: '\"" + std::string(63, 'q') +
                    "... (2000001 characters)'");
    // Control: a short unknown field is named whole.
    path = ScenarioFile("{\"nmae\": 1}");
    ExpectShort(ErrorOf([&] { ScenarioRead(path); }), "scenario " + path + ": nmae: unknown field");
}

TEST(ScenarioConfigShown, ValidationErrorsCutHugeValues)
{
    ClusterModelZoo zoo = ClusterModelZoo::LoadDefault();
    auto error = [&zoo](auto change) {
        ScenarioConfig s;
        change(s);
        return ErrorOf([&] { ScenarioValidate(s, zoo); });
    };
    ExpectShort(error([](ScenarioConfig& s) { s.workload.source = HUGE; }),
                "scenario: workload.source: '" + CUT + "' is not synthetic");
    ExpectShort(error([](ScenarioConfig& s) { s.workload.traceTimeUnit = HUGE; }),
                "scenario: workload.traceTimeUnit: '" + CUT + "' is not s or ms");
    ExpectShort(error([](ScenarioConfig& s) { s.transport.type = HUGE; }),
                "unknown transport '" + CUT + "' (tcp or rdma)");
    ExpectShort(error([](ScenarioConfig& s) { s.scheduler.engine = HUGE; }),
                "scenario: scheduler.engine: must be packet or flow (got '" + CUT + "')");
    ExpectShort(error([](ScenarioConfig& s) { s.workload.algorithms = {HUGE}; }),
                "scenario: workload.algorithms: unknown algorithm '" + CUT + "'");
    // An unknown model: the zoo's known names follow, so the line is longer but bounded.
    std::string e = error([](ScenarioConfig& s) { s.workload.models = {HUGE}; });
    EXPECT_NE(e.find("scenario: workload.models: unknown model '" + CUT + "' (known: "),
              std::string::npos)
        << e.substr(0, 400);
    EXPECT_LT(e.size(), 2000u);
    // Control: a short wrong value is shown whole.
    ExpectShort(error([](ScenarioConfig& s) { s.workload.source = "philly"; }),
                "scenario: workload.source: 'philly' is not synthetic");
}

TEST(ScenarioConfigShown, AttributeErrorsCutHugeValues)
{
    ScenarioConfig s;
    s.fabric = {{"Spines", HUGE}};
    ExpectShort(ErrorOf([&] { ScenarioApplyAttributes(s); }),
                "scenario: fabric.Spines: invalid value '" + CUT + "'");
    s.fabric = {{HUGE, "1"}};
    ExpectShort(ErrorOf([&] { ScenarioApplyAttributes(s); }),
                "scenario: fabric." + CUT + ": not an attribute of ns3::ClosFabricHelper");
    s.fabric.clear();
    s.defaults = {{"ns3::" + HUGE + "::X", "1"}};
    ExpectShort(ErrorOf([&] { ScenarioApplyAttributes(s); }),
                "scenario: defaults.ns3::" + std::string(59, 'q') + "... (2000008 characters)");
    // Control: a short invalid value is shown whole.
    s.defaults.clear();
    s.fabric = {{"Spines", "many"}};
    ExpectShort(ErrorOf([&] { ScenarioApplyAttributes(s); }),
                "scenario: fabric.Spines: invalid value 'many'");
    Config::Reset();
}

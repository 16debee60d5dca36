/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Fuzz target: a scenario JSON file, read, validated and applied as vclos-run-scenario does
// (ScenarioRead, ScenarioValidate, ScenarioApplyAttributes), then printed
// back (ScenarioToJson); a synthetic workload of at most 256 jobs is also built
// (ScenarioBuildJobs) and must keep what the scenario asks. Attribute defaults are reset
// after every input.
// Tests: scenario-config
#include "vclos-fuzz-support.h"

#include "ns3/cluster-model-zoo.h"
#include "ns3/config.h"
#include "ns3/scenario-config.h"

using namespace ns3;

namespace
{

/// What a built synthetic workload keeps of its scenario.
void
CheckJobs(const ScenarioConfig& scenario, const std::vector<ClusterJobRequest>& jobs)
{
    const auto& w = scenario.workload;
    VclosFuzzRequire(jobs.size() == w.jobs, "the workload has workload.jobs jobs");
    for (std::size_t i = 0; i < jobs.size(); ++i)
    {
        VclosFuzzRequire(!jobs[i].submit.IsStrictlyNegative(), "no job arrives before 0");
        VclosFuzzRequire(i == 0 || jobs[i - 1].submit <= jobs[i].submit,
                         "jobs are in arrival order");
        VclosFuzzRequire(jobs[i].gpus >= w.minGpus && jobs[i].gpus <= w.maxGpus,
                         "job sizes lie in [workload.minGpus, workload.maxGpus]");
        VclosFuzzRequire(jobs[i].iterations >= 1 &&
                             jobs[i].iterations <= scenario.scaling.maxIterations,
                         "iterations lie in [1, scaling.maxIterations]");
        VclosFuzzRequire(jobs[i].messageBytes >= 1, "every job all-reduces at least 1 byte");
        VclosFuzzRequire(!jobs[i].computeTime.IsStrictlyNegative(), "no compute time is negative");
    }
}

} // namespace

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size)
{
    static const ClusterModelZoo zoo = ClusterModelZoo::LoadDefault();
    std::string path = VclosFuzzInputFile(data, size, ".json");
    ScenarioConfig scenario;
    try
    {
        scenario = ScenarioRead(path);
    }
    catch (const std::exception& e)
    {
        VclosFuzzCheckRefusal(e, path);
        return 0;
    }
    try
    {
        ScenarioValidate(scenario, zoo);
        ScenarioApplyAttributes(scenario);
        ScenarioToJson(scenario);
        if (scenario.workload.source == "synthetic" && scenario.workload.jobs <= 256)
        {
            CheckJobs(scenario, ScenarioBuildJobs(scenario, zoo));
        }
    }
    catch (const std::exception& e)
    {
        VclosFuzzCheckRefusal(e, "");
    }
    Config::Reset();
    return 0;
}

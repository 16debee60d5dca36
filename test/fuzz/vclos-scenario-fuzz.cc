/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Fuzz target: a scenario JSON file, read, validated and applied as vclos-run-scenario does
// (VclosReadScenario, VclosValidateScenario, VclosApplyScenarioAttributes), then printed
// back (VclosScenarioToJson); a synthetic workload of at most 256 jobs is also built
// (VclosBuildScenarioJobs) and must keep what the scenario asks. Attribute defaults are reset
// after every input.
#include "vclos-fuzz-support.h"

#include "ns3/config.h"
#include "ns3/vclos-model-zoo.h"
#include "ns3/vclos-scenario.h"

using namespace ns3;

namespace
{

/// What a built synthetic workload keeps of its scenario.
void
CheckJobs(const VclosScenario& scenario, const std::vector<VclosJobRequest>& jobs)
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
    static const VclosModelZoo zoo = VclosModelZoo::LoadDefault();
    std::string path = VclosFuzzInputFile(data, size, ".json");
    VclosScenario scenario;
    try
    {
        scenario = VclosReadScenario(path);
    }
    catch (const std::exception& e)
    {
        VclosFuzzCheckRefusal(e, path);
        return 0;
    }
    try
    {
        VclosValidateScenario(scenario, zoo);
        VclosApplyScenarioAttributes(scenario);
        VclosScenarioToJson(scenario);
        if (scenario.workload.source == "synthetic" && scenario.workload.jobs <= 256)
        {
            CheckJobs(scenario, VclosBuildScenarioJobs(scenario, zoo));
        }
    }
    catch (const std::exception& e)
    {
        VclosFuzzCheckRefusal(e, "");
    }
    Config::Reset();
    return 0;
}

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "vclos-fuzz-trace-check.h"

#include "vclos-fuzz-support.h"

using namespace ns3;

void
VclosFuzzCheckTrace(const std::vector<ClusterTraceJob>& jobs)
{
    VclosFuzzRequire(!jobs.empty(), "a trace has at least one job");
    VclosFuzzRequire(jobs.front().submit.IsZero(), "the first job arrives at 0");
    for (std::size_t i = 0; i < jobs.size(); ++i)
    {
        VclosFuzzRequire(!jobs[i].submit.IsStrictlyNegative(), "no job arrives before 0");
        VclosFuzzRequire(i == 0 || jobs[i - 1].submit <= jobs[i].submit,
                         "jobs are sorted by submit time");
        VclosFuzzRequire(jobs[i].gpus >= 1, "every job asks for at least 1 GPU");
        VclosFuzzRequire(!jobs[i].duration.IsStrictlyNegative(), "no duration is negative");
    }
}

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Fuzz target: a Tiresias trace (ClusterReadTiresiasTrace), and what the reader promises of the
// jobs.
// Tests: cluster-job-trace
#include "vclos-fuzz-support.h"
#include "vclos-fuzz-trace-check.h"

#include "ns3/cluster-job-trace.h"

using namespace ns3;

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size)
{
    std::string path = VclosFuzzInputFile(data, size, ".csv");
    try
    {
        VclosFuzzCheckTrace(ClusterReadTiresiasTrace(path));
    }
    catch (const std::exception& e)
    {
        VclosFuzzCheckRefusal(e, path);
    }
    return 0;
}

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Fuzz target: a model zoo file (ClusterModelZoo::Load), then every model looked up by name;
// the reader refuses figures that are not > 0, so an accepted model has none.
// Tests: cluster-model-zoo
#include "vclos-fuzz-support.h"

#include "ns3/cluster-model-zoo.h"

using namespace ns3;

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size)
{
    std::string path = VclosFuzzInputFile(data, size, ".csv");
    try
    {
        ClusterModelZoo zoo = ClusterModelZoo::Load(path);
        for (const std::string& name : zoo.GetNames())
        {
            const ClusterModel& model = zoo.Get(name);
            VclosFuzzRequire(model.parameters >= 1 && model.gradientBytes >= 1 &&
                                 model.batchPerGpu >= 1,
                             "a model's parameters, gradient bytes and batch are at least 1");
            VclosFuzzRequire(model.computeTime.IsStrictlyPositive(),
                             "a model's compute time is > 0");
        }
    }
    catch (const std::exception& e)
    {
        VclosFuzzCheckRefusal(e, path);
    }
    return 0;
}

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "vclos-model-zoo.h"

#include "vclos-check.h"
#include "vclos-csv-reader.h"

#include <cmath>
#include <cstdlib>

#ifndef VCLOS_MODEL_ZOO_SOURCE_PATH
#define VCLOS_MODEL_ZOO_SOURCE_PATH "model/vclos/vclos-model-zoo.csv"
#endif

namespace ns3
{

VclosModelZoo
VclosModelZoo::Load(const std::string& path)
{
    VclosCsvReader csv(
        path,
        {"model", "parameters", "gradient_bytes", "batch_per_gpu", "compute_ms_v100"});
    VclosModelZoo zoo;
    while (csv.Next())
    {
        VclosModel m;
        m.name = csv.Text("model");
        VCLOS_REQUIRE(!m.name.empty(),
                      std::runtime_error,
                      csv.Where() << ": field 'model' is empty");
        VCLOS_REQUIRE(zoo.m_models.count(m.name) == 0,
                      std::runtime_error,
                      csv.Where() << ": model '" << m.name << "' is listed twice");
        m.parameters = csv.PositiveInteger("parameters");
        m.gradientBytes = csv.PositiveInteger("gradient_bytes");
        m.batchPerGpu = static_cast<uint32_t>(csv.PositiveInteger("batch_per_gpu"));
        m.computeTime = NanoSeconds(std::llround(csv.Positive("compute_ms_v100") * 1e6));
        zoo.m_models[m.name] = m;
    }
    VCLOS_REQUIRE(!zoo.m_models.empty(), std::runtime_error, path << ": no models");
    return zoo;
}

std::string
VclosModelZoo::DefaultPath()
{
    const char* env = std::getenv("VCLOS_MODEL_ZOO");
    return env ? env : VCLOS_MODEL_ZOO_SOURCE_PATH;
}

VclosModelZoo
VclosModelZoo::LoadDefault()
{
    return Load(DefaultPath());
}

const VclosModel&
VclosModelZoo::Get(const std::string& name) const
{
    auto it = m_models.find(name);
    if (it == m_models.end())
    {
        std::string known;
        for (const auto& n : GetNames())
        {
            known += (known.empty() ? "" : ", ") + n;
        }
        VCLOS_REQUIRE(false,
                      std::invalid_argument,
                      "unknown model '" << name << "' (known: " << known << ")");
    }
    return it->second;
}

std::vector<std::string>
VclosModelZoo::GetNames() const
{
    std::vector<std::string> names;
    for (const auto& [name, model] : m_models)
    {
        names.push_back(name);
    }
    return names;
}

} // namespace ns3

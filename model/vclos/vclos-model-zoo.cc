/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "vclos-model-zoo.h"

#include "vclos-check.h"

#include <cstdlib>
#include <fstream>
#include <sstream>

#ifndef VCLOS_MODEL_ZOO_SOURCE_PATH
#define VCLOS_MODEL_ZOO_SOURCE_PATH "model/vclos/vclos-model-zoo.csv"
#endif

namespace ns3
{

namespace
{
/// Split a CSV line (no quoting: fields never contain commas).
std::vector<std::string>
SplitCsv(const std::string& line)
{
    std::vector<std::string> fields;
    std::stringstream stream(line);
    std::string field;
    while (std::getline(stream, field, ','))
    {
        fields.push_back(field);
    }
    return fields;
}

/// Parse a positive number or throw naming the place and the field.
double
ParsePositive(const std::string& text, const std::string& where, const std::string& field)
{
    char* end = nullptr;
    double value = std::strtod(text.c_str(), &end);
    VCLOS_REQUIRE(!text.empty() && end && *end == '\0' && value > 0,
                  std::runtime_error,
                  where << ": field '" << field << "' must be a positive number (got '" << text
                        << "')");
    return value;
}
} // namespace

VclosModelZoo
VclosModelZoo::Load(const std::string& path)
{
    std::ifstream in(path);
    VCLOS_REQUIRE(in.good(), std::runtime_error, path << ": cannot open the model zoo");
    VclosModelZoo zoo;
    std::string line;
    uint32_t number = 0;
    bool header = true;
    const std::vector<std::string> expected = {"model",
                                               "parameters",
                                               "gradient_bytes",
                                               "batch_per_gpu",
                                               "compute_ms_v100"};
    while (std::getline(in, line))
    {
        ++number;
        if (line.empty() || line[0] == '#')
        {
            continue;
        }
        std::string where = path + ":" + std::to_string(number);
        auto fields = SplitCsv(line);
        if (header)
        {
            for (std::size_t i = 0; i < expected.size(); ++i)
            {
                VCLOS_REQUIRE(i < fields.size() && fields[i] == expected[i],
                              std::runtime_error,
                              where << ": header column " << i + 1 << " must be '" << expected[i]
                                    << "'");
            }
            header = false;
            continue;
        }
        VCLOS_REQUIRE(fields.size() >= expected.size(),
                      std::runtime_error,
                      where << ": expected at least " << expected.size() << " fields, got "
                            << fields.size());
        VclosModel m;
        m.name = fields[0];
        VCLOS_REQUIRE(!m.name.empty(), std::runtime_error, where << ": field 'model' is empty");
        VCLOS_REQUIRE(zoo.m_models.count(m.name) == 0,
                      std::runtime_error,
                      where << ": model '" << m.name << "' is listed twice");
        m.parameters = static_cast<uint64_t>(ParsePositive(fields[1], where, "parameters"));
        m.gradientBytes = static_cast<uint64_t>(ParsePositive(fields[2], where, "gradient_bytes"));
        m.batchPerGpu = static_cast<uint32_t>(ParsePositive(fields[3], where, "batch_per_gpu"));
        m.computeTime = MicroSeconds(ParsePositive(fields[4], where, "compute_ms_v100") * 1000);
        zoo.m_models[m.name] = m;
    }
    VCLOS_REQUIRE(!header && !zoo.m_models.empty(),
                  std::runtime_error,
                  path << ": no models (a header and at least one row are needed)");
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

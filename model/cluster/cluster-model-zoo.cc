/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "cluster-model-zoo.h"

#include "ns3/suite-check.h"
#include "ns3/suite-csv-reader.h"
#include "ns3/suite-shown-text.h"

#include <cmath>
#include <cstdlib>
#include <set>

#ifndef CLUSTER_MODEL_ZOO_SOURCE_PATH
#define CLUSTER_MODEL_ZOO_SOURCE_PATH "model/cluster/cluster-model-zoo.csv"
#endif

namespace ns3
{

ClusterModelZoo
ClusterModelZoo::Load(const std::string& path)
{
    SuiteCsvReader csv(
        path,
        {"model", "parameters", "gradient_bytes", "batch_per_gpu", "compute_ms_v100"});
    ClusterModelZoo zoo;
    while (csv.Next())
    {
        ClusterModel m;
        m.name = csv.Text("model");
        SUITE_REQUIRE(!m.name.empty(),
                      std::runtime_error,
                      csv.Where() << ": field 'model' is empty");
        SUITE_REQUIRE(zoo.m_models.count(m.name) == 0,
                      std::runtime_error,
                      csv.Where() << ": model '" << SuiteShownText(m.name) << "' is listed twice");
        m.parameters = csv.PositiveInteger("parameters");
        m.gradientBytes = csv.PositiveInteger("gradient_bytes");
        m.batchPerGpu = static_cast<uint32_t>(csv.Integer("batch_per_gpu", 1, UINT32_MAX));
        csv.Duration("compute_ms_v100", 1e-3); // refuses a time that does not fit
        m.computeTime = NanoSeconds(std::llround(csv.Positive("compute_ms_v100") * 1e6));
        SUITE_REQUIRE(m.computeTime.IsStrictlyPositive(),
                      std::runtime_error,
                      csv.Where() << ": field 'compute_ms_v100' is below 1 ns (1e-6 ms)");
        zoo.m_models[m.name] = m;
    }
    SUITE_REQUIRE(!zoo.m_models.empty(), std::runtime_error, path << ": no models");
    return zoo;
}

std::string
ClusterModelZoo::DefaultPath()
{
    const char* env = std::getenv("CLUSTER_MODEL_ZOO");
    return env ? env : CLUSTER_MODEL_ZOO_SOURCE_PATH;
}

std::string
ClusterModelZoo::DefaultAliasPath()
{
    const char* env = std::getenv("CLUSTER_MODEL_ALIASES");
    if (env)
    {
        return env;
    }
    std::string zoo = CLUSTER_MODEL_ZOO_SOURCE_PATH;
    auto slash = zoo.find_last_of('/');
    return (slash == std::string::npos ? "" : zoo.substr(0, slash + 1)) +
           "cluster-model-aliases.csv";
}

ClusterModelZoo
ClusterModelZoo::LoadDefault()
{
    ClusterModelZoo zoo = Load(DefaultPath());
    std::string aliases = DefaultAliasPath();
    if (!aliases.empty())
    {
        zoo.LoadAliases(aliases);
    }
    return zoo;
}

void
ClusterModelZoo::LoadAliases(const std::string& path)
{
    SuiteCsvReader csv(path, {"alias", "model"});
    std::set<std::string> seen;
    while (csv.Next())
    {
        std::string alias = csv.Text("alias");
        std::string model = csv.Text("model");
        SUITE_REQUIRE(!alias.empty() && m_models.count(alias) == 0 && seen.insert(alias).second,
                      std::runtime_error,
                      csv.Where() << ": field 'alias' must be a new name, not a zoo model or "
                                     "an alias listed before (got '"
                                  << SuiteShownText(alias) << "')");
        SUITE_REQUIRE(m_models.count(model) != 0,
                      std::runtime_error,
                      csv.Where() << ": field 'model' names no zoo model (got '"
                                  << SuiteShownText(model) << "'; known: " << DescribeNames()
                                  << ")");
        m_aliases[alias] = model;
    }
}

void
ClusterModelZoo::AddAlias(const std::string& alias, const std::string& model)
{
    SUITE_REQUIRE(!alias.empty() && m_models.count(alias) == 0,
                  std::invalid_argument,
                  "alias '" << SuiteShownText(alias) << "' is empty or a zoo model");
    SUITE_REQUIRE(m_models.count(model) != 0,
                  std::invalid_argument,
                  "alias '" << SuiteShownText(alias) << "' maps onto unknown model '"
                            << SuiteShownText(model) << "' (known: " << DescribeNames() << ")");
    m_aliases[alias] = model;
}

bool
ClusterModelZoo::Has(const std::string& name) const
{
    return m_models.count(name) != 0 || m_aliases.count(name) != 0;
}

const ClusterModel&
ClusterModelZoo::Get(const std::string& name) const
{
    auto alias = m_aliases.find(name);
    auto it = m_models.find(alias == m_aliases.end() ? name : alias->second);
    SUITE_REQUIRE(it != m_models.end(),
                  std::invalid_argument,
                  "unknown model '" << SuiteShownText(name) << "' (known: " << DescribeNames()
                                    << ")");
    return it->second;
}

std::string
ClusterModelZoo::DescribeNames() const
{
    std::string known;
    for (const auto& n : GetNames())
    {
        known += (known.empty() ? "" : ", ") + SuiteShownText(n);
    }
    if (!m_aliases.empty())
    {
        known += "; aliases:";
        for (const auto& [alias, model] : m_aliases)
        {
            known += " " + SuiteShownText(alias) + " -> " + SuiteShownText(model) + ",";
        }
        known.pop_back();
    }
    return known;
}

const std::map<std::string, std::string>&
ClusterModelZoo::GetAliases() const
{
    return m_aliases;
}

std::vector<std::string>
ClusterModelZoo::GetNames() const
{
    std::vector<std::string> names;
    for (const auto& [name, model] : m_models)
    {
        names.push_back(name);
    }
    return names;
}

} // namespace ns3

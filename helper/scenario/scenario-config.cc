/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "scenario-config.h"

#include "scenario-engine.h"

#include "ns3/boolean.h"
#include "ns3/clos-fabric-helper.h"
#include "ns3/cluster-collective-schedule.h"
#include "ns3/cluster-job-trace.h"
#include "ns3/cluster-placement.h"
#include "ns3/cluster-workload.h"
#include "ns3/config.h"
#include "ns3/data-rate.h"
#include "ns3/fluid-executor.h"
#include "ns3/roce-dcqcn.h"
#include "ns3/string.h"
#include "ns3/suite-attribute-text.h"
#include "ns3/suite-check.h"
#include "ns3/suite-csv-reader.h"
#include "ns3/suite-shown-text.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iterator>
#include <limits>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <sstream>

namespace ns3
{

namespace
{

using Json = nlohmann::ordered_json;

/// The fabric helper's TypeId name; its attributes are the "fabric" section's fields.
const char* const FABRIC_HELPER = "ns3::ClosFabricHelper";

/// Reads one JSON object into fields, naming the file and field path on any error.
class FieldReader
{
  public:
    /**
     * \param file the scenario file, for messages
     * \param path the object's path ("" for the root)
     * \param object the object
     */
    FieldReader(const std::string& file, const std::string& path, const Json& object)
        : m_file(file),
          m_path(path),
          m_object(object)
    {
        SUITE_REQUIRE(object.is_object(),
                      std::runtime_error,
                      Where("") << ": expected an object, got " << object.type_name());
    }

    /// \return "scenario <file>: <path>.<key>" (without ".<key>" for an empty key)
    std::string Where(const std::string& key) const
    {
        std::string field = m_path.empty() || key.empty() ? m_path + key : m_path + "." + key;
        return "scenario " + m_file + (field.empty() ? "" : ": " + field);
    }

    /// Read a field if present; the value must convert to T.
    template <typename T>
    void Read(const std::string& key, T& value)
    {
        m_known.insert(key);
        auto it = m_object.find(key);
        if (it == m_object.end())
        {
            return;
        }
        bool ok = false;
        if constexpr (std::is_same_v<T, bool>)
        {
            ok = it->is_boolean();
        }
        else if constexpr (std::is_same_v<T, std::string>)
        {
            ok = it->is_string();
        }
        else if constexpr (std::is_integral_v<T>)
        {
            // Within T: a larger value would be cut to T's width by get<T>().
            ok = (it->is_number_unsigned() &&
                  it->template get<uint64_t>() <=
                      static_cast<uint64_t>(std::numeric_limits<T>::max())) ||
                 (it->is_number_integer() && it->template get<int64_t>() == 0);
        }
        else if constexpr (std::is_floating_point_v<T>)
        {
            ok = it->is_number();
        }
        else // std::vector<std::string>
        {
            ok = it->is_array() &&
                 std::all_of(it->begin(), it->end(), [](const Json& v) { return v.is_string(); });
        }
        SUITE_REQUIRE(ok,
                      std::runtime_error,
                      Where(key) << ": expected " << Expected<T>() << ", got "
                                 << SuiteShownText(it->dump()));
        value = it->template get<T>();
    }

    /// Read an object of name -> scalar (number, string or bool), as strings.
    void ReadMap(const std::string& key, std::map<std::string, std::string>& values)
    {
        m_known.insert(key);
        auto it = m_object.find(key);
        if (it == m_object.end())
        {
            return;
        }
        SUITE_REQUIRE(it->is_object(),
                      std::runtime_error,
                      Where(key) << ": expected an object, got " << SuiteShownText(it->dump()));
        for (const auto& [name, v] : it->items())
        {
            SUITE_REQUIRE(v.is_primitive() && !v.is_null(),
                          std::runtime_error,
                          Where(key) << "." << SuiteShownText(name)
                                     << ": expected a number, string or boolean, got "
                                     << SuiteShownText(v.dump()));
            values[name] = v.is_string() ? v.get<std::string>() : v.dump();
        }
    }

    /// \return a reader of a nested object, or of an empty one when absent
    FieldReader Child(const std::string& key)
    {
        m_known.insert(key);
        auto it = m_object.find(key);
        static const Json empty = Json::object();
        return FieldReader(m_file,
                           m_path.empty() ? key : m_path + "." + key,
                           it == m_object.end() ? empty : *it);
    }

    /// Throw for a field that no Read named.
    void RejectUnknown() const
    {
        for (const auto& [key, v] : m_object.items())
        {
            if (m_known.count(key) == 0)
            {
                std::ostringstream known;
                for (const auto& k : m_known)
                {
                    known << (known.tellp() > 0 ? ", " : "") << k;
                }
                SUITE_REQUIRE(false,
                              std::runtime_error,
                              Where(SuiteShownText(key))
                                  << ": unknown field (known: " << known.str() << ")");
            }
        }
    }

  private:
    /// \return what a type expects, for messages
    template <typename T>
    static std::string Expected()
    {
        if constexpr (std::is_same_v<T, bool>)
        {
            return "true or false";
        }
        else if constexpr (std::is_same_v<T, std::string>)
        {
            return "a string";
        }
        else if constexpr (std::is_integral_v<T>)
        {
            return "a non-negative integer up to " + std::to_string(std::numeric_limits<T>::max());
        }
        else if constexpr (std::is_floating_point_v<T>)
        {
            return "a number";
        }
        return "an array of strings";
    }

    std::string m_file;            //!< for messages
    std::string m_path;            //!< this object's path
    const Json& m_object;          //!< the object
    std::set<std::string> m_known; //!< fields read
};

/// Throw std::invalid_argument naming a field unless a condition holds.
#define SCENARIO_CHECK(condition, field, message)                                                  \
    SUITE_REQUIRE(condition, std::invalid_argument, "scenario: " << field << ": " << message)

/**
 * Check that a value's text suits its attribute before ns-3 parses it (see
 * SuiteCheckAttributeText: ns-3.37 aborts on some bad text and overflows on other).
 * \param field the scenario field, for messages
 * \param info the attribute
 * \param value the text
 */
void
CheckAttributeText(const std::string& field,
                   const TypeId::AttributeInformation& info,
                   const std::string& value)
{
    std::string problem = SuiteCheckAttributeText(info, value);
    SUITE_REQUIRE(problem.empty(),
                  std::invalid_argument,
                  "scenario: " << field << ": invalid value '" << SuiteShownText(value) << "' ("
                               << problem << ")");
}

/**
 * Refuse JSON nested deeper than ScenarioConfig::MAX_JSON_DEPTH before it is parsed (deep
 * nesting would exhaust the stack when a value is printed or destroyed).
 * \param path the file, for messages
 * \param text its contents
 */
void
CheckJsonDepth(const std::string& path, const std::string& text)
{
    int depth = 0;
    uint32_t line = 1;
    uint32_t column = 1;

    enum
    {
        VALUE,
        STRING,
        ESCAPE,
        LINE_COMMENT,
        BLOCK_COMMENT
    } state = VALUE;

    for (std::size_t i = 0; i < text.size(); ++i)
    {
        char c = text[i];
        char next = i + 1 < text.size() ? text[i + 1] : '\0';
        switch (state)
        {
        case STRING:
            state = c == '\\' ? ESCAPE : (c == '"' ? VALUE : STRING);
            break;
        case ESCAPE:
            state = STRING;
            break;
        case LINE_COMMENT:
            state = c == '\n' ? VALUE : LINE_COMMENT;
            break;
        case BLOCK_COMMENT:
            if (c == '*' && next == '/')
            {
                state = VALUE;
                ++i; // the '/'
                ++column;
            }
            break;
        case VALUE:
            if (c == '"')
            {
                state = STRING;
            }
            else if (c == '/' && (next == '/' || next == '*'))
            {
                state = next == '/' ? LINE_COMMENT : BLOCK_COMMENT;
                ++i; // the second character
                ++column;
            }
            depth += c == '{' || c == '[' ? 1 : (c == '}' || c == ']' ? -1 : 0);
            SUITE_REQUIRE(depth <= ScenarioConfig::MAX_JSON_DEPTH,
                          std::runtime_error,
                          "scenario " << path << ": line " << line << ", column " << column
                                      << ": nested deeper than " << ScenarioConfig::MAX_JSON_DEPTH
                                      << " levels");
            break;
        }
        column = c == '\n' ? 1 : column + 1;
        line += c == '\n' ? 1 : 0;
    }
}

/**
 * The line of a field's key in a scenario's text: the first "<key>": after the first
 * "<section>": (comments are not skipped).
 * \param text the file's text
 * \param section the top-level section
 * \param key the field
 * \return the 1-based line, or 0 when not found (a value from the command line)
 */
uint32_t
LineOfField(const std::string& text, const std::string& section, const std::string& key)
{
    auto keyAt = [&text](const std::string& name, std::size_t from) {
        const std::string quoted = "\"" + name + "\"";
        for (std::size_t at = text.find(quoted, from); at != std::string::npos;
             at = text.find(quoted, at + 1))
        {
            std::size_t after = text.find_first_not_of(" \t\r\n", at + quoted.size());
            if (after != std::string::npos && text[after] == ':')
            {
                return at;
            }
        }
        return std::string::npos;
    };
    std::size_t sectionAt = keyAt(section, 0);
    std::size_t at = sectionAt == std::string::npos ? sectionAt : keyAt(key, sectionAt);
    if (at == std::string::npos)
    {
        return 0;
    }
    return 1 + static_cast<uint32_t>(std::count(text.begin(), text.begin() + at, '\n'));
}

/// The trace path, relative to the scenario's folder unless absolute.
std::string
TracePath(const ScenarioConfig& s)
{
    if (s.workload.trace.empty() || s.workload.trace.front() == '/')
    {
        return s.workload.trace;
    }
    return s.directory + "/" + s.workload.trace;
}

/// The zoo with the scenario's workload.modelAliases added.
ClusterModelZoo
ScenarioZoo(const ScenarioConfig& s, const ClusterModelZoo& zoo)
{
    ClusterModelZoo out = zoo;
    for (const auto& [alias, model] : s.workload.modelAliases)
    {
        try
        {
            out.AddAlias(alias, model);
        }
        catch (const std::invalid_argument& e)
        {
            SCENARIO_CHECK(false, "workload.modelAliases." << SuiteShownText(alias), e.what());
        }
    }
    return out;
}

/// \return seconds per unit of workload.traceTimeUnit, or 0 if it is not a known unit
double
TraceUnitSeconds(const std::string& unit)
{
    return unit == "s" ? 1.0 : (unit == "ms" ? 1e-3 : 0.0);
}

} // namespace

namespace
{

/// \return the scenario file's JSON (comments allowed); malformed JSON throws naming the file
Json
ParseScenarioJson(const std::string& path, const std::string& text)
{
    CheckJsonDepth(path, text);
    try
    {
        return Json::parse(text, nullptr, true, true); // comments allowed
    }
    catch (const Json::exception& e) // parse_error, and out_of_range for a number like 1e400
    {
        // The parser ends its message with the token it last read, a whole string if need be.
        std::string what = e.what();
        const std::string lastRead = "; last read: '";
        const auto token = what.find(lastRead);
        if (token != std::string::npos && what.back() == '\'')
        {
            const auto from = token + lastRead.size();
            what = what.substr(0, from) +
                   SuiteShownText(what.substr(from, what.size() - 1 - from)) + "'";
        }
        SUITE_REQUIRE(false,
                      std::runtime_error,
                      "scenario " << path << ": malformed JSON (" << what.substr(what.find(' ') + 1)
                                  << ")");
    }
    return Json();
}

/// Read the workload and scaling sections.
void
ReadWorkload(FieldReader& top, ScenarioConfig& s)
{
    FieldReader w = top.Child("workload");
    w.Read("source", s.workload.source);
    w.Read("trace", s.workload.trace);
    w.Read("firstJob", s.workload.firstJob);
    w.Read("jobs", s.workload.jobs);
    w.Read("meanInterArrivalMs", s.workload.meanInterArrivalMs);
    w.Read("minGpus", s.workload.minGpus);
    w.Read("maxGpus", s.workload.maxGpus);
    w.Read("models", s.workload.models);
    w.Read("algorithms", s.workload.algorithms);
    w.Read("traceTimeUnit", s.workload.traceTimeUnit);
    w.ReadMap("modelAliases", s.workload.modelAliases);
    w.RejectUnknown();
    FieldReader c = top.Child("scaling");
    c.Read("gradientBytes", s.scaling.gradientBytes);
    c.Read("computeTime", s.scaling.computeTime);
    c.Read("arrivalTime", s.scaling.arrivalTime);
    c.Read("maxIterations", s.scaling.maxIterations);
    c.RejectUnknown();
}

/// Read the scheduler and transport sections (a bad transport names its line).
void
ReadSchedulerAndTransport(const std::string& path,
                          const std::string& text,
                          FieldReader& top,
                          ScenarioConfig& s)
{
    FieldReader q = top.Child("scheduler");
    q.Read("policies", s.scheduler.policies);
    q.Read("backfill", s.scheduler.backfill);
    q.Read("engine", s.scheduler.engine);
    q.Read("sharing", s.scheduler.sharing);
    q.Read("ecmpPathPerStep", s.scheduler.ecmpPathPerStep);
    q.Read("reconfigurationMs", s.scheduler.reconfigurationMs);
    q.Read("keepIdleCircuits", s.scheduler.keepIdleCircuits);
    q.RejectUnknown();
    FieldReader t = top.Child("transport");
    t.Read("type", s.transport.type);
    t.Read("congestionControl", s.transport.congestionControl);
    t.Read("profile", s.transport.profile);
    t.RejectUnknown();
    std::string field;
    std::string problem = ScenarioCheckTransport(s.transport, field);
    if (!problem.empty())
    {
        const uint32_t line = LineOfField(text, "transport", field.substr(field.find('.') + 1));
        SUITE_REQUIRE(false,
                      std::runtime_error,
                      "scenario " << path << ": "
                                  << (line > 0 ? "line " + std::to_string(line) + ": " : "")
                                  << field << ": " << problem);
    }
}

/// Read the seeds, metrics and output sections.
void
ReadSeedsMetricsOutput(FieldReader& top, ScenarioConfig& s)
{
    FieldReader r = top.Child("seeds");
    r.Read("workload", s.seeds.workload);
    r.Read("rngRun", s.seeds.rngRun);
    r.Read("ecmpRuns", s.seeds.ecmpRuns);
    r.RejectUnknown();
    FieldReader m = top.Child("metrics");
    m.Read("slowdown", s.metrics.slowdown);
    m.Read("waitThresholdMs", s.metrics.waitThresholdMs);
    m.Read("idleGapUs", s.metrics.idleGapUs);
    m.RejectUnknown();
    FieldReader o = top.Child("output");
    o.Read("prefix", s.output.prefix);
    o.Read("plots", s.output.plots);
    o.Read("flowMonitor", s.output.flowMonitor);
    o.Read("pcap", s.output.pcap);
    o.Read("progress", s.output.progress);
    o.RejectUnknown();
}

} // namespace

ScenarioConfig
ScenarioRead(const std::string& path)
{
    std::ifstream in(path);
    SUITE_REQUIRE(in, std::runtime_error, "scenario " << path << ": cannot open the file");
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const Json root = ParseScenarioJson(path, text);
    ScenarioConfig s;
    auto slash = path.find_last_of('/');
    s.directory = slash == std::string::npos ? "." : path.substr(0, slash);
    FieldReader top(path, "", root);
    top.Read("name", s.name);
    top.Read("description", s.description);
    top.ReadMap("fabric", s.fabric);
    top.ReadMap("defaults", s.defaults);
    ReadWorkload(top, s);
    ReadSchedulerAndTransport(path, text, top, s);
    ReadSeedsMetricsOutput(top, s);
    top.RejectUnknown();
    return s;
}

void
ScenarioApplyAttributes(const ScenarioConfig& s)
{
    TypeId helper = TypeId::LookupByName(FABRIC_HELPER);
    for (const auto& [name, value] : s.fabric)
    {
        TypeId::AttributeInformation info;
        SCENARIO_CHECK(helper.LookupAttributeByName(name, &info),
                       "fabric." << SuiteShownText(name),
                       "not an attribute of " << FABRIC_HELPER);
        CheckAttributeText("fabric." + name, info, value);
        SCENARIO_CHECK(Config::SetDefaultFailSafe(std::string(FABRIC_HELPER) + "::" + name,
                                                  StringValue(value)),
                       "fabric." << name,
                       "invalid value '" << SuiteShownText(value) << "'");
    }
    for (const auto& [name, value] : s.defaults)
    {
        auto split = name.rfind("::");
        TypeId tid;
        TypeId::AttributeInformation info;
        SCENARIO_CHECK(split != std::string::npos &&
                           TypeId::LookupByNameFailSafe(name.substr(0, split), &tid) &&
                           tid.LookupAttributeByName(name.substr(split + 2), &info),
                       "defaults." << SuiteShownText(name),
                       "no such attribute (expected ns3::<Type>::<Attribute>)");
        CheckAttributeText("defaults." + name, info, value);
        SCENARIO_CHECK(Config::SetDefaultFailSafe(name, StringValue(value)),
                       "defaults." << name,
                       "invalid value '" << SuiteShownText(value) << "'");
    }
}

std::string
ScenarioCheckTransport(const ScenarioConfig::Transport& t, std::string& field)
{
    std::ostringstream problem;
    if (t.type != "tcp" && t.type != "rdma")
    {
        field = "transport.type";
        problem << "unknown transport '" << SuiteShownText(t.type) << "' (tcp or rdma)";
    }
    else if (t.congestionControl != "none" && t.congestionControl != "dcqcn")
    {
        field = "transport.congestionControl";
        problem << "unknown congestion control '" << SuiteShownText(t.congestionControl)
                << "' (none or dcqcn)";
    }
    else if (t.type == "tcp" && t.congestionControl != "none")
    {
        field = "transport.congestionControl";
        problem << "'" << SuiteShownText(t.congestionControl)
                << "' is an rdma option (transport.type is tcp; "
                << "TCP's is fabric.TcpSocketType)";
    }
    else if (t.profile != "none")
    {
        try
        {
            Dcqcn::GetProfile(t.profile, DataRate("100Gbps"));
        }
        catch (const std::invalid_argument&)
        {
            field = "transport.profile";
            problem << "unknown DCQCN profile '" << SuiteShownText(t.profile)
                    << "' (paper, hpcc, simai, nvidia or none)";
        }
    }
    return problem.str();
}

void
ScenarioApplyTransport(const ScenarioConfig& s)
{
    std::string field;
    std::string problem = ScenarioCheckTransport(s.transport, field);
    SCENARIO_CHECK(problem.empty(), field, problem);
    Config::SetDefault("ns3::CollectivePacketExecutor::Transport", StringValue(s.transport.type));
    if (s.transport.type != "rdma" || s.transport.congestionControl != "dcqcn")
    {
        return;
    }
    Config::SetDefault("ns3::RoceNic::RateControl", StringValue("ns3::Dcqcn"));
    if (s.transport.profile == "none")
    {
        return;
    }
    DataRateValue nicRate;
    CreateObject<ClosFabricHelper>()->GetAttribute("NicDataRate", nicRate);
    for (const auto& [attribute, value] : Dcqcn::GetProfile(s.transport.profile, nicRate.Get()))
    {
        Config::SetDefault("ns3::Dcqcn::" + attribute, StringValue(value));
    }
}

namespace
{

/// Check the workload section (and the transport, first).
void
ValidateWorkload(const ScenarioConfig& s, const ClusterModelZoo& zoo)
{
    {
        std::string field;
        std::string problem = ScenarioCheckTransport(s.transport, field);
        SCENARIO_CHECK(problem.empty(), field, problem);
    }
    const auto& w = s.workload;
    SCENARIO_CHECK(w.source == "synthetic" || w.source == "tiresias" || w.source == "helios" ||
                       w.source == "spec7" || w.source == "job-list",
                   "workload.source",
                   "'" << SuiteShownText(w.source)
                       << "' is not synthetic, tiresias, helios, spec7 or job-list");
    SCENARIO_CHECK(w.source == "synthetic" || w.source == "spec7" || !w.trace.empty(),
                   "workload.trace",
                   "a " << w.source << " workload needs a trace file");
    SCENARIO_CHECK(TraceUnitSeconds(w.traceTimeUnit) > 0,
                   "workload.traceTimeUnit",
                   "'" << SuiteShownText(w.traceTimeUnit) << "' is not s or ms");
    SCENARIO_CHECK(w.source == "tiresias" || w.traceTimeUnit == "s",
                   "workload.traceTimeUnit",
                   "'" << SuiteShownText(w.traceTimeUnit)
                       << "' applies only to tiresias traces (helios logs "
                       << "carry dates)");
    SCENARIO_CHECK((w.source != "synthetic" || w.jobs >= 1) && w.jobs <= ScenarioConfig::MAX_JOBS,
                   "workload.jobs",
                   "must be 1 to " << ScenarioConfig::MAX_JOBS << " (trace: 0 for all) (got "
                                   << w.jobs << ")");
    SCENARIO_CHECK(w.meanInterArrivalMs >= 1e-6 &&
                       w.meanInterArrivalMs <= ScenarioConfig::MAX_MEAN_INTER_ARRIVAL_MS,
                   "workload.meanInterArrivalMs",
                   "must be 1e-6 (1 ns) to " << ScenarioConfig::MAX_MEAN_INTER_ARRIVAL_MS
                                             << " (got " << w.meanInterArrivalMs << ")");
    SCENARIO_CHECK(w.maxGpus >= 1 && w.maxGpus <= ScenarioConfig::MAX_JOB_GPUS,
                   "workload.maxGpus",
                   "must be 1 to " << ScenarioConfig::MAX_JOB_GPUS << " (got " << w.maxGpus << ")");
    SCENARIO_CHECK(w.minGpus >= 1 && (w.source != "synthetic" || w.minGpus <= w.maxGpus),
                   "workload.minGpus",
                   "must be at least 1 and at most workload.maxGpus");
    SCENARIO_CHECK(!w.models.empty(), "workload.models", "needs at least one model");
    const ClusterModelZoo aliased = ScenarioZoo(s, zoo);
    for (const auto& model : w.models)
    {
        SCENARIO_CHECK(aliased.Has(model),
                       "workload.models",
                       "unknown model '" << SuiteShownText(model)
                                         << "' (known: " << aliased.DescribeNames() << ")");
    }
    SCENARIO_CHECK(!w.algorithms.empty(), "workload.algorithms", "needs at least one algorithm");
    for (const auto& name : w.algorithms)
    {
        ClusterCollectiveAlgorithm a;
        SCENARIO_CHECK(ClusterParseCollectiveAlgorithm(name, a),
                       "workload.algorithms",
                       "unknown algorithm '" << SuiteShownText(name)
                                             << "' (ring, hierarchical-ring, halving-doubling, "
                                                "all-to-all)");
    }
}

/// Check the scaling section.
void
ValidateScaling(const ScenarioConfig& s)
{
    SCENARIO_CHECK(s.scaling.gradientBytes > 0 && s.scaling.gradientBytes <= 1,
                   "scaling.gradientBytes",
                   "must be in (0, 1]");
    SCENARIO_CHECK(s.scaling.computeTime >= 0 && s.scaling.computeTime <= 1,
                   "scaling.computeTime",
                   "must be in [0, 1]");
    SCENARIO_CHECK(s.scaling.arrivalTime > 0 &&
                       s.scaling.arrivalTime <= ScenarioConfig::MAX_ARRIVAL_SCALE,
                   "scaling.arrivalTime",
                   "must be > 0 and at most " << ScenarioConfig::MAX_ARRIVAL_SCALE << " (got "
                                              << s.scaling.arrivalTime << ")");
    SCENARIO_CHECK(s.scaling.maxIterations >= 1 &&
                       s.scaling.maxIterations <= ScenarioConfig::MAX_ITERATIONS,
                   "scaling.maxIterations",
                   "must be 1 to " << ScenarioConfig::MAX_ITERATIONS << " (got "
                                   << s.scaling.maxIterations << ")");
}

/// Check the scheduler section: policies on the fabric, circuits, sharing, the engine's own.
void
ValidateScheduler(const ScenarioConfig& s)
{
    SCENARIO_CHECK(!s.scheduler.policies.empty(), "scheduler.policies", "needs a policy");
    std::unique_ptr<ClusterTopology> topology;
    try
    {
        topology = std::make_unique<ClusterTopology>(
            CreateObject<ClosFabricHelper>()->GetTopologyConfig());
    }
    catch (const std::invalid_argument& e)
    {
        SCENARIO_CHECK(false, "fabric", e.what());
    }
    SCENARIO_CHECK(std::isfinite(s.scheduler.reconfigurationMs) &&
                       s.scheduler.reconfigurationMs >= 0 &&
                       s.scheduler.reconfigurationMs <= ScenarioConfig::MAX_RECONFIGURATION_MS,
                   "scheduler.reconfigurationMs",
                   "must be 0 to " << ScenarioConfig::MAX_RECONFIGURATION_MS << " (got "
                                   << s.scheduler.reconfigurationMs << ")");
    for (const auto& policy : s.scheduler.policies)
    {
        try
        {
            ClusterCreatePlacementPolicy(policy, *topology);
        }
        catch (const std::invalid_argument& e)
        {
            SCENARIO_CHECK(false, "scheduler.policies", e.what());
        }
    }
    SCENARIO_CHECK(s.scheduler.sharing == "max-min" || s.scheduler.sharing == "equal-share",
                   "scheduler.sharing",
                   "must be max-min or equal-share (got '" << SuiteShownText(s.scheduler.sharing)
                                                           << "')");
    ScenarioCreateEngine(s.scheduler.engine)->Validate(s);
}

/// Check the seeds, metrics and output sections.
void
ValidateSeedsMetricsOutput(const ScenarioConfig& s)
{
    SCENARIO_CHECK(s.seeds.rngRun >= 1, "seeds.rngRun", "must be at least 1");
    SCENARIO_CHECK(s.seeds.ecmpRuns >= 1 && s.seeds.ecmpRuns <= ScenarioConfig::MAX_ECMP_RUNS,
                   "seeds.ecmpRuns",
                   "must be 1 to " << ScenarioConfig::MAX_ECMP_RUNS << " (got " << s.seeds.ecmpRuns
                                   << ")");
    SCENARIO_CHECK(s.metrics.waitThresholdMs >= 0 &&
                       s.metrics.waitThresholdMs <= ScenarioConfig::MAX_WAIT_THRESHOLD_MS,
                   "metrics.waitThresholdMs",
                   "must be 0 to " << ScenarioConfig::MAX_WAIT_THRESHOLD_MS << " (got "
                                   << s.metrics.waitThresholdMs << ")");
    SCENARIO_CHECK(
        s.metrics.idleGapUs >= 0.001 && s.metrics.idleGapUs <= ScenarioConfig::MAX_IDLE_GAP_US,
        "metrics.idleGapUs",
        "must be at least 0.001 (1 ns) and at most " << ScenarioConfig::MAX_IDLE_GAP_US << " (got "
                                                     << s.metrics.idleGapUs << ")");
    SCENARIO_CHECK(!s.output.prefix.empty(), "output.prefix", "must not be empty");
}

} // namespace

void
ScenarioValidate(const ScenarioConfig& s, const ClusterModelZoo& zoo)
{
    ValidateWorkload(s, zoo);
    ValidateScaling(s);
    ValidateScheduler(s);
    ValidateSeedsMetricsOutput(s);
}

std::vector<std::string>
ScenarioWarnings(const ScenarioConfig& s)
{
    // Whether some policy of the scenario has the attribute a field sets.
    auto used = [&s](const std::string& attribute) {
        for (const auto& policy : s.scheduler.policies)
        {
            for (const auto& entry : ClusterPlacementPolicyNames())
            {
                TypeId::AttributeInformation info;
                if (entry.name == policy &&
                    TypeId::LookupByName(entry.typeId).LookupAttributeByName(attribute, &info))
                {
                    return true;
                }
            }
        }
        return false;
    };
    const ScenarioConfig defaults;
    std::vector<std::string> warnings;
    if (s.scheduler.reconfigurationMs != defaults.scheduler.reconfigurationMs &&
        !used("ReconfigurationDelay"))
    {
        warnings.emplace_back("scenario: scheduler.reconfigurationMs: no policy of "
                              "scheduler.policies sets up circuits (ocs-vclos does); ignored");
    }
    if (s.scheduler.keepIdleCircuits != defaults.scheduler.keepIdleCircuits &&
        !used("KeepIdleCircuits"))
    {
        warnings.emplace_back("scenario: scheduler.keepIdleCircuits: no policy of "
                              "scheduler.policies sets up circuits (ocs-vclos does); ignored");
    }
    return warnings;
}

std::string
ScenarioToJson(const ScenarioConfig& s)
{
    Json root;
    root["name"] = s.name;
    root["description"] = s.description;
    TypeId helper = TypeId::LookupByName(FABRIC_HELPER);
    Json fabric = Json::object();
    for (std::size_t i = 0; i < helper.GetAttributeN(); ++i)
    {
        TypeId::AttributeInformation info = helper.GetAttribute(i);
        fabric[info.name] = info.initialValue->SerializeToString(info.checker);
    }
    root["fabric"] = fabric;
    root["defaults"] = Json::object();
    for (const auto& [name, value] : s.defaults)
    {
        root["defaults"][name] = value;
    }
    const auto& w = s.workload;
    root["workload"] = {{"source", w.source},
                        {"trace", w.trace},
                        {"firstJob", w.firstJob},
                        {"jobs", w.jobs},
                        {"meanInterArrivalMs", w.meanInterArrivalMs},
                        {"minGpus", w.minGpus},
                        {"maxGpus", w.maxGpus},
                        {"models", w.models},
                        {"algorithms", w.algorithms},
                        {"traceTimeUnit", w.traceTimeUnit},
                        {"modelAliases", w.modelAliases}};
    root["scaling"] = {{"gradientBytes", s.scaling.gradientBytes},
                       {"computeTime", s.scaling.computeTime},
                       {"arrivalTime", s.scaling.arrivalTime},
                       {"maxIterations", s.scaling.maxIterations}};
    root["scheduler"] = {{"policies", s.scheduler.policies},
                         {"backfill", s.scheduler.backfill},
                         {"engine", s.scheduler.engine},
                         {"sharing", s.scheduler.sharing},
                         {"ecmpPathPerStep", s.scheduler.ecmpPathPerStep},
                         {"reconfigurationMs", s.scheduler.reconfigurationMs},
                         {"keepIdleCircuits", s.scheduler.keepIdleCircuits}};
    root["transport"] = {{"type", s.transport.type},
                         {"congestionControl", s.transport.congestionControl},
                         {"profile", s.transport.profile}};
    root["seeds"] = {{"workload", s.seeds.workload},
                     {"rngRun", s.seeds.rngRun},
                     {"ecmpRuns", s.seeds.ecmpRuns}};
    root["metrics"] = {{"slowdown", s.metrics.slowdown},
                       {"waitThresholdMs", s.metrics.waitThresholdMs},
                       {"idleGapUs", s.metrics.idleGapUs}};
    root["output"] = {{"prefix", s.output.prefix},
                      {"plots", s.output.plots},
                      {"flowMonitor", s.output.flowMonitor},
                      {"pcap", s.output.pcap},
                      {"progress", s.output.progress}};
    return root.dump(2) + "\n";
}

Ptr<FluidExecutor>
ScenarioFlowExecutor(const ScenarioConfig& s, uint32_t saltRun)
{
    Ptr<FluidExecutor> executor = CreateObject<FluidExecutor>();
    executor->SetAttribute(
        "Sharing",
        StringValue(s.scheduler.sharing == "equal-share" ? "EqualShare" : "MaxMin"));
    executor->SetAttribute("PathPerStep", BooleanValue(s.scheduler.ecmpPathPerStep));
    executor->SetAttribute("EcmpSalt",
                           UintegerValue(static_cast<uint32_t>(
                               ((s.seeds.rngRun + saltRun) * 0x9E3779B97F4A7C15ull) >> 32)));
    executor->SetTopology(CreateObject<ClosFabricHelper>()->GetTopologyConfig());
    return executor;
}

ClusterSecondsPerByte
ScenarioSecondsPerByte(const ScenarioConfig& s)
{
    Ptr<FluidExecutor> reference = ScenarioFlowExecutor(s);
    return [reference](const ClusterWorkloadJob& job) {
        std::vector<uint32_t> gpus(job.gpus);
        for (uint32_t r = 0; r < job.gpus; ++r)
        {
            gpus[r] = r;
        }
        return reference->GetContentionFreeSeconds(job.algorithm, gpus, 1.0);
    };
}

std::vector<ClusterWorkloadJob>
ScenarioWorkloadJobs(const std::vector<ClusterJobRequest>& jobs)
{
    std::vector<ClusterWorkloadJob> out;
    for (const auto& j : jobs)
    {
        ClusterWorkloadJob w;
        w.id = j.id;
        w.arrivalS = j.submit.GetSeconds();
        w.gpus = j.gpus;
        w.algorithm = j.algorithm;
        w.bytes = static_cast<double>(j.messageBytes);
        w.computeS = j.computeTime.GetSeconds();
        w.iterations = j.iterations;
        out.push_back(w);
    }
    return out;
}

namespace
{
/// The scaled jobs of a spec7 or job-list workload.
std::vector<ClusterJobRequest>
ListedJobs(const ScenarioConfig& s)
{
    const auto& w = s.workload;
    const ClusterTopologyConfig fabric = CreateObject<ClosFabricHelper>()->GetTopologyConfig();
    const uint32_t clusterGpus = fabric.leaves * fabric.serversPerLeaf * fabric.gpusPerServer;
    std::vector<ClusterWorkloadJob> listed;
    if (w.source == "job-list")
    {
        listed = ClusterReadJobList(TracePath(s), w.maxGpus);
        SCENARIO_CHECK(w.firstJob < listed.size(),
                       "workload.firstJob",
                       w.firstJob << " skips all " << listed.size() << " jobs of the list");
        auto end =
            w.jobs == 0 ? listed.size() : std::min<std::size_t>(listed.size(), w.firstJob + w.jobs);
        SCENARIO_CHECK(end - w.firstJob <= ScenarioConfig::MAX_JOBS,
                       "workload.jobs",
                       "the job list gives " << end - w.firstJob << " jobs, more than "
                                             << ScenarioConfig::MAX_JOBS
                                             << " (set workload.jobs to take fewer)");
        listed = std::vector<ClusterWorkloadJob>(listed.begin() + w.firstJob, listed.begin() + end);
    }
    else
    {
        ClusterSpec7Config config;
        config.jobs = w.jobs;
        config.meanInterArrivalS = w.meanInterArrivalMs / 1e3;
        config.clusterGpus = clusterGpus;
        config.maxGpus = std::min(w.maxGpus, clusterGpus);
        config.seed = s.seeds.workload;
        std::vector<ClusterTraceJob> trace;
        if (!w.trace.empty())
        {
            trace = ClusterReadHeliosSpec7Trace(TracePath(s));
        }
        try
        {
            listed = ClusterGenerateSpec7Workload(config, ScenarioSecondsPerByte(s), trace);
        }
        catch (const std::invalid_argument& e)
        {
            SCENARIO_CHECK(false, "workload", e.what());
        }
    }
    std::vector<ClusterJobRequest> jobs;
    for (const auto& l : listed)
    {
        const double arrival = l.arrivalS * s.scaling.arrivalTime;
        const double compute = l.computeS * s.scaling.computeTime;
        const double bytes = l.bytes * s.scaling.gradientBytes;
        SCENARIO_CHECK(SuiteFitsInTime(arrival) && SuiteFitsInTime(compute),
                       "scaling.arrivalTime",
                       "job " << l.id << " would arrive at " << arrival << " s or compute for "
                              << compute << " s, beyond the " << SUITE_MAX_TIME_SECONDS
                              << " s a simulated time can hold");
        // A job list's bytes go up to 2^53: only a factor above 1 can take them further.
        SCENARIO_CHECK(bytes <= static_cast<double>(SuiteCsvReader::MAX_EXACT_INTEGER),
                       "scaling.gradientBytes",
                       "job " << l.id << " would all-reduce " << bytes << " bytes (at most 2^53)");
        ClusterJobRequest r;
        r.id = l.id;
        r.gpus = std::min(l.gpus, w.maxGpus);
        r.submit = Seconds(arrival);
        r.messageBytes = std::max<uint64_t>(1, static_cast<uint64_t>(std::llround(bytes)));
        r.computeTime = Seconds(compute);
        r.iterations = std::min(s.scaling.maxIterations, l.iterations);
        r.algorithm = l.algorithm;
        jobs.push_back(r);
    }
    return jobs;
}
} // namespace

std::vector<ClusterJobRequest>
ScenarioBuildJobs(const ScenarioConfig& s, const ClusterModelZoo& zoo)
{
    const auto& w = s.workload;
    if (w.source == "spec7" || w.source == "job-list")
    {
        return ListedJobs(s);
    }
    std::vector<ClusterTraceJob> workload;
    if (w.source == "synthetic")
    {
        workload = ClusterGenerateJobs(w.jobs,
                                       NanoSeconds(std::llround(w.meanInterArrivalMs * 1e6)),
                                       Seconds(1),
                                       w.models,
                                       w.maxGpus,
                                       s.seeds.workload,
                                       w.minGpus);
    }
    else
    {
        workload = w.source == "tiresias"
                       ? ClusterReadTiresiasTrace(TracePath(s), TraceUnitSeconds(w.traceTimeUnit))
                       : ClusterReadHeliosTrace(TracePath(s));
        SCENARIO_CHECK(w.firstJob < workload.size(),
                       "workload.firstJob",
                       w.firstJob << " skips all " << workload.size() << " jobs of the trace");
        auto end = w.jobs == 0 ? workload.size()
                               : std::min<std::size_t>(workload.size(), w.firstJob + w.jobs);
        SCENARIO_CHECK(end - w.firstJob <= ScenarioConfig::MAX_JOBS,
                       "workload.jobs",
                       "the trace gives " << end - w.firstJob << " jobs, more than "
                                          << ScenarioConfig::MAX_JOBS
                                          << " (set workload.jobs to take fewer)");
        workload =
            std::vector<ClusterTraceJob>(workload.begin() + w.firstJob, workload.begin() + end);
        Time first = workload.front().submit;
        for (auto& job : workload)
        {
            job.submit -= first;
        }
    }
    const ClusterModelZoo aliased = ScenarioZoo(s, zoo);
    std::mt19937_64 rng(s.seeds.workload ^ 0x5eedULL);
    std::vector<ClusterJobRequest> jobs;
    std::set<uint32_t> ids;
    for (const auto& t : workload)
    {
        SCENARIO_CHECK(ids.insert(t.id).second,
                       "workload.trace",
                       "job id " << t.id << " appears twice in " << TracePath(s));
        std::string modelName = t.model.empty() ? w.models[rng() % w.models.size()] : t.model;
        SUITE_REQUIRE(aliased.Has(modelName),
                      std::invalid_argument,
                      t.where << ": field 'model_name': job " << t.id << " names unknown model '"
                              << SuiteShownText(modelName)
                              << "' (known: " << aliased.DescribeNames()
                              << "; map it onto one with workload.modelAliases)");
        const ClusterModel& model = aliased.Get(modelName);
        double arrival = t.submit.GetSeconds() * s.scaling.arrivalTime;
        SCENARIO_CHECK(SuiteFitsInTime(arrival),
                       "scaling.arrivalTime",
                       "job " << t.id << " (" << (t.where.empty() ? "synthetic" : t.where)
                              << ") would arrive at " << arrival << " s, beyond the "
                              << SUITE_MAX_TIME_SECONDS << " s a simulated time can hold");
        ClusterJobRequest r;
        r.id = t.id;
        r.gpus = std::min(t.gpus, w.maxGpus);
        r.submit = t.submit * s.scaling.arrivalTime;
        r.messageBytes = std::max<uint64_t>(1, model.gradientBytes * s.scaling.gradientBytes);
        r.computeTime = model.computeTime * s.scaling.computeTime;
        r.iterations = t.iterations == 0 ? s.scaling.maxIterations
                                         : std::min(s.scaling.maxIterations, t.iterations);
        ClusterParseCollectiveAlgorithm(w.algorithms[rng() % w.algorithms.size()], r.algorithm);
        jobs.push_back(r);
    }
    return jobs;
}

std::string
ScenarioDescribeScaling(const ScenarioConfig& s)
{
    std::ostringstream out;
    out << "time scaling: gradient bytes x " << s.scaling.gradientBytes << ", compute time x "
        << s.scaling.computeTime << ", arrival times x " << s.scaling.arrivalTime
        << ", iterations capped at " << s.scaling.maxIterations << ", job sizes capped at "
        << s.workload.maxGpus << " GPUs";
    return out.str();
}

} // namespace ns3

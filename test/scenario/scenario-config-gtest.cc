/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Scenario files: defaults, every field read, one-line errors naming the field, the
// resolved JSON reading back to the same scenario, and the jobs a scenario builds.
// Tests: scenario-config, scenario-runner, cluster-scheduler-tracker
#include "../suite-error-of.h"

#include "ns3/clos-fabric-helper.h"
#include "ns3/cluster-scheduler-tracker.h"
#include "ns3/collective-packet-executor.h"
#include "ns3/config.h"
#include "ns3/nstime.h"
#include "ns3/roce-dcqcn.h"
#include "ns3/roce-nic.h"
#include "ns3/scenario-config.h"
#include "ns3/scenario-runner.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/suite-run-interruption.h"
#include "ns3/uinteger.h"

#include <cstdio>
#include <fstream>
#include <gtest/gtest.h>
#include <unistd.h>

using namespace ns3;

namespace
{

/// A scenario file in a fresh temporary folder, removed at the end.
class ScenarioFile
{
  public:
    explicit ScenarioFile(const std::string& json)
    {
        char dir[] = "/tmp/vclos-scenario-XXXXXX";
        m_dir = mkdtemp(dir);
        m_path = m_dir + "/scenario.json";
        std::ofstream(m_path) << json;
    }

    ~ScenarioFile()
    {
        std::remove(m_path.c_str());
        std::remove((m_dir + "/trace.csv").c_str());
        rmdir(m_dir.c_str());
    }

    const std::string& Path() const
    {
        return m_path;
    }

    /// Write a trace file beside the scenario.
    void WriteTrace(const std::string& csv) const
    {
        std::ofstream(m_dir + "/trace.csv") << csv;
    }

  private:
    std::string m_dir;
    std::string m_path;
};

std::string
ReadError(const std::string& json)
{
    ScenarioFile file(json);
    return ErrorOf([&] { ScenarioRead(file.Path()); });
}

} // namespace

TEST(ScenarioConfig, EmptyObjectGivesDefaults)
{
    ScenarioFile file("{}");
    ScenarioConfig s = ScenarioRead(file.Path());
    ScenarioConfig d;
    EXPECT_EQ(s.workload.jobs, d.workload.jobs);
    EXPECT_EQ(s.scheduler.policies, d.scheduler.policies);
    EXPECT_EQ(s.output.prefix, d.output.prefix);
    EXPECT_TRUE(s.fabric.empty());
}

TEST(ScenarioConfig, ReadsEveryField)
{
    ScenarioFile file(R"({
      // comments are allowed
      "name": "n", "description": "d",
      "fabric": {"Leaves": 4, "FabricDataRate": "40Gbps"},
      "defaults": {"ns3::TcpSocket::SegmentSize": 1448},
      "workload": {"source": "tiresias", "trace": "trace.csv", "firstJob": 2, "jobs": 3,
                   "meanInterArrivalMs": 0.5, "maxGpus": 8, "models": ["vgg16"],
                   "algorithms": ["ring", "halving-doubling"]},
      "scaling": {"gradientBytes": 0.5, "computeTime": 0.25, "arrivalTime": 0.001,
                  "maxIterations": 3},
      "scheduler": {"policies": ["vclos"], "backfill": true},
      "seeds": {"workload": 9, "rngRun": 4},
      "metrics": {"slowdown": false, "waitThresholdMs": 2, "idleGapUs": 50},
      "output": {"prefix": "p", "plots": false, "flowMonitor": true, "pcap": true,
                 "progress": false}})");
    ScenarioConfig s = ScenarioRead(file.Path());
    EXPECT_EQ(s.name, "n");
    EXPECT_EQ(s.fabric.at("Leaves"), "4");
    EXPECT_EQ(s.fabric.at("FabricDataRate"), "40Gbps");
    EXPECT_EQ(s.defaults.at("ns3::TcpSocket::SegmentSize"), "1448");
    EXPECT_EQ(s.workload.source, "tiresias");
    EXPECT_EQ(s.workload.firstJob, 2u);
    EXPECT_EQ(s.workload.jobs, 3u);
    EXPECT_DOUBLE_EQ(s.workload.meanInterArrivalMs, 0.5);
    EXPECT_EQ(s.workload.algorithms.size(), 2u);
    EXPECT_DOUBLE_EQ(s.scaling.arrivalTime, 0.001);
    EXPECT_EQ(s.scaling.maxIterations, 3u);
    EXPECT_TRUE(s.scheduler.backfill);
    EXPECT_EQ(s.seeds.workload, 9u);
    EXPECT_EQ(s.seeds.rngRun, 4u);
    EXPECT_FALSE(s.metrics.slowdown);
    EXPECT_TRUE(s.output.flowMonitor);
    EXPECT_EQ(s.directory, file.Path().substr(0, file.Path().rfind('/')));
}

TEST(ScenarioConfig, BadFilesNameFileAndField)
{
    EXPECT_NE(ReadError(R"({"workload": {"jbos": 1}})").find("workload.jbos: unknown field"),
              std::string::npos);
    EXPECT_NE(ReadError(R"({"colour": 1})").find(": colour: unknown field"), std::string::npos);
    EXPECT_NE(ReadError(R"({"workload": {"jobs": -3}})")
                  .find("workload.jobs: expected a "
                        "non-negative integer"),
              std::string::npos);
    EXPECT_NE(ReadError(R"({"workload": {"models": ["a", 2]}})").find("workload.models"),
              std::string::npos);
    EXPECT_NE(ReadError(R"({"output": {"plots": "yes"}})").find("output.plots: expected true"),
              std::string::npos);
    EXPECT_NE(ReadError(R"({"fabric": {"Leaves": [4]}})").find("fabric.Leaves"), std::string::npos);
    EXPECT_NE(ReadError(R"({"scaling": 3})").find("scaling: expected an object"),
              std::string::npos);
    std::string malformed = ReadError("{\n\"workload\": {\"jobs\": 1,}\n");
    EXPECT_NE(malformed.find("malformed JSON"), std::string::npos) << malformed;
    EXPECT_NE(malformed.find("line 2"), std::string::npos) << malformed;
    EXPECT_NE(ErrorOf([] { ScenarioRead("/no/such.json"); }).find("cannot open"),
              std::string::npos);
    for (const auto& message : {ReadError(R"({"x": 1})"), malformed})
    {
        EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    }
}

TEST(ScenarioConfig, ValidationNamesTheField)
{
    ClusterModelZoo zoo = ClusterModelZoo::LoadDefault();
    auto error = [&zoo](auto change) {
        ScenarioConfig s;
        change(s);
        return ErrorOf([&] { ScenarioValidate(s, zoo); });
    };
    EXPECT_EQ(error([](ScenarioConfig&) {}), "");
    EXPECT_NE(
        error([](ScenarioConfig& s) { s.workload.source = "philly"; }).find("workload.source"),
        std::string::npos);
    EXPECT_NE(error([](ScenarioConfig& s) { s.workload.source = "helios"; }).find("workload.trace"),
              std::string::npos);
    EXPECT_NE(error([](ScenarioConfig& s) { s.workload.jobs = 0; }).find("workload.jobs"),
              std::string::npos);
    EXPECT_NE(error([](ScenarioConfig& s) { s.workload.models = {"gpt5"}; }).find("gpt5"),
              std::string::npos);
    EXPECT_NE(error([](ScenarioConfig& s) {
                  s.workload.algorithms = {"butterfly"};
              }).find("workload.algorithms"),
              std::string::npos);
    EXPECT_NE(
        error([](ScenarioConfig& s) { s.scaling.gradientBytes = 2; }).find("scaling.gradientBytes"),
        std::string::npos);
    EXPECT_NE(
        error([](ScenarioConfig& s) { s.scaling.maxIterations = 0; }).find("scaling.maxIterations"),
        std::string::npos);
    EXPECT_NE(error([](ScenarioConfig& s) {
                  s.scheduler.policies = {"vclos", "tetris"};
              }).find("tetris"),
              std::string::npos);
    EXPECT_NE(error([](ScenarioConfig& s) { s.metrics.idleGapUs = 0.0005; }).find("1 ns"),
              std::string::npos);
    EXPECT_NE(error([](ScenarioConfig& s) { s.metrics.idleGapUs = 0; }).find("metrics.idleGapUs"),
              std::string::npos);
}

TEST(ScenarioConfig, AttributesAreAppliedOrRefusedByName)
{
    ScenarioConfig s;
    s.fabric["Spines"] = "6";
    ScenarioApplyAttributes(s);
    UintegerValue spines;
    CreateObject<ClosFabricHelper>()->GetAttribute("Spines", spines);
    EXPECT_EQ(spines.Get(), 6u);
    // The resolved JSON lists every fabric attribute with its current value.
    std::string json = ScenarioToJson(s);
    EXPECT_NE(json.find("\"Spines\": \"6\""), std::string::npos);
    EXPECT_NE(json.find("\"FabricDataRate\""), std::string::npos);
    Config::Reset();

    s.fabric = {{"Leafs", "4"}};
    EXPECT_NE(ErrorOf([&] {
                  ScenarioApplyAttributes(s);
              }).find("fabric.Leafs: not an attribute of ns3::ClosFabricHelper"),
              std::string::npos);
    s.fabric = {{"Spines", "many"}};
    EXPECT_NE(ErrorOf([&] { ScenarioApplyAttributes(s); }).find("fabric.Spines: invalid"),
              std::string::npos);
    s.fabric = {{"FabricDataRate", "fast"}};
    EXPECT_NE(ErrorOf([&] { ScenarioApplyAttributes(s); }).find("fabric.FabricDataRate"),
              std::string::npos);
    s.fabric.clear();
    s.defaults = {{"ns3::TcpSocket::SegmentSize", "1.5"}};
    EXPECT_NE(ErrorOf([&] {
                  ScenarioApplyAttributes(s);
              }).find("defaults.ns3::TcpSocket::SegmentSize: invalid value '1.5'"),
              std::string::npos);
    s.defaults = {{"ns3::NoSuch::Thing", "1"}};
    EXPECT_NE(ErrorOf([&] { ScenarioApplyAttributes(s); }).find("defaults.ns3::NoSuch::Thing"),
              std::string::npos);
    Config::Reset();
}

TEST(ScenarioConfig, ResolvedJsonReadsBackTheSame)
{
    ScenarioConfig s;
    s.name = "round-trip";
    s.workload.models = {"vgg16", "gpt2"};
    s.scaling.computeTime = 0.125;
    s.seeds.workload = 42;
    s.scheduler.policies = {"ecmp-best-fit"};
    s.output.flowMonitor = true;
    ScenarioFile file(ScenarioToJson(s));
    ScenarioConfig back = ScenarioRead(file.Path());
    back.directory = s.directory;
    back.fabric.clear(); // the resolved file lists every attribute
    EXPECT_EQ(ScenarioToJson(back), ScenarioToJson(s));
    Config::Reset();
}

TEST(ScenarioConfig, SyntheticJobsAreScaledAndRepeatable)
{
    ClusterModelZoo zoo = ClusterModelZoo::LoadDefault();
    ScenarioConfig s;
    s.workload.jobs = 50;
    s.workload.maxGpus = 16;
    s.workload.algorithms = {"ring", "halving-doubling"};
    s.scaling.gradientBytes = 0.1;
    s.scaling.computeTime = 0.01;
    s.scaling.arrivalTime = 2;
    s.scaling.maxIterations = 3;
    auto jobs = ScenarioBuildJobs(s, zoo);
    ASSERT_EQ(jobs.size(), 50u);
    std::set<ClusterCollectiveAlgorithm> algorithms;
    for (const auto& j : jobs)
    {
        EXPECT_LE(j.gpus, 16u);
        EXPECT_EQ(j.iterations, 3u);
        bool fromZoo = false;
        for (const auto& name : s.workload.models)
        {
            const ClusterModel& m = zoo.Get(name);
            fromZoo = fromZoo || (j.messageBytes == static_cast<uint64_t>(m.gradientBytes * 0.1) &&
                                  j.computeTime == m.computeTime * 0.01);
        }
        EXPECT_TRUE(fromZoo) << "job " << j.id;
        algorithms.insert(j.algorithm);
    }
    EXPECT_EQ(algorithms.size(), 2u);
    // Arrival times scale; the same seed gives the same jobs, another seed others.
    ScenarioConfig unscaled = s;
    unscaled.scaling.arrivalTime = 1;
    EXPECT_EQ(ScenarioBuildJobs(unscaled, zoo).back().submit * 2, jobs.back().submit);
    EXPECT_EQ(ScenarioBuildJobs(s, zoo).back().submit, jobs.back().submit);
    s.seeds.workload = 2;
    EXPECT_NE(ScenarioBuildJobs(s, zoo).back().submit, jobs.back().submit);
}

TEST(ScenarioConfig, TraceJobsAreSelectedAndCapped)
{
    ClusterModelZoo zoo = ClusterModelZoo::LoadDefault();
    ScenarioFile file(R"({"workload": {"source": "tiresias", "trace": "trace.csv",
                          "firstJob": 1, "jobs": 2, "maxGpus": 4},
                          "scaling": {"arrivalTime": 0.001, "maxIterations": 5}})");
    file.WriteTrace("job_id,num_gpu,submit_time,iterations,model_name,duration,interval\n"
                    "10,2,100,3,vgg16,60,1\n"
                    "11,8,160,100,resnet50,60,1\n"
                    "12,4,400,2,vgg16,60,1\n"
                    "13,1,500,2,vgg16,60,1\n");
    ScenarioConfig s = ScenarioRead(file.Path());
    ScenarioValidate(s, zoo);
    auto jobs = ScenarioBuildJobs(s, zoo);
    ASSERT_EQ(jobs.size(), 2u);
    EXPECT_EQ(jobs[0].id, 11u);
    EXPECT_EQ(jobs[0].gpus, 4u);                  // capped at maxGpus
    EXPECT_EQ(jobs[0].iterations, 5u);            // capped at maxIterations
    EXPECT_EQ(jobs[0].submit, Seconds(0));        // relative to the first job taken
    EXPECT_EQ(jobs[1].submit, MilliSeconds(240)); // 240 s x 0.001
    EXPECT_EQ(jobs[1].iterations, 2u);
    s.workload.firstJob = 4;
    EXPECT_NE(ErrorOf([&] { ScenarioBuildJobs(s, zoo); }).find("workload.firstJob"),
              std::string::npos);
}

TEST(ClusterSchedulerTracker, TimeAverageOfAStepSeries)
{
    std::vector<ClusterSchedulerTracker::Sample> series{{Seconds(0), 0},
                                                        {Seconds(1), 4},
                                                        {Seconds(3), 2}};
    EXPECT_DOUBLE_EQ(ClusterSchedulerTracker::TimeAverage(series, Seconds(4)), (8.0 + 2) / 4);
    EXPECT_DOUBLE_EQ(ClusterSchedulerTracker::TimeAverage(series, Seconds(2)), 4.0 / 2);
    EXPECT_DOUBLE_EQ(ClusterSchedulerTracker::TimeAverage({}, Seconds(2)), 0);
    EXPECT_THROW(ClusterSchedulerTracker::TimeAverage(series, Seconds(0)), std::invalid_argument);
}

TEST(ScenarioConfig, IntegersBeyondTheirFieldAreRefusedNotCut)
{
    std::string e = ReadError(R"({"workload": {"jobs": 4294967297}})");
    EXPECT_NE(e.find("workload.jobs: expected a non-negative integer up to 4294967295, got "
                     "4294967297"),
              std::string::npos)
        << e;
    e = ReadError(R"({"scaling": {"maxIterations": 18446744073709551615}})");
    EXPECT_NE(e.find("scaling.maxIterations: expected a non-negative integer up to 4294967295"),
              std::string::npos)
        << e;
    ScenarioFile file(R"({"seeds": {"workload": 18446744073709551615}})");
    EXPECT_EQ(ScenarioRead(file.Path()).seeds.workload, UINT64_MAX);
}

TEST(ScenarioConfig, DeepNestingIsRefusedWithLineAndColumn)
{
    std::string e = ReadError("{\"workload\": {\"models\": " + std::string(100000, '[') +
                              std::string(100000, ']') + "}}");
    EXPECT_NE(e.find(": line 1, column 87: nested deeper than 64 levels"), std::string::npos) << e;
    e = ReadError("{\n  \"a\":\n" + std::string(70, '[') + std::string(70, ']') + "}");
    EXPECT_NE(e.find(": line 3, column 64: nested deeper"), std::string::npos) << e;
    // Brackets in strings and comments do not count.
    e = ReadError("{\"name\": \"" + std::string(100, '[') + "\\\"\", // " + std::string(100, '[') +
                  "\n /* " + std::string(100, '{') + " */ \"x\": 1}");
    EXPECT_NE(e.find(": x: unknown field"), std::string::npos) << e;
}

TEST(ScenarioConfig, SizesAndTimesHaveLimits)
{
    ClusterModelZoo zoo = ClusterModelZoo::LoadDefault();
    auto error = [&zoo](auto change) {
        ScenarioConfig s;
        change(s);
        return ErrorOf([&] { ScenarioValidate(s, zoo); });
    };
    auto names = [](const std::string& message, const std::string& field) {
        return message.find("scenario: " + field + ": ") != std::string::npos;
    };
    // 4294967295 jobs or iterations would run for ever.
    EXPECT_TRUE(
        names(error([](ScenarioConfig& s) { s.workload.jobs = 4294967295u; }), "workload.jobs"));
    EXPECT_TRUE(
        names(error([](ScenarioConfig& s) { s.workload.jobs = 1000001; }), "workload.jobs"));
    EXPECT_EQ(error([](ScenarioConfig& s) { s.workload.jobs = 1000000; }), "");
    EXPECT_TRUE(names(error([](ScenarioConfig& s) { s.scaling.maxIterations = 4294967295u; }),
                      "scaling.maxIterations"));
    EXPECT_TRUE(names(error([](ScenarioConfig& s) { s.workload.maxGpus = 4294967295u; }),
                      "workload.maxGpus"));
    // Times that would overflow ns-3's Time.
    EXPECT_TRUE(names(error([](ScenarioConfig& s) { s.scaling.arrivalTime = 1e300; }),
                      "scaling.arrivalTime"));
    EXPECT_TRUE(
        names(error([](ScenarioConfig& s) { s.metrics.idleGapUs = 1e300; }), "metrics.idleGapUs"));
    EXPECT_TRUE(names(error([](ScenarioConfig& s) { s.workload.meanInterArrivalMs = 1e300; }),
                      "workload.meanInterArrivalMs"));
    EXPECT_TRUE(names(error([](ScenarioConfig& s) { s.metrics.waitThresholdMs = 1e300; }),
                      "metrics.waitThresholdMs"));
    // The trace time unit.
    EXPECT_TRUE(names(error([](ScenarioConfig& s) {
                          s.workload.source = "tiresias";
                          s.workload.trace = "t.csv";
                          s.workload.traceTimeUnit = "h";
                      }),
                      "workload.traceTimeUnit"));
    EXPECT_TRUE(names(error([](ScenarioConfig& s) { s.workload.traceTimeUnit = "ms"; }),
                      "workload.traceTimeUnit"));
    // Aliases must name zoo models.
    EXPECT_TRUE(names(error([](ScenarioConfig& s) { s.workload.modelAliases["mine"] = "gpt5"; }),
                      "workload.modelAliases.mine"));
    EXPECT_EQ(error([](ScenarioConfig& s) {
                  s.workload.modelAliases["mine"] = "vgg16";
                  s.workload.models = {"mine", "dqn"};
              }),
              "");
}

TEST(ScenarioConfig, TraceModelsResolveThroughAliasesOrNameTheRow)
{
    ClusterModelZoo zoo = ClusterModelZoo::LoadDefault();
    ScenarioFile file(R"({"workload": {"source": "tiresias", "trace": "trace.csv",
                                       "modelAliases": {"mine": "vgg16"}}})");
    file.WriteTrace("job_id,num_gpu,submit_time,iterations,model_name,duration,interval\n"
                    "10,2,100,3,dqn,60,1\n"
                    "11,2,160,3,mine,60,1\n");
    ScenarioConfig s = ScenarioRead(file.Path());
    EXPECT_EQ(s.workload.modelAliases.at("mine"), "vgg16");
    ScenarioValidate(s, zoo);
    auto jobs = ScenarioBuildJobs(s, zoo);
    ASSERT_EQ(jobs.size(), 2u);
    EXPECT_EQ(jobs[0].messageBytes,
              static_cast<uint64_t>(zoo.Get("googlenet").gradientBytes * 0.05)); // dqn
    EXPECT_EQ(jobs[1].messageBytes, static_cast<uint64_t>(zoo.Get("vgg16").gradientBytes * 0.05));
    // An unknown one names the file, line and job, and lists the known models.
    file.WriteTrace("job_id,num_gpu,submit_time,iterations,model_name,duration,interval\n"
                    "10,2,100,3,vgg16,60,1\n"
                    "11,2,160,3,gpt5,60,1\n");
    std::string e = ErrorOf([&] { ScenarioBuildJobs(s, zoo); });
    EXPECT_NE(e.find("trace.csv:3: field 'model_name': job 11 names unknown model 'gpt5' "
                     "(known: alexnet, bert-base"),
              std::string::npos)
        << e;
    EXPECT_NE(e.find("mine -> vgg16"), std::string::npos) << e;
}

TEST(ScenarioConfig, TraceTimesAreReadInTheirUnitAndMustFitOnceScaled)
{
    ClusterModelZoo zoo = ClusterModelZoo::LoadDefault();
    ScenarioFile file(R"({"workload": {"source": "tiresias", "trace": "trace.csv",
                                       "traceTimeUnit": "ms"},
                          "scaling": {"arrivalTime": 0.001}})");
    file.WriteTrace("job_id,num_gpu,submit_time,iterations,model_name,duration,interval\n"
                    "10,2,9300000000,3,vgg16,60000,1\n"
                    "11,2,9300240000,3,vgg16,60000,1\n");
    ScenarioConfig s = ScenarioRead(file.Path());
    ScenarioValidate(s, zoo);
    auto jobs = ScenarioBuildJobs(s, zoo);
    ASSERT_EQ(jobs.size(), 2u);
    EXPECT_EQ(jobs[1].submit, MilliSeconds(240)); // 240,000 ms = 240 s, x 0.001
    // Read as seconds, the same trace does not fit.
    s.workload.traceTimeUnit = "s";
    EXPECT_NE(ErrorOf([&] { ScenarioBuildJobs(s, zoo); }).find(":2: field 'submit_time'"),
              std::string::npos);
    // A time that fits, scaled beyond what a Time holds.
    file.WriteTrace("job_id,num_gpu,submit_time,iterations,model_name,duration,interval\n"
                    "10,2,0,3,vgg16,60,1\n"
                    "11,2,9000000000,3,vgg16,60,1\n");
    s.scaling.arrivalTime = 2;
    std::string e = ErrorOf([&] { ScenarioBuildJobs(s, zoo); });
    EXPECT_NE(e.find("scaling.arrivalTime: job 11 ("), std::string::npos) << e;
    EXPECT_NE(e.find("trace.csv:3) would arrive at 1.8e+10 s"), std::string::npos) << e;
}

// The transport section (doc/roce/roce.rst, "RDMA in scenarios and the scheduler"): read,
// written back, applied as Config defaults; bad values named with file, line and field.
TEST(ScenarioConfig, TransportIsReadAppliedOrRefusedWithLine)
{
    ScenarioFile file(R"({
      "name": "t",
      "transport": {"type": "rdma", "congestionControl": "dcqcn", "profile": "simai"}})");
    ScenarioConfig s = ScenarioRead(file.Path());
    EXPECT_EQ(s.transport.type, "rdma");
    EXPECT_EQ(s.transport.congestionControl, "dcqcn");
    EXPECT_EQ(s.transport.profile, "simai");
    ScenarioConfig d;
    EXPECT_EQ(d.transport.type, "tcp"); // the default keeps the TCP behaviour
    EXPECT_EQ(d.transport.congestionControl, "none");
    EXPECT_NE(ScenarioToJson(s).find("\"congestionControl\": \"dcqcn\""), std::string::npos);
    ClusterModelZoo zoo = ClusterModelZoo::LoadDefault();
    EXPECT_EQ(ErrorOf([&] { ScenarioValidate(s, zoo); }), "");
    // Applied: the executor's Transport, the NIC's controller and the profile's parameters
    // (simai's IncreaseTimer is 900 us, the attribute's default is not).
    ScenarioApplyTransport(s);
    StringValue rateControl;
    TimeValue increaseTimer;
    EXPECT_EQ(CreateObject<CollectivePacketExecutor>()->GetTransport(),
              CollectivePacketExecutor::RDMA);
    CreateObject<RoceNic>()->GetAttribute("RateControl", rateControl);
    CreateObject<Dcqcn>()->GetAttribute("IncreaseTimer", increaseTimer);
    EXPECT_EQ(rateControl.Get(), "ns3::Dcqcn");
    EXPECT_EQ(increaseTimer.Get(), MicroSeconds(900));
    Config::Reset();
    // The control: defaults back, TCP and the attribute's own timer.
    EXPECT_EQ(CreateObject<CollectivePacketExecutor>()->GetTransport(),
              CollectivePacketExecutor::TCP);
    CreateObject<Dcqcn>()->GetAttribute("IncreaseTimer", increaseTimer);
    EXPECT_NE(increaseTimer.Get(), MicroSeconds(900));

    std::string type = ReadError("{\n  \"transport\": {\n    \"type\": \"roce\"}}");
    EXPECT_NE(type.find("scenario.json: line 3: transport.type: unknown transport 'roce'"),
              std::string::npos)
        << type;
    std::string profile =
        ReadError("{\"transport\": {\"type\": \"rdma\",\n \"congestionControl\": \"dcqcn\",\n"
                  " \"profile\": \"fast\"}}");
    EXPECT_NE(profile.find("line 3: transport.profile: unknown DCQCN profile 'fast'"),
              std::string::npos)
        << profile;
    std::string cc = ReadError("{\"transport\": {\"congestionControl\": \"hpcc\"}}");
    EXPECT_NE(cc.find("line 1: transport.congestionControl: unknown congestion control"),
              std::string::npos)
        << cc;
    std::string tcpDcqcn = ReadError("{\"transport\": {\"congestionControl\": \"dcqcn\"}}");
    EXPECT_NE(tcpDcqcn.find("transport.congestionControl: 'dcqcn' is an rdma option"),
              std::string::npos)
        << tcpDcqcn;
    EXPECT_NE(ReadError("{\"transport\": {\"kind\": \"rdma\"}}").find("transport.kind: unknown"),
              std::string::npos);
    for (const auto& message : {type, profile, cc, tcpDcqcn})
    {
        EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    }
    // Command-line values (no line) are refused by validation, naming the field.
    ScenarioConfig flag;
    flag.transport.type = "udp";
    EXPECT_NE(ErrorOf([&] { ScenarioValidate(flag, zoo); }).find("transport.type"),
              std::string::npos);
    EXPECT_NE(ErrorOf([&] { ScenarioApplyTransport(flag); }).find("transport.type"),
              std::string::npos);
}

// ScenarioRunner, the loop every program shares: a flow-level run of small jobs goes to its
// end (every job finished, each with as many GPUs as it asked for, the run's end its last
// finish). A program's check that stops the simulation at once and says so leaves the run
// marked interrupted with no job finished and no error; the same stop without the program
// saying so is refused with one line (control: the completeness check is live).
TEST(ScenarioRunner, RunsToTheEndOrStopsAtTheProgramsCheck)
{
    ClusterModelZoo zoo = ClusterModelZoo::LoadDefault();
    ScenarioConfig s;
    s.workload.jobs = 6;
    s.workload.maxGpus = 8;
    s.scaling.gradientBytes = 0.001;
    s.scaling.computeTime = 0.001;
    s.scaling.maxIterations = 1;
    s.scheduler.engine = "flow";
    const auto jobs = ScenarioBuildJobs(s, zoo);
    ScenarioPolicyRun run = ScenarioRunner(s).Run("vclos", jobs);
    EXPECT_FALSE(run.interrupted);
    ASSERT_EQ(run.jobs->GetFinishedJobs(), jobs.size());
    Time last;
    for (const auto& job : jobs)
    {
        const auto& record = run.jobs->GetJobs().at(job.id);
        EXPECT_EQ(run.gpus.at(job.id).size(), job.gpus);
        EXPECT_GE(record.finish, record.start);
        last = std::max(last, record.finish);
    }
    EXPECT_EQ(run.end, last);
    EXPECT_EQ(run.policy, "vclos");

    ScenarioRunner stopping(s);
    SuiteRunInterruption limit; // a limit that has passed at the first check
    limit.SetWallLimit(1e-9);
    stopping.SetInterruption(&limit);
    run = stopping.Run("vclos", jobs, 1);
    EXPECT_TRUE(run.interrupted);
    EXPECT_EQ(run.jobs->GetFinishedJobs(), 0u);
    EXPECT_EQ(run.policy, "vclos#2");

    ScenarioRunner silent(s);
    Simulator::ScheduleNow(&Simulator::Stop); // a stop no check of the program's made
    const std::string error = ErrorOf<std::runtime_error>([&]() { silent.Run("vclos", jobs); });
    EXPECT_NE(error.find("vclos: only 0 of 6 jobs finished"), std::string::npos) << error;
}

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The authors' workload (after RapidNetSim's generate_tasks.py): TPU-v4 sizes, durations,
// patterns, offered load, job lists. Expected values come from the tables of generate_tasks.py
// or are computed by hand in the comments.
// Tests: cluster-workload
#include "ns3/cluster-workload.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <set>
#include <sstream>

#ifndef SUITE_TEST_DIR
#define SUITE_TEST_DIR "."
#endif

using namespace ns3;

namespace
{
const std::string HELIOS_FIXTURE = std::string(SUITE_TEST_DIR) + "/cluster-workload-helios.csv";

/// A contention-free collective time of 1 ns per byte, whatever the job.
double
OneNsPerByte(const ClusterWorkloadJob&)
{
    return 1e-9;
}

std::string
TempFile(const std::string& text)
{
    std::string path = ::testing::TempDir() + "joblist-" +
                       ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".csv";
    std::ofstream(path) << text;
    return path;
}

/// The one-line error of reading a job list, "" when it reads.
std::string
JobListError(const std::string& text, uint32_t maxGpus = UINT32_MAX)
{
    try
    {
        ClusterReadJobList(TempFile(text), maxGpus);
    }
    catch (const std::runtime_error& e)
    {
        return e.what();
    }
    return "";
}

const char* HEADER = "arrival_s,gpus,algorithm,bytes,compute_s,iterations\n";

std::string
AsCsv(const std::vector<ClusterWorkloadJob>& jobs)
{
    std::ostringstream out;
    ClusterWriteJobList(out, jobs);
    return out.str();
}
} // namespace

TEST(ClusterWorkload, RoundsUpToPowersOfTwo)
{
    EXPECT_EQ(ClusterRoundUpToPowerOfTwo(1), 1U);
    EXPECT_EQ(ClusterRoundUpToPowerOfTwo(2), 2U);
    EXPECT_EQ(ClusterRoundUpToPowerOfTwo(3), 4U);
    EXPECT_EQ(ClusterRoundUpToPowerOfTwo(17), 32U);
    EXPECT_EQ(ClusterRoundUpToPowerOfTwo(4294967295U), 4294967296U); // no 32-bit wrap
    EXPECT_THROW(ClusterRoundUpToPowerOfTwo(0), std::invalid_argument);
}

// Running maximum of the authors' cumulative list: 4 .05, 8 .1, 16 .1, 32 .1, 64 .43, 128 .605,
// 192 .612, 256 .729, 384 .73, 512 .849, 768 .856, 1024 .893, 1536 .895, 2048 1; a quantile
// q maps to the first size whose value exceeds q.
TEST(ClusterWorkload, TpuV4QuantileMapFollowsTheSpecList)
{
    const std::vector<std::pair<double, uint32_t>> cases = {
        {0.0, 4},       {0.049, 4},    {0.05, 8},     {0.0999, 8},   {0.1, 64},    {0.2, 64},
        {0.4299, 64},   {0.43, 128},   {0.6049, 128}, {0.605, 192},  {0.611, 192}, {0.612, 256},
        {0.7289, 256},  {0.729, 384},  {0.73, 512},   {0.8489, 512}, {0.849, 768}, {0.856, 1024},
        {0.8929, 1024}, {0.893, 1536}, {0.895, 2048}, {0.9999, 2048}};
    for (const auto& [q, size] : cases)
    {
        EXPECT_EQ(ClusterTpuV4SizeForQuantile(q), size) << "q = " << q;
    }
    // 16 and 32 never come out: their cumulative values (0.05, 0.09) do not rise above 0.1.
    for (int i = 0; i < 10000; ++i)
    {
        uint32_t n = ClusterTpuV4SizeForQuantile(i / 10000.0);
        EXPECT_NE(n, 16U);
        EXPECT_NE(n, 32U);
    }
    EXPECT_THROW(ClusterTpuV4SizeForQuantile(1.0), std::invalid_argument);
    EXPECT_THROW(ClusterTpuV4SizeForQuantile(-0.1), std::invalid_argument);
    EXPECT_THROW(ClusterTpuV4SizeForQuantile(std::nan("")), std::invalid_argument);
}

// Sizes 1, 1, 3, 8 round to 1, 1, 4, 8: F(<1) = 0, F(<=1) = 0.5, F(<=4) = 0.75, F(<=8) = 1.
TEST(ClusterWorkload, TraceQuantilesSpreadEachSizeOverItsRange)
{
    ClusterSizeQuantiles quantiles({1, 1, 3, 8});
    EXPECT_DOUBLE_EQ(quantiles.Quantile(1, 0.0), 0.0);
    EXPECT_DOUBLE_EQ(quantiles.Quantile(1, 0.5), 0.25);
    EXPECT_DOUBLE_EQ(quantiles.Quantile(4, 0.0), 0.5);
    EXPECT_DOUBLE_EQ(quantiles.Quantile(3, 0.5), 0.625); // 3 rounds to 4
    EXPECT_DOUBLE_EQ(quantiles.Quantile(5, 0.5), 0.875); // 5 rounds to 8
    EXPECT_LT(quantiles.Quantile(8, 0.9999999999999999), 1.0);
    EXPECT_THROW(quantiles.Quantile(2, 0.5), std::invalid_argument); // no job of size 2
    EXPECT_THROW(ClusterSizeQuantiles({}), std::invalid_argument);
}

TEST(ClusterWorkload, DurationsAreClippedAndFlooredToHundreds)
{
    EXPECT_EQ(ClusterSpec7Duration(0), 1000);
    EXPECT_EQ(ClusterSpec7Duration(999.9), 1000);
    EXPECT_EQ(ClusterSpec7Duration(1099.99), 1000);
    EXPECT_EQ(ClusterSpec7Duration(1100), 1100);
    EXPECT_EQ(ClusterSpec7Duration(5993), 5900);
    EXPECT_EQ(ClusterSpec7Duration(99999), 99900);
    EXPECT_EQ(ClusterSpec7Duration(100000), 100000);
    EXPECT_EQ(ClusterSpec7Duration(1e9), 100000);
    EXPECT_THROW(ClusterSpec7Duration(-1), std::invalid_argument);
    EXPECT_THROW(ClusterSpec7Duration(std::nan("")), std::invalid_argument);
}

// RapidNetSim's ALL_REDUCE_COST table; the column is the largest one <= N that the model's row has.
TEST(ClusterWorkload, CommunicationRatiosFromTheSpecTable)
{
    EXPECT_DOUBLE_EQ(ClusterCommRatio("vgg16", 4), 0.25);
    EXPECT_DOUBLE_EQ(ClusterCommRatio("vgg16", 8), 0.23);
    EXPECT_DOUBLE_EQ(ClusterCommRatio("vgg16", 64), 0.07);
    EXPECT_DOUBLE_EQ(ClusterCommRatio("vgg16", 512), 0.04); // row ends at 96
    EXPECT_DOUBLE_EQ(ClusterCommRatio("resnet50", 100), 0.03);
    EXPECT_DOUBLE_EQ(ClusterCommRatio("resnet50", 192), 0.02);
    EXPECT_DOUBLE_EQ(ClusterCommRatio("resnet101", 63), 0.05);
    EXPECT_DOUBLE_EQ(ClusterCommRatio("resnet101", 128), 0.02);
    EXPECT_DOUBLE_EQ(ClusterCommRatio("bert", 2), 0.12);  // below every column: the first
    EXPECT_DOUBLE_EQ(ClusterCommRatio("bert", 64), 0.08); // row ends at 32
    EXPECT_DOUBLE_EQ(ClusterCommRatio("pangu", 8), 0.258);
    EXPECT_DOUBLE_EQ(ClusterCommRatio("pangu", 512), 0.258);
    EXPECT_THROW(ClusterCommRatio("gpt5", 8), std::invalid_argument);
}

TEST(ClusterWorkload, PatternRulesOfTheSpec)
{
    // u < 0.5 and N a power of two: halving-doubling with a small model.
    auto p = ClusterSpec7PatternFor(0.49, 0.0, 8);
    EXPECT_EQ(p.algorithm, CLUSTER_HALVING_DOUBLING);
    EXPECT_EQ(p.model, "vgg16");
    EXPECT_DOUBLE_EQ(p.commRatio, 0.23);
    // u < 0.5 but N not a power of two: ring.
    p = ClusterSpec7PatternFor(0.1, 0.3, 192);
    EXPECT_EQ(p.algorithm, CLUSTER_RING);
    EXPECT_EQ(p.model, "resnet50"); // modelU 0.3: second of four
    EXPECT_DOUBLE_EQ(p.commRatio, 0.02);
    // 0.5 <= u < 0.7: ring.
    p = ClusterSpec7PatternFor(0.5, 0.6, 64);
    EXPECT_EQ(p.algorithm, CLUSTER_RING);
    EXPECT_EQ(p.model, "resnet101");
    p = ClusterSpec7PatternFor(0.6999, 0.99, 4);
    EXPECT_EQ(p.algorithm, CLUSTER_RING);
    EXPECT_EQ(p.model, "bert");
    // u >= 0.7, N a power of two: all-to-all with Pangu.
    p = ClusterSpec7PatternFor(0.7, 0.0, 512);
    EXPECT_EQ(p.algorithm, CLUSTER_ALL_TO_ALL);
    EXPECT_EQ(p.model, "pangu");
    EXPECT_DOUBLE_EQ(p.commRatio, 0.258);
    // u >= 0.7, N not a power of two: ring.
    p = ClusterSpec7PatternFor(0.9, 0.0, 384);
    EXPECT_EQ(p.algorithm, CLUSTER_RING);
    EXPECT_EQ(p.model, "vgg16");
    EXPECT_THROW(ClusterSpec7PatternFor(1.0, 0.0, 8), std::invalid_argument);
}

// Over many job ids the rule gives halving-doubling to about half the power-of-two jobs,
// ring to a fifth, all-to-all to three tenths; a job's pattern depends on its id only.
TEST(ClusterWorkload, PatternSharesOverJobIds)
{
    std::map<ClusterCollectiveAlgorithm, int> count;
    std::set<std::string> models;
    const int n = 20000;
    for (uint32_t id = 0; id < n; ++id)
    {
        auto p = ClusterSpec7PatternOfJob(id, 64);
        ++count[p.algorithm];
        models.insert(p.model);
        auto again = ClusterSpec7PatternOfJob(id, 64);
        EXPECT_EQ(again.algorithm, p.algorithm);
        EXPECT_EQ(again.model, p.model);
        EXPECT_EQ(ClusterSpec7PatternOfJob(id, 96).algorithm, CLUSTER_RING);
    }
    EXPECT_NEAR(count[CLUSTER_HALVING_DOUBLING] / double(n), 0.5, 0.02);
    EXPECT_NEAR(count[CLUSTER_RING] / double(n), 0.2, 0.02);
    EXPECT_NEAR(count[CLUSTER_ALL_TO_ALL] / double(n), 0.3, 0.02);
    EXPECT_EQ(models, (std::set<std::string>{"vgg16", "resnet50", "resnet101", "bert", "pangu"}));
}

// Without a trace the quantile is uniform, so sizes follow the running-maximum
// distribution: 4 .05, 8 .05, 64 .33, 128 .175, 192 .007, 256 .117, 384 .001, and 512 takes
// 768..2048 as well (.151 + .119 = .27).
TEST(ClusterWorkload, SyntheticSizesFollowTpuV4CappedAt512)
{
    ClusterSpec7Config config;
    config.jobs = 40000;
    auto jobs = ClusterGenerateSpec7Workload(config, OneNsPerByte);
    std::map<uint32_t, int> count;
    for (const auto& job : jobs)
    {
        ++count[job.gpus];
    }
    const std::map<uint32_t, double> expected = {{4, .05},
                                                 {8, .05},
                                                 {64, .33},
                                                 {128, .175},
                                                 {192, .007},
                                                 {256, .117},
                                                 {384, .001},
                                                 {512, .27}};
    for (const auto& [size, share] : expected)
    {
        double sigma = std::sqrt(share * (1 - share) / config.jobs);
        EXPECT_NEAR(count[size] / double(config.jobs), share, 5 * sigma) << size << " GPUs";
    }
    int total = 0;
    for (const auto& [size, jobsOfSize] : count)
    {
        EXPECT_EQ(expected.count(size), 1U) << size << " GPUs should not occur";
        total += jobsOfSize;
    }
    EXPECT_EQ(total, int(config.jobs));
}

TEST(ClusterWorkload, SizesAreCappedAtTheCluster)
{
    ClusterSpec7Config config;
    config.jobs = 2000;
    config.clusterGpus = 96;
    auto jobs = ClusterGenerateSpec7Workload(config, OneNsPerByte);
    int capped = 0;
    for (const auto& job : jobs)
    {
        EXPECT_LE(job.gpus, 96U);
        if (job.gpus == 96)
        {
            ++capped;
            EXPECT_EQ(job.algorithm, CLUSTER_RING) << "96 is not a power of two";
        }
    }
    EXPECT_GT(capped, 1000); // sizes >= 128: 1 - 0.43 = 57 %
}

// The authors' 8,192-GPU experiment: mean 5,993 s, median 1,000 s after clipping to
// [1000, 100000] and flooring.
TEST(ClusterWorkload, SyntheticDurationsMatchTheSpecFacts)
{
    ClusterSpec7Config config;
    config.jobs = 60000;
    config.seed = 3;
    auto jobs = ClusterGenerateSpec7Workload(config, OneNsPerByte);
    std::vector<double> d;
    double sum = 0;
    for (const auto& job : jobs)
    {
        EXPECT_GE(job.durationS, 1000);
        EXPECT_LE(job.durationS, 100000);
        EXPECT_EQ(std::fmod(job.durationS, 100), 0) << job.durationS;
        d.push_back(job.durationS);
        sum += job.durationS;
    }
    std::sort(d.begin(), d.end());
    EXPECT_EQ(d[d.size() / 2], 1000);
    EXPECT_NEAR(sum / d.size(), 5993, 0.03 * 5993);
}

// Each job: compute D (1 - r); its collective takes bytes x 1 ns, i.e. D r x U(0.5, 1.5).
TEST(ClusterWorkload, ComputeAndMessageSizeSplitTheDuration)
{
    ClusterSpec7Config config;
    config.jobs = 3000;
    auto jobs = ClusterGenerateSpec7Workload(config, OneNsPerByte);
    double minJitter = 2;
    double maxJitter = 0;
    for (const auto& job : jobs)
    {
        EXPECT_EQ(job.iterations, 1U);
        EXPECT_DOUBLE_EQ(job.computeS, job.durationS * (1 - job.commRatio));
        EXPECT_DOUBLE_EQ(job.commRatio, ClusterCommRatio(job.model, job.gpus));
        EXPECT_EQ(job.bytes, std::floor(job.bytes)) << "whole bytes";
        double jitter = job.bytes * 1e-9 / (job.durationS * job.commRatio);
        minJitter = std::min(minJitter, jitter);
        maxJitter = std::max(maxJitter, jitter);
    }
    EXPECT_GE(minJitter, 0.5 - 1e-6);
    EXPECT_LT(maxJitter, 1.5 + 1e-6);
    EXPECT_LT(minJitter, 0.51);
    EXPECT_GT(maxJitter, 1.49);
}

TEST(ClusterWorkload, ArrivalsAreExponentialWithTheGivenMean)
{
    ClusterSpec7Config config;
    config.jobs = 20001;
    config.meanInterArrivalS = 241;
    auto jobs = ClusterGenerateSpec7Workload(config, OneNsPerByte);
    EXPECT_EQ(jobs.front().arrivalS, 0);
    int belowMean = 0;
    for (std::size_t i = 1; i < jobs.size(); ++i)
    {
        EXPECT_GE(jobs[i].arrivalS, jobs[i - 1].arrivalS);
        belowMean += jobs[i].arrivalS - jobs[i - 1].arrivalS < 241 ? 1 : 0;
    }
    // Mean gap 241 s (standard error 241 / sqrt(20000) = 1.7 s); P(gap < mean) = 1 - 1/e.
    EXPECT_NEAR(jobs.back().arrivalS / 20000, 241, 8);
    EXPECT_NEAR(belowMean / 20000.0, 1 - std::exp(-1.0), 0.015);
}

TEST(ClusterWorkload, SameSeedSameListOtherSeedOtherList)
{
    ClusterSpec7Config config;
    config.jobs = 500;
    std::string a = AsCsv(ClusterGenerateSpec7Workload(config, OneNsPerByte));
    std::string b = AsCsv(ClusterGenerateSpec7Workload(config, OneNsPerByte));
    EXPECT_EQ(a, b);
    config.seed = 1;
    std::string c = AsCsv(ClusterGenerateSpec7Workload(config, OneNsPerByte));
    EXPECT_NE(a, c);
}

// The fixture keeps j2, j5, j6, j7, j8, j10 (j1 is submitted before 2020-06-03, j3 is RUNNING,
// j4 has no GPU, j9 is PENDING). Runtimes by hand: 600, 7200, 122400, 1234, 100050, 1150 s.
TEST(ClusterWorkload, HeliosReaderFiltersAsTheSpec)
{
    auto trace = ClusterReadHeliosSpec7Trace(HELIOS_FIXTURE);
    ASSERT_EQ(trace.size(), 6U);
    const std::vector<uint32_t> gpus = {1, 3, 16, 2, 64, 1};
    const std::vector<double> runtime = {600, 7200, 122400, 1234, 100050, 1150};
    for (std::size_t i = 0; i < trace.size(); ++i)
    {
        EXPECT_EQ(trace[i].gpus, gpus[i]) << i;
        EXPECT_EQ(trace[i].duration.GetSeconds(), runtime[i]) << i;
    }
    EXPECT_EQ(trace[0].where, HELIOS_FIXTURE + ":3");
    // Without the date filter, j1 (2020-06-02 23:59:59) is kept too.
    EXPECT_EQ(ClusterReadHeliosTrace(HELIOS_FIXTURE).size(), 7U);
}

// Trace sizes round to 1, 4, 16, 2, 64, 1 (quantile ranges: 1 [0, 1/3), 2 [1/3, 1/2),
// 4 [1/2, 2/3), 16 [2/3, 5/6), 64 [5/6, 1)); through the TPU-v4 list and the cap at 512:
// 1 -> {4, 8, 64}, 2 -> {64, 128}, 4 -> {128, 192, 256}, 16 -> {256, 384, 512}, 64 -> {512}.
// Durations: 1000, 7200, 100000, 1200, 100000, 1100 s.
TEST(ClusterWorkload, TraceDrivenSizesAndDurations)
{
    auto trace = ClusterReadHeliosSpec7Trace(HELIOS_FIXTURE);
    const std::vector<std::set<uint32_t>> sizes =
        {{4, 8, 64}, {128, 192, 256}, {256, 384, 512}, {64, 128}, {512}, {4, 8, 64}};
    const std::vector<double> durations = {1000, 7200, 100000, 1200, 100000, 1100};
    ClusterSpec7Config config;
    config.jobs = 600;
    auto jobs = ClusterGenerateSpec7Workload(config, OneNsPerByte, trace);
    std::set<uint32_t> seen;
    for (const auto& job : jobs)
    {
        std::size_t k = job.id % 6;
        EXPECT_EQ(sizes[k].count(job.gpus), 1U) << "job " << job.id << ": " << job.gpus;
        EXPECT_EQ(job.durationS, durations[k]) << "job " << job.id;
        seen.insert(job.gpus);
    }
    // 384 needs q in [0.729, 0.73): 0.6 % of the 16-GPU jobs, so it may not occur here.
    for (uint32_t n : {4, 8, 64, 128, 256, 512})
    {
        EXPECT_EQ(seen.count(n), 1U) << n;
    }
}

// Cluster of 16 GPUs. Job A at 0 s: 4 GPUs, 1 iteration of 100 s compute + 1000 bytes at
// 0.01 s/byte (10 s). Job B at 100 s: 8 GPUs, 2 iterations of 50 s, no bytes. Work:
// 4 x 110 + 8 x 2 x 50 = 1240 GPU-s over 16 GPUs x 100 s = 0.775.
TEST(ClusterWorkload, OfferedLoadByHand)
{
    ClusterWorkloadJob a;
    a.gpus = 4;
    a.computeS = 100;
    a.bytes = 1000;
    ClusterWorkloadJob b;
    b.id = 1;
    b.arrivalS = 100;
    b.gpus = 8;
    b.computeS = 50;
    b.iterations = 2;
    auto spb = [](const ClusterWorkloadJob& job) { return job.gpus == 4 ? 0.01 : 1e9; };
    EXPECT_DOUBLE_EQ(ClusterOfferedLoad({a, b}, 16, spb), 0.775);
    EXPECT_THROW(ClusterOfferedLoad({a}, 16, spb), std::invalid_argument);   // no span
    EXPECT_THROW(ClusterOfferedLoad({a, b}, 0, spb), std::invalid_argument); // no GPUs
    auto bad = [](const ClusterWorkloadJob&) { return std::nan(""); };
    EXPECT_THROW(ClusterOfferedLoad({a, b}, 16, bad), std::invalid_argument); // bad engine
}

// A one-GPU job exchanges nothing: its message bytes (at least 1 in a scenario) cost no time,
// and an engine's 0 s/byte for it is not an error (light-load-128 stopped on it).
TEST(ClusterWorkload, OfferedLoadOfOneGpuJobsHasNoCollective)
{
    ClusterWorkloadJob a;
    a.gpus = 1;
    a.computeS = 100;
    a.bytes = 1000;
    ClusterWorkloadJob b = a;
    b.id = 1;
    b.arrivalS = 100;
    auto spb = [](const ClusterWorkloadJob& job) { return job.gpus == 1 ? 0.0 : 0.01; };
    // 2 x 1 x 100 GPU-s over 16 GPUs x 100 s.
    EXPECT_DOUBLE_EQ(ClusterOfferedLoad({a, b}, 16, spb), 0.125);
    // Control: two GPUs exchange, and 0 s/byte for them is still refused.
    b.gpus = 2;
    auto zero = [](const ClusterWorkloadJob&) { return 0.0; };
    EXPECT_THROW(ClusterOfferedLoad({a, b}, 16, zero), std::invalid_argument);
    EXPECT_DOUBLE_EQ(ClusterOfferedLoad({a, b}, 16, spb), (100 + 2 * 110) / 1600.0);
}

TEST(ClusterWorkload, JobListRoundTrip)
{
    ClusterSpec7Config config;
    config.jobs = 200;
    auto jobs = ClusterGenerateSpec7Workload(config, OneNsPerByte);
    std::string path = TempFile("");
    ClusterWriteJobList(path, jobs);
    auto back = ClusterReadJobList(path, 512);
    ASSERT_EQ(back.size(), jobs.size());
    for (std::size_t i = 0; i < jobs.size(); ++i)
    {
        EXPECT_EQ(back[i].id, jobs[i].id);
        EXPECT_EQ(back[i].arrivalS, jobs[i].arrivalS);
        EXPECT_EQ(back[i].gpus, jobs[i].gpus);
        EXPECT_EQ(back[i].algorithm, jobs[i].algorithm);
        EXPECT_EQ(back[i].bytes, jobs[i].bytes);
        EXPECT_EQ(back[i].computeS, jobs[i].computeS);
        EXPECT_EQ(back[i].iterations, jobs[i].iterations);
        EXPECT_EQ(back[i].model, jobs[i].model);
        EXPECT_EQ(back[i].durationS, jobs[i].durationS);
        EXPECT_EQ(back[i].commRatio, jobs[i].commRatio);
    }
}

TEST(ClusterWorkload, MinimalJobListReads)
{
    auto jobs =
        ClusterReadJobList(TempFile(std::string(HEADER) + "0,8,halving-doubling,1000000,12.5,3\n"
                                                          "# a comment\n"
                                                          "12.5,2,flat-ring,0,0,1\n"));
    ASSERT_EQ(jobs.size(), 2U);
    EXPECT_EQ(jobs[0].gpus, 8U);
    EXPECT_EQ(jobs[0].algorithm, CLUSTER_HALVING_DOUBLING);
    EXPECT_EQ(jobs[0].bytes, 1e6);
    EXPECT_EQ(jobs[0].computeS, 12.5);
    EXPECT_EQ(jobs[0].iterations, 3U);
    EXPECT_EQ(jobs[0].model, "");
    EXPECT_EQ(jobs[1].id, 1U);
    EXPECT_EQ(jobs[1].arrivalS, 12.5);
    EXPECT_EQ(jobs[1].algorithm, CLUSTER_FLAT_RING);
}

TEST(ClusterWorkload, BadJobListsNameFileLineAndField)
{
    const std::string ok = "0,8,ring,100,1,1\n";
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"-1,8,ring,100,1,1\n", ":2: field 'arrival_s'"},
        {"nan,8,ring,100,1,1\n", ":2: field 'arrival_s'"},
        {"1e300,8,ring,100,1,1\n", ":2: field 'arrival_s'"},
        {ok + "10,8,ring,100,1,1\n5,8,ring,100,1,1\n", ":4: field 'arrival_s' is 5 s, before"},
        {"0,0,ring,100,1,1\n", ":2: field 'gpus'"},
        {"0,-8,ring,100,1,1\n", ":2: field 'gpus'"},
        {"0,2.5,ring,100,1,1\n", ":2: field 'gpus'"},
        {"0,4294967296,ring,100,1,1\n", ":2: field 'gpus'"},
        {"0,8,butterfly,100,1,1\n", ":2: field 'algorithm' is unknown (got 'butterfly'"},
        {"0,8,ring,nan,1,1\n", ":2: field 'bytes'"},
        {"0,8,ring,-100,1,1\n", ":2: field 'bytes'"},
        {"0,8,ring,1e300,1,1\n", ":2: field 'bytes'"},
        {"0,8,ring,100,inf,1\n", ":2: field 'compute_s'"},
        {"0,8,ring,100,-1,1\n", ":2: field 'compute_s'"},
        {"0,8,ring,100,1,0\n", ":2: field 'iterations'"},
        {"0,8,ring,100,1,4294967296\n", ":2: field 'iterations'"},
        {"0,8,ring,100,1e9,4294967295\n", ":2: field 'iterations': arrival_s + iterations"},
        {"0,8,ring\n", ":2: expected 6 fields, got 3"},
    };
    for (const auto& [rows, expected] : cases)
    {
        std::string e = JobListError(HEADER + rows);
        EXPECT_NE(e.find(expected), std::string::npos) << rows << "-> " << e;
        EXPECT_NE(e.find("joblist-BadJobListsNameFileLineAndField.csv"), std::string::npos) << e;
        EXPECT_EQ(e.find('\n'), std::string::npos) << "one line: " << e;
    }
    // GPUs above the cluster's.
    std::string e = JobListError(std::string(HEADER) + "0,128,ring,100,1,1\n", 64);
    EXPECT_NE(e.find(":2: field 'gpus' must be a whole number from 1 to 64"), std::string::npos)
        << e;
    e = JobListError("arrival_s,gpus,algorithm,bytes,iterations\n0,8,ring,100,1\n");
    EXPECT_NE(e.find(":1: the header has no column 'compute_s'"), std::string::npos) << e;
    e = JobListError(std::string(HEADER));
    EXPECT_NE(e.find(": no jobs"), std::string::npos) << e;
    e = JobListError("arrival_s,gpus,algorithm,bytes,compute_s,iterations,comm_ratio\n"
                     "0,8,ring,100,1,1,1.5\n");
    EXPECT_NE(e.find(":2: field 'comm_ratio'"), std::string::npos) << e;
}

TEST(ClusterWorkload, BadGeneratorSettingsNameTheSetting)
{
    auto error = [](const ClusterSpec7Config& c, const ClusterSecondsPerByte& spb = OneNsPerByte) {
        try
        {
            ClusterGenerateSpec7Workload(c, spb);
        }
        catch (const std::invalid_argument& e)
        {
            return std::string(e.what());
        }
        return std::string();
    };
    ClusterSpec7Config c;
    c.jobs = 0;
    EXPECT_NE(error(c).find("jobs"), std::string::npos);
    c = {};
    c.meanInterArrivalS = 0;
    EXPECT_NE(error(c).find("meanInterArrivalS"), std::string::npos);
    c.meanInterArrivalS = std::nan("");
    EXPECT_NE(error(c).find("meanInterArrivalS"), std::string::npos);
    c.meanInterArrivalS = 1e300; // arrivals beyond a simulated time
    EXPECT_NE(error(c).find("meanInterArrivalS"), std::string::npos);
    c = {};
    c.maxGpus = 1;
    EXPECT_NE(error(c).find("maxGpus"), std::string::npos);
    c = {};
    c.clusterGpus = 0;
    EXPECT_NE(error(c).find("clusterGpus"), std::string::npos);
    c = {};
    c.durationLogSigma = -1;
    EXPECT_NE(error(c).find("durationLogSigma"), std::string::npos);
    c = {};
    EXPECT_NE(error(c, [](const ClusterWorkloadJob&) { return 0.0; }).find("secondsPerByte"),
              std::string::npos);
    // A message size beyond 2^53 bytes is refused, not wrapped.
    EXPECT_NE(error(c, [](const ClusterWorkloadJob&) { return 1e-300; }).find("beyond 2^53"),
              std::string::npos);
}

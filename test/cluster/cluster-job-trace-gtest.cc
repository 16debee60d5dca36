/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Workload readers and the synthetic generator.
// Tests: cluster-job-trace
#include "ns3/cluster-job-trace.h"

#include <fstream>
#include <gtest/gtest.h>

#ifndef SUITE_SHARED_TRACE_DIR
#define SUITE_SHARED_TRACE_DIR ""
#endif

using namespace ns3;

namespace
{
std::string
TempFile(const std::string& text)
{
    std::string path = ::testing::TempDir() + "trace-" +
                       ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".csv";
    std::ofstream(path) << text;
    return path;
}

template <typename Reader>
std::string
ErrorOf(Reader read, const std::string& text)
{
    try
    {
        read(TempFile(text));
    }
    catch (const std::runtime_error& e)
    {
        return e.what();
    }
    return "";
}

const char* TIRESIAS = "job_id,num_gpu,submit_time,iterations,model_name,duration,interval\n";
const char* HELIOS =
    "job_id,user,vc,jobname,gpu_num,cpu_num,node_num,state,submit_time,start_time,end_time\n";
} // namespace

TEST(ClusterJobTrace, ReadsATiresiasTrace)
{
    auto jobs = ClusterReadTiresiasTrace(
        TempFile(std::string(TIRESIAS) + "0,1,100,606,vgg19,164,30\n1,8,40,133,vgg11,147,23\n"));
    ASSERT_EQ(jobs.size(), 2u);
    EXPECT_EQ(jobs[0].id, 1u); // sorted by submit time
    EXPECT_EQ(jobs[0].submit, Seconds(0));
    EXPECT_EQ(jobs[1].submit, Seconds(60));
    EXPECT_EQ(jobs[0].gpus, 8u);
    EXPECT_EQ(jobs[0].iterations, 133u);
    EXPECT_EQ(jobs[0].model, "vgg11");
    EXPECT_EQ(jobs[0].duration, Seconds(147));
}

TEST(ClusterJobTrace, ReadsTheSharedSixtyJobTrace)
{
    std::string dir = SUITE_SHARED_TRACE_DIR;
    std::ifstream probe(dir + "/tiresias-60-jobs.csv");
    if (dir.empty() || !probe.good())
    {
        GTEST_SKIP() << "shared/traces is not beside the repository";
    }
    auto jobs = ClusterReadTiresiasTrace(dir + "/tiresias-60-jobs.csv");
    EXPECT_EQ(jobs.size(), 60u);
}

TEST(ClusterJobTrace, MalformedTiresiasRowsNameFileLineAndField)
{
    auto read = [](const std::string& p) { return ClusterReadTiresiasTrace(p); };
    std::string e =
        ErrorOf(read, std::string(TIRESIAS) + "0,1,0,10,vgg16,5,1\n1,0,5,10,vgg16,5,1\n");
    EXPECT_NE(e.find(":3: field 'num_gpu' must be a whole number from 1 to 4294967295 (got '0')"),
              std::string::npos)
        << e;
    e = ErrorOf(read, std::string(TIRESIAS) + "0,1,soon,10,vgg16,5,1\n");
    EXPECT_NE(e.find(":2: field 'submit_time'"), std::string::npos) << e;
    e = ErrorOf(read, std::string(TIRESIAS) + "0,1,0,10,vgg16,5,1\n0,2,0,10,vgg16,5,1\n");
    EXPECT_NE(e.find(":3: field 'job_id' repeats job 0"), std::string::npos) << e;
    e = ErrorOf(read, std::string(TIRESIAS) + "0,1.5,0,10,vgg16,5,1\n");
    EXPECT_NE(e.find("'num_gpu' must be a whole number"), std::string::npos) << e;
    e = ErrorOf(read, std::string(TIRESIAS) + "0,1,0\n");
    EXPECT_NE(e.find(":2: expected 7 fields, got 3"), std::string::npos) << e;
    e = ErrorOf(read, "job,gpus\n");
    EXPECT_NE(e.find(":1: the header has no column 'job_id'"), std::string::npos) << e;
    e = ErrorOf(read, TIRESIAS);
    EXPECT_NE(e.find("no jobs"), std::string::npos) << e;
}

TEST(ClusterJobTrace, TiresiasValuesThatDoNotFitAreRefused)
{
    auto read = [](const std::string& p) { return ClusterReadTiresiasTrace(p); };
    auto row = [](const std::string& r) {
        return std::string(TIRESIAS) + "0,1,0,10,vgg16,5,1\n" + r + "\n";
    };
    // Cut to 32 bits, a job of 4294967297 GPUs would be a 1-GPU job.
    std::string e = ErrorOf(read, row("1,4294967297,5,10,vgg16,5,1"));
    EXPECT_NE(e.find(":3: field 'num_gpu' must be a whole number from 1 to 4294967295"),
              std::string::npos)
        << e;
    e = ErrorOf(read, row("4294967297,1,5,10,vgg16,5,1"));
    EXPECT_NE(e.find(":3: field 'job_id'"), std::string::npos) << e;
    e = ErrorOf(read, row("1,1,5,4294967296,vgg16,5,1"));
    EXPECT_NE(e.find(":3: field 'iterations'"), std::string::npos) << e;
    // Beyond 2^63 ns a time would wrap to a negative one and sort first.
    e = ErrorOf(read, row("1,1,1.8e19,10,vgg16,5,1"));
    EXPECT_NE(e.find(":3: field 'submit_time' is 1.8e+19 s, beyond the 9.2e+09 s"),
              std::string::npos)
        << e;
    // A Philly-derived trace's milliseconds read as seconds.
    e = ErrorOf(read, row("1,1,9300000000,10,vgg16,5,1"));
    EXPECT_NE(e.find(":3: field 'submit_time'"), std::string::npos) << e;
    e = ErrorOf(read, row("1,1,5,10,vgg16,1e300,1"));
    EXPECT_NE(e.find(":3: field 'duration'"), std::string::npos) << e;
    for (const char* bad : {"nan", "inf", "-1"})
    {
        e = ErrorOf(read, row(std::string("1,1,") + bad + ",10,vgg16,5,1"));
        EXPECT_NE(e.find(":3: field 'submit_time'"), std::string::npos) << bad << ": " << e;
    }
}

TEST(ClusterJobTrace, ReadsAMillisecondTrace)
{
    // Philly-derived: times in ms, some beyond 9.2e9 (which seconds could not hold).
    std::string path = TempFile(std::string(TIRESIAS) +
                                "0,1,9300000000,10,dqn,1500,1\n1,2,9300060000,10,a2c,250,1\n");
    auto jobs = ClusterReadTiresiasTrace(path, 1e-3);
    ASSERT_EQ(jobs.size(), 2u);
    EXPECT_EQ(jobs[0].submit, Seconds(0));
    EXPECT_EQ(jobs[1].submit, Seconds(60));
    EXPECT_EQ(jobs[0].duration, MilliSeconds(1500));
    EXPECT_EQ(jobs[1].duration, MilliSeconds(250));
    EXPECT_EQ(jobs[1].where, path + ":3");
    EXPECT_THROW(ClusterReadTiresiasTrace(path, 0), std::invalid_argument);
}

TEST(ClusterJobTrace, ReadsAHeliosLogKeepingFinishedGpuJobs)
{
    auto jobs = ClusterReadHeliosTrace(TempFile(
        std::string(HELIOS) +
        "a,u,vc1,j,8,32,1,COMPLETED,2020-06-03 10:00:00,2020-06-03 10:00:30,2020-06-03 11:00:30\n"
        "b,u,vc1,j,0,4,1,COMPLETED,2020-06-03 10:01:00,2020-06-03 10:01:00,2020-06-03 10:02:00\n"
        "c,u,vc1,j,2,8,1,RUNNING,2020-06-03 10:02:00,2020-06-03 10:02:00,2020-06-03 10:03:00\n"
        "d,u,vc1,j,1,4,1,TIMEOUT,2020-06-04 10:00:00,2020-06-04 10:00:00,2020-06-04 10:00:10\n"));
    ASSERT_EQ(jobs.size(), 2u);
    EXPECT_EQ(jobs[0].gpus, 8u);
    EXPECT_EQ(jobs[0].duration, Seconds(3600));
    EXPECT_EQ(jobs[1].submit, Seconds(86400));
    EXPECT_EQ(jobs[1].iterations, 0u);
}

TEST(ClusterJobTrace, MalformedHeliosTimesNameTheField)
{
    auto read = [](const std::string& p) { return ClusterReadHeliosTrace(p); };
    std::string e = ErrorOf(read,
                            std::string(HELIOS) +
                                "a,u,v,j,8,32,1,COMPLETED,2020-06-03 10:00,2020-06-03 10:00:30,"
                                "2020-06-03 11:00:30\n");
    EXPECT_NE(e.find(":2: field 'submit_time' must be a time"), std::string::npos) << e;
    e = ErrorOf(read,
                std::string(HELIOS) + "a,u,v,j,8,32,1,FAILED,2020-06-03 10:00:00,2020-06-03 "
                                      "09:00:00,2020-06-03 11:00:30\n");
    EXPECT_NE(e.find(":2: fields 'submit_time' <= 'start_time'"), std::string::npos) << e;
}

TEST(ClusterJobTrace, HeliosYearsOutOfRangeAreRefused)
{
    auto read = [](const std::string& p) { return ClusterReadHeliosTrace(p); };
    for (const char* date : {"-2000000000-06-03 10:00:00",
                             "99999-06-03 10:00:00",
                             "1969-12-31 23:59:59",
                             "2101-01-01 00:00:00"})
    {
        std::string e = ErrorOf(read,
                                std::string(HELIOS) + "a,u,v,j,8,32,1,COMPLETED," + date +
                                    ",2020-06-03 10:00:30,2020-06-03 11:00:30\n");
        EXPECT_NE(e.find(":2: field 'submit_time' must be a time"), std::string::npos)
            << date << ": " << e;
    }
    std::string e = ErrorOf(read,
                            std::string(HELIOS) + "a,u,v,j,4294967297,32,1,COMPLETED,2020-06-03 "
                                                  "10:00:00,2020-06-03 10:00:30,2020-06-03 "
                                                  "11:00:30\n");
    EXPECT_NE(e.find(":2: field 'gpu_num'"), std::string::npos) << e;
}

// Every month had 31 days: 2020-02-31 was read as 2 March.
TEST(ClusterJobTrace, HeliosDaysBeyondTheMonthAreRefused)
{
    auto read = [](const std::string& p) { return ClusterReadHeliosTrace(p); };
    auto row = [](const std::string& date) {
        return std::string(HELIOS) + "a,u,v,j,8,32,1,COMPLETED," + date +
               " 10:00:00,2100-12-31 10:00:30,2100-12-31 11:00:30\n";
    };
    for (const char* date : {"2020-02-31",
                             "2020-02-30",
                             "2019-02-29",
                             "2100-02-29",
                             "2020-04-31",
                             "2020-06-31",
                             "2020-09-31",
                             "2020-11-31"})
    {
        std::string e = ErrorOf(read, row(date));
        EXPECT_NE(e.find(":2: field 'submit_time' must be a time"), std::string::npos)
            << date << ": " << e;
    }
    // Control: the last day of each month, leap days of leap years included.
    for (const char* date :
         {"2020-02-29", "2000-02-29", "2019-02-28", "2020-04-30", "2020-12-31", "2020-01-31"})
    {
        EXPECT_EQ(ErrorOf(read, row(date)), "") << date;
    }
    auto jobs = ClusterReadHeliosTrace(TempFile(row("2020-02-29")));
    ASSERT_EQ(jobs.size(), 1u);
}

TEST(ClusterJobTrace, GeneratesADeterministicPoissonWorkload)
{
    auto a = ClusterGenerateJobs(5000, Seconds(241), Seconds(6000), {"resnet50", "vgg16"}, 64, 7);
    auto b = ClusterGenerateJobs(5000, Seconds(241), Seconds(6000), {"resnet50", "vgg16"}, 64, 7);
    auto c = ClusterGenerateJobs(5000, Seconds(241), Seconds(6000), {"resnet50", "vgg16"}, 64, 8);
    ASSERT_EQ(a.size(), 5000u);
    double gaps = 0;
    uint32_t single = 0;
    for (std::size_t i = 0; i < a.size(); ++i)
    {
        EXPECT_EQ(a[i].submit, b[i].submit);
        EXPECT_EQ(a[i].gpus, b[i].gpus);
        EXPECT_LE(a[i].gpus, 64u);
        single += a[i].gpus == 1 ? 1 : 0;
        if (i > 0)
        {
            EXPECT_GE(a[i].submit, a[i - 1].submit);
            gaps += (a[i].submit - a[i - 1].submit).GetSeconds();
        }
    }
    EXPECT_NEAR(gaps / 4999, 241, 241 * 0.05); // mean inter-arrival within 5%
    // 11136 of the 18732 jobs of sizes <= 64 are single-GPU: 59.5%.
    EXPECT_NEAR(single / 5000.0, 11136.0 / (11136 + 829 + 1109 + 4257 + 400 + 925 + 76), 0.02);
    bool differs = false;
    for (std::size_t i = 0; i < a.size(); ++i)
    {
        differs = differs || a[i].gpus != c[i].gpus;
    }
    EXPECT_TRUE(differs);
    EXPECT_THROW(ClusterGenerateJobs(0, Seconds(1), Seconds(1), {"m"}, 8, 1),
                 std::invalid_argument);
    EXPECT_THROW(ClusterGenerateJobs(5, Seconds(1), Seconds(1), {}, 8, 1), std::invalid_argument);
    EXPECT_THROW(ClusterGenerateJobs(5, Seconds(0), Seconds(1), {"m"}, 8, 1),
                 std::invalid_argument);
}

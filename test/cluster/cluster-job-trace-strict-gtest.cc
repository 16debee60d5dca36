/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The cluster module's CSV readers (Tiresias and Helios traces, job lists, the model zoo)
// refuse numbers that are not plain decimal, whole numbers that a double would round, a
// column named twice and a row wider than its header, each in one line naming the file, the
// line and the field; and they echo a field of megabytes cut short. Valid files (the
// controls) read as before. Expected values are the files' own, read by hand.
// Tests: cluster-job-trace, cluster-model-zoo, cluster-workload
#include "../suite-error-of.h"
#include "../suite-test-file.h"

#include "ns3/cluster-job-trace.h"
#include "ns3/cluster-model-zoo.h"
#include "ns3/cluster-workload.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{
/// Write text to the running test's CSV file and return its path.
std::string
TempFile(const std::string& text)
{
    return SuiteTestFile("strict-", text);
}

const std::string TIRESIAS = "job_id,num_gpu,submit_time,iterations,model_name,duration,interval\n";
const std::string HELIOS = "job_id,gpu_num,state,submit_time,start_time,end_time\n";
const std::string JOBS = "arrival_s,gpus,algorithm,bytes,compute_s,iterations\n";
const std::string ZOO = "model,parameters,gradient_bytes,batch_per_gpu,compute_ms_v100\n";

std::string
TiresiasError(const std::string& rows)
{
    return ErrorOf([&] { ClusterReadTiresiasTrace(TempFile(TIRESIAS + rows)); });
}

std::string
HeliosError(const std::string& rows)
{
    return ErrorOf([&] { ClusterReadHeliosTrace(TempFile(HELIOS + rows)); });
}

std::string
JobListError(const std::string& text)
{
    return ErrorOf([&] { ClusterReadJobList(TempFile(text), 1024); });
}

std::string
ZooError(const std::string& text)
{
    return ErrorOf([&] { ClusterModelZoo::Load(TempFile(text)); });
}

/// Expect one line naming the running test's file, with `expected` in it.
void
ExpectRefusal(const std::string& e, const std::string& expected, const std::string& input)
{
    EXPECT_NE(e.find(SuiteTestFileName("strict-") + expected), std::string::npos)
        << "'" << input << "' -> " << e.substr(0, 400);
    EXPECT_EQ(e.find('\n'), std::string::npos) << e.substr(0, 400);
    EXPECT_LT(e.size(), 400u) << e.substr(0, 400);
}
} // namespace

TEST(ClusterJobTraceStrict, TiresiasNumbersAreDecimal)
{
    // strtod read 0x10 as 16 GPUs, " 8" as 8, "+8" as 8, "1e1" as 10 iterations.
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"0,0x10,0,10,vgg16,5,1\n", ":2: field 'num_gpu' must be a whole number"},
        {"0, 8,0,10,vgg16,5,1\n", ":2: field 'num_gpu' must be a whole number"},
        {"0,+8,0,10,vgg16,5,1\n", ":2: field 'num_gpu' must be a whole number"},
        {"0,8,0,1e1,vgg16,5,1\n", ":2: field 'iterations' must be a whole number"},
        {"0,8,0,10.0,vgg16,5,1\n", ":2: field 'iterations' must be a whole number"},
        {"0x1,8,0,10,vgg16,5,1\n", ":2: field 'job_id' must be a whole number"},
        {"0,8,0x10,10,vgg16,5,1\n", ":2: field 'submit_time' must be a number >= 0 (got '0x10')"},
        {"0,8, 3,10,vgg16,5,1\n", ":2: field 'submit_time' must be a number >= 0 (got ' 3')"},
        {"0,8,0,10,vgg16,0x5,1\n", ":2: field 'duration' must be a number >= 0 (got '0x5')"},
        {"0,8,0,10,vgg16,+5,1\n", ":2: field 'duration' must be a number >= 0 (got '+5')"},
    };
    for (const auto& [rows, expected] : cases)
    {
        ExpectRefusal(TiresiasError(rows), expected, rows);
    }
    // Control: plain decimal, fractions and exponents in the time fields.
    auto jobs = ClusterReadTiresiasTrace(TempFile(TIRESIAS + "3,16,2.5e1,10,vgg16,1.5,1\n"
                                                             "4,8,5,7,bert,60,1\n"));
    ASSERT_EQ(jobs.size(), 2u);
    EXPECT_EQ(jobs[0].id, 4u);
    EXPECT_EQ(jobs[0].gpus, 8u);
    EXPECT_EQ(jobs[0].submit, Seconds(0));
    EXPECT_EQ(jobs[1].id, 3u);
    EXPECT_EQ(jobs[1].gpus, 16u);
    EXPECT_EQ(jobs[1].submit, Seconds(20)); // 25 - 5
    EXPECT_EQ(jobs[1].iterations, 10u);
    EXPECT_EQ(jobs[1].duration, MilliSeconds(1500));
}

TEST(ClusterJobTraceStrict, TiresiasColumnsOnceAndRowsAsWideAsTheHeader)
{
    // The second num_gpu column won: the row ran with 64 GPUs.
    std::string e = ErrorOf([] {
        ClusterReadTiresiasTrace(
            TempFile("job_id,num_gpu,submit_time,iterations,model_name,duration,num_gpu\n"
                     "0,1,0,10,vgg16,5,64\n"));
    });
    ExpectRefusal(e, ":1: the header names column 'num_gpu' twice", "num_gpu twice");
    // An eighth field was dropped.
    e = TiresiasError("0,1,0,10,vgg16,5,1\n1,1,0,10,vgg16,5,1,extra\n");
    ExpectRefusal(e, ":3: expected 7 fields, got 8", "eight fields");
    // Control: seven fields, the interval column empty.
    EXPECT_EQ(ClusterReadTiresiasTrace(TempFile(TIRESIAS + "0,1,0,10,vgg16,5,\n")).size(), 1u);
}

TEST(ClusterJobTraceStrict, HeliosNumbersAndTimesAreExact)
{
    const std::string times = ",COMPLETED,2020-06-03 10:00:00,2020-06-03 10:00:30,"
                              "2020-06-03 11:00:30\n";
    // gpu_num: strtod read 0x8 as 8, " 8" as 8.
    for (const std::string gpus : {"0x8", " 8", "+8", "8.0"})
    {
        ExpectRefusal(HeliosError("a," + gpus + times),
                      ":2: field 'gpu_num' must be a whole number",
                      gpus);
    }
    // Times: sscanf skipped spaces, took signs and one-digit fields, and a missing space.
    for (const std::string submit : {" 2020-06-03 10:00:00",
                                     "2020-6-3 10:00:00",
                                     "2020-06-03 10:00:0",
                                     "2020-06-0310:00:00",
                                     "2020-+6-03 10:00:00",
                                     "2020-06-03  1:00:00",
                                     "2020-06-03 10:00:00Z"})
    {
        ExpectRefusal(
            HeliosError("a,8,COMPLETED," + submit + ",2020-06-03 10:00:30,2020-06-03 11:00:30\n"),
            ":2: field 'submit_time' must be a time YYYY-MM-DD HH:MM:SS",
            submit);
    }
    // Duplicate column, extra field.
    ExpectRefusal(ErrorOf([&] { ClusterReadHeliosTrace(TempFile("state," + HELIOS)); }),
                  ":1: the header names column 'state' twice",
                  "state twice");
    ExpectRefusal(HeliosError("a,8" + times.substr(0, times.size() - 1) + ",x\n"),
                  ":2: expected 6 fields, got 7",
                  "seven fields");
    // Control: 8 GPUs, submitted 10:00:00, ran 10:00:30 to 11:00:30 (3,600 s).
    auto jobs = ClusterReadHeliosTrace(TempFile(HELIOS + "a,8" + times));
    ASSERT_EQ(jobs.size(), 1u);
    EXPECT_EQ(jobs[0].gpus, 8u);
    EXPECT_EQ(jobs[0].duration, Seconds(3600));
}

TEST(ClusterJobTraceStrict, JobListBytesAreReadAsIntegers)
{
    // 2^53 + 1 bytes: through strtod it became 2^53 and ran.
    ExpectRefusal(JobListError(JOBS + "0,4,ring,9007199254740993,0.001,1\n"),
                  ":2: field 'bytes' must be a whole number from 0 to 9007199254740992 (got "
                  "'9007199254740993')",
                  "2^53 + 1");
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"0,0x8,ring,100,1,1\n", ":2: field 'gpus' must be a whole number"},
        {"0,8,ring,0x100,1,1\n", ":2: field 'bytes' must be a whole number"},
        {"0,8,ring,1e3,1,1\n", ":2: field 'bytes' must be a whole number"},
        {" 1,8,ring,100,1,1\n", ":2: field 'arrival_s' must be a number >= 0"},
        {"0,8,ring,100,0x1p-3,1\n", ":2: field 'compute_s' must be a number >= 0"},
        {"0,8,ring,100,1,1,x\n", ":2: expected 6 fields, got 7"},
    };
    for (const auto& [rows, expected] : cases)
    {
        ExpectRefusal(JobListError(JOBS + rows), expected, rows);
    }
    ExpectRefusal(JobListError("gpus," + JOBS + "8,0,8,ring,100,1,1\n"),
                  ":1: the header names column 'gpus' twice",
                  "gpus twice");
    // Control: 2^53 bytes, the documented maximum, and 2^53 - 1, read exactly.
    auto jobs = ClusterReadJobList(TempFile(JOBS + "0,4,ring,9007199254740992,0.001,1\n"
                                                   "0.5,8,ring,9007199254740991,1e-3,2\n"),
                                   1024);
    ASSERT_EQ(jobs.size(), 2u);
    EXPECT_EQ(jobs[0].bytes, 9007199254740992.0);
    EXPECT_EQ(jobs[1].bytes, 9007199254740991.0);
    EXPECT_EQ(jobs[1].arrivalS, 0.5);
    EXPECT_EQ(jobs[1].computeS, 0.001);
    EXPECT_EQ(jobs[1].iterations, 2u);
}

TEST(ClusterJobTraceStrict, ZooIntegersAreExact)
{
    ExpectRefusal(ZooError(ZOO + "m,9007199254740993,1,1,1\n"),
                  ":2: field 'parameters' must be a whole number from 1 to 9007199254740992",
                  "2^53 + 1");
    ExpectRefusal(ZooError(ZOO + "m,1,0x10,1,1\n"),
                  ":2: field 'gradient_bytes' must be a whole number",
                  "0x10");
    ExpectRefusal(ZooError(ZOO + "m,1,1,1, 1\n"),
                  ":2: field 'compute_ms_v100' must be a number >= 0",
                  "' 1'");
    // Control.
    auto zoo = ClusterModelZoo::Load(TempFile(ZOO + "m,9007199254740992,4,2,0.5\n"));
    EXPECT_EQ(zoo.Get("m").parameters, 9007199254740992u);
    EXPECT_EQ(zoo.Get("m").gradientBytes, 4u);
    EXPECT_EQ(zoo.Get("m").computeTime, MicroSeconds(500));
}

TEST(ClusterJobTraceStrict, ErrorsEchoHugeFieldsCutShort)
{
    // Each message used to echo the whole 3 MB field.
    const std::string huge(3000000, 'z');
    const std::string cut = std::string(64, 'z') + "... (3000000 characters)";
    ExpectRefusal(TiresiasError("0," + huge + ",0,10,vgg16,5,1\n"),
                  ":2: field 'num_gpu' must be a whole number from 1 to 4294967295 (got '" + cut +
                      "')",
                  "huge num_gpu");
    ExpectRefusal(
        HeliosError("a,8,COMPLETED," + huge + ",2020-06-03 10:00:30,2020-06-03 11:00:30\n"),
        ":2: field 'submit_time' must be a time YYYY-MM-DD HH:MM:SS, years 1970 to "
        "2100, a day the month has (got '" +
            cut + "')",
        "huge submit_time");
    ExpectRefusal(JobListError(JOBS + "0,8," + huge + ",100,1,1\n"),
                  ":2: field 'algorithm' is unknown (got '" + cut + "'; known: ring",
                  "huge algorithm");
    ExpectRefusal(JobListError("arrival_s,gpus,algorithm,bytes,compute_s,iterations,comm_ratio\n"
                               "0,8,ring,100,1,1,2." +
                               std::string(2999998, '0') + "\n"),
                  ":2: field 'comm_ratio' must be a number from 0 to 1 (got '2." +
                      std::string(62, '0') + "... (3000000 characters)')",
                  "2.000... (comm_ratio 2)");
    ExpectRefusal(ZooError(ZOO + huge + ",1,1,1,1\n" + huge + ",1,1,1,1\n"),
                  ":3: model '" + cut + "' is listed twice",
                  "huge model twice");
    // The zoo's own messages: an unknown name, and a known list with a huge name in it.
    auto zoo = ClusterModelZoo::Load(TempFile(ZOO + huge + ",1,1,1,1\n"));
    std::string e = ErrorOf([&] { zoo.Get("y" + huge); });
    EXPECT_EQ(e,
              "unknown model 'y" + std::string(63, 'z') +
                  "... (3000001 characters)' (known: " + cut + ")");
    // Control: a name of 64 characters is shown whole.
    const std::string name(64, 'n');
    e = ErrorOf([&] { zoo.Get(name); });
    EXPECT_EQ(e, "unknown model '" + name + "' (known: " + cut + ")");
}

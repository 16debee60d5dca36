/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "cluster-job-trace.h"

#include "ns3/suite-check.h"
#include "ns3/suite-csv-reader.h"
#include "ns3/suite-shown-text.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <set>

namespace ns3
{

namespace
{
/// Days since 1970-01-01 of a civil date (proleptic Gregorian; H. Hinnant's algorithm).
int64_t
DaysFromCivil(int64_t y, unsigned m, unsigned d)
{
    y -= m <= 2 ? 1 : 0;
    const int64_t era = (y >= 0 ? y : y - 399) / 400;
    const auto yoe = static_cast<unsigned>(y - era * 400);
    const unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + static_cast<int64_t>(doe) - 719468;
}

/// \return the days of month m (1 to 12) of year y (Gregorian leap years)
unsigned
DaysInMonth(int y, unsigned m)
{
    static const unsigned days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    const bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    return m == 2 && leap ? 29 : days[m - 1];
}

/// Seconds since the epoch of "YYYY-MM-DD HH:MM:SS", exactly so (digits where the pattern
/// has them: no sign, space or single-digit month), years 1970 to 2100, days that the month
/// has; or throw naming the field.
int64_t
ParseTimestamp(const SuiteCsvReader& csv, const std::string& column)
{
    static const std::string pattern = "dddd-dd-dd dd:dd:dd";
    const std::string text = csv.Text(column);
    bool ok = text.size() == pattern.size();
    for (std::size_t i = 0; ok && i < pattern.size(); ++i)
    {
        ok = pattern[i] == 'd' ? text[i] >= '0' && text[i] <= '9' : text[i] == pattern[i];
    }
    auto number = [&text](std::size_t at, std::size_t digits) {
        unsigned n = 0;
        for (std::size_t i = at; i < at + digits; ++i)
        {
            n = n * 10 + static_cast<unsigned>(text[i] - '0');
        }
        return n;
    };
    const int y = ok ? static_cast<int>(number(0, 4)) : 0;
    const unsigned mo = ok ? number(5, 2) : 0;
    const unsigned d = ok ? number(8, 2) : 0;
    const unsigned h = ok ? number(11, 2) : 0;
    const unsigned mi = ok ? number(14, 2) : 0;
    const unsigned s = ok ? number(17, 2) : 0;
    SUITE_REQUIRE(ok && y >= 1970 && y <= 2100 && mo >= 1 && mo <= 12 && d >= 1 &&
                      d <= DaysInMonth(y, mo) && h < 24 && mi < 60 && s < 61,
                  std::runtime_error,
                  csv.Where() << ": field '" << column
                              << "' must be a time YYYY-MM-DD HH:MM:SS, years 1970 to 2100, "
                                 "a day the month has (got '"
                              << SuiteShownText(text) << "')");
    return DaysFromCivil(y, mo, d) * 86400 + h * 3600 + mi * 60 + s;
}

/// Sort by submit time and make submit times relative to the first.
std::vector<ClusterTraceJob>
Normalise(std::vector<ClusterTraceJob> jobs, const std::string& path)
{
    SUITE_REQUIRE(!jobs.empty(), std::runtime_error, path << ": no jobs");
    std::stable_sort(jobs.begin(), jobs.end(), [](const auto& a, const auto& b) {
        return a.submit < b.submit;
    });
    Time first = jobs.front().submit;
    for (auto& job : jobs)
    {
        job.submit -= first;
    }
    return jobs;
}
} // namespace

std::vector<ClusterTraceJob>
ClusterReadTiresiasTrace(const std::string& path, double unitSeconds)
{
    SUITE_REQUIRE(std::isfinite(unitSeconds) && unitSeconds > 0,
                  std::invalid_argument,
                  "the trace time unit must be > 0 seconds (got " << unitSeconds << ")");
    SuiteCsvReader csv(
        path,
        {"job_id", "num_gpu", "submit_time", "iterations", "model_name", "duration"});
    std::vector<ClusterTraceJob> jobs;
    std::set<uint64_t> ids;
    while (csv.Next())
    {
        ClusterTraceJob job;
        job.where = csv.Where();
        uint64_t id = csv.Integer("job_id", 0, UINT32_MAX);
        SUITE_REQUIRE(ids.insert(id).second,
                      std::runtime_error,
                      csv.Where() << ": field 'job_id' repeats job " << id);
        job.id = static_cast<uint32_t>(id);
        job.gpus = static_cast<uint32_t>(csv.Integer("num_gpu", 1, UINT32_MAX));
        job.submit = csv.Duration("submit_time", unitSeconds);
        job.iterations = static_cast<uint32_t>(csv.Integer("iterations", 1, UINT32_MAX));
        job.model = csv.Text("model_name");
        SUITE_REQUIRE(!job.model.empty(),
                      std::runtime_error,
                      csv.Where() << ": field 'model_name' is empty");
        csv.Positive("duration");
        job.duration = csv.Duration("duration", unitSeconds);
        jobs.push_back(job);
    }
    return Normalise(jobs, path);
}

std::vector<ClusterTraceJob>
ClusterReadHeliosTrace(const std::string& path, int64_t earliestSubmit)
{
    SuiteCsvReader csv(path,
                       {"job_id", "gpu_num", "state", "submit_time", "start_time", "end_time"});
    const std::set<std::string> finished = {"COMPLETED",
                                            "CANCELLED",
                                            "FAILED",
                                            "NODE_FAIL",
                                            "TIMEOUT"};
    std::vector<ClusterTraceJob> jobs;
    uint32_t index = 0;
    while (csv.Next())
    {
        if (finished.count(csv.Text("state")) == 0 || csv.Integer("gpu_num", 0, UINT32_MAX) == 0)
        {
            continue;
        }
        int64_t submit = ParseTimestamp(csv, "submit_time");
        if (submit < earliestSubmit)
        {
            continue;
        }
        ClusterTraceJob job;
        job.where = csv.Where();
        SUITE_REQUIRE(index < UINT32_MAX,
                      std::runtime_error,
                      csv.Where() << ": more than " << UINT32_MAX << " jobs");
        job.id = index++;
        job.gpus = static_cast<uint32_t>(csv.Integer("gpu_num", 1, UINT32_MAX));
        int64_t start = ParseTimestamp(csv, "start_time");
        int64_t end = ParseTimestamp(csv, "end_time");
        SUITE_REQUIRE(end >= start && start >= submit,
                      std::runtime_error,
                      csv.Where() << ": fields 'submit_time' <= 'start_time' <= 'end_time' "
                                     "do not hold");
        job.submit = Seconds(static_cast<double>(submit));
        job.duration = Seconds(static_cast<double>(end - start));
        jobs.push_back(job);
    }
    return Normalise(jobs, path);
}

std::vector<ClusterTraceJob>
ClusterGenerateJobs(uint32_t jobs,
                    Time meanInterArrival,
                    Time meanDuration,
                    const std::vector<std::string>& models,
                    uint32_t maxGpus,
                    uint64_t seed,
                    uint32_t minGpus)
{
    SUITE_REQUIRE(jobs >= 1, std::invalid_argument, "jobs must be at least 1");
    SUITE_REQUIRE(meanInterArrival.IsStrictlyPositive() && meanDuration.IsStrictlyPositive(),
                  std::invalid_argument,
                  "mean inter-arrival time and mean duration must be > 0");
    SUITE_REQUIRE(!models.empty(), std::invalid_argument, "the model mix is empty");
    SUITE_REQUIRE(maxGpus >= 1, std::invalid_argument, "maxGpus must be at least 1");
    static const uint32_t sizes[] = {1, 2, 4, 8, 16, 32, 64, 128, 256};
    static const double counts[] = {11136, 829, 1109, 4257, 400, 925, 76, 80, 13};
    std::mt19937_64 rng(seed);
    std::discrete_distribution<int> size(std::begin(counts), std::end(counts));
    std::exponential_distribution<double> gap(1.0 / meanInterArrival.GetSeconds());
    std::exponential_distribution<double> length(1.0 / meanDuration.GetSeconds());
    std::uniform_int_distribution<std::size_t> model(0, models.size() - 1);
    SUITE_REQUIRE(std::any_of(std::begin(sizes),
                              std::end(sizes),
                              [=](uint32_t n) { return n >= minGpus && n <= maxGpus; }),
                  std::invalid_argument,
                  "no job size (1, 2, 4, ..., 256) lies within minGpus "
                      << minGpus << " and maxGpus " << maxGpus);
    std::vector<ClusterTraceJob> out;
    double now = 0;
    for (uint32_t i = 0; i < jobs; ++i)
    {
        ClusterTraceJob job;
        job.id = i;
        do
        {
            job.gpus = sizes[size(rng)];
        } while (job.gpus > maxGpus || job.gpus < minGpus);
        now += i == 0 ? 0 : gap(rng);
        double duration = length(rng);
        SUITE_REQUIRE(SuiteFitsInTime(now) && SuiteFitsInTime(duration),
                      std::invalid_argument,
                      "synthetic job " << i << " would arrive at " << now << " s and last "
                                       << duration << " s, beyond the " << SUITE_MAX_TIME_SECONDS
                                       << " s a simulated time can hold");
        job.submit = Seconds(now);
        job.duration = Seconds(duration);
        job.model = models[model(rng)];
        out.push_back(job);
    }
    return out;
}

} // namespace ns3

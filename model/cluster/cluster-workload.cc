/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "cluster-workload.h"

#include "ns3/suite-check.h"
#include "ns3/suite-csv-reader.h"
#include "ns3/suite-shown-text.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <iterator>
#include <limits>
#include <map>
#include <memory>
#include <random>
#include <sstream>

namespace ns3
{

namespace
{
/// TPU-v4 job sizes (RapidNetSim's generate_tasks.py).
constexpr uint32_t TPU_V4_SIZES[] =
    {4, 8, 16, 32, 64, 128, 192, 256, 384, 512, 768, 1024, 1536, 2048};
/// Their cumulative list, copied as-is from generate_tasks.py (non-monotone).
constexpr double TPU_V4_CUMULATIVE[] =
    {0.05, 0.1, 0.05, 0.09, 0.43, 0.605, 0.612, 0.729, 0.73, 0.849, 0.856, 0.893, 0.895, 1};
static_assert(std::size(TPU_V4_SIZES) == std::size(TPU_V4_CUMULATIVE), "one value per size");

/// One row of RapidNetSim's ALL_REDUCE_COST table (generate_tasks.py): a small model's
/// all-reduce share by GPU column.
struct CommRow
{
    const char* model;                                 //!< name
    std::vector<std::pair<uint32_t, double>> byColumn; //!< GPUs -> share, ascending
};

/// RapidNetSim's ALL_REDUCE_COST table (small models).
const std::vector<CommRow>&
SmallModels()
{
    static const std::vector<CommRow> rows = {
        {"vgg16", {{4, .25}, {8, .23}, {16, .16}, {32, .10}, {64, .07}, {96, .04}}},
        {"resnet50", {{4, .04}, {8, .04}, {16, .04}, {32, .05}, {64, .04}, {96, .03}, {128, .02}}},
        {"resnet101", {{4, .05}, {8, .05}, {16, .05}, {32, .05}, {64, .04}, {96, .02}}},
        {"bert", {{4, .12}, {8, .12}, {16, .12}, {32, .08}}},
    };
    return rows;
}

/// Pangu's all-to-all share (RapidNetSim's ALL2ALL table in generate_tasks.py).
constexpr double PANGU_ALL_TO_ALL = 0.258;

/// \return a uniform double in [0, 1) from the top 53 bits of one draw (portable)
double
Uniform(std::mt19937_64& rng)
{
    return static_cast<double>(rng() >> 11) * 0x1.0p-53;
}

/// \return an exponential draw of the given mean (inverse CDF)
double
Exponential(std::mt19937_64& rng, double mean)
{
    return -mean * std::log(1.0 - Uniform(rng));
}

/// \return a standard normal draw (Box-Muller, two uniforms)
double
Normal(std::mt19937_64& rng)
{
    double u1 = Uniform(rng);
    double u2 = Uniform(rng);
    return std::sqrt(-2.0 * std::log(1.0 - u1)) * std::cos(2.0 * M_PI * u2);
}

/// \return whether n is a power of two
bool
IsPowerOfTwo(uint64_t n)
{
    return n != 0 && (n & (n - 1)) == 0;
}

/// Check one generator setting.
void
CheckConfig(const ClusterSpec7Config& c)
{
    SUITE_REQUIRE(c.jobs >= 1, std::invalid_argument, "jobs must be at least 1 (got 0)");
    SUITE_REQUIRE(std::isfinite(c.meanInterArrivalS) && c.meanInterArrivalS > 0,
                  std::invalid_argument,
                  "meanInterArrivalS must be a number > 0 (got " << c.meanInterArrivalS << ")");
    SUITE_REQUIRE(c.meanInterArrivalS * c.jobs <= SUITE_MAX_TIME_SECONDS,
                  std::invalid_argument,
                  "meanInterArrivalS " << c.meanInterArrivalS << " x jobs " << c.jobs
                                       << " goes beyond the " << SUITE_MAX_TIME_SECONDS
                                       << " s a simulated time can hold");
    SUITE_REQUIRE(c.clusterGpus >= 2,
                  std::invalid_argument,
                  "clusterGpus must be at least 2 (got " << c.clusterGpus << ")");
    SUITE_REQUIRE(c.maxGpus >= 2,
                  std::invalid_argument,
                  "maxGpus must be at least 2 (got " << c.maxGpus << ")");
    SUITE_REQUIRE(std::isfinite(c.durationLogMu) && std::abs(c.durationLogMu) <= 100,
                  std::invalid_argument,
                  "durationLogMu must be a number from -100 to 100 (got " << c.durationLogMu
                                                                          << ")");
    SUITE_REQUIRE(
        std::isfinite(c.durationLogSigma) && c.durationLogSigma > 0 && c.durationLogSigma <= 100,
        std::invalid_argument,
        "durationLogSigma must be a number in (0, 100] (got " << c.durationLogSigma << ")");
}

/// \return secondsPerByte(job), checked to be finite and > 0
double
CheckedSecondsPerByte(const ClusterSecondsPerByte& secondsPerByte, const ClusterWorkloadJob& job)
{
    double spb = secondsPerByte(job);
    SUITE_REQUIRE(std::isfinite(spb) && spb > 0,
                  std::invalid_argument,
                  "secondsPerByte of job " << job.id << " (" << job.gpus << " GPUs, "
                                           << ClusterCollectiveAlgorithmName(job.algorithm)
                                           << ") must be a number > 0 (got " << spb << ")");
    return spb;
}

/// \return a job's contention-free collective time: none for one GPU (nothing to exchange)
double
CollectiveSeconds(const ClusterWorkloadJob& job, const ClusterSecondsPerByte& secondsPerByte)
{
    if (job.gpus < 2 || job.bytes <= 0)
    {
        return 0;
    }
    return job.bytes * CheckedSecondsPerByte(secondsPerByte, job);
}

/// The names ClusterParseCollectiveAlgorithm accepts, for error messages.
std::string
KnownAlgorithms()
{
    std::string names;
    for (auto a : {CLUSTER_RING,
                   CLUSTER_FLAT_RING,
                   CLUSTER_HIERARCHICAL_RING,
                   CLUSTER_HALVING_DOUBLING,
                   CLUSTER_ALL_TO_ALL})
    {
        names += (names.empty() ? "" : ", ") + ClusterCollectiveAlgorithmName(a);
    }
    return names;
}

/// \return a number >= 0 within a simulated time, or throw naming the field
double
TimeField(const SuiteCsvReader& csv, const std::string& column)
{
    csv.Duration(column, 1); // throws for negative, not a number, or beyond a Time
    return csv.NonNegative(column);
}
} // namespace

uint64_t
ClusterRoundUpToPowerOfTwo(uint64_t n)
{
    SUITE_REQUIRE(n >= 1 && n <= (uint64_t{1} << 63),
                  std::invalid_argument,
                  "a GPU count to round up must be from 1 to 2^63 (got " << n << ")");
    uint64_t p = 1;
    while (p < n)
    {
        p <<= 1;
    }
    return p;
}

uint32_t
ClusterTpuV4SizeForQuantile(double q)
{
    SUITE_REQUIRE(q >= 0 && q < 1,
                  std::invalid_argument,
                  "a quantile must be in [0, 1) (got " << q << ")");
    double envelope = 0;
    for (std::size_t i = 0; i < std::size(TPU_V4_SIZES); ++i)
    {
        envelope = std::max(envelope, TPU_V4_CUMULATIVE[i]);
        if (q < envelope)
        {
            return TPU_V4_SIZES[i];
        }
    }
    return TPU_V4_SIZES[std::size(TPU_V4_SIZES) - 1]; // unreachable: the list ends at 1
}

ClusterSizeQuantiles::ClusterSizeQuantiles(const std::vector<uint32_t>& gpus)
{
    SUITE_REQUIRE(!gpus.empty(), std::invalid_argument, "size quantiles need at least one job");
    std::map<uint64_t, uint64_t> counts;
    for (uint32_t n : gpus)
    {
        ++counts[ClusterRoundUpToPowerOfTwo(n)];
    }
    m_counts.assign(counts.begin(), counts.end());
    m_total = gpus.size();
}

double
ClusterSizeQuantiles::Quantile(uint32_t gpus, double u) const
{
    SUITE_REQUIRE(u >= 0 && u < 1, std::invalid_argument, "u must be in [0, 1) (got " << u << ")");
    uint64_t h = ClusterRoundUpToPowerOfTwo(gpus);
    uint64_t below = 0;
    for (const auto& [size, count] : m_counts)
    {
        if (size == h)
        {
            double lo = static_cast<double>(below) / m_total;
            double hi = static_cast<double>(below + count) / m_total;
            return std::min(lo + u * (hi - lo), std::nextafter(hi, 0.0));
        }
        below += count;
    }
    SUITE_REQUIRE(false,
                  std::invalid_argument,
                  "no trace job has size " << h << " (" << gpus << " GPUs rounded up)");
    return 0; // unreachable
}

double
ClusterSpec7Duration(double rawSeconds)
{
    SUITE_REQUIRE(std::isfinite(rawSeconds) && rawSeconds >= 0,
                  std::invalid_argument,
                  "a runtime must be a number >= 0 s (got " << rawSeconds << ")");
    double clipped = std::min(100000.0, std::max(1000.0, rawSeconds));
    return 100 * std::floor(clipped / 100);
}

double
ClusterCommRatio(const std::string& model, uint32_t gpus)
{
    SUITE_REQUIRE(gpus >= 1, std::invalid_argument, "a job has at least 1 GPU (got 0)");
    if (model == "pangu")
    {
        return PANGU_ALL_TO_ALL;
    }
    for (const auto& row : SmallModels())
    {
        if (model == row.model)
        {
            double r = row.byColumn.front().second;
            for (const auto& [column, share] : row.byColumn)
            {
                if (column <= gpus)
                {
                    r = share;
                }
            }
            return r;
        }
    }
    SUITE_REQUIRE(false,
                  std::invalid_argument,
                  "no communication ratio for model '"
                      << model << "' (known: vgg16, resnet50, resnet101, bert, pangu)");
    return 0; // unreachable
}

ClusterSpec7Pattern
ClusterSpec7PatternFor(double u, double modelU, uint32_t gpus)
{
    SUITE_REQUIRE(u >= 0 && u < 1 && modelU >= 0 && modelU < 1,
                  std::invalid_argument,
                  "pattern draws must be in [0, 1) (got " << u << ", " << modelU << ")");
    ClusterSpec7Pattern p;
    bool powerOfTwo = IsPowerOfTwo(gpus);
    if (u < 0.7 || !powerOfTwo)
    {
        p.algorithm = u < 0.5 && powerOfTwo ? CLUSTER_HALVING_DOUBLING : CLUSTER_RING;
        const auto& rows = SmallModels();
        auto index = std::min(rows.size() - 1, static_cast<std::size_t>(modelU * rows.size()));
        p.model = rows[index].model;
    }
    else
    {
        p.algorithm = CLUSTER_ALL_TO_ALL;
        p.model = "pangu";
    }
    p.commRatio = ClusterCommRatio(p.model, gpus);
    return p;
}

ClusterSpec7Pattern
ClusterSpec7PatternOfJob(uint32_t jobId, uint32_t gpus)
{
    std::mt19937_64 rng(jobId);
    double u = Uniform(rng);
    double modelU = Uniform(rng);
    return ClusterSpec7PatternFor(u, modelU, gpus);
}

std::vector<ClusterTraceJob>
ClusterReadHeliosSpec7Trace(const std::string& path)
{
    return ClusterReadHeliosTrace(path, CLUSTER_HELIOS_SPEC7_EARLIEST_SUBMIT);
}

std::vector<ClusterWorkloadJob>
ClusterGenerateSpec7Workload(const ClusterSpec7Config& config,
                             const ClusterSecondsPerByte& secondsPerByte,
                             const std::vector<ClusterTraceJob>& trace)
{
    CheckConfig(config);
    SUITE_REQUIRE(static_cast<bool>(secondsPerByte),
                  std::invalid_argument,
                  "secondsPerByte is not set");
    std::vector<uint32_t> traceSizes;
    traceSizes.reserve(trace.size());
    for (const auto& t : trace)
    {
        traceSizes.push_back(t.gpus);
    }
    std::unique_ptr<ClusterSizeQuantiles> quantiles;
    if (!trace.empty())
    {
        quantiles = std::make_unique<ClusterSizeQuantiles>(traceSizes);
    }
    const uint32_t cap = std::min(config.maxGpus, config.clusterGpus);
    std::mt19937_64 rng(config.seed);
    std::vector<ClusterWorkloadJob> jobs;
    jobs.reserve(config.jobs);
    double now = 0;
    for (uint32_t i = 0; i < config.jobs; ++i)
    {
        // Four draws per job, always in this order: gap, size, runtime (two), jitter.
        double gap = Exponential(rng, config.meanInterArrivalS);
        now += i == 0 ? 0 : gap;
        double sizeU = Uniform(rng);
        double z = Normal(rng);
        double jitter = 0.5 + Uniform(rng);

        ClusterWorkloadJob job;
        job.id = i;
        job.arrivalS = now;
        double raw = 0;
        double q = sizeU;
        if (quantiles)
        {
            const auto& t = trace[i % trace.size()];
            q = quantiles->Quantile(t.gpus, sizeU);
            raw = t.duration.GetSeconds();
        }
        else
        {
            raw = std::exp(config.durationLogMu + config.durationLogSigma * z);
            raw = std::isfinite(raw) ? raw : 100000; // clipped below anyway
        }
        job.gpus = std::min(cap, ClusterTpuV4SizeForQuantile(q));
        job.durationS = ClusterSpec7Duration(raw);
        auto pattern = ClusterSpec7PatternOfJob(job.id, job.gpus);
        job.algorithm = pattern.algorithm;
        job.model = pattern.model;
        job.commRatio = pattern.commRatio;
        job.computeS = job.durationS * (1 - job.commRatio);
        job.iterations = 1;
        double spb = CheckedSecondsPerByte(secondsPerByte, job);
        double bytes = std::round(job.durationS * job.commRatio / spb * jitter);
        SUITE_REQUIRE(bytes <= static_cast<double>(SuiteCsvReader::MAX_EXACT_INTEGER),
                      std::invalid_argument,
                      "job " << i << ": message size " << bytes << " bytes is beyond 2^53 "
                             << "(secondsPerByte " << spb << " is too small)");
        job.bytes = std::max(1.0, bytes);
        jobs.push_back(job);
    }
    return jobs;
}

double
ClusterOfferedLoad(const std::vector<ClusterWorkloadJob>& jobs,
                   uint32_t clusterGpus,
                   const ClusterSecondsPerByte& secondsPerByte)
{
    SUITE_REQUIRE(clusterGpus >= 1, std::invalid_argument, "clusterGpus must be at least 1");
    SUITE_REQUIRE(static_cast<bool>(secondsPerByte),
                  std::invalid_argument,
                  "secondsPerByte is not set");
    SUITE_REQUIRE(!jobs.empty(), std::invalid_argument, "the offered load needs jobs");
    double first = jobs.front().arrivalS;
    double last = jobs.front().arrivalS;
    double work = 0;
    for (const auto& job : jobs)
    {
        first = std::min(first, job.arrivalS);
        last = std::max(last, job.arrivalS);
        work += static_cast<double>(job.gpus) * job.iterations *
                (job.computeS + CollectiveSeconds(job, secondsPerByte));
    }
    SUITE_REQUIRE(last > first,
                  std::invalid_argument,
                  "the offered load needs an arrival span > 0 (every job arrives at " << first
                                                                                      << " s)");
    return work / (static_cast<double>(clusterGpus) * (last - first));
}

std::vector<ClusterWorkloadJob>
ClusterReadJobList(const std::string& path, uint32_t maxGpus)
{
    SUITE_REQUIRE(maxGpus >= 1, std::invalid_argument, "maxGpus must be at least 1");
    SuiteCsvReader csv(path,
                       {"arrival_s", "gpus", "algorithm", "bytes", "compute_s", "iterations"});
    std::vector<ClusterWorkloadJob> jobs;
    while (csv.Next())
    {
        ClusterWorkloadJob job;
        SUITE_REQUIRE(jobs.size() < UINT32_MAX,
                      std::runtime_error,
                      csv.Where() << ": more than " << UINT32_MAX << " jobs");
        job.id = static_cast<uint32_t>(jobs.size());
        job.arrivalS = TimeField(csv, "arrival_s");
        SUITE_REQUIRE(jobs.empty() || job.arrivalS >= jobs.back().arrivalS,
                      std::runtime_error,
                      csv.Where() << ": field 'arrival_s' is " << job.arrivalS
                                  << " s, before the previous job's " << jobs.back().arrivalS
                                  << " s (list the jobs in arrival order)");
        job.gpus = static_cast<uint32_t>(csv.Integer("gpus", 1, maxGpus));
        SUITE_REQUIRE(ClusterParseCollectiveAlgorithm(csv.Text("algorithm"), job.algorithm),
                      std::runtime_error,
                      csv.Where() << ": field 'algorithm' is unknown (got '"
                                  << SuiteShownText(csv.Text("algorithm"))
                                  << "'; known: " << KnownAlgorithms() << ")");
        job.bytes = static_cast<double>(csv.Integer("bytes", 0, SuiteCsvReader::MAX_EXACT_INTEGER));
        job.computeS = TimeField(csv, "compute_s");
        job.iterations = static_cast<uint32_t>(csv.Integer("iterations", 1, UINT32_MAX));
        double end = job.arrivalS + job.iterations * job.computeS;
        SUITE_REQUIRE(SuiteFitsInTime(end),
                      std::runtime_error,
                      csv.Where() << ": field 'iterations': arrival_s + iterations x compute_s = "
                                  << end << " s is beyond the " << SUITE_MAX_TIME_SECONDS
                                  << " s a simulated time can hold");
        job.model = csv.Text("model");
        if (!csv.Text("duration_s").empty())
        {
            job.durationS = TimeField(csv, "duration_s");
        }
        if (!csv.Text("comm_ratio").empty())
        {
            job.commRatio = csv.NonNegative("comm_ratio");
            SUITE_REQUIRE(job.commRatio <= 1,
                          std::runtime_error,
                          csv.Where() << ": field 'comm_ratio' must be a number from 0 to 1 (got '"
                                      << SuiteShownText(csv.Text("comm_ratio")) << "')");
        }
        jobs.push_back(job);
    }
    SUITE_REQUIRE(!jobs.empty(), std::runtime_error, path << ": no jobs");
    return jobs;
}

void
ClusterWriteJobList(std::ostream& out, const std::vector<ClusterWorkloadJob>& jobs)
{
    out << "arrival_s,gpus,algorithm,bytes,compute_s,iterations,model,duration_s,comm_ratio\n";
    std::ostringstream row;
    row << std::setprecision(std::numeric_limits<double>::max_digits10);
    for (const auto& job : jobs)
    {
        SUITE_REQUIRE(job.model.find_first_of(",\r\n") == std::string::npos,
                      std::invalid_argument,
                      "job " << job.id << ": model '" << job.model
                             << "' holds a comma or a line break");
        row.str("");
        row << job.arrivalS << ',' << job.gpus << ','
            << ClusterCollectiveAlgorithmName(job.algorithm) << ',' << job.bytes << ','
            << job.computeS << ',' << job.iterations << ',' << job.model << ',' << job.durationS
            << ',' << job.commRatio << '\n';
        out << row.str();
    }
}

void
ClusterWriteJobList(const std::string& path, const std::vector<ClusterWorkloadJob>& jobs)
{
    std::ofstream out(path);
    SUITE_REQUIRE(out.good(), std::runtime_error, path << ": cannot write the file");
    ClusterWriteJobList(out, jobs);
    out.flush();
    SUITE_REQUIRE(out.good(), std::runtime_error, path << ": cannot write the file");
}

} // namespace ns3

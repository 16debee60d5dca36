/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef CLUSTER_WORKLOAD_H
#define CLUSTER_WORKLOAD_H

#include "cluster-collective-schedule.h"
#include "cluster-job-trace.h"

#include <cstdint>
#include <functional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup cluster
 * \brief One job for a trace-scale (flow-level) run: when it arrives, how many GPUs it
 *        asks for, and what it does with them, in trace seconds (no scaling).
 *
 * A job runs `iterations` times: compute for computeS, then one collective of `bytes` per
 * GPU (the message size M of the collective's algorithm). durationS and commRatio are the
 * ClusterGenerateSpec7Workload inputs (D and r), kept for reports; 0 when unknown (a job list that
 * does not give them).
 */
struct ClusterWorkloadJob
{
    uint32_t id = 0;                                     //!< position in the list (0, 1, ...)
    double arrivalS = 0;                                 //!< arrival, s
    uint32_t gpus = 0;                                   //!< GPUs (>= 1)
    ClusterCollectiveAlgorithm algorithm = CLUSTER_RING; //!< the collective
    double bytes = 0;        //!< message size M of one collective, a whole number >= 0
    double computeS = 0;     //!< compute time of one iteration, s
    uint32_t iterations = 1; //!< iterations (>= 1)
    std::string model;       //!< model name ("" when unknown)
    double durationS = 0;    //!< D: the job's duration when it runs alone, s (0: unknown)
    double commRatio = 0;    //!< r: the share of D spent in the collective (0: unknown)
};

/**
 * \ingroup cluster
 * The contention-free collective time per byte of M for a job (its algorithm and GPU
 * count), in s/byte: what the engine that runs the job computes. Must be finite and > 0
 * for a job of 2 GPUs or more.
 */
using ClusterSecondsPerByte = std::function<double(const ClusterWorkloadJob&)>;

// ---------------------------------------------------------------------------------------
// The authors' workload (RapidNetSim generate_tasks.py,
// get_fixed_requests_256_part_tasks_TPUv4_512): job sizes

/**
 * \ingroup cluster
 * \param n a GPU count >= 1 \return the smallest power of two >= n
 */
uint64_t ClusterRoundUpToPowerOfTwo(uint64_t n);

/**
 * \ingroup cluster
 * \brief The TPU-v4 job-size distribution of RapidNetSim's generate_tasks.py, read as a
 *        quantile function.
 *
 * Sizes 4, 8, 16, 32, 64, 128, 192, 256, 384, 512, 768, 1024, 1536, 2048 with the authors'
 * cumulative list 0.05, 0.1, 0.05, 0.09, 0.43, 0.605, 0.612, 0.729, 0.73, 0.849, 0.856,
 * 0.893, 0.895, 1 (copied as-is, non-monotone). The quantile q maps to the first size whose
 * running maximum of the cumulative list exceeds q: sizes whose cumulative value does not
 * rise above an earlier one (16 and 32) get no mass. This is what the authors' mass
 * transport gives in aggregate (see doc/cluster/cluster.rst).
 * \param q a quantile in [0, 1)
 * \return the TPU-v4 size (uncapped)
 */
uint32_t ClusterTpuV4SizeForQuantile(double q);

/**
 * \ingroup cluster
 * \brief The empirical distribution of a trace's job sizes, each rounded up to a power of
 *        two: gives each job a quantile for ClusterTpuV4SizeForQuantile.
 */
class ClusterSizeQuantiles
{
  public:
    /// \param gpus the sizes of all the trace's jobs (each >= 1; at least one)
    explicit ClusterSizeQuantiles(const std::vector<uint32_t>& gpus);
    /**
     * \param gpus a job's size (rounded up to a power of two here)
     * \param u a uniform draw in [0, 1) that spreads the jobs of one size over its range
     * \return F(<h) + u (F(<=h) - F(<h)), where h is the rounded size and F the empirical
     *         distribution; throws std::invalid_argument when no trace job has size h
     */
    double Quantile(uint32_t gpus, double u) const;

  private:
    std::vector<std::pair<uint64_t, uint64_t>> m_counts; //!< rounded size -> jobs, ascending
    uint64_t m_total = 0;                                //!< jobs
};

// ---------------------------------------------------------------------------------------
// The authors' workload (generate_tasks.py): durations, patterns, communication ratios

/**
 * \ingroup cluster
 * \param rawSeconds a trace runtime, s (finite, >= 0)
 * \return it clipped to [1000, 100000] s and floored to a multiple of 100 s
 */
double ClusterSpec7Duration(double rawSeconds);

/**
 * \ingroup cluster
 * \brief The communication ratio of RapidNetSim's ALL_REDUCE_COST table (generate_tasks.py).
 *
 * Small models (vgg16, resnet50, resnet101, bert): the all-reduce share in the column of the
 * largest GPU count <= gpus that the model's row has, or its smallest column when gpus is
 * below all (columns 4, 8, 16, 32, 64, 96, 128; vgg16 and resnet101 stop at 96, bert at 32).
 * pangu: its all-to-all share, 0.258, for any size.
 * \param model one of vgg16, resnet50, resnet101, bert, pangu
 * \param gpus the job's GPUs (>= 1)
 * \return r in (0, 1); throws std::invalid_argument for another model
 */
double ClusterCommRatio(const std::string& model, uint32_t gpus);

/**
 * \ingroup cluster
 * \brief A job's collective, model and communication ratio.
 */
struct ClusterSpec7Pattern
{
    ClusterCollectiveAlgorithm algorithm = CLUSTER_RING; //!< the collective
    std::string model;                                   //!< the model
    double commRatio = 0;                                //!< r
};

/**
 * \ingroup cluster
 * \brief The pattern rule of generate_tasks.py (random_choose_model_name) for a job of `gpus` GPUs:
 *        u < 0.5 and gpus a power of two: halving-doubling with a small model;
 *        else u < 0.7 or gpus not a power of two: ring with a small model;
 *        else all-to-all with pangu.
 * \param u the job's pattern draw in [0, 1)
 * \param modelU a second draw in [0, 1) choosing the small model uniformly among vgg16,
 *        resnet50, resnet101, bert (in this order)
 * \param gpus the job's GPUs (>= 1)
 * \return the pattern
 */
ClusterSpec7Pattern ClusterSpec7PatternFor(double u, double modelU, uint32_t gpus);

/**
 * \ingroup cluster
 * \brief The pattern of job `jobId`: ClusterSpec7PatternFor with u and modelU the first two
 *        draws of a generator seeded with the job id (as RapidNetSim's random_choose_model_name
 *        does), so a job's pattern does not depend on the workload seed.
 * \param jobId the job id
 * \param gpus its GPUs
 * \return the pattern
 */
ClusterSpec7Pattern ClusterSpec7PatternOfJob(uint32_t jobId, uint32_t gpus);

// ---------------------------------------------------------------------------------------
// The authors' workload (generate_tasks.py): the generator

/**
 * \ingroup cluster
 * Submit time from which generate_tasks.py reads the Helios trace: 2020-06-03 00:00:00 UTC,
 * in seconds since the epoch.
 */
constexpr int64_t CLUSTER_HELIOS_SPEC7_EARLIEST_SUBMIT = 1591142400;

/**
 * \ingroup cluster
 * \brief Read a Helios cluster_log.csv as generate_tasks.py does: ClusterReadHeliosTrace (finished
 *        states, gpu_num > 0, runtime = end - start) keeping jobs submitted from 2020-06-03.
 * \param path the CSV file
 * \return the jobs in submit order; errors name the file, line and field
 */
std::vector<ClusterTraceJob> ClusterReadHeliosSpec7Trace(const std::string& path);

/**
 * \ingroup cluster
 * \brief The settings of the generator after generate_tasks.py.
 *
 * Synthetic durations (used when no trace is given) are a stand-in for the Helios trace,
 * which is not available here: the raw runtime is lognormal, exp(mu + sigma Z), with mu and
 * sigma chosen so that after clipping and flooring 60 % of the jobs sit at the 1000 s clip
 * and the mean is 5,993 s (as the authors' 8,192-GPU experiment in RapidNetSim,
 * large_exp_8192: mean 5,993 s, median 1,000 s). An input
 * assumption, not the trace.
 */
struct ClusterSpec7Config
{
    uint32_t jobs = 5000;             //!< jobs (>= 1)
    double meanInterArrivalS = 241;   //!< mean of the exponential gaps between arrivals, s (> 0)
    uint32_t clusterGpus = 8192;      //!< the cluster's GPUs: sizes are capped at it (>= 2)
    uint32_t maxGpus = 512;           //!< the authors' cap on job sizes (>= 2)
    uint64_t seed = 0;                //!< seed of arrivals, sizes, durations and jitter
    double durationLogMu = 6.4091;    //!< mu of the synthetic raw runtime (ln s)
    double durationLogSigma = 2.3445; //!< sigma of the synthetic raw runtime (> 0)
};

/**
 * \ingroup cluster
 * \brief The authors' workload, after RapidNetSim's generate_tasks.py.
 *
 * Job i (id i) arrives at 0 for i = 0, then after exponential gaps of mean
 * meanInterArrivalS. Its size is ClusterTpuV4SizeForQuantile(q) capped at min(maxGpus,
 * clusterGpus), where q is uniform without a trace, or the quantile of trace job
 * trace[i mod trace size] among all trace jobs (ClusterSizeQuantiles). Its duration D is
 * ClusterSpec7Duration of that trace job's runtime, or of a synthetic one. Its pattern is
 * ClusterSpec7PatternOfJob. computeS = D (1 - r); bytes = D r / secondsPerByte(job) jittered by
 * U(0.5, 1.5) and rounded to a whole byte; one iteration. Same config and trace, same list.
 * \param config the settings (bad ones throw std::invalid_argument naming the field)
 * \param secondsPerByte the engine's contention-free collective time per byte
 * \param trace a Helios trace (empty: synthetic sizes and durations)
 * \return the jobs in arrival order
 */
std::vector<ClusterWorkloadJob> ClusterGenerateSpec7Workload(
    const ClusterSpec7Config& config,
    const ClusterSecondsPerByte& secondsPerByte,
    const std::vector<ClusterTraceJob>& trace = {});

// ---------------------------------------------------------------------------------------
// Offered load and job-list files

/**
 * \ingroup cluster
 * \brief Offered load: sum over jobs of gpus x iterations x (computeS + bytes x
 *        secondsPerByte(job)) over clusterGpus x (last arrival - first arrival). A job of
 *        one GPU has no collective: its bytes cost nothing (secondsPerByte is not asked).
 * \param jobs the jobs, in arrival order (at least two distinct arrival times)
 * \param clusterGpus the cluster's GPUs (>= 1)
 * \param secondsPerByte the contention-free collective time per byte
 * \return the load (1: the cluster is busy all the span if jobs never wait or contend)
 */
double ClusterOfferedLoad(const std::vector<ClusterWorkloadJob>& jobs,
                          uint32_t clusterGpus,
                          const ClusterSecondsPerByte& secondsPerByte);

/**
 * \ingroup cluster
 * \brief Read a job list: a CSV with header arrival_s,gpus,algorithm,bytes,compute_s,
 *        iterations and optional columns model, duration_s, comm_ratio.
 *
 * Rules (each broken one is one error line naming the file, line and field):
 * arrival_s a number >= 0 s, at most SUITE_MAX_TIME_SECONDS, never below the previous row's
 * (the list is in arrival order); gpus a whole number from 1 to maxGpus; algorithm a name
 * ClusterParseCollectiveAlgorithm accepts; bytes a whole number from 0 to 2^53; compute_s a
 * number >= 0; iterations a whole number from 1 to 2^32 - 1, with arrival_s + iterations x
 * compute_s at most SUITE_MAX_TIME_SECONDS; duration_s >= 0 and comm_ratio in [0, 1] when
 * given. At least one job. Ids are the row order (0, 1, ...). Numbers are written in decimal,
 * whole numbers as digits only (SuiteCsvReader); a column named twice, or a row with more or
 * fewer fields than the header, is refused.
 * \param path the file
 * \param maxGpus the largest job size accepted (the cluster's GPUs)
 * \return the jobs
 */
std::vector<ClusterWorkloadJob> ClusterReadJobList(const std::string& path,
                                                   uint32_t maxGpus = UINT32_MAX);

/**
 * \ingroup cluster
 * \brief Write a job list that ClusterReadJobList reads back exactly (all columns, numbers
 *        with 17 significant digits).
 * \param out the stream
 * \param jobs the jobs
 */
void ClusterWriteJobList(std::ostream& out, const std::vector<ClusterWorkloadJob>& jobs);

/**
 * \ingroup cluster
 * \brief ClusterWriteJobList to a file; throws std::runtime_error when it cannot be written.
 * \param path the file
 * \param jobs the jobs
 */
void ClusterWriteJobList(const std::string& path, const std::vector<ClusterWorkloadJob>& jobs);

} // namespace ns3

#endif /* CLUSTER_WORKLOAD_H */

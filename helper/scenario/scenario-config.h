/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef SCENARIO_CONFIG_H
#define SCENARIO_CONFIG_H

#include "ns3/cluster-job-scheduler.h"
#include "ns3/cluster-model-zoo.h"
#include "ns3/cluster-workload.h"
#include "ns3/fluid-executor.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup scenario
 * \brief A multi-tenant scheduling experiment, as a JSON scenario file describes it:
 *        fabric, workload, time scaling, placement policies, seeds, metrics and outputs.
 *
 * Every field has a default, so a file names only what it changes. The schema, field by
 * field, is in doc/scenario/scenario.rst ("Scenario files"); scenarios/vclos/ holds examples.
 */
struct ScenarioConfig
{
    static constexpr uint32_t MAX_JOBS = 1000000;            //!< workload.jobs and jobs taken
    static constexpr uint32_t MAX_ITERATIONS = 100000;       //!< scaling.maxIterations
    static constexpr uint32_t MAX_JOB_GPUS = 65536;          //!< workload.minGpus, maxGpus
    static constexpr double MAX_MEAN_INTER_ARRIVAL_MS = 1e8; //!< workload.meanInterArrivalMs
    static constexpr double MAX_ARRIVAL_SCALE = 1e6;         //!< scaling.arrivalTime
    static constexpr double MAX_IDLE_GAP_US = 1e9;           //!< metrics.idleGapUs (1000 s)
    static constexpr double MAX_WAIT_THRESHOLD_MS = 1e12;    //!< metrics.waitThresholdMs
    static constexpr int MAX_JSON_DEPTH = 64;                //!< nesting of the file
    static constexpr uint32_t MAX_ECMP_RUNS = 100;           //!< seeds.ecmpRuns
    static constexpr double MAX_RECONFIGURATION_MS = 60000;  //!< scheduler.reconfigurationMs

    std::string name = "scenario"; //!< shown in the output
    std::string description;       //!< free text
    std::string directory = ".";   //!< the file's folder: relative trace paths start here

    /// ClosFabricHelper attributes by name (e.g. "Leaves" -> "16"); others keep defaults.
    std::map<std::string, std::string> fabric;
    /// Any other Config::SetDefault, by full name (e.g. "ns3::TcpSocket::SegmentSize").
    std::map<std::string, std::string> defaults;

    /// Where jobs come from.
    struct Workload
    {
        std::string source = "synthetic"; //!< synthetic, tiresias or helios
        std::string trace;                //!< trace file (tiresias, helios)
        uint32_t firstJob = 0;            //!< trace: jobs skipped at the start
        uint32_t jobs = 40;               //!< job count (trace: 0 = all)
        double meanInterArrivalMs = 0.3;  //!< synthetic Poisson arrivals
        uint32_t minGpus = 1;             //!< synthetic: smaller sizes are redrawn
        uint32_t maxGpus = 32;            //!< size cap (synthetic: redraw; trace: cap)
        std::vector<std::string> models{"resnet50", "vgg16", "bert-large", "resnet101"};
        std::vector<std::string> algorithms{"ring"}; //!< collective, drawn per job
        std::string traceTimeUnit = "s"; //!< tiresias: unit of submit_time and duration (s, ms)
        /// trace model name -> zoo model, added to (or replacing) the zoo's alias file
        std::map<std::string, std::string> modelAliases;
    } workload; //!< the workload

    /// How trace time becomes packet-level time (written into every output).
    struct Scaling
    {
        double gradientBytes = 0.05; //!< factor on the model's bytes per iteration
        double computeTime = 0.001;  //!< factor on the model's compute per iteration
        double arrivalTime = 1.0;    //!< factor on arrival times
        uint32_t maxIterations = 2;  //!< iterations per job (cap on the trace's)
    } scaling;                       //!< time scaling

    /// Scheduling.
    struct Scheduler
    {
        std::vector<std::string> policies{"ecmp", "source-routing", "vclos"};
        bool backfill = false;           //!< FIFO without head-of-line blocking
        std::string engine = "packet";   //!< packet (ns-3 nodes, TCP or RDMA) or flow (fluid)
        std::string sharing = "max-min"; //!< flow engine: max-min or equal-share
        bool ecmpPathPerStep = false;    //!< flow engine: hash each transfer, not each connection
        double reconfigurationMs = 0;    //!< OCS: delay of a start that sets up new circuits
        bool keepIdleCircuits = false;   //!< OCS: finished jobs' circuits stay, reusable
    } scheduler;                         //!< the scheduler

    /// How the packet engine's ranks move bytes (doc/roce/roce.rst, "RDMA in scenarios and
    /// the scheduler"). The flow engine accepts it and models neither: its sharing is fluid.
    struct Transport
    {
        std::string type = "tcp";               //!< tcp or rdma (RoCEv2 queue pairs)
        std::string congestionControl = "none"; //!< rdma: none (line rate) or dcqcn
        std::string profile = "hpcc"; //!< dcqcn: paper, hpcc, simai, nvidia or none (defaults)
    } transport;                      //!< the transport

    /// Seeds.
    struct Seeds
    {
        uint64_t workload = 1; //!< synthetic arrivals, sizes, models, algorithms
        uint64_t rngRun = 1;   //!< ns-3 RngRun (ECMP salts)
        uint32_t ecmpRuns = 1; //!< ECMP policies run this many times, salts rngRun, rngRun + 1...
    } seeds;                   //!< the seeds

    /// What is measured.
    struct Metrics
    {
        bool slowdown = true;         //!< run every distinct job alone to get its slowdown
        double waitThresholdMs = 1.0; //!< waiting ratio: share of jobs waiting longer
        double idleGapUs = 20;        //!< a flow silent this long leaves a link (conflicts)
    } metrics;                        //!< the metrics

    /// What is written.
    struct Output
    {
        std::string prefix = "vclos-scenario"; //!< path prefix of every file
        bool plots = true;                     //!< PNGs through gnuplot
        bool flowMonitor = false;              //!< FlowMonitor XML per policy
        bool pcap = false;                     //!< pcap of every fabric device (large)
        bool progress = true;                  //!< progress line on stderr
    } output;                                  //!< the outputs
};

/**
 * \ingroup scenario
 * \brief Read a scenario file. Throws std::runtime_error with one line naming the file and
 *        the field for malformed JSON, an unknown field or a value of the wrong type (an
 *        integer beyond its field's type included), and naming the line and column for
 *        nesting deeper than ScenarioConfig::MAX_JSON_DEPTH.
 * \param path the JSON file
 * \return the scenario (not yet validated: see ScenarioValidate)
 */
ScenarioConfig ScenarioRead(const std::string& path);

/**
 * \ingroup scenario
 * \brief Apply the fabric and default attributes (Config::SetDefault), so that command-line
 *        attributes parsed afterwards override them. Throws std::invalid_argument with one
 *        line naming the field for an unknown attribute or an invalid value.
 * \param scenario the scenario
 */
void ScenarioApplyAttributes(const ScenarioConfig& scenario);

/**
 * \ingroup scenario
 * \brief Check the transport section alone (ScenarioRead and ScenarioValidate call
 *        it; the reader adds the file and line).
 * \param transport the section
 * \param[out] field the field at fault ("transport.type", ...), when there is one
 * \return what is wrong, or "" when nothing is
 */
std::string ScenarioCheckTransport(const ScenarioConfig::Transport& transport, std::string& field);

/**
 * \ingroup scenario
 * \brief Set the Config defaults the transport section means, for the packet engine:
 *        ns3::CollectivePacketExecutor::Transport; with congestionControl dcqcn,
 *        ns3::RoceNic::RateControl=ns3::Dcqcn and, unless profile is none, every
 *        ns3::Dcqcn attribute of the profile (Dcqcn::GetProfile at the fabric's
 *        NicDataRate). Call it after the command line is parsed: it overrides
 *        --ns3::Dcqcn::... flags unless the profile is none. Throws std::invalid_argument
 *        with one line for a section ScenarioCheckTransport refuses.
 * \param scenario the scenario
 */
void ScenarioApplyTransport(const ScenarioConfig& scenario);

/**
 * \ingroup scenario
 * \brief What a valid scenario asks that its run will not do: scheduler.reconfigurationMs or
 *        scheduler.keepIdleCircuits set while no policy has circuits to apply them to (no
 *        policy's TypeId has the ReconfigurationDelay or KeepIdleCircuits attribute).
 * \param s the scenario (validated)
 * \return one line per field, "scenario: <field>: ..." (empty: nothing to say)
 */
std::vector<std::string> ScenarioWarnings(const ScenarioConfig& s);

/**
 * \ingroup scenario
 * \brief Check every other value (source, policies, models, aliases and algorithms known,
 *        ranges up to the ScenarioConfig::MAX_* limits; policies against the fabric the
 *        ClosFabricHelper defaults describe: "ocs-vclos" needs fabric.OcsCount > 0, an OCS
 *        layer needs the flow engine). Throws std::invalid_argument with one line naming
 *        the field.
 * \param scenario the scenario
 * \param zoo the model zoo the workload names models from
 */
void ScenarioValidate(const ScenarioConfig& scenario, const ClusterModelZoo& zoo);

/**
 * \ingroup scenario
 * \brief The resolved scenario as JSON: every field, fabric with every ClosFabricHelper
 *        attribute's current default (so after ScenarioApplyAttributes and command-line
 *        overrides it says exactly what runs).
 * \param scenario the scenario
 * \return pretty-printed JSON
 */
std::string ScenarioToJson(const ScenarioConfig& scenario);

/**
 * \ingroup scenario
 * \brief The jobs of a scenario's workload, scaled: gradient bytes x scaling.gradientBytes,
 *        compute x scaling.computeTime, arrivals x scaling.arrivalTime, iterations capped at
 *        scaling.maxIterations, trace sizes capped at workload.maxGpus; a job without a model
 *        (Helios) and every job's algorithm are drawn with seeds.workload. A trace's model
 *        names resolve through the zoo's aliases and workload.modelAliases; an unknown one,
 *        a scaled arrival beyond SUITE_MAX_TIME_SECONDS or more than MAX_JOBS jobs throw
 *        std::invalid_argument naming the trace's file, line and job.
 * \param scenario a validated scenario
 * \param zoo the model zoo
 * \return the jobs, in arrival order
 */
std::vector<ClusterJobRequest> ScenarioBuildJobs(const ScenarioConfig& scenario,
                                                 const ClusterModelZoo& zoo);

/**
 * \ingroup scenario
 * \brief The contention-free collective time per message byte of a job on the scenario's
 *        fabric (Config defaults applied), its ranks on the first GPUs: what the spec7
 *        workload sizes messages with, and what the offered load counts.
 * \param scenario the scenario
 * \return the function
 */
ClusterSecondsPerByte ScenarioSecondsPerByte(const ScenarioConfig& scenario);

/**
 * \ingroup scenario
 * \brief A flow executor as the scenario sets it up: scheduler.sharing,
 *        scheduler.ecmpPathPerStep, an ECMP salt from seeds.rngRun and the salt run, on the
 *        fabric the ClosFabricHelper attributes describe (Config defaults applied).
 * \param scenario the scenario
 * \param saltRun which ECMP salt run (0: the scenario's own; seeds.ecmpRuns)
 * \return the executor
 */
Ptr<FluidExecutor> ScenarioFlowExecutor(const ScenarioConfig& scenario, uint32_t saltRun = 0);

/**
 * \ingroup scenario
 * \param jobs scheduler jobs
 * \return the same jobs as workload jobs (for ClusterOfferedLoad)
 */
std::vector<ClusterWorkloadJob> ScenarioWorkloadJobs(const std::vector<ClusterJobRequest>& jobs);

/**
 * \ingroup scenario
 * \param scenario a scenario
 * \return one line stating the time scaling exactly, for every output
 */
std::string ScenarioDescribeScaling(const ScenarioConfig& scenario);

} // namespace ns3

#endif /* SCENARIO_CONFIG_H */

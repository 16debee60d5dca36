/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef SCENARIO_RUNNER_H
#define SCENARIO_RUNNER_H

#include "ns3/cluster-job-executor.h"
#include "ns3/cluster-scheduler-tracker.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/scenario-config.h"
#include "ns3/suite-run-interruption.h"

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace ns3
{

class ClusterJobScheduler;

/**
 * \ingroup scenario
 * \brief What one policy's run of a scenario's jobs gives.
 */
struct ScenarioPolicyRun
{
    std::string policy;                             //!< label (ECMP salt runs: "ecmp#2", ...)
    std::string placement;                          //!< the placement policy's name
    Ptr<ClusterSchedulerTracker> jobs;              //!< job lives and time series
    double conflictingShare = 0;                    //!< on leaf-spine links
    Time end;                                       //!< last job finished
    double wallSeconds = 0;                         //!< simulation wall time
    uint64_t events = 0;                            //!< simulator events (the model's)
    uint64_t flows = 0;                             //!< flow level: transfers run
    uint64_t isolatedJobs = 0;                      //!< flow level: jobs replayed isolated
    uint64_t materialized = 0;                      //!< of them, continued flow by flow
    double peakRssMb = 0;                           //!< peak resident memory of the process so far
    uint32_t reconfigurations = 0;                  //!< OCS: starts that set up new circuits
    std::map<uint32_t, std::vector<uint32_t>> gpus; //!< each job's GPUs, in rank order
    bool interrupted = false;                       //!< stopped by the program's check
};

/**
 * \ingroup scenario
 * \brief Runs a scenario's jobs under one placement policy on a fresh cluster, with the
 * scenario's engine (ScenarioEngine, chosen by name from ScenarioEngineNames: packet, a
 * ClosFabric and CollectivePacketExecutor; flow, a FluidExecutor): the one loop every program
 * shares (vclos-run-scenario, vclos-trace-benchmark, a user's program).
 *
 * The scheduler gets the scenario's Backfill, and the OCS-vClos policy its
 * ReconfigurationDelay and KeepIdleCircuits; the engine builds its cluster (the packet level
 * seeds RngRun + salt run, lights circuits after the reconfiguration time and tracks
 * leaf-spine link loads). The run stops when the last job finishes (TCP's closing timers
 * would run on) and throws std::runtime_error when a job did not finish. Outputs (pcap,
 * FlowMonitor XML, a progress line) follow the scenario's output section when enabled with
 * SetOutputs.
 */
class ScenarioRunner
{
  public:
    /// A finished job: its run's label, its id and its record.
    using FinishedHook = std::function<
        void(const std::string&, uint32_t, const ClusterSchedulerTracker::JobRecord&)>;

    /// \param scenario the scenario (kept by reference: it must outlive the runner)
    explicit ScenarioRunner(const ScenarioConfig& scenario);

    /// \param outputs write the scenario's pcap, FlowMonitor and progress outputs
    void SetOutputs(bool outputs);
    /// \param name the program name shown on the progress line
    void SetProgressName(const std::string& name);
    /// \param hook called as each job finishes (after its record is complete)
    void SetFinishedHook(FinishedHook hook);
    /// \param interruption the program's interruption check, started before each run (null:
    ///        none)
    void SetInterruption(SuiteRunInterruption* interruption);

    /**
     * \brief Run the jobs under one policy.
     * \param policy a name ClusterCreatePlacementPolicy accepts
     * \param jobs the jobs
     * \param saltRun ECMP salt run k (0: the scenario's own salts and seed)
     * \return the run's figures (interrupted set when the program's check stopped it)
     */
    ScenarioPolicyRun Run(const std::string& policy,
                          const std::vector<ClusterJobRequest>& jobs,
                          uint32_t saltRun = 0) const;

  private:
    /**
     * \brief Stop the run when the last job finishes (TCP's closing timers and FlowMonitor's
     *        periodic check would run on) and call the finished hook for each job.
     * \param scheduler the run's scheduler
     * \param tracker its tracker
     * \param label the run's label
     * \param total the jobs submitted
     */
    void ConnectFinished(Ptr<ClusterJobScheduler> scheduler,
                         Ptr<ClusterSchedulerTracker> tracker,
                         const std::string& label,
                         uint32_t total) const;

    const ScenarioConfig& m_scenario;               //!< the scenario
    bool m_outputs = false;                         //!< write outputs
    std::string m_progressName;                     //!< progress line's program name
    FinishedHook m_finished;                        //!< per finished job
    SuiteRunInterruption* m_interruption = nullptr; //!< the program's check
};

} // namespace ns3

#endif /* SCENARIO_RUNNER_H */

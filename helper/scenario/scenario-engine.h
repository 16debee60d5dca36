/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef SCENARIO_ENGINE_H
#define SCENARIO_ENGINE_H

#include "ns3/cluster-job-executor.h"
#include "ns3/object.h"
#include "ns3/ptr.h"
#include "ns3/scenario-config.h"
#include "ns3/type-id.h"

#include <memory>
#include <string>
#include <vector>

namespace ns3
{

class ClosFabric;
class ClosLinkLoadTracker;
class FlowMonitorHelper;
class FluidExecutor;
struct ScenarioPolicyRun;

/**
 * \ingroup scenario
 * \brief How a scenario's jobs are executed: the cluster an engine builds for one run, what
 *        it tracks, and the figures it adds to the run's.
 *
 * An engine is chosen by the scenario's scheduler.engine, through one table
 * (ScenarioEngineNames: name and TypeId), as placement policies are; ScenarioRunner knows
 * engines only through this interface. One object serves one run.
 */
class ScenarioEngine : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /**
     * \brief Check the scenario fields that only this engine can honour.
     * \param s the scenario
     * Throws std::invalid_argument with one line naming the field.
     */
    virtual void Validate(const ScenarioConfig& s) const = 0;

    /// Check, once and up front, limits the engine finds only by building its cluster.
    virtual void CheckLimits() const;

    /**
     * \brief Build the cluster of one run and its executor.
     * \param s the scenario
     * \param label the run's label (for output file names)
     * \param saltRun ECMP salt run k (0: the scenario's own salts and seed)
     * \param outputs write the scenario's per-run outputs (pcap)
     * \return the executor the scheduler drives
     */
    virtual Ptr<ClusterJobExecutor> Build(const ScenarioConfig& s,
                                          const std::string& label,
                                          uint32_t saltRun,
                                          bool outputs) = 0;

    /**
     * \brief Start tracking the run (after Build).
     * \param s the scenario
     * \param outputs write the scenario's per-run outputs (FlowMonitor)
     */
    virtual void Track(const ScenarioConfig& s, bool outputs);

    /**
     * \brief Add the engine's figures to a finished run and write its per-run outputs.
     * \param s the scenario
     * \param run the run (its policy label names the files)
     */
    virtual void Collect(const ScenarioConfig& s, ScenarioPolicyRun& run) const = 0;
};

/**
 * \ingroup scenario
 * \brief The flow engine: a FluidExecutor on the fabric's topology (no packets).
 */
class ScenarioFlowEngine : public ScenarioEngine
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    void Validate(const ScenarioConfig& s) const override;
    Ptr<ClusterJobExecutor> Build(const ScenarioConfig& s,
                                  const std::string& label,
                                  uint32_t saltRun,
                                  bool outputs) override;
    void Collect(const ScenarioConfig& s, ScenarioPolicyRun& run) const override;

  private:
    void DoDispose() override;

    Ptr<FluidExecutor> m_executor; //!< the run's executor
};

/**
 * \ingroup scenario
 * \brief The packet engine: a ClosFabric of ns-3 nodes and a CollectivePacketExecutor, with
 *        leaf-spine link loads tracked (and FlowMonitor on request).
 */
class ScenarioPacketEngine : public ScenarioEngine
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    ScenarioPacketEngine();
    ~ScenarioPacketEngine() override;

    void Validate(const ScenarioConfig& s) const override;
    void CheckLimits() const override;
    Ptr<ClusterJobExecutor> Build(const ScenarioConfig& s,
                                  const std::string& label,
                                  uint32_t saltRun,
                                  bool outputs) override;
    void Track(const ScenarioConfig& s, bool outputs) override;
    void Collect(const ScenarioConfig& s, ScenarioPolicyRun& run) const override;

  private:
    void DoDispose() override;

    Ptr<ClosFabric> m_fabric;                         //!< the run's fabric
    Ptr<ClosLinkLoadTracker> m_links;                 //!< its leaf-spine link loads
    std::unique_ptr<FlowMonitorHelper> m_flowMonitor; //!< with output.flowMonitor
};

/**
 * \ingroup scenario
 * \brief A scheduler.engine name and the engine it stands for.
 */
struct ScenarioEngineName
{
    std::string name; //!< as in scenario files
    TypeId tid;       //!< the engine's TypeId
};

/**
 * \ingroup scenario
 * \return every engine a scenario can name: packet (ScenarioPacketEngine), flow
 *         (ScenarioFlowEngine)
 */
const std::vector<ScenarioEngineName>& ScenarioEngineNames();

/**
 * \ingroup scenario
 * \brief Create an engine by its scenario name.
 * \param name a name of ScenarioEngineNames
 * \return the engine; an unknown name throws std::invalid_argument with one line naming
 *         scheduler.engine and the known names
 */
Ptr<ScenarioEngine> ScenarioCreateEngine(const std::string& name);

} // namespace ns3

#endif /* SCENARIO_ENGINE_H */

# The cluster module. The cluster model without packets: leaf-spine topology, five-tuple hashing, collective
# schedules, cluster and circuit state, placement policies (the baselines, vClos and OCS-vClos)
# and their searches (vClos's per shape, OCS-vClos stage 4's per shape, its max-flow network),
# model zoo, traces and workloads, the job executor interface, the scheduler and its tracker.
suite_module(
  NAME cluster
  SOURCES
    model/cluster/cluster-flow-hash.cc
    model/cluster/cluster-collective-schedule.cc
    model/cluster/cluster-model-zoo.cc
    model/cluster/cluster-state.cc
    model/cluster/cluster-placement.cc
    model/cluster/cluster-clos-search.cc
    model/cluster/cluster-ocs-state.cc
    model/cluster/cluster-flow-network.cc
    model/cluster/cluster-ocs-clos-search.cc
    model/cluster/cluster-ocs-placement.cc
    model/cluster/cluster-job-trace.cc
    model/cluster/cluster-topology.cc
    model/cluster/cluster-workload.cc
    model/cluster/cluster-job-executor.cc
    model/cluster/cluster-job-scheduler.cc
    model/cluster/cluster-scheduler-tracker.cc
  HEADERS
    model/cluster/cluster-flow-hash.h
    model/cluster/cluster-collective-schedule.h
    model/cluster/cluster-model-zoo.h
    model/cluster/cluster-state.h
    model/cluster/cluster-placement.h
    model/cluster/cluster-clos-search.h
    model/cluster/cluster-ocs-state.h
    model/cluster/cluster-flow-network.h
    model/cluster/cluster-ocs-clos-search.h
    model/cluster/cluster-ocs-placement.h
    model/cluster/cluster-job-trace.h
    model/cluster/cluster-topology.h
    model/cluster/cluster-workload.h
    model/cluster/cluster-job-executor.h
    model/cluster/cluster-job-scheduler.h
    model/cluster/cluster-scheduler-tracker.h
  LIBRARIES
    ns3-suite ns3::libcore ns3::libnetwork ns3::libstats)
# The model zoo is data in the source tree; $CLUSTER_MODEL_ZOO overrides its path at run time.
target_compile_definitions(ns3-cluster PRIVATE
  CLUSTER_MODEL_ZOO_SOURCE_PATH="${CMAKE_CURRENT_SOURCE_DIR}/model/cluster/cluster-model-zoo.csv")
install(FILES model/cluster/cluster-model-zoo.csv model/cluster/cluster-model-aliases.csv
        DESTINATION share/ns3-suite)

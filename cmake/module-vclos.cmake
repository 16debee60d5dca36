# The vclos module: leaf-spine GPU fabric, per-flow ECMP, contention tracking.
suite_module(
  NAME vclos
  SOURCES
    model/vclos/vclos-flow-hash.cc
    model/vclos/vclos-packet-parser.cc
    model/vclos/vclos-ecmp-routing.cc
    model/vclos/vclos-fabric.cc
    model/vclos/vclos-ipv4-egress.cc
    model/vclos/vclos-ipv4-queue-disc-item.cc
    model/vclos/vclos-ecn-mark.cc
    model/vclos/vclos-egress-clock.cc
    model/vclos/vclos-fifo-queue.cc
    model/vclos/vclos-ipv4-receive.cc
    model/vclos/vclos-switch-forwarder.cc
    model/vclos/vclos-collective-schedule.cc
    model/vclos/vclos-collective-app.cc
    model/vclos/vclos-model-zoo.cc
    model/vclos/vclos-cluster-state.cc
    model/vclos/vclos-placement.cc
    model/vclos/vclos-ocs-state.cc
    model/vclos/vclos-ocs-placement.cc
    model/vclos/vclos-csv-reader.cc
    model/vclos/vclos-job-trace.cc
    model/vclos/vclos-run-status.cc
    model/vclos/vclos-topology.cc
    model/vclos/vclos-flow-engine.cc
    model/vclos/vclos-flow-burst.cc
    model/vclos/vclos-flow-replay.cc
    model/vclos/vclos-flow-collective.cc
    model/vclos/vclos-workload.cc
    model/vclos/vclos-ocs.cc
    model/vclos/vclos-ocs-port-channel.cc
    model/vclos/vclos-roce-header.cc
    model/vclos/vclos-rdma-qp.cc
    model/vclos/vclos-rdma-nic.cc
    model/vclos/vclos-rdma-host-path.cc
    model/vclos/vclos-pfc-header.cc
    model/vclos/vclos-pfc-channel.cc
    model/vclos/vclos-pfc-net-device.cc
    model/vclos/vclos-pfc-switch-buffer.cc
    model/vclos/vclos-link-channel.cc
    model/vclos/vclos-link-net-device.cc
    model/vclos/vclos-tx-time.cc
    model/vclos/vclos-dcqcn.cc
    helper/vclos/vclos-ecmp-routing-helper.cc
    helper/vclos/vclos-fabric-helper.cc
    helper/vclos/vclos-link-load-tracker.cc
    helper/vclos/vclos-permutation-helper.cc
    helper/vclos/vclos-collective-helper.cc
    helper/vclos/vclos-collective-tracker.cc
    helper/vclos/vclos-program-support.cc
    helper/vclos/vclos-job-executor.cc
    helper/vclos/vclos-packet-executor.cc
    helper/vclos/vclos-flow-executor.cc
    helper/vclos/vclos-job-scheduler.cc
    helper/vclos/vclos-scheduler-tracker.cc
    helper/vclos/vclos-scenario.cc
    helper/vclos/vclos-ocs-helper.cc
    helper/vclos/vclos-rdma-helper.cc
    helper/vclos/vclos-pfc-helper.cc
    helper/vclos/vclos-link-helper.cc
  HEADERS
    model/vclos/vclos-check.h
    model/vclos/vclos-flow-hash.h
    model/vclos/vclos-packet-parser.h
    model/vclos/vclos-ecmp-routing.h
    model/vclos/vclos-fabric.h
    model/vclos/vclos-ipv4-egress.h
    model/vclos/vclos-ecn-mark.h
    model/vclos/vclos-egress-clock.h
    model/vclos/vclos-fifo-queue.h
    model/vclos/vclos-ipv4-queue-disc-item.h
    model/vclos/vclos-ipv4-receive.h
    model/vclos/vclos-switch-forwarder.h
    model/vclos/vclos-collective-schedule.h
    model/vclos/vclos-collective-app.h
    model/vclos/vclos-model-zoo.h
    model/vclos/vclos-cluster-state.h
    model/vclos/vclos-placement.h
    model/vclos/vclos-ocs-state.h
    model/vclos/vclos-ocs-placement.h
    model/vclos/vclos-csv-reader.h
    model/vclos/vclos-job-trace.h
    model/vclos/vclos-run-status.h
    model/vclos/vclos-topology.h
    model/vclos/vclos-flow-engine.h
    model/vclos/vclos-flow-burst.h
    model/vclos/vclos-flow-replay.h
    model/vclos/vclos-flow-collective.h
    model/vclos/vclos-workload.h
    model/vclos/vclos-rdma-rate-control.h
    model/vclos/vclos-dcqcn.h
    model/vclos/vclos-ocs.h
    model/vclos/vclos-ocs-port-channel.h
    model/vclos/vclos-roce-header.h
    model/vclos/vclos-rdma-qp.h
    model/vclos/vclos-rdma-nic.h
    model/vclos/vclos-rdma-host-path.h
    model/vclos/vclos-pfc-header.h
    model/vclos/vclos-pfc-channel.h
    model/vclos/vclos-pfc-net-device.h
    model/vclos/vclos-pfc-switch-buffer.h
    model/vclos/vclos-link-channel.h
    model/vclos/vclos-link-net-device.h
    model/vclos/vclos-tx-time.h
    helper/vclos/vclos-ecmp-routing-helper.h
    helper/vclos/vclos-fabric-helper.h
    helper/vclos/vclos-link-load-tracker.h
    helper/vclos/vclos-permutation-helper.h
    helper/vclos/vclos-collective-helper.h
    helper/vclos/vclos-collective-tracker.h
    helper/vclos/vclos-program-support.h
    helper/vclos/vclos-job-executor.h
    helper/vclos/vclos-packet-executor.h
    helper/vclos/vclos-flow-executor.h
    helper/vclos/vclos-job-scheduler.h
    helper/vclos/vclos-scheduler-tracker.h
    helper/vclos/vclos-scenario.h
    helper/vclos/vclos-ocs-helper.h
    helper/vclos/vclos-rdma-helper.h
    helper/vclos/vclos-pfc-helper.h
    helper/vclos/vclos-link-helper.h
  LIBRARIES
    ns3-suite ns3::libinternet ns3::libpoint-to-point ns3::libapplications ns3::libtraffic-control
    ns3::libflow-monitor ns3::libstats)
# Distributed runs (MPI) need ns-3's mpi module: utils/build-optimized-ns3.sh builds one,
# Debian's libns3-dev has none. Links between two processes are then VclosLinkRemoteChannels.
if(TARGET ns3::libmpi)
  target_sources(ns3-vclos PRIVATE model/vclos/vclos-link-remote-channel.cc)
  configure_file("${CMAKE_CURRENT_SOURCE_DIR}/model/vclos/vclos-link-remote-channel.h"
                 "${SUITE_INCLUDE_DIR}/ns3/vclos-link-remote-channel.h" COPYONLY)
  install(FILES model/vclos/vclos-link-remote-channel.h DESTINATION include/ns3)
  target_link_libraries(ns3-vclos PUBLIC ns3::libmpi)
  target_compile_definitions(ns3-vclos PUBLIC VCLOS_MPI)
endif()
# Scenario files are JSON (Debian's nlohmann-json3-dev, header-only, private to the library).
find_package(nlohmann_json 3.10 REQUIRED)
target_link_libraries(ns3-vclos PRIVATE nlohmann_json::nlohmann_json)
# The flow executor replays isolated jobs ahead on a second thread (Boost.Asio thread_pool).
find_package(Threads REQUIRED)
target_link_libraries(ns3-vclos PRIVATE Threads::Threads)
# The model zoo is data in the source tree; $VCLOS_MODEL_ZOO overrides its path at run time.
target_compile_definitions(ns3-vclos PRIVATE
  VCLOS_MODEL_ZOO_SOURCE_PATH="${CMAKE_CURRENT_SOURCE_DIR}/model/vclos/vclos-model-zoo.csv")
install(FILES model/vclos/vclos-model-zoo.csv model/vclos/vclos-model-aliases.csv
        DESTINATION share/ns3-suite)

if(SUITE_ENABLE_EXAMPLES)
  suite_program(vclos-permutation-contention examples/vclos/vclos-permutation-contention.cc
                LIBRARIES ns3-vclos)
  suite_program(vclos-contention-analysis examples/vclos/vclos-contention-analysis.cc
                LIBRARIES ns3-vclos)
  suite_program(vclos-run-scenario examples/vclos/vclos-run-scenario.cc
                LIBRARIES ns3-vclos ns3::libflow-monitor)
  suite_program(vclos-ocs-example examples/vclos/vclos-ocs-example.cc
                LIBRARIES ns3-vclos)
  suite_program(vclos-rdma-example examples/vclos/vclos-rdma-example.cc
                LIBRARIES ns3-vclos)
  suite_program(vclos-dcqcn-trace examples/vclos/vclos-dcqcn-trace.cc
                LIBRARIES ns3-vclos)
  suite_program(vclos-fabric-benchmark benchmarks/vclos/vclos-fabric-benchmark.cc
                LIBRARIES ns3-vclos)
  suite_program(vclos-allreduce-benchmark benchmarks/vclos/vclos-allreduce-benchmark.cc
                LIBRARIES ns3-vclos)
  suite_program(vclos-placement-benchmark benchmarks/vclos/vclos-placement-benchmark.cc
                LIBRARIES ns3-vclos)
  suite_program(vclos-trace-benchmark benchmarks/vclos/vclos-trace-benchmark.cc
                LIBRARIES ns3-vclos)
  suite_program(vclos-ocs-placement-benchmark benchmarks/vclos/vclos-ocs-placement-benchmark.cc
                LIBRARIES ns3-vclos)
  suite_program(vclos-flow-engine-benchmark benchmarks/vclos/vclos-flow-engine-benchmark.cc
                LIBRARIES ns3-vclos)
endif()


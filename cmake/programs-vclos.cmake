# The vClos programs: examples (the main job, the scenario runner, ...) and benchmarks.
if(SUITE_ENABLE_EXAMPLES)
  suite_program(vclos-permutation-contention examples/vclos/vclos-permutation-contention.cc
                LIBRARIES ns3-scenario)
  suite_program(vclos-contention-analysis examples/vclos/vclos-contention-analysis.cc
                LIBRARIES ns3-scenario)
  suite_program(vclos-run-scenario examples/vclos/vclos-run-scenario.cc
                LIBRARIES ns3-scenario ns3::libflow-monitor)
  suite_program(vclos-ocs-example examples/vclos/vclos-ocs-example.cc
                LIBRARIES ns3-scenario)
  suite_program(vclos-rdma-example examples/vclos/vclos-rdma-example.cc
                LIBRARIES ns3-scenario)
  suite_program(vclos-dcqcn-trace examples/vclos/vclos-dcqcn-trace.cc
                LIBRARIES ns3-scenario)
  suite_program(vclos-fabric-benchmark benchmarks/vclos/vclos-fabric-benchmark.cc
                LIBRARIES ns3-scenario)
  suite_program(vclos-allreduce-benchmark benchmarks/vclos/vclos-allreduce-benchmark.cc
                LIBRARIES ns3-scenario)
  suite_program(vclos-placement-benchmark benchmarks/vclos/vclos-placement-benchmark.cc
                LIBRARIES ns3-scenario)
  suite_program(vclos-trace-benchmark benchmarks/vclos/vclos-trace-benchmark.cc
                LIBRARIES ns3-scenario)
  suite_program(vclos-ocs-placement-benchmark benchmarks/vclos/vclos-ocs-placement-benchmark.cc
                LIBRARIES ns3-scenario)
  suite_program(vclos-flow-engine-benchmark benchmarks/vclos/vclos-flow-engine-benchmark.cc
                LIBRARIES ns3-scenario)
endif()


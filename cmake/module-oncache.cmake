# The oncache module: container overlay data path (veth, VXLAN, policy, conntrack), ONCache's
# caches and fast paths, and a host CPU model.
suite_module(
  NAME oncache
  SOURCES
    model/oncache/oncache-flow-key.cc
    model/oncache/oncache-mode.cc
    model/oncache/oncache-limits.cc
    model/oncache/oncache-vxlan-header.cc
    model/oncache/oncache-veth-net-device.cc
    model/oncache/oncache-host-cpu.cc
    model/oncache/oncache-cost-model.cc
    model/oncache/oncache-policy.cc
    model/oncache/oncache-conntrack.cc
    model/oncache/oncache-fast-path.cc
    model/oncache/oncache-packet-frame.cc
    model/oncache/oncache-host-datapath.cc
    model/oncache/oncache-cluster.cc
    model/oncache/oncache-rr-client.cc
    model/oncache/oncache-rr-server.cc
    model/oncache/oncache-udp-stream-client.cc
    model/oncache/oncache-udp-stream-server.cc
    model/oncache/oncache-kv-client.cc
    model/oncache/oncache-kv-server.cc
    helper/oncache/oncache-topology-helper.cc
    helper/oncache/oncache-stats-tracker.cc
    helper/oncache/oncache-rr-helper.cc
    helper/oncache/oncache-udp-stream-helper.cc
    helper/oncache/oncache-kv-helper.cc
    helper/oncache/oncache-kv-tracker.cc
  HEADERS
    model/oncache/oncache-check.h
    model/oncache/oncache-lru-cache.h
    model/oncache/oncache-flow-key.h
    model/oncache/oncache-mode.h
    model/oncache/oncache-limits.h
    model/oncache/oncache-cost-defaults.h
    model/oncache/oncache-vxlan-header.h
    model/oncache/oncache-veth-net-device.h
    model/oncache/oncache-host-cpu.h
    model/oncache/oncache-cost-model.h
    model/oncache/oncache-policy.h
    model/oncache/oncache-conntrack.h
    model/oncache/oncache-fast-path.h
    model/oncache/oncache-packet-frame.h
    bpf/oncache/oncache-abi.h
    model/oncache/oncache-host-datapath.h
    model/oncache/oncache-cluster.h
    model/oncache/oncache-rr-client.h
    model/oncache/oncache-rr-server.h
    model/oncache/oncache-udp-stream-client.h
    model/oncache/oncache-udp-stream-server.h
    model/oncache/oncache-kv-client.h
    model/oncache/oncache-kv-server.h
    helper/oncache/oncache-topology-helper.h
    helper/oncache/oncache-stats-tracker.h
    helper/oncache/oncache-rr-helper.h
    helper/oncache/oncache-udp-stream-helper.h
    helper/oncache/oncache-kv-helper.h
    helper/oncache/oncache-kv-tracker.h
  LIBRARIES
    ns3-suite ns3::libinternet ns3::libcsma ns3::libbridge ns3::libpoint-to-point ns3::libapplications
    ns3::libtraffic-control)

if(SUITE_ENABLE_EXAMPLES)
  suite_program(oncache-pod-to-pod examples/oncache/oncache-pod-to-pod.cc
                LIBRARIES ns3-oncache)
  suite_program(oncache-micro-benchmark examples/oncache/oncache-micro-benchmark.cc
                LIBRARIES ns3-oncache ns3::libstats)
  suite_program(oncache-datapath-benchmark benchmarks/oncache/oncache-datapath-benchmark.cc
                LIBRARIES ns3-oncache ns3::libpoint-to-point)
endif()

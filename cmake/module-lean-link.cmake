# The lean-link module. Lean links: a point-to-point device and channel that send frames on a per-port egress
# clock, a FIFO queue with ECN marking, the IPv4 egress and receive shortcuts; the MPI remote
# channel is an optional source set (with ns-3's mpi module), as in ns-3's point-to-point.
suite_module(
  NAME lean-link
  SOURCES
    model/lean-link/lean-link-ipv4-egress.cc
    model/lean-link/lean-link-ipv4-queue-disc-item.cc
    model/lean-link/lean-link-ecn-mark.cc
    model/lean-link/lean-link-egress-clock.cc
    model/lean-link/lean-link-fifo-queue.cc
    model/lean-link/lean-link-ipv4-receive.cc
    model/lean-link/lean-link-channel.cc
    model/lean-link/lean-link-net-device.cc
    model/lean-link/lean-link-tx-time.cc
    helper/lean-link/lean-link-helper.cc
  HEADERS
    model/lean-link/lean-link-ipv4-egress.h
    model/lean-link/lean-link-ecn-mark.h
    model/lean-link/lean-link-egress-clock.h
    model/lean-link/lean-link-fifo-queue.h
    model/lean-link/lean-link-ipv4-queue-disc-item.h
    model/lean-link/lean-link-ipv4-receive.h
    model/lean-link/lean-link-channel.h
    model/lean-link/lean-link-net-device.h
    model/lean-link/lean-link-tx-time.h
    helper/lean-link/lean-link-helper.h
  LIBRARIES
    ns3-suite ns3::libinternet ns3::libpoint-to-point ns3::libapplications ns3::libtraffic-control ns3::libflow-monitor ns3::libstats)
# Distributed runs (MPI) need ns-3's mpi module: utils/build-optimized-ns3.sh builds one,
# Debian's libns3-dev has none. Links between two processes are then LeanLinkRemoteChannels.
if(TARGET ns3::libmpi)
  target_sources(ns3-lean-link PRIVATE model/lean-link/lean-link-remote-channel.cc)
  suite_module_header(lean-link model/lean-link/lean-link-remote-channel.h)
  target_link_libraries(ns3-lean-link PUBLIC ns3::libmpi)
  target_compile_definitions(ns3-lean-link PUBLIC LEAN_LINK_MPI)
endif()

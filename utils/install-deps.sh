#!/usr/bin/env bash
# Installs the Debian packages the suite needs to build, test and plot, and only those
# that are missing. Idempotent; run as root on Debian 12 (bookworm).
#
#   utils/install-deps.sh            # build, test and plot dependencies
#
# Why each package:
#   libns3-dev ns3             ns-3.37 headers, libraries and CMake config; Debian's exported
#                              targets name ns3's raw-sock-creator helper, which only ns3 ships
#   libgsl-dev libsqlite3-dev  named by absolute path in Debian's exported ns-3 targets:
#   libxml2-dev                without them CMake fails on "non-existent path" or the link
#   libpython3.11-dev          fails on a missing .so
#   cmake ninja-build g++      the build
#   libgtest-dev               GoogleTest unit tests
#   nlohmann-json3-dev         JSON scenario files (header-only)
#   libboost-dev               Boost headers (used by the suite's modules)
#   gnuplot-nox                the PNG plots that scenarios write
#   tshark                     the test that Wireshark's dissectors read the oncache pcap as VXLAN
#   valgrind                   the memcheck ctests of the oncache units and UDP streams
#   clang                      compiles the ONCache eBPF programs (clang -target bpf)
#   linux-libc-dev             the kernel UAPI headers they include (linux/bpf.h, linux/pkt_cls.h)
#   libbpf-dev pkg-config      libbpf headers/library for the eBPF agent, found through pkg-config
#   bpftool                    generates the libbpf skeleton (bpftool gen skeleton)
#   iproute2 iptables          the ONCache testbed: netns, veth, bridge, vxlan, tc; policy + est mark;
#                              pod anti-spoofing (ebtables, which Debian's iptables ships)
#   conntrack                  the testbed flushes a deleted pod's conntrack entries (IP reuse)
#   iputils-ping iperf3        the testbed test's ping and TCP stream; the benchmark's throughput
#   sockperf                   the testbed benchmark's 64 B ping-pong latency
#   ethtool                    the testbed's offload state per device (ethtool -k, see ebpf-datapath.rst)
#   python3                    the testbed benchmark's iperf3 JSON parsing and the cost-model
#                              fit (utils/oncache-fit.py, ctest oncache-fit-defaults)
#   python3-sphinx             the documentation site (cmake target doc, ctest suite-doc-html)
set -euo pipefail

packages=(libns3-dev ns3 libgsl-dev libsqlite3-dev libxml2-dev libpython3.11-dev
          cmake ninja-build g++ libgtest-dev libboost-dev nlohmann-json3-dev gnuplot-nox tshark
          valgrind
          clang linux-libc-dev libbpf-dev pkg-config bpftool iproute2 iptables conntrack iputils-ping iperf3 sockperf
          ethtool python3 python3-sphinx)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages already installed"
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
  echo "install-deps: missing ${missing[*]}; run as root (or with sudo)" >&2
  exit 1
fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}"

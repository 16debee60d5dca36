#!/usr/bin/env bash
# Measures the ONCache testbed (utils/oncache-testbed.sh, 2 hosts x 1 pod) in each mode:
# iperf3 TCP throughput with 1 flow and sockperf UDP ping-pong latency at 64 B, repeated, and
# prints the medians as a table (and, with --csv FILE, one CSV row per run). Run as root.
#
#   utils/oncache-bench.sh [--reps R] [--seconds S] [--csv FILE] [--agent PATH]
#
# bare metal = host namespace to host namespace over the underlay; overlay = pod to pod over
# the kernel VXLAN; oncache = pod to pod with the ONCache programs. Every run is bounded
# (timeout) and stays inside the testbed's namespaces (198.18.0.0/15).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
TB="$HERE/oncache-testbed.sh"
AGENT="${ONCACHE_AGENT:-$HERE/../build/oncache-agent}"
REPS=3
SECONDS_PER_RUN=3
CSV=""
TAG=bench

die() {
  echo "oncache-bench: error: $*" >&2
  exit 1
}

while [ $# -gt 0 ]; do
  case "$1" in
    --reps) REPS=${2:-}; shift 2 ;;
    --seconds) SECONDS_PER_RUN=${2:-}; shift 2 ;;
    --csv) CSV=${2:-}; shift 2 ;;
    --agent) AGENT=${2:-}; shift 2 ;;
    *) die "unknown argument '$1'" ;;
  esac
done
[[ "$REPS" =~ ^[0-9]+$ ]] && [ "$REPS" -ge 1 ] && [ "$REPS" -le 20 ] || die "--reps: '$REPS' is not an integer in [1, 20]"
[[ "$SECONDS_PER_RUN" =~ ^[0-9]+$ ]] && [ "$SECONDS_PER_RUN" -ge 1 ] && [ "$SECONDS_PER_RUN" -le 60 ] ||
  die "--seconds: '$SECONDS_PER_RUN' is not an integer in [1, 60]"
for tool in iperf3 sockperf; do
  command -v "$tool" >/dev/null || die "'$tool' is not installed (utils/install-deps.sh)"
done

tb() { "$TB" "$@" --tag "$TAG" --agent "$AGENT"; }
trap 'tb down >/dev/null 2>&1 || true' EXIT

median() { sort -g | awk '{v[NR] = $1} END {if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

# One iperf3 TCP run from (host, pod) to address; prints Gbit/s.
run_iperf() {
  local src_host=$1 src_pod=$2 dst_host=$3 dst_pod=$4 dst=$5
  tb exec "$dst_host" "$dst_pod" timeout $((SECONDS_PER_RUN + 10)) iperf3 -s -1 -B "$dst" >/dev/null 2>&1 &
  local server=$!
  sleep 0.3
  tb exec "$src_host" "$src_pod" timeout $((SECONDS_PER_RUN + 8)) iperf3 -c "$dst" -t "$SECONDS_PER_RUN" -J |
    python3 -c 'import json, sys; print("%.3f" % (json.load(sys.stdin)["end"]["sum_received"]["bits_per_second"] / 1e9))'
  wait "$server" 2>/dev/null || true
}

# One sockperf UDP ping-pong run, 64 B; prints "average median" one-way latency in us.
run_sockperf() {
  local src_host=$1 src_pod=$2 dst_host=$3 dst_pod=$4 dst=$5
  tb exec "$dst_host" "$dst_pod" timeout $((SECONDS_PER_RUN + 10)) sockperf sr -i "$dst" -p 11111 >/dev/null 2>&1 &
  local server=$!
  sleep 0.3
  tb exec "$src_host" "$src_pod" timeout $((SECONDS_PER_RUN + 8)) sockperf pp -i "$dst" -p 11111 -m 64 -t "$SECONDS_PER_RUN" 2>&1 |
    sed 's/\x1b\[[0-9;]*m//g' |
    awk '/Summary: Latency is/ {avg = $(NF - 1)} /percentile 50.000/ {med = $NF} END {print avg, med}'
  kill "$server" 2>/dev/null || true
  wait "$server" 2>/dev/null || true
}

[ -z "$CSV" ] || echo "mode,rep,tcp_gbps,udp_pp_avg_us,udp_pp_median_us" >"$CSV"
declare -A GBPS AVG MED
for mode in baremetal overlay oncache; do
  tb up --hosts 2 --pods 1 --mode "$mode" >/dev/null
  if [ "$mode" = baremetal ]; then
    path=(1 0 2 0 198.18.0.12)
  else
    path=(1 1 2 1 198.19.2.11)
    # Warm-up: the first packets of a flow take the slow path and fill the caches.
    tb exec 1 1 ping -q -c 3 -i 0.1 -W 1 198.19.2.11 >/dev/null
  fi
  g=()
  a=()
  m=()
  for rep in $(seq 1 "$REPS"); do
    gbps=$(run_iperf "${path[@]}")
    read -r avg med < <(run_sockperf "${path[@]}")
    g+=("$gbps")
    a+=("$avg")
    m+=("$med")
    [ -z "$CSV" ] || echo "$mode,$rep,$gbps,$avg,$med" >>"$CSV"
    echo "oncache-bench: $mode run $rep: $gbps Gbit/s, ping-pong avg $avg us, median $med us" >&2
  done
  if [ "$mode" = oncache ]; then
    tb dump 1 | grep -E '^stat (egress|ingress)_(hit|miss)' | tr '\n' ' ' >&2
    echo >&2
  fi
  GBPS[$mode]=$(printf '%s\n' "${g[@]}" | median)
  AVG[$mode]=$(printf '%s\n' "${a[@]}" | median)
  MED[$mode]=$(printf '%s\n' "${m[@]}" | median)
  tb down
done

printf '%-10s %16s %22s %25s\n' mode "TCP 1 flow Gbit/s" "UDP pp 64B avg us" "UDP pp 64B median us"
for mode in baremetal overlay oncache; do
  printf '%-10s %16s %22s %25s\n' "$mode" "${GBPS[$mode]}" "${AVG[$mode]}" "${MED[$mode]}"
done
echo "(medians of $REPS runs of ${SECONDS_PER_RUN} s; sockperf latency is one-way: half the round trip)"

#!/usr/bin/env bash
# Measures the ONCache testbed (utils/oncache-testbed.sh, 2 hosts x 1 pod) in each mode with
# real tools and prints the medians over repetitions as a table; optionally a long-format CSV
# (one row per run and metric) and a PNG (each metric relative to the kernel overlay). Root.
#
#   utils/oncache-bench.sh [--reps R] [--seconds S] [--flows "1 2 4 8"] [--sizes "64 1024"]
#                          [--csv FILE] [--png FILE] [--agent PATH] [--crr PATH]
#
# Metrics: tcp_gbps_P<n> (iperf3 TCP, n parallel flows), udp_gbps (iperf3 UDP, 1 flow, 1400 B
# datagrams, unlimited rate, received rate), udp_rr_tps_<size> / tcp_rr_tps_<size> (sockperf
# ping-pong transactions per second) and udp_lat_us_<size> / tcp_lat_us_<size> (sockperf median
# one-way latency, half the round trip) and tcp_crr_tps_64 (oncache-crr: a new TCP connection
# per 64 B request and response; skipped with a note when the program is not built). bare metal = host namespace to host namespace over the
# underlay; overlay = pod to pod over the kernel VXLAN; oncache = pod to pod with the ONCache
# programs. Every run is bounded (timeout) and stays inside the testbed's namespaces
# (198.18.0.0/15).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
TB="$HERE/oncache-testbed.sh"
AGENT="${ONCACHE_AGENT:-$HERE/../build/oncache-agent}"
CRR="$HERE/../build/oncache-crr"
REPS=3
SECONDS_PER_RUN=3
FLOWS="1"
SIZES="64"
CSV=""
PNG=""
TAG=bench
MODES="baremetal overlay oncache"

die() {
  echo "oncache-bench: error: $*" >&2
  exit 1
}

while [ $# -gt 0 ]; do
  case "$1" in
    --reps) REPS=${2:-}; shift 2 ;;
    --seconds) SECONDS_PER_RUN=${2:-}; shift 2 ;;
    --flows) FLOWS=${2:-}; shift 2 ;;
    --sizes) SIZES=${2:-}; shift 2 ;;
    --csv) CSV=${2:-}; shift 2 ;;
    --png) PNG=${2:-}; shift 2 ;;
    --agent) AGENT=${2:-}; shift 2 ;;
    --crr) CRR=${2:-}; shift 2 ;;
    *) die "unknown argument '$1'" ;;
  esac
done
[[ "$REPS" =~ ^[0-9]+$ ]] && [ "$REPS" -ge 1 ] && [ "$REPS" -le 20 ] || die "--reps: '$REPS' is not an integer in [1, 20]"
[[ "$SECONDS_PER_RUN" =~ ^[0-9]+$ ]] && [ "$SECONDS_PER_RUN" -ge 1 ] && [ "$SECONDS_PER_RUN" -le 60 ] ||
  die "--seconds: '$SECONDS_PER_RUN' is not an integer in [1, 60]"
for f in $FLOWS; do
  [[ "$f" =~ ^[0-9]+$ ]] && [ "$f" -ge 1 ] && [ "$f" -le 16 ] || die "--flows: '$f' is not an integer in [1, 16]"
done
for m in $SIZES; do
  [[ "$m" =~ ^[0-9]+$ ]] && [ "$m" -ge 16 ] && [ "$m" -le 65000 ] || die "--sizes: '$m' is not an integer in [16, 65000]"
done
for tool in iperf3 sockperf python3; do
  command -v "$tool" >/dev/null || die "'$tool' is not installed (utils/install-deps.sh)"
done
[ -z "$PNG" ] || command -v gnuplot >/dev/null || die "--png: gnuplot is not installed"

tb() {
  local cmd=$1
  shift
  "$TB" "$cmd" --tag "$TAG" --agent "$AGENT" "$@"
}

median() { sort -g | awk '{v[NR] = $1} END {if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

# run_iperf SRC_HOST SRC_POD DST_HOST DST_POD DST_IP ARGS...: prints the received Gbit/s.
run_iperf() {
  local src_host=$1 src_pod=$2 dst_host=$3 dst_pod=$4 dst=$5
  shift 5
  "$TB" exec --tag "$TAG" "$dst_host" "$dst_pod" timeout $((SECONDS_PER_RUN + 10)) iperf3 -s -1 -B "$dst" -p "$PORT" >/dev/null 2>&1 &
  local server=$!
  sleep 0.3
  tb exec "$src_host" "$src_pod" timeout $((SECONDS_PER_RUN + 8)) iperf3 -c "$dst" -p "$PORT" -t "$SECONDS_PER_RUN" -J "$@" 2>/dev/null |
    python3 -c '
import json, sys
end = json.load(sys.stdin)["end"]
if "sum_received" in end:
    print("%.3f" % (end["sum_received"]["bits_per_second"] / 1e9))
else:  # UDP: the sender rate less the datagrams the receiver lost
    s = end["sum"]
    print("%.3f" % (s["bits_per_second"] * (1 - s.get("lost_percent", 0) / 100) / 1e9))'
  wait "$server" 2>/dev/null || true
}

# run_pp SRC_HOST SRC_POD DST_HOST DST_POD DST_IP SIZE [--tcp]: prints "transactions/s
# median-one-way-latency-us" of a sockperf ping-pong run.
run_pp() {
  local src_host=$1 src_pod=$2 dst_host=$3 dst_pod=$4 dst=$5 size=$6
  shift 6
  "$TB" exec --tag "$TAG" "$dst_host" "$dst_pod" timeout $((SECONDS_PER_RUN + 10)) sockperf sr -i "$dst" -p "$PORT" "$@" >/dev/null 2>&1 &
  local server=$!
  sleep 0.3
  tb exec "$src_host" "$src_pod" timeout $((SECONDS_PER_RUN + 8)) sockperf pp -i "$dst" -p "$PORT" -m "$size" -t "$SECONDS_PER_RUN" "$@" 2>&1 |
    sed 's/\x1b\[[0-9;]*m//g' |
    awk '/Valid Duration/ {for (i = 1; i <= NF; i++) {if ($i ~ /^RunTime=/) {sub("RunTime=", "", $i); t = $i + 0} if ($i ~ /^SentMessages=/) {sub("SentMessages=", "", $i); sub(";", "", $i); n = $i + 0}}}
         /percentile 50.000/ {med = $NF}
         END {if (t > 0 && med != "") printf "%.0f %s\n", n / t, med; else print "nan nan"}'
  kill "$server" 2>/dev/null || true
  wait "$server" 2>/dev/null || true
}

PORT=20000 # a fresh server port per run (set by the caller: the runs are in subshells)
# run_crr SRC_HOST SRC_POD DST_HOST DST_POD DST_IP: prints connect-request-response per second.
run_crr() {
  local src_host=$1 src_pod=$2 dst_host=$3 dst_pod=$4 dst=$5
  "$TB" exec --tag "$TAG" "$dst_host" "$dst_pod" timeout $((SECONDS_PER_RUN + 10)) "$CRR" server --bind "$dst" --port "$PORT" --seconds $((SECONDS_PER_RUN + 3)) >/dev/null 2>&1 &
  local server=$!
  sleep 0.3
  tb exec "$src_host" "$src_pod" timeout $((SECONDS_PER_RUN + 8)) "$CRR" client --connect "$dst" --port "$PORT" --seconds "$SECONDS_PER_RUN" --size 64 |
    awk '$1 == "transactions" {print $6}'
  wait "$server" 2>/dev/null || true
}
[ -x "$CRR" ] || echo "oncache-bench: note: no CRR measurement ('$CRR' is not built: target oncache-crr)" >&2

declare -A VALUES
METRICS=()
record() {
  local mode=$1 rep=$2 metric=$3 value=$4
  VALUES["$mode|$metric"]+="$value "
  [[ " ${METRICS[*]} " == *" $metric "* ]] || METRICS+=("$metric")
  [ -z "$CSV" ] || echo "$mode,$rep,$metric,$value" >>"$CSV"
  echo "oncache-bench: $mode run $rep: $metric = $value" >&2
}

[ -z "$CSV" ] || echo "mode,rep,metric,value" >"$CSV"
# All three testbeds are up at once (separate namespaces, one tag each) and every repetition
# measures the modes in turn, so a change in the machine's load hits all modes alike.
declare -A TAGS=([baremetal]=benchbm [overlay]=benchov [oncache]=benchoc)
down_all() {
  for mode in $MODES; do
    TAG=${TAGS[$mode]}
    tb down >/dev/null 2>&1 || true
  done
}
trap down_all EXIT
for mode in $MODES; do
  TAG=${TAGS[$mode]}
  tb up --hosts 2 --pods 1 --mode "$mode" >/dev/null
done
for rep in $(seq 1 "$REPS"); do
  for mode in $MODES; do
    TAG=${TAGS[$mode]}
    if [ "$mode" = baremetal ]; then
      path=(1 0 2 0 198.18.0.12)
    else
      path=(1 1 2 1 198.19.2.11)
    fi
    for f in $FLOWS; do
      PORT=$((PORT + 1))
      record "$mode" "$rep" "tcp_gbps_P$f" "$(run_iperf "${path[@]}" -P "$f")"
    done
    PORT=$((PORT + 1))
    record "$mode" "$rep" udp_gbps "$(run_iperf "${path[@]}" -u -b 0 -l 1400)"
    if [ -x "$CRR" ]; then
      PORT=$((PORT + 1))
      record "$mode" "$rep" tcp_crr_tps_64 "$(run_crr "${path[@]}")"
    fi
    for size in $SIZES; do
      PORT=$((PORT + 1))
      read -r tps lat < <(run_pp "${path[@]}" "$size")
      record "$mode" "$rep" "udp_rr_tps_$size" "$tps"
      record "$mode" "$rep" "udp_lat_us_$size" "$lat"
      PORT=$((PORT + 1))
      read -r tps lat < <(run_pp "${path[@]}" "$size" --tcp)
      record "$mode" "$rep" "tcp_rr_tps_$size" "$tps"
      record "$mode" "$rep" "tcp_lat_us_$size" "$lat"
    done
  done
done
TAG=${TAGS[oncache]}
echo "oncache-bench: ONCache host 1 counters: $(tb dump 1 | grep -E '^stat (egress|ingress)_(hit|miss)' | tr '\n' ' ')" >&2
down_all

# Medians, and ONCache relative to the kernel overlay (+ is better: higher rate, lower latency).
table=$(mktemp)
printf '%-16s %12s %12s %12s %14s\n' metric baremetal overlay oncache "oncache/ovl" | tee "$table"
for metric in "${METRICS[@]}"; do
  declare -A med=()
  for mode in $MODES; do
    med[$mode]=$(printf '%s\n' ${VALUES["$mode|$metric"]} | grep -v nan | median)
  done
  gain=$(awk -v o="${med[oncache]}" -v k="${med[overlay]}" -v lat="$([[ $metric == *lat* ]] && echo 1 || echo 0)" \
    'BEGIN {if (o == "" || k == "" || o == 0 || k == 0) print "n/a"; else if (lat) printf "%+.1f%%", (k / o - 1) * 100; else printf "%+.1f%%", (o / k - 1) * 100}')
  printf '%-16s %12s %12s %12s %14s\n' "$metric" "${med[baremetal]}" "${med[overlay]}" "${med[oncache]}" "$gain" | tee -a "$table"
done
echo "(medians of $REPS runs of $SECONDS_PER_RUN s; latency is one-way, half the round trip; for"
echo " latency oncache/ovl is the overlay's latency over ONCache's, so + means ONCache is faster)"

if [ -n "$PNG" ]; then
  data=$(mktemp)
  tail -n +2 "$table" | awk '$3 != "" && $3 != 0 {lat = ($1 ~ /lat/); b = ($2 == "" ? 0 : $2); printf "%s %.3f 1 %.3f\n", $1, lat ? $3 / b : b / $3, lat ? $3 / $4 : $4 / $3}' >"$data"
  gnuplot <<GP
set terminal pngcairo size 1100,500 noenhanced
set output "$PNG"
set title "ONCache testbed: each metric relative to the kernel overlay (higher is better)"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set xtics rotate by -30
set ylabel "relative to overlay"
set key top left
set yrange [0:*]
plot "$data" using 2:xtic(1) title "bare metal", "" using 3 title "overlay", "" using 4 title "ONCache"
GP
  rm -f "$data"
  echo "oncache-bench: wrote $PNG"
fi
rm -f "$table"

#!/usr/bin/env bash
# Measures the ONCache testbed (utils/oncache-testbed.sh, 2 hosts x 1 pod) in each mode with
# real tools and prints the medians over repetitions as a table; optionally a long-format CSV
# (one row per run and metric) and a PNG (each metric relative to the kernel overlay). Root.
#
#   utils/oncache-bench.sh [--reps R] [--seconds S] [--flows "1 2 4 8"] [--sizes "64 1024"]
#                          [--cpus "S R"|none] [--sched rt|none] [--spread PCT] [--no-crr]
#                          [--csv FILE] [--png FILE] [--agent PATH] [--crr PATH]
#
# Protocol (defaults: 5 repetitions of 10 s): every process is pinned (taskset) and, with
# --sched rt, runs SCHED_FIFO (chrt -f 10), so the other jobs of a shared machine cannot
# preempt it (the kernel's RT throttle still leaves them 5 % of each CPU). Stream runs put the
# sender on CPU S and the receiver on CPU R; the request-response runs put client and server
# both on CPU R (on this testbed a cross-CPU wakeup, an IPI in a VM, costs more than the
# datapath). --cpus none --sched none --seconds 3 is the former protocol (nothing pinned).
# The modes are interleaved within each repetition. Each figure is the median over the
# repetitions with its spread (max - min over median); ONCache's gain is the median of the
# per-repetition ratios ONCache / overlay (measured side by side) with their range; a gain
# whose modes spread by more than --spread percent (default 10), or whose range of ratios
# crosses zero, is flagged in the last column and is not a gain.
#
# Metrics: tcp_gbps_P<n> (iperf3 TCP, n parallel flows), udp_gbps (iperf3 UDP, 1 flow, 1400 B
# datagrams, unlimited rate, received rate), udp_rr_tps_<size> / tcp_rr_tps_<size> (sockperf
# ping-pong transactions per second) and udp_lat_us_<size> / tcp_lat_us_<size> (sockperf median
# one-way latency, half the round trip) and tcp_crr_tps_64 (oncache-crr: a new TCP connection
# per 64 B request and response; skipped with a note when the program is not built).
# UDP stream, where the datagrams go (receiver and sender namespaces' /proc/net/snmp):
# udp_sent_gbps (the sender's rate), udp_sock_drop_pct (receiver Udp RcvbufErrors over the
# datagrams sent: the receiving application did not read them in time) and udp_path_drop_pct
# (datagrams sent that never reached the receiver's UDP layer: lost in the datapath).
# CPU: cpu_ms_per_gbit_tcp_P<n> / cpu_ms_per_gbit_udp (CPU milliseconds per Gbit received) and
# cpu_us_per_trans_{udp,tcp}_rr_<size> / cpu_us_per_trans_tcp_crr_64 (CPU microseconds per
# transaction): the user + system time of the client and server processes and their children
# (getrusage, utils/oncache-cpu-time.sh; this kernel has no CONFIG_IRQ_TIME_ACCOUNTING, so the
# softirq work that runs in their context, nearly all of the testbed's datapath, counts) plus
# the ksoftirqd threads' time during the run; divided by the bytes received or by every
# transaction of the run (warm-up included). Other jobs on the machine do not count, except
# for the softirqs ksoftirqd runs for them.
# Skb sizes and ACK ratio (the model's super-segment size and DelAckCount): around the 1-flow
# TCP run and the TCP ping-pong runs, the IP counters of the sending and receiving namespace:
# tcp_tx_bytes_per_skb_P1 (sender IpExtOutOctets / IpOutRequests: the GSO size),
# tcp_rx_bytes_per_skb_P1 (receiver IpExtInOctets / IpInReceives: the GRO size),
# tcp_rx_skbs_per_ack_P1 (receiver IpInReceives / IpOutRequests: data skbs per ACK),
# tcp_retrans_pct_P1 (sender Tcp RetransSegs / OutSegs; with two CPUs these are mostly
# spurious, undone by D-SACK: see the documentation) and
# tcp_rr_rx_bytes_per_skb_<size>.
# bare metal = host namespace to host namespace over the underlay; overlay = pod to pod over
# the kernel VXLAN; oncache = pod to pod with the ONCache programs. ONCache with rpeer is not
# measured: bpf_redirect_rpeer needs the authors' kernel patch. Every run is bounded (timeout)
# and stays inside the testbed's namespaces (198.18.0.0/15).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
TB="$HERE/oncache-testbed.sh"
AGENT="${ONCACHE_AGENT:-$HERE/../build/oncache-agent}"
CRR="$HERE/../build/oncache-crr"
REPS=5
SECONDS_PER_RUN=10
FLOWS="1"
SIZES="64"
CPUS="0 1"
SCHED=rt
SPREAD=10
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
    --no-crr) CRR=""; shift ;;
    --cpus) CPUS=${2:-}; shift 2 ;;
    --sched) SCHED=${2:-}; shift 2 ;;
    --spread) SPREAD=${2:-}; shift 2 ;;
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
read -r SND_CPU RCV_CPU _ <<<"$CPUS"
[ "$CPUS" = none ] ||
  { [[ "${SND_CPU:-x}" =~ ^[0-9]+$ && "${RCV_CPU:-x}" =~ ^[0-9]+$ ]] && [ "$SND_CPU" != "$RCV_CPU" ] &&
    [ "$SND_CPU" -lt "$(nproc)" ] && [ "$RCV_CPU" -lt "$(nproc)" ]; } ||
  die "--cpus: '$CPUS' is not two different CPUs below $(nproc), nor none"
[ "$CPUS" != none ] || [ "$SCHED" = none ] || die "--cpus none needs --sched none (a SCHED_FIFO tool must be pinned)"
case "$SCHED" in rt | none) ;; *) die "--sched: '$SCHED' is not rt or none" ;; esac
[[ "$SPREAD" =~ ^[0-9]+$ ]] && [ "$SPREAD" -ge 1 ] || die "--spread: '$SPREAD' is not a positive integer"
# pin_prefix CPU: the command prefix that runs a tool on CPU (SCHED_FIFO with --sched rt);
# SND_PIN and RCV_PIN hold it for the sender's and the receiver's CPU.
pin_prefix() {
  if [ "$CPUS" = none ]; then
    echo env
  elif [ "$SCHED" = rt ]; then
    echo chrt -f 10 taskset -c "$1"
  else
    echo taskset -c "$1"
  fi
}
read -r -a SND_PIN <<<"$(pin_prefix "$SND_CPU")"
read -r -a RCV_PIN <<<"$(pin_prefix "$RCV_CPU")"
for tool in iperf3 sockperf python3 taskset chrt; do
  command -v "$tool" >/dev/null || die "'$tool' is not installed (utils/install-deps.sh)"
done
[ -z "$PNG" ] || command -v gnuplot >/dev/null || die "--png: gnuplot is not installed"

tb() {
  local cmd=$1
  shift
  "$TB" "$cmd" --tag "$TAG" --agent "$AGENT" "$@"
}


CPUTIME="$HERE/oncache-cpu-time.sh"
WORK=$(mktemp -d)
# ksoftirqd_s: CPU seconds of all ksoftirqd threads so far (utime + stime, /proc/PID/stat).
ksoftirqd_s() {
  local tck total=0 f comm
  tck=$(getconf CLK_TCK)
  for f in /proc/[0-9]*/stat; do
    read -r _ comm _ 2>/dev/null <"$f" || continue
    [[ "$comm" == "(ksoftirqd/"* ]] || continue
    total=$((total + $(awk '{print $14 + $15}' "$f" 2>/dev/null || echo 0)))
  done
  awk -v t="$total" -v h="$tck" 'BEGIN {printf "%.3f\n", t / h}'
}
# cpu_total KSIRQ_BEFORE: client + server CPU seconds (from the wrapper files) plus ksoftirqd.
cpu_total() {
  awk -v k0="$1" -v k1="$(ksoftirqd_s)" 'FNR == 1 {c += $1} END {printf "%.4f\n", c + k1 - k0}' "$WORK/srv" "$WORK/cli"
}
# ip_counters HOST POD: "InReceives OutRequests InOctets OutOctets" of that namespace.
ip_counters() {
  tb exec "$1" "$2" cat /proc/net/snmp /proc/net/netstat | awk '
    $1 == "Ip:" && !ip {for (i = 2; i <= NF; i++) h[$i] = i; ip = 1; next}
    $1 == "Ip:" {r = $h["InReceives"]; o = $h["OutRequests"]}
    $1 == "IpExt:" && !ext {for (i = 2; i <= NF; i++) e[$i] = i; ext = 1; next}
    $1 == "IpExt:" {io = $e["InOctets"]; oo = $e["OutOctets"]}
    END {print r, o, io, oo}'
}
# tcp_counters HOST POD: "OutSegs RetransSegs" of that namespace.
tcp_counters() {
  tb exec "$1" "$2" cat /proc/net/snmp | awk '
    $1 == "Tcp:" && !t {for (i = 2; i <= NF; i++) h[$i] = i; t = 1; next}
    $1 == "Tcp:" {print $h["OutSegs"], $h["RetransSegs"]}'
}
# udp_counters HOST POD: "OutDatagrams InDatagrams RcvbufErrors InErrors" of that namespace.
udp_counters() {
  tb exec "$1" "$2" cat /proc/net/snmp | awk '
    $1 == "Udp:" && !u {for (i = 2; i <= NF; i++) h[$i] = i; u = 1; next}
    $1 == "Udp:" {print $h["OutDatagrams"], $h["InDatagrams"], $h["RcvbufErrors"], $h["InErrors"]}'
}
# pct A B: 100 A / B with 2 decimals, nan when B is 0.
pct() { awk -v a="$1" -v b="$2" 'BEGIN {if (b > 0) printf "%.2f\n", 100 * a / b; else print "nan"}'; }
# ratio A B: A / B with 1 decimal, nan when B is 0.
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {if (b > 0) printf "%.1f\n", a / b; else print "nan"}'; }

# run_iperf SRC_HOST SRC_POD DST_HOST DST_POD DST_IP ARGS...: prints "received-Gbit/s
# CPU-ms-per-Gbit".
run_iperf() {
  local src_host=$1 src_pod=$2 dst_host=$3 dst_pod=$4 dst=$5 k0 out
  shift 5
  rm -f "$WORK/srv" "$WORK/cli"
  k0=$(ksoftirqd_s)
  "$TB" exec --tag "$TAG" "$dst_host" "$dst_pod" timeout $((SECONDS_PER_RUN + 10)) "$CPUTIME" "$WORK/srv" "${RCV_PIN[@]}" iperf3 -s -1 -B "$dst" -p "$PORT" >/dev/null 2>&1 &
  local server=$!
  sleep 0.3
  out=$(tb exec "$src_host" "$src_pod" timeout $((SECONDS_PER_RUN + 8)) "$CPUTIME" "$WORK/cli" "${SND_PIN[@]}" iperf3 -c "$dst" -p "$PORT" -t "$SECONDS_PER_RUN" -J "$@" 2>/dev/null |
    python3 -c '
import json, sys
end = json.load(sys.stdin)["end"]
if "sum_received" in end:
    r = end["sum_received"]
    print("%.3f %d %.3f" % (r["bits_per_second"] / 1e9, r["bytes"], end["sum_sent"]["bits_per_second"] / 1e9))
else:  # UDP: the sender rate and bytes less the datagrams the receiver lost
    s = end["sum"]
    keep = 1 - s.get("lost_percent", 0) / 100
    print("%.3f %d %.3f" % (s["bits_per_second"] * keep / 1e9, s["bytes"] * keep, s["bits_per_second"] / 1e9))' || echo "nan 0 nan")
  wait "$server" 2>/dev/null || true
  read -r gbps bytes sent <<<"$out"
  awk -v g="$gbps" -v b="$bytes" -v s="$sent" -v c="$(cpu_total "$k0")" 'BEGIN {if (b > 0) printf "%s %.2f %s\n", g, c * 1000 / (b * 8 / 1e9), s; else print g, "nan", s}'
}

# run_pp SRC_HOST SRC_POD DST_HOST DST_POD DST_IP SIZE [--tcp]: prints "transactions/s
# median-one-way-latency-us CPU-us-per-transaction" of a sockperf ping-pong run.
run_pp() {
  local src_host=$1 src_pod=$2 dst_host=$3 dst_pod=$4 dst=$5 size=$6 k0 out
  shift 6
  rm -f "$WORK/srv" "$WORK/cli"
  k0=$(ksoftirqd_s)
  "$TB" exec --tag "$TAG" "$dst_host" "$dst_pod" timeout $((SECONDS_PER_RUN + 10)) "$CPUTIME" "$WORK/srv" "${RCV_PIN[@]}" sockperf sr -i "$dst" -p "$PORT" "$@" >/dev/null 2>&1 &
  local server=$!
  sleep 0.3
  out=$(tb exec "$src_host" "$src_pod" timeout $((SECONDS_PER_RUN + 8)) "$CPUTIME" "$WORK/cli" "${RCV_PIN[@]}" sockperf pp -i "$dst" -p "$PORT" -m "$size" -t "$SECONDS_PER_RUN" "$@" 2>&1 |
    sed 's/\x1b\[[0-9;]*m//g' |
    awk '/Total Run/ {for (i = 1; i <= NF; i++) if ($i ~ /^SentMessages=/) {sub("SentMessages=", "", $i); sub(";", "", $i); all = $i + 0}}
         /Valid Duration/ {for (i = 1; i <= NF; i++) {if ($i ~ /^RunTime=/) {sub("RunTime=", "", $i); t = $i + 0} if ($i ~ /^SentMessages=/) {sub("SentMessages=", "", $i); sub(";", "", $i); n = $i + 0}}}
         /percentile 50.000/ {med = $NF}
         END {if (t > 0 && med != "") printf "%.0f %s %d\n", n / t, med, all; else print "nan nan 0"}')
  [ -s "$WORK/srv.pid" ] && kill -TERM "$(cat "$WORK/srv.pid")" 2>/dev/null
  wait "$server" 2>/dev/null || true
  read -r tps lat all <<<"$out"
  awk -v t="$tps" -v l="$lat" -v n="$all" -v c="$(cpu_total "$k0")" 'BEGIN {if (n > 0) printf "%s %s %.2f\n", t, l, c * 1e6 / n; else print t, l, "nan"}'
}

PORT=20000 # a fresh server port per run (set by the caller: the runs are in subshells)
# run_crr SRC_HOST SRC_POD DST_HOST DST_POD DST_IP: prints "connect-request-responses/s
# CPU-us-per-transaction".
run_crr() {
  local src_host=$1 src_pod=$2 dst_host=$3 dst_pod=$4 dst=$5 k0 out
  rm -f "$WORK/srv" "$WORK/cli"
  k0=$(ksoftirqd_s)
  "$TB" exec --tag "$TAG" "$dst_host" "$dst_pod" timeout $((SECONDS_PER_RUN + 10)) "$CPUTIME" "$WORK/srv" "${RCV_PIN[@]}" "$CRR" server --bind "$dst" --port "$PORT" --seconds $((SECONDS_PER_RUN + 3)) >/dev/null 2>&1 &
  local server=$!
  sleep 0.3
  out=$(tb exec "$src_host" "$src_pod" timeout $((SECONDS_PER_RUN + 8)) "$CPUTIME" "$WORK/cli" "${RCV_PIN[@]}" "$CRR" client --connect "$dst" --port "$PORT" --seconds "$SECONDS_PER_RUN" --size 64 |
    awk '$1 == "transactions" {print $6, $2}')
  [ -s "$WORK/srv.pid" ] && kill -TERM "$(cat "$WORK/srv.pid")" 2>/dev/null
  wait "$server" 2>/dev/null || true
  read -r tps n <<<"${out:-nan 0}"
  awk -v t="$tps" -v n="$n" -v c="$(cpu_total "$k0")" 'BEGIN {if (n > 0) printf "%s %.2f\n", t, c * 1e6 / n; else print t, "nan"}'
}
[ -z "$CRR" ] || [ -x "$CRR" ] || echo "oncache-bench: note: no CRR measurement ('$CRR' is not built: target oncache-crr)" >&2

record() {
  local mode=$1 rep=$2 metric=$3 value=$4
  echo "$mode,$rep,$metric,$value" >>"$ALLCSV"
  echo "oncache-bench: $mode run $rep: $metric = $value" >&2
}

ALLCSV=${CSV:-$WORK/bench.csv}
echo "mode,rep,metric,value" >"$ALLCSV"
# All three testbeds are up at once (separate namespaces, one tag each) and every repetition
# measures the modes in turn, so a change in the machine's load hits all modes alike.
declare -A TAGS=([baremetal]=benchbm [overlay]=benchov [oncache]=benchoc)
down_all() {
  for mode in $MODES; do
    TAG=${TAGS[$mode]}
    tb down >/dev/null 2>&1 || true
  done
}
trap 'down_all; rm -rf "$WORK"' EXIT
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
      [ "$f" != 1 ] || { read -r r0 o0 i0 _ < <(ip_counters "${path[2]}" "${path[3]}"); read -r _ s0 _ so0 < <(ip_counters "${path[0]}" "${path[1]}"); read -r ts0 tr0 < <(tcp_counters "${path[0]}" "${path[1]}"); }
      read -r gbps cpu _ < <(run_iperf "${path[@]}" -P "$f")
      record "$mode" "$rep" "tcp_gbps_P$f" "$gbps"
      record "$mode" "$rep" "cpu_ms_per_gbit_tcp_P$f" "$cpu"
      if [ "$f" = 1 ]; then
        read -r r1 o1 i1 _ < <(ip_counters "${path[2]}" "${path[3]}")
        read -r _ s1 _ so1 < <(ip_counters "${path[0]}" "${path[1]}")
        record "$mode" "$rep" tcp_tx_bytes_per_skb_P1 "$(ratio $((so1 - so0)) $((s1 - s0)))"
        record "$mode" "$rep" tcp_rx_bytes_per_skb_P1 "$(ratio $((i1 - i0)) $((r1 - r0)))"
        record "$mode" "$rep" tcp_rx_skbs_per_ack_P1 "$(ratio $((r1 - r0)) $((o1 - o0)))"
        read -r ts1 tr1 < <(tcp_counters "${path[0]}" "${path[1]}")
        record "$mode" "$rep" tcp_retrans_pct_P1 "$(pct $((tr1 - tr0)) $((ts1 - ts0)))"
      fi
    done
    PORT=$((PORT + 1))
    read -r so0 _ _ _ < <(udp_counters "${path[0]}" "${path[1]}")
    read -r _ ri0 rb0 re0 < <(udp_counters "${path[2]}" "${path[3]}")
    read -r gbps cpu sent < <(run_iperf "${path[@]}" -u -b 0 -l 1400)
    read -r so1 _ _ _ < <(udp_counters "${path[0]}" "${path[1]}")
    read -r _ ri1 rb1 re1 < <(udp_counters "${path[2]}" "${path[3]}")
    record "$mode" "$rep" udp_gbps "$gbps"
    record "$mode" "$rep" udp_sent_gbps "$sent"
    record "$mode" "$rep" cpu_ms_per_gbit_udp "$cpu"
    record "$mode" "$rep" udp_sock_drop_pct "$(pct $((rb1 - rb0)) $((so1 - so0)))"
    record "$mode" "$rep" udp_path_drop_pct "$(pct $((so1 - so0 - (ri1 - ri0) - (re1 - re0))) $((so1 - so0)))"
    if [ -n "$CRR" ] && [ -x "$CRR" ]; then
      PORT=$((PORT + 1))
      read -r tps cpu < <(run_crr "${path[@]}")
      record "$mode" "$rep" tcp_crr_tps_64 "$tps"
      record "$mode" "$rep" cpu_us_per_trans_tcp_crr_64 "$cpu"
    fi
    for size in $SIZES; do
      PORT=$((PORT + 1))
      read -r tps lat cpu < <(run_pp "${path[@]}" "$size")
      record "$mode" "$rep" "udp_rr_tps_$size" "$tps"
      record "$mode" "$rep" "udp_lat_us_$size" "$lat"
      record "$mode" "$rep" "cpu_us_per_trans_udp_rr_$size" "$cpu"
      PORT=$((PORT + 1))
      read -r r0 _ i0 _ < <(ip_counters "${path[2]}" "${path[3]}")
      read -r tps lat cpu < <(run_pp "${path[@]}" "$size" --tcp)
      read -r r1 _ i1 _ < <(ip_counters "${path[2]}" "${path[3]}")
      record "$mode" "$rep" "tcp_rr_tps_$size" "$tps"
      record "$mode" "$rep" "tcp_lat_us_$size" "$lat"
      record "$mode" "$rep" "cpu_us_per_trans_tcp_rr_$size" "$cpu"
      record "$mode" "$rep" "tcp_rr_rx_bytes_per_skb_$size" "$(ratio $((i1 - i0)) $((r1 - r0)))"
    done
  done
done
TAG=${TAGS[oncache]}
echo "oncache-bench: ONCache host 1 counters: $(tb dump 1 | grep -E '^stat (egress|ingress)_(hit|miss)' | tr '\n' ' ')" >&2
down_all

# Medians with their spread, and ONCache relative to the kernel overlay as the median of the
# per-repetition ratios with their range (utils/oncache-bench-table.py: rates + is more, latency
# + is faster, CPU - is less; a gain whose modes spread by more than --spread percent or whose
# ratios change sign is flagged); the paper's figure (ONCache against Antrea; RR at 1 byte)
# beside the metric it corresponds to.
table=$(mktemp)
python3 "$HERE/oncache-bench-table.py" "$ALLCSV" --spread "$SPREAD" | tee "$table"
if [ "$CPUS" = none ]; then
  placement="not pinned"
else
  placement="pinned: stream sender CPU $SND_CPU, receiver CPU $RCV_CPU, request-response both on CPU $RCV_CPU"
fi
echo "($REPS repetitions of $SECONDS_PER_RUN s, modes interleaved; $placement;"
echo " scheduling: $SCHED; latency is one-way, half the round trip; CPU is per Gbit received or per"
echo " transaction)"

if [ -n "$PNG" ]; then
  data=$(mktemp)
  gains=$(mktemp)
  # Panel 1: every rate, latency and CPU metric relative to the overlay (costs inverted).
  grep -E '^[a-z0-9]+_' "$table" | awk '$4 != "-" && $3 != "-" && $3 != 0 && $4 != 0 && $1 !~ /per_skb|per_ack|_pct/ {
      cost = ($1 ~ /lat|^cpu_/); b = ($2 == "-" ? 0 : $2)
      printf "%s %.3f 1 %.3f\n", $1, cost ? (b && b != "-" ? $3 / b : 0) : b / $3, cost ? $3 / $4 : $4 / $3}' >"$data"
  # Panel 2: measured gain beside the paper's (lower end of a range; "modest" left out).
  grep -E '^[a-z0-9]+_' "$table" | awk '$6 ~ /^[-+][0-9]/ {m = $5; sub("%", "", m); p = $6; sub(/\.\..*/, "", p); sub("%", "", p); printf "%s %s %s\n", $1, m, p}' >"$gains"
  gnuplot <<GP
set terminal pngcairo size 1300,900 noenhanced
set output "$PNG"
set multiplot layout 2,1
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set xtics rotate by -30 font ",8"
set key top left
set title "ONCache testbed: each metric relative to the kernel overlay (higher is better; latency and CPU inverted)"
set ylabel "relative to overlay"
set yrange [0:*]
plot "$data" using 2:xtic(1) title "bare metal", "" using 3 title "overlay", "" using 4 title "ONCache"
set title "ONCache's gain over the overlay: this testbed beside the paper (%; CPU rows: - is less CPU)"
set ylabel "gain (%)"
set yrange [*:*]
set xzeroaxis
plot "$gains" using 2:xtic(1) title "testbed (median)", "" using 3 title "ONCache paper"
unset multiplot
GP
  rm -f "$data" "$gains"
  echo "oncache-bench: wrote $PNG"
fi
rm -f "$table"

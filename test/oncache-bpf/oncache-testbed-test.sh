#!/usr/bin/env bash
# Testbed test of the ONCache eBPF datapath on the real kernel: 3 hosts x 2 pods in ONCache
# mode (utils/oncache-testbed.sh). Checks that ping and a TCP stream flow pod to pod, that the
# caches fill on both hosts and the fast paths carry the traffic, that datagrams a pod forges
# with a neighbour's source address are refused by the egress fast path and dropped by the
# kernel path's anti-spoofing, that a policy deny stops an established, cached flow from
# reaching the pod, that a restart after a crash and a pod migration re-learn, that after pod
# deletion and IP reuse not one segment of the old flow reaches the new pod, and that teardown
# leaves nothing behind.
# Exits 77 (ctest: Skipped) with a message when it cannot run here.
#   oncache-testbed-test.sh <repo root> <oncache-agent>
set -u # no pipefail: "cmd | grep -q" must not fail when grep stops reading early

ROOT=$1
AGENT=$2
TAG=ct$$ # at most 9 characters
TB="$ROOT/utils/oncache-testbed.sh"
failures=0

skip() {
  echo "SKIP: $*"
  exit 77
}
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}
tb() {
  local cmd=$1
  shift
  "$TB" "$cmd" --tag "$TAG" --agent "$AGENT" "$@"
}
stat_of() { tb dump "$1" | awk -v s="$2" '$1 == "stat" && $2 == s {print $3}'; }
# snmp HOST POD PROTO FIELD: a counter of /proc/net/snmp in pod POD of host HOST.
snmp() {
  tb exec "$1" "$2" cat /proc/net/snmp |
    awk -v p="$3:" -v f="$4" '$1 == p {if (!n) {for (i = 1; i <= NF; i++) if ($i == f) c = i; n = 1} else print $c}'
}
# spoof_and_hits DUMP: the counters egress_spoof and egress_hit of one dump, on one line.
spoof_and_hits() {
  awk '$1 == "stat" && $2 == "egress_spoof" {s = $3} $1 == "stat" && $2 == "egress_hit" {h = $3}
       END {print s + 0, h + 0}' <<<"$1"
}
# ICMP echo requests that reached the IP layer of pod POD on host HOST.
in_echos() { snmp "$1" "$2" Icmp InEchos; }

[ "$(id -u)" -eq 0 ] || skip "needs root (network namespaces, iptables, eBPF)"
for tool in ip iptables ebtables ping iperf3 python3; do
  command -v "$tool" >/dev/null || skip "'$tool' is not installed (utils/install-deps.sh)"
done
ip netns add "onc-$TAG-probe" 2>/dev/null || skip "the kernel refuses network namespaces"
ip netns del "onc-$TAG-probe"
# The interpreter itself, not a version manager's shim (which can take seconds per start).
PYTHON=$(python3 -c 'import sys; print(sys.executable)') || skip "python3 does not run"
recv_log="/tmp/onc-$TAG-udp.log"
trap 'tb down >/dev/null 2>&1; rm -f "$recv_log" "/tmp/onc-$TAG-run.log"' EXIT
trap 'exit 130' INT # the EXIT trap then tears the testbed down
trap 'exit 143' TERM

if ! out=$(tb up --hosts 3 --pods 2 --mode oncache 2>&1); then
  case "$out" in
    *"Operation not permitted"* | *"refused"*) skip "the kernel refuses the eBPF programs: $out" ;;
  esac
  echo "$out"
  fail "testbed did not come up"
  exit 1
fi

# 1. ping pod 1.1 -> 2.1: all replies arrive; both hosts learn; the fast paths carry it.
if ! tb exec 1 1 ping -q -c 20 -i 0.05 -W 1 198.19.2.11 >/dev/null; then
  fail "ping 198.19.1.11 -> 198.19.2.11 lost packets"
fi
for h in 1 2; do
  dump=$(tb dump "$h")
  grep -q "^filter .* 0 0 1 ingress=1 egress=1$" <<<"$dump" || fail "host $h: no learned ICMP filter entry"
  grep -q "^ingress 198.19.$h.11 learned 02:aa:00:0$h:01:00$" <<<"$dump" || fail "host $h: pod MACs not learned"
  other=$((3 - h))
  grep -q "^egressip 198.19.$other.11 198.18.0.1$other$" <<<"$dump" || fail "host $h: no egress L1 entry"
  grep -q "^egress 198.18.0.1$other$" <<<"$dump" || fail "host $h: no egress template"
  [ "$(stat_of "$h" egress_hit)" -ge 10 ] || fail "host $h: egress fast path hits $(stat_of "$h" egress_hit) < 10"
  [ "$(stat_of "$h" ingress_hit)" -ge 10 ] || fail "host $h: ingress fast path hits $(stat_of "$h" ingress_hit) < 10"
  [ "$(stat_of "$h" error)" -eq 0 ] || fail "host $h: helper errors"
done

# 1b. A pod's DSCP bits are not marks: one EF-marked (TOS 0xb8, bit 0x08 set) echo request
# from pod 1.2 to 2.1 is a new flow for conntrack, so host 1 must not learn its egress side
# from it; the reply is established, so host 1 learns the ingress side.
tb exec 1 2 ping -q -c 1 -W 1 -Q 0xb8 198.19.2.11 >/dev/null || fail "EF ping lost"
tb dump 1 | grep -q "^filter 198.19.1.12 198.19.2.11 0 0 1 ingress=1 egress=0$" ||
  fail "DSCP: host 1 did not keep the egress side of an EF flow unlearned after 1 request: $(tb dump 1 | grep '^filter 198.19.1.12 198.19.2.11')"

# 2. TCP stream pod 1.2 -> 2.2 (20 MB, bounded): completes, mostly on the fast path.
tb exec 2 2 timeout 20 iperf3 -s -1 -B 198.19.2.12 >/dev/null 2>&1 &
server=$!
sleep 0.3
hits_before=$(stat_of 1 egress_hit)
if ! tb exec 1 2 timeout 15 iperf3 -c 198.19.2.12 -n 20M >/dev/null 2>&1; then
  fail "iperf3 198.19.1.12 -> 198.19.2.12 failed"
fi
wait "$server" 2>/dev/null
hits=$(($(stat_of 1 egress_hit) - hits_before))
[ "$hits" -ge 100 ] || fail "TCP stream: only $hits egress fast-path hits on host 1"
tb dump 1 | grep -q "^filter 198.19.1.12 198.19.2.12 [0-9]* 5201 6 ingress=1 egress=1$" ||
  fail "TCP stream: no learned filter entry on host 1"

# 2b. A pod forging a neighbour's address takes neither the fast path nor the kernel path: a
# UDP flow 1.1:5400 -> 2.1:5400 is established and cached on both hosts, then pod 1.2 sends
# datagrams of that flow with 1.1's source address (raw socket). The egress fast path must
# refuse them (egress_spoof counts them, egress_hit does not move) and the kernel path's
# anti-spoofing (the testbed's per-port ebtables rule) drop them: none reaches 2.1's receiver.
# Control: the same datagrams sent by pod 1.1 itself take the fast path and all arrive.
# Receiver: counts datagrams by tag (the text before '-'), echoes "legit" ones, stops on "end".
read -r -d '' udp_receiver <<'PY'
import socket, sys, time
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind((sys.argv[1], int(sys.argv[2])))
print("ready", flush=True)
counts, end = {}, time.monotonic() + float(sys.argv[3])
while time.monotonic() < end:
    s.settimeout(max(0.01, end - time.monotonic()))
    try:
        data, peer = s.recvfrom(2048)
    except socket.timeout:
        break
    tag = data.split(b"-")[0].decode(errors="replace")
    if tag == "end":
        break
    counts[tag] = counts.get(tag, 0) + 1
    if tag == "legit":
        s.sendto(data, peer)
print(" ".join(f"{t}={counts.get(t, 0)}" for t in ("legit", "forged", "control")), flush=True)
PY
# A UDP socket bound to SRC:PORT sends N "legit" datagrams to DST:PORT, each awaiting its echo.
read -r -d '' udp_client <<'PY'
import socket, sys, time
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind((sys.argv[1], int(sys.argv[3])))
s.settimeout(1.0)
echoes = 0
for i in range(int(sys.argv[4])):
    s.sendto(b"legit-%03d" % i, (sys.argv[2], int(sys.argv[3])))
    try:
        echoes += s.recv(2048) == b"legit-%03d" % i
    except socket.timeout:
        pass
    time.sleep(0.02)
sys.exit(0 if echoes == int(sys.argv[4]) else 1)
PY
# Raw IPv4/UDP datagrams with any source: SRC DST PORT TAG N (payload TAG-i, checksums set).
read -r -d '' raw_sender <<'PY'
import socket, struct, sys, time
src, dst, port, tag, n = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], int(sys.argv[5])
s = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_RAW)  # IP_HDRINCL
def csum(b):
    b += b"\0" * (len(b) % 2)
    t = sum(struct.unpack("!%dH" % (len(b) // 2), b))
    t = (t & 0xFFFF) + (t >> 16)
    return ~((t & 0xFFFF) + (t >> 16)) & 0xFFFF
for i in range(n):
    payload = b"%s-%03d" % (tag.encode(), i)
    ulen = 8 + len(payload)
    pseudo = socket.inet_aton(src) + socket.inet_aton(dst) + struct.pack("!BBH", 0, 17, ulen)
    c = csum(pseudo + struct.pack("!HHHH", port, port, ulen, 0) + payload) or 0xFFFF
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + ulen, i + 1, 0, 64, 17, 0,
                     socket.inet_aton(src), socket.inet_aton(dst))
    s.sendto(ip + struct.pack("!HHHH", port, port, ulen, c) + payload, (dst, 0))
    time.sleep(0.005)
PY
tb exec 2 1 timeout 12 "$PYTHON" -c "$udp_receiver" 198.19.2.11 5400 10 >"$recv_log" 2>&1 &
receiver=$!
for _ in $(seq 1 50); do
  grep -q ready "$recv_log" 2>/dev/null && break
  sleep 0.1
done
tb exec 1 1 "$PYTHON" -c "$udp_client" 198.19.1.11 198.19.2.11 5400 10 || fail "spoof: the UDP flow lost echoes"
dump=$(tb dump 1)
grep -q "^filter 198.19.1.11 198.19.2.11 5400 5400 17 ingress=1 egress=1$" <<<"$dump" ||
  fail "spoof: host 1 did not cache the UDP flow"
read -r spoof0 hits0 <<<"$(spoof_and_hits "$dump")"
tb exec 1 2 "$PYTHON" -c "$raw_sender" 198.19.1.11 198.19.2.11 5400 forged 20 || fail "spoof: raw sender failed"
read -r spoof1 hits1 <<<"$(spoof_and_hits "$(tb dump 1)")"
[ $((spoof1 - spoof0)) -ge 20 ] || fail "spoof: egress_spoof counted $((spoof1 - spoof0)) of 20 forged datagrams"
[ $((hits1 - hits0)) -eq 0 ] || fail "spoof: $((hits1 - hits0)) forged datagrams took the egress fast path"
tb exec 1 1 "$PYTHON" -c "$raw_sender" 198.19.1.11 198.19.2.11 5400 control 20 || fail "spoof: raw sender failed"
read -r _ hits2 <<<"$(spoof_and_hits "$(tb dump 1)")"
[ $((hits2 - hits1)) -ge 20 ] || fail "spoof: $((hits2 - hits1)) of 20 control datagrams took the fast path"
sleep 0.2
tb exec 1 1 "$PYTHON" -c "$raw_sender" 198.19.1.11 198.19.2.11 5400 end 1
wait "$receiver" 2>/dev/null
counts=$(tail -n 1 "$recv_log")
rm -f "$recv_log"
[ "$counts" = "legit=10 forged=0 control=20" ] ||
  fail "spoof: pod 198.19.2.11 received '$counts', expected legit=10 forged=0 control=20"

# 3. A denied flow never reaches the pod, also after it was established and cached: pod 1.1
# pings 2.1 continuously; once the deny command has returned, not one echo request arrives.
tb exec 1 1 timeout 14 ping -q -c 500 -i 0.02 -W 1 198.19.2.11 >/dev/null 2>&1 &
pinger=$!
sleep 1
tb deny 198.19.1.11 198.19.2.11
after_deny=$(in_echos 2 1)
sleep 1.5
late=$(($(in_echos 2 1) - after_deny))
[ "$late" -eq 0 ] || fail "deny: $late echo requests reached pod 198.19.2.11 after the deny"
tb dump 1 | grep -q "^filter 198.19.1.11 198.19.2.11 0 0 1 " && fail "deny: host 1 re-learned the denied flow"
tb dump 2 | grep -q "^filter 198.19.2.11 198.19.1.11 0 0 1 ingress=1 egress=1$" &&
  fail "deny: host 2 kept a complete filter entry for the denied flow"
# The other pod pair is unaffected; removing the rule lets the flow back (and re-learn).
tb exec 1 2 ping -q -c 5 -i 0.05 -W 1 198.19.2.12 >/dev/null || fail "deny hit an unrelated flow"
tb allow 198.19.1.11 198.19.2.11
sleep 0.5
before=$(in_echos 2 1)
sleep 1
[ "$(($(in_echos 2 1) - before))" -gt 0 ] || fail "allow: the flow did not come back"
wait "$pinger" 2>/dev/null # bounded: 500 packets (10 s), outlasting the checks above under load

# 4. A restart after a crash: init over the previous run's pins and filters succeeds, starts
# with empty caches, and traffic still flows (the pods are re-added as an agent restart does).
agent_args=(--pin-root /run/oncache-bpf --state-root /run/oncache-agent --host "$TAG-h1")
if "$AGENT" init "${agent_args[@]}" --netns "onc-$TAG-h1" --nic eth0 &&
  [ "$(stat_of 1 egress_hit)" -eq 0 ] &&
  "$AGENT" pod-add "${agent_args[@]}" --netns "onc-$TAG-h1" --pod-netns "onc-$TAG-h1p1" \
    --veth vp1 --ip 198.19.1.11; then
  tb exec 1 1 ping -q -c 10 -i 0.05 -W 1 198.19.2.12 >/dev/null || fail "ping after re-init lost packets"
  [ "$(stat_of 1 egress_hit)" -ge 5 ] || fail "no fast path after re-init"
else
  fail "agent init over a previous run's state failed (or kept its counters)"
fi

# 5. Migration: pod 2 of host 2 (198.19.2.12), known to host 1's caches, moves with its IP to
# host 3 (new MAC). Host 1 must forget the old location and re-learn the new one.
tb exec 1 1 ping -q -c 10 -i 0.05 -W 1 198.19.2.12 >/dev/null || fail "ping before migration lost packets"
tb dump 1 | grep -q "^egressip 198.19.2.12 198.18.0.12$" || fail "migration: host 1 had not learned 198.19.2.12"
tb migrate 2 2 3 3
tb dump 1 | grep -q "^egressip 198.19.2.12 " && fail "migration: host 1 kept the old egress entry"
hits_before=$(stat_of 3 ingress_hit)
tb exec 1 1 ping -q -c 20 -i 0.05 -W 1 198.19.2.12 >/dev/null || fail "ping after migration lost packets"
tb dump 1 | grep -q "^egressip 198.19.2.12 198.18.0.13$" || fail "migration: host 1 did not re-learn host 3"
tb dump 3 | grep -q "^ingress 198.19.2.12 learned 02:ab:00:03:03:00$" || fail "migration: host 3 did not learn the new pod"
tb dump 2 | grep -q "^ingress 198.19.2.12 " && fail "migration: host 2 kept the old pod's ingress entry"
[ $(($(stat_of 3 ingress_hit) - hits_before)) -ge 10 ] || fail "migration: no ingress fast path on host 3"

# 5b. IP reuse: a TCP flow 1.1 -> 2.1 is established and cached on both hosts; pod 2.1
# vanishes and a new pod (new MAC) takes its IP while the client keeps sending. Host 2's agent
# must drop the old flow's complete filter entry at once: with it, the ingress fast path would
# hand the old flow's segments to the new pod as soon as the new pod's MAC is learned. And not
# one segment of the old flow may reach the new pod by any path: the new pod runs no TCP, so
# its namespace's Tcp InSegs (counted from its creation) must stay 0. (Without the neighbour
# flush in `reuse`, the segments queued on the IP's unresolved neighbour entry before the
# conntrack flush reached the new pod once it answered ARP: 4 in every run.)
# ("$TB" exec runs the command in its own process: kill reaches it.)
"$TB" exec --tag "$TAG" 2 1 timeout 15 iperf3 -s -1 -B 198.19.2.11 -p 5301 >/dev/null 2>&1 &
server=$!
sleep 0.3
"$TB" exec --tag "$TAG" 1 1 timeout 12 iperf3 -c 198.19.2.11 -p 5301 -t 10 -b 5M >/dev/null 2>&1 &
client=$!
sleep 1
old='^filter 198.19.2.11 198.19.1.11 5301 [0-9]* 6 ingress=1 egress=1$'
tb dump 2 | grep -q "$old" || fail "reuse: the old flow was not cached"
tb reuse 2 1
tb dump 2 | grep -q "$old" && fail "reuse: host 2 kept the old flow's complete filter entry"
tb exec 2 1 ping -q -c 10 -i 0.05 -W 1 198.19.1.11 >/dev/null || fail "reuse: the new pod cannot reach 198.19.1.11"
tb dump 2 | grep -q "^ingress 198.19.2.11 learned 02:ac:00:02:01:00$" || fail "reuse: the new pod's MAC was not learned"
sleep 1.5 # the client still sends; a neighbour entry's queue is released after 1 s
kill -0 "$client" 2>/dev/null || fail "reuse: the old flow's client stopped before the check"
leaked=$(snmp 2 1 Tcp InSegs)
[ "$leaked" = 0 ] || fail "reuse: $leaked segments of the old flow reached the new pod"
kill "$client" 2>/dev/null
wait "$client" "$server" 2>/dev/null

# 6. Node removal: host 1 drops host 3's template and every egress entry pointing to it.
"$AGENT" node-del --pin-root /run/oncache-bpf --state-root /run/oncache-agent --host "$TAG-h1" \
  --node-ip 198.18.0.13 || fail "node-del failed"
dump=$(tb dump 1)
grep -qE "^egress 198.18.0.13$|^egressip [0-9.]+ 198.18.0.13$" <<<"$dump" && fail "node-del left entries for host 3"
grep -q "^egress 198.18.0.12$" <<<"$dump" || fail "node-del removed host 2's template too"

# 7. The agent's run mode cleans up on exit: host 3 under `oncache-agent run`, then SIGTERM.
"$AGENT" run --pin-root /run/oncache-bpf --state-root /run/oncache-agent --host "$TAG-h3" \
  --netns "onc-$TAG-h3" --nic eth0 >"/tmp/onc-$TAG-run.log" 2>&1 &
runner=$!
for _ in $(seq 1 100); do
  grep -q ready "/tmp/onc-$TAG-run.log" 2>/dev/null && break
  sleep 0.1
done
ip netns exec "onc-$TAG-h3" tc filter show dev eth0 ingress | grep -q bpf ||
  fail "run: nothing attached ($(cat "/tmp/onc-$TAG-run.log"))"
kill -TERM "$runner"
wait "$runner" || fail "run: exit status $? after SIGTERM"
rm -f "/tmp/onc-$TAG-run.log"
[ -e "/run/oncache-bpf/$TAG-h3" ] && fail "run: pins left after exit"
ip netns exec "onc-$TAG-h3" tc filter show dev eth0 ingress | grep -q bpf && fail "run: filter left after exit"

# 8. Teardown leaves no namespace, pin or state behind.
tb down
ip netns list | grep -q "^onc-$TAG-" && fail "down left namespaces"
ls -d /run/oncache-bpf/"$TAG"-h* >/dev/null 2>&1 && fail "down left pins"

if [ "$failures" -gt 0 ]; then
  echo "FAIL: $failures check(s) failed"
  exit 1
fi
echo "PASS: ONCache testbed (ping, TCP stream, caches, forged source, deny after caching, restart, migration, IP reuse, teardown)"

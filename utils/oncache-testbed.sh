#!/usr/bin/env bash
# ONCache testbed: N emulated hosts as network namespaces on a veth/bridge underlay, a
# Flannel-style L3 VXLAN overlay with kernel routing, iptables policy and conntrack, and K pods
# per host as namespaces behind veth pairs on a bridge with per-port anti-spoofing (ebtables).
# Run as root.
#
#   utils/oncache-testbed.sh up   [--hosts N] [--pods K] [--mode M] [--tag T] [--agent PATH]
#   utils/oncache-testbed.sh down [--tag T]            also cleans up after a crashed run
#   utils/oncache-testbed.sh deny  SRC_IP DST_IP [--tag T]   policy: drop SRC -> DST pod traffic
#   utils/oncache-testbed.sh allow SRC_IP DST_IP [--tag T]   remove that rule again
#   utils/oncache-testbed.sh migrate HOST POD TO NEWPOD [--tag T]   pod POD of HOST moves, with its
#                                                      IP and a new MAC, to host TO as pod NEWPOD
#   utils/oncache-testbed.sh reuse HOST POD [--tag T]  pod POD of HOST vanishes; a new pod (new MAC)
#                                                      takes its IP
#   utils/oncache-testbed.sh dump HOST [--tag T]       ONCache maps and counters of host HOST
#   utils/oncache-testbed.sh exec [--tag T] HOST POD CMD...   run CMD in pod POD of host HOST
#                                                      (POD 0 = the host namespace itself)
#
# Modes: baremetal (hosts and underlay only), overlay (kernel VXLAN, no eBPF), oncache (the
# overlay plus the ONCache programs, attached by oncache-agent). Addresses come only from
# 198.18.0.0/15: underlay 198.18.0.(10+i)/24, host i's pods 198.19.i.(10+k)/24 with gateway
# 198.19.i.1, VTEP 198.19.i.0. Nothing is routed outside the namespaces this script creates.
# Namespaces are named onc-<tag>-ul, onc-<tag>-h<i> and onc-<tag>-h<i>p<k>; `down` deletes
# every namespace with the prefix onc-<tag>- and the agent's pins of those hosts.
set -euo pipefail

TAG=tb
HOSTS=2
PODS=1
MODE=oncache
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
AGENT="${ONCACHE_AGENT:-$HERE/../build/oncache-agent}"
VNI=1

die() {
  echo "oncache-testbed: error: $*" >&2
  exit 1
}

ns_host() { echo "onc-$TAG-h$1"; }
ns_pod() { echo "onc-$TAG-h$1p$2"; }
ns_ul() { echo "onc-$TAG-ul"; }
host_ip() { echo "198.18.0.$((10 + $1))"; }
pod_ip() { echo "198.19.$1.$((10 + $2))"; }
vtep_mac() { printf '02:0c:00:00:%02x:00' "$1"; }
nic_mac() { printf '02:18:00:00:00:%02x' "$((10 + $1))"; }
gw_mac() { printf '02:bb:00:00:%02x:01' "$1"; }
pod_mac() { printf '02:aa:00:%02x:%02x:00' "$1" "$2"; }
agent() { "$AGENT" "$@" --pin-root /run/oncache-bpf --state-root /run/oncache-agent; }
agent_host() { echo "$TAG-h$1"; }
in_ns() {
  local ns=$1
  shift
  ip netns exec "$ns" "$@"
}

# Parses --opt value pairs among the arguments; the rest are left in POSITIONAL. With
# STOP_AT_COMMAND=1 (exec), everything from the first non-option on is the command's.
POSITIONAL=()
STOP_AT_COMMAND=0
parse_opts() {
  while [ $# -gt 0 ]; do
    if [ "$STOP_AT_COMMAND" = 1 ] && [ "${1#--}" = "$1" ]; then
      POSITIONAL+=("$@")
      break
    fi
    case "$1" in
      --hosts) HOSTS=${2:-}; shift 2 ;;
      --pods) PODS=${2:-}; shift 2 ;;
      --mode) MODE=${2:-}; shift 2 ;;
      --tag) TAG=${2:-}; shift 2 ;;
      --agent) AGENT=${2:-}; shift 2 ;;
      --*) die "unknown option '$1'" ;;
      *) POSITIONAL+=("$1"); shift ;;
    esac
  done
  [[ "$HOSTS" =~ ^[0-9]+$ ]] && [ "$HOSTS" -ge 2 ] && [ "$HOSTS" -le 50 ] ||
    die "--hosts: '$HOSTS' is not an integer in [2, 50]"
  [[ "$PODS" =~ ^[0-9]+$ ]] && [ "$PODS" -ge 1 ] && [ "$PODS" -le 50 ] ||
    die "--pods: '$PODS' is not an integer in [1, 50]"
  [[ "$TAG" =~ ^[a-z0-9]{1,12}$ ]] || die "--tag: '$TAG' is not 1-12 lowercase letters or digits"
  case "$MODE" in baremetal | overlay | oncache) ;; *) die "--mode: '$MODE' is not baremetal, overlay or oncache" ;; esac
}

down() {
  # Agent state first (tc filters, pins), then the namespaces; also after a crash.
  local ns
  for ns in $(ip netns list | awk '{print $1}' | grep -E "^onc-$TAG-h[0-9]+$" || true); do
    local i=${ns##*-h}
    if [ -x "$AGENT" ]; then
      agent cleanup --host "$(agent_host "$i")" --netns "$ns" || true
    fi
  done
  for ns in $(ip netns list | awk '{print $1}' | grep -E "^onc-$TAG-" || true); do
    ip netns pids "$ns" 2>/dev/null | xargs -r kill 2>/dev/null || true
    ip netns del "$ns"
  done
  # Pins of hosts whose namespaces were already gone.
  rm -rf /run/oncache-bpf/"$TAG"-h* /run/oncache-agent/"$TAG"-h* 2>/dev/null || true
}

build_underlay() {
  local ul
  ul=$(ns_ul)
  ip netns add "$ul"
  in_ns "$ul" ip link set lo up
  in_ns "$ul" ip link add br0 type bridge
  in_ns "$ul" ip link set br0 up
  for i in $(seq 1 "$HOSTS"); do
    local h
    h=$(ns_host "$i")
    ip netns add "$h"
    in_ns "$h" ip link set lo up
    ip -n "$h" link add eth0 address "$(nic_mac "$i")" type veth peer name "h$i" netns "$ul"
    in_ns "$ul" ip link set "h$i" master br0 up
    in_ns "$h" ip addr add "$(host_ip "$i")/24" dev eth0
    in_ns "$h" ip link set eth0 up
    in_ns "$h" sysctl -qw net.ipv4.ip_forward=1 net.ipv4.conf.all.rp_filter=0 \
      net.ipv4.conf.default.rp_filter=0
  done
}

build_overlay_host() {
  local i=$1 h
  h=$(ns_host "$i")
  in_ns "$h" ip link add vxlan0 address "$(vtep_mac "$i")" type vxlan id "$VNI" dstport 4789 \
    local "$(host_ip "$i")" dev eth0 nolearning noudpcsum
  in_ns "$h" ip addr add "198.19.$i.0/32" dev vxlan0
  in_ns "$h" ip link set vxlan0 up
  in_ns "$h" ip link add cni0 address "$(gw_mac "$i")" mtu 1450 type bridge
  in_ns "$h" ip addr add "198.19.$i.1/24" dev cni0
  in_ns "$h" ip link set cni0 up
  for j in $(seq 1 "$HOSTS"); do
    [ "$j" -eq "$i" ] && continue
    in_ns "$h" ip neigh add "198.19.$j.0" lladdr "$(vtep_mac "$j")" dev vxlan0 nud permanent
    in_ns "$h" bridge fdb append "$(vtep_mac "$j")" dev vxlan0 dst "$(host_ip "$j")"
    in_ns "$h" ip route add "198.19.$j.0/24" via "198.19.$j.0" dev vxlan0 onlink
  done
  # Conntrack is strict about TCP it has not seen open (no loose pickup; INVALID is dropped),
  # so a flow whose entry was flushed cannot restart mid-stream; it does not check windows
  # (be_liberal), since an ONCache flow's established packets bypass conntrack.
  in_ns "$h" sysctl -qw net.netfilter.nf_conntrack_tcp_loose=0 net.netfilter.nf_conntrack_tcp_be_liberal=1
  in_ns "$h" iptables -t mangle -A FORWARD -m conntrack --ctstate INVALID -j DROP
  # Policy first, then the est mark: a dropped packet never carries the mark.
  in_ns "$h" iptables -t mangle -N ONCACHE-POLICY
  in_ns "$h" iptables -t mangle -A FORWARD -j ONCACHE-POLICY
  in_ns "$h" iptables -t mangle -A FORWARD -s 198.19.0.0/16 -d 198.19.0.0/16 \
    -m conntrack --ctstate ESTABLISHED,RELATED -j TOS --or-tos 0x08
  # Anti-spoofing on the bridge (as a bridge CNI's): an IPv4 packet a pod sends, routed or
  # bridged, must carry the pod's own source address (one rule per pod port, see make_pod).
  in_ns "$h" ebtables -N POD-SOURCE -P RETURN
  in_ns "$h" ebtables -A INPUT -j POD-SOURCE
  in_ns "$h" ebtables -A FORWARD -j POD-SOURCE
  for k in $(seq 1 "$PODS"); do make_pod "$i" "$k" "$(pod_ip "$i" "$k")" "$(pod_mac "$i" "$k")"; done
}

# pod_source add|del HOST K IP: the anti-spoofing rule of pod K's port vp<K> on host HOST.
pod_source() {
  local op=-A
  [ "$1" = add ] || op=-D
  in_ns "$(ns_host "$2")" ebtables "$op" POD-SOURCE -i "vp$3" -p IPv4 --ip-src ! "$4" -j DROP
}

# make_pod HOST K IP MAC: pod namespace, veth pair on cni0, address, default route and the
# port's anti-spoofing rule. A pod outside the host's /24 (after a migration) gets a /32 and a
# host route for it.
make_pod() {
  local i=$1 k=$2 ip=$3 mac=$4 h p
  h=$(ns_host "$i")
  p=$(ns_pod "$i" "$k")
  ip netns add "$p"
  in_ns "$p" ip link set lo up
  ip -n "$h" link add "vp$k" mtu 1450 type veth peer name eth0 netns "$p"
  in_ns "$p" ip link set eth0 address "$mac" mtu 1450
  in_ns "$h" ip link set "vp$k" master cni0 up
  in_ns "$p" ip link set eth0 up
  if [ "${ip%.*}" = "198.19.$i" ]; then
    in_ns "$p" ip addr add "$ip/24" dev eth0
  else
    in_ns "$p" ip addr add "$ip/32" dev eth0
    in_ns "$p" ip route add "198.19.$i.1" dev eth0
    in_ns "$h" ip route add "$ip/32" dev cni0
  fi
  in_ns "$p" ip route add default via "198.19.$i.1"
  pod_source add "$i" "$k" "$ip"
}

attach_oncache_host() {
  local i=$1 h
  h=$(ns_host "$i")
  agent init --host "$(agent_host "$i")" --netns "$h" --nic eth0 --vni "$VNI"
  for k in $(seq 1 "$PODS"); do
    agent pod-add --host "$(agent_host "$i")" --netns "$h" --pod-netns "$(ns_pod "$i" "$k")" \
      --veth "vp$k" --ip "$(pod_ip "$i" "$k")"
  done
}

up() {
  [ "$(id -u)" -eq 0 ] || die "needs root (network namespaces, iptables, eBPF)"
  if [ "$MODE" = oncache ] && [ ! -x "$AGENT" ]; then
    die "--agent: '$AGENT' is not an executable (build the oncache-agent target)"
  fi
  down
  trap 'echo "oncache-testbed: error: setup failed, tearing down" >&2; down' ERR
  build_underlay
  if [ "$MODE" != baremetal ]; then
    for i in $(seq 1 "$HOSTS"); do build_overlay_host "$i"; done
  fi
  if [ "$MODE" = oncache ]; then
    for i in $(seq 1 "$HOSTS"); do attach_oncache_host "$i"; done
  fi
  trap - ERR
  echo "oncache-testbed: $HOSTS hosts x $PODS pods up in mode $MODE (tag $TAG)"
}

# flush_conntrack HOSTNS IP: deletes every conntrack entry with IP on either side.
flush_conntrack() {
  local out
  for side in -s -d; do
    # conntrack exits 1 when nothing matched; anything else on stderr is an error.
    out=$(in_ns "$1" conntrack -D "$side" "$2" 2>&1 >/dev/null) || true
    case "$out" in "" | *"0 flow entries"* | *"flow entries have been deleted"*) ;; *) die "conntrack: $out" ;; esac
  done
}

# flush_neighbour HOSTNS IP: deletes the host's neighbour entry of a pod IP on cni0, and with
# it the packets queued on it while it was unresolved (the kernel drops them). Without this, a
# packet that passed the FORWARD chain as established before the pod's conntrack entries were
# flushed waits in that queue for the IP to answer ARP, and a new pod with the IP gets it.
flush_neighbour() {
  in_ns "$1" ip neigh flush to "$2" dev cni0
}

# reuse HOST POD: the pod vanishes at once (as a force-deleted pod: its veth goes first, so its
# sockets cannot close their connections) and a new pod (new MAC) takes its IP on the same
# host. The host flushes conntrack for the IP (as a CNI does on pod deletion), then the IP's
# neighbour entry (see flush_neighbour; conntrack first, so that no old packet can queue on a
# fresh entry afterwards). ONCache: pod-del, forget on every other host, pod-add (the
# ONCache paper's cache invalidation).
reuse() {
  local i=$1 k=$2 n ip h p
  n=$(host_count)
  h=$(ns_host "$i")
  p=$(ns_pod "$i" "$k")
  grep -q "^$p\b" <<<"$(ip netns list)" || die "reuse: no pod $k on host $i"
  ip=$(in_ns "$p" ip -4 -o addr show dev eth0 | awk '{print $4}' | cut -d/ -f1)
  local oncache=0
  [ -d "/run/oncache-bpf/$(agent_host "$i")" ] && oncache=1
  if [ "$oncache" = 1 ]; then
    agent pod-del --host "$(agent_host "$i")" --netns "$h" --ip "$ip"
  fi
  ip -n "$h" link del "vp$k"
  pod_source del "$i" "$k" "$ip"
  ip netns pids "$p" 2>/dev/null | xargs -r kill -9 2>/dev/null || true
  ip netns del "$p"
  flush_conntrack "$h" "$ip"
  flush_neighbour "$h" "$ip"
  make_pod "$i" "$k" "$ip" "$(printf '02:ac:00:%02x:%02x:00' "$i" "$k")"
  if [ "$oncache" = 1 ]; then
    for j in $(seq 1 "$n"); do
      [ "$j" -eq "$i" ] || agent forget --host "$(agent_host "$j")" --ip "$ip"
    done
    agent pod-add --host "$(agent_host "$i")" --netns "$h" --pod-netns "$p" --veth "vp$k" --ip "$ip"
  fi
}

# migrate HOST POD TO: the pod's IP moves to a new pod (new MAC) on host TO, as pod NEWK there.
# Routing gets a /32 for the IP on every host; ONCache: pod-del on the old host, forget on
# every other host, pod-add on the new one (the ONCache paper's cache invalidation).
migrate() {
  local from=$1 k=$2 to=$3 n ip newk=$4
  n=$(host_count)
  [ "$from" -ge 1 ] && [ "$from" -le "$n" ] && [ "$to" -ge 1 ] && [ "$to" -le "$n" ] &&
    [ "$from" -ne "$to" ] || die "migrate: hosts must be two different hosts in [1, $n]"
  grep -q "^$(ns_pod "$from" "$k")\b" <<<"$(ip netns list)" || die "migrate: no pod $k on host $from"
  ip=$(in_ns "$(ns_pod "$from" "$k")" ip -4 -o addr show dev eth0 | awk '{print $4}' | cut -d/ -f1)
  local oncache=0
  [ -d "/run/oncache-bpf/$(agent_host "$from")" ] && oncache=1
  if [ "$oncache" = 1 ]; then
    agent pod-del --host "$(agent_host "$from")" --netns "$(ns_host "$from")" --ip "$ip"
  fi
  # A namespace lives on while a process is in it: end the pod's processes first.
  ip netns pids "$(ns_pod "$from" "$k")" 2>/dev/null | xargs -r kill 2>/dev/null || true
  ip netns del "$(ns_pod "$from" "$k")"
  pod_source del "$from" "$k" "$ip"
  flush_neighbour "$(ns_host "$from")" "$ip"
  make_pod "$to" "$newk" "$ip" "$(printf '02:ab:00:%02x:%02x:00' "$to" "$newk")"
  for j in $(seq 1 "$n"); do
    [ "$j" -eq "$to" ] && continue
    in_ns "$(ns_host "$j")" ip route replace "$ip/32" via "198.19.$to.0" dev vxlan0 onlink
    if [ "$oncache" = 1 ]; then
      agent forget --host "$(agent_host "$j")" --ip "$ip"
    fi
  done
  if [ "$oncache" = 1 ]; then
    agent pod-add --host "$(agent_host "$to")" --netns "$(ns_host "$to")" \
      --pod-netns "$(ns_pod "$to" "$newk")" --veth "vp$newk" --ip "$ip"
  fi
}

host_count() {
  ip netns list | awk '{print $1}' | grep -cE "^onc-$TAG-h[0-9]+$" || true
}

# deny/allow: the same rule on every host (policy lives in each host's FORWARD path); with
# ONCache, every host's agent then drops the affected filter entries, so the next packet of an
# established flow goes through the slow path and meets the rule.
policy() {
  local action=$1 src=$2 dst=$3 n
  n=$(host_count)
  [ "$n" -ge 1 ] || die "no testbed with tag '$TAG' is up"
  for i in $(seq 1 "$n"); do
    local h
    h=$(ns_host "$i")
    if [ "$action" = deny ]; then
      in_ns "$h" iptables -t mangle -A ONCACHE-POLICY -s "$src" -d "$dst" -j DROP
    else
      in_ns "$h" iptables -t mangle -D ONCACHE-POLICY -s "$src" -d "$dst" -j DROP
    fi
    if [ -d "/run/oncache-bpf/$(agent_host "$i")" ]; then
      agent policy --host "$(agent_host "$i")" --laddr "$src" --raddr "$dst" >/dev/null
      agent policy --host "$(agent_host "$i")" --laddr "$dst" --raddr "$src" >/dev/null
    fi
  done
}

main() {
  [ $# -ge 1 ] || die "usage: oncache-testbed.sh up|down|deny|allow|dump|exec ..."
  local cmd=$1
  shift
  [ "$cmd" != exec ] || STOP_AT_COMMAND=1
  parse_opts "$@"
  set -- "${POSITIONAL[@]+"${POSITIONAL[@]}"}"
  case "$cmd" in
    up) [ $# -eq 0 ] || die "up: unexpected argument '$1'"; up ;;
    down) down ;;
    deny | allow)
      [ $# -eq 2 ] || die "$cmd: needs SRC_IP DST_IP"
      policy "$cmd" "$1" "$2"
      ;;
    migrate)
      [ $# -eq 4 ] || die "migrate: needs HOST POD TO_HOST NEW_POD"
      for v in "$@"; do [[ "$v" =~ ^[0-9]+$ ]] || die "migrate: '$v' is not a number"; done
      migrate "$1" "$2" "$3" "$4"
      ;;
    reuse)
      [ $# -eq 2 ] || die "reuse: needs HOST POD"
      for v in "$@"; do [[ "$v" =~ ^[0-9]+$ ]] || die "reuse: '$v' is not a number"; done
      reuse "$1" "$2"
      ;;
    dump)
      [ $# -eq 1 ] || die "dump: needs HOST"
      agent dump --host "$(agent_host "$1")"
      ;;
    exec)
      [ $# -ge 3 ] || die "exec: needs HOST POD CMD..."
      local ns
      if [ "$2" = 0 ]; then ns=$(ns_host "$1"); else ns=$(ns_pod "$1" "$2"); fi
      shift 2
      exec ip netns exec "$ns" "$@" # one process: a signal to this PID reaches CMD
      ;;
    *) die "unknown command '$cmd'" ;;
  esac
}

main "$@"

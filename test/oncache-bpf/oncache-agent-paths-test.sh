#!/usr/bin/env bash
# What oncache-agent may touch on the file system, in a scratch directory.
#   oncache-agent-paths-test.sh refusals <oncache-agent>
#     Any user. Hostile host names on every verb, symbolic links, directories and files the
#     agent did not create, a pin root that is an existing ordinary directory: each is refused
#     with one line naming the option and a non-zero exit, and the scratch tree is unchanged.
#     Controls: a plain name gets past the check; a state directory with the agent's marker
#     and records is cleaned; the tree comparison notices a deleted file.
#   oncache-agent-paths-test.sh lifecycle <oncache-agent>
#     Root (network and mount namespaces, bpffs, eBPF; exits 77 otherwise). init on a pin root
#     that does not exist creates it, mounts a bpffs there and marks both directories;
#     pod-add whose egress attach fails leaves no ingress entry and no record; a legitimate
#     cleanup deletes everything the agent made and nothing else. Addresses: 198.18.0.0/15.
set -u

MODE=$1
AGENT=$2
failures=0
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}
skip() {
  echo "SKIP: $*"
  exit 77
}

D=$(mktemp -d /tmp/oncache-agent-paths.XXXXXX) || exit 1
cd "$D" || exit 1 # a relative path given to the agent stays in the scratch directory
NONS="onc-paths-none-$$" # a network namespace that does not exist: no device is touched
cleanup_scratch() {
  if [ -n "${NS:-}" ]; then ip netns del "$NS" 2>/dev/null; fi
  if [ -n "${NSP:-}" ]; then ip netns del "$NSP" 2>/dev/null; fi
  umount "$D/pins" 2>/dev/null
  rm -rf "$D"
}
trap cleanup_scratch EXIT

# A listing of the scratch tree: every path, its type and the checksum of every file.
snapshot() {
  (cd "$D" && find . -path ./pins -prune -o -print0 | sort -z |
    while IFS= read -r -d '' p; do
      if [ -f "$p" ] && [ ! -L "$p" ]; then
        echo "$p f $(md5sum <"$p" | cut -c1-32)"
      elif [ -L "$p" ]; then
        echo "$p l $(readlink "$p")"
      else
        echo "$p d"
      fi
    done)
}

# refused WHAT EXPECTED -- ARGS...: exit non-zero, exactly one line on stderr naming EXPECTED,
# nothing in the scratch tree changed.
refused() {
  local what=$1 expected=$2
  shift 3
  local before after err rc
  before=$(snapshot)
  err=$("$AGENT" "$@" 2>&1 >/dev/null)
  rc=$?
  after=$(snapshot)
  if [ "$rc" -eq 0 ]; then
    fail "$what: exit 0, expected a refusal"
  elif [ "$(printf '%s\n' "$err" | wc -l)" -ne 1 ] || [[ "$err" != *"$expected"* ]]; then
    fail "$what: expected one line naming '$expected', got: $err"
  fi
  [ "$before" = "$after" ] || fail "$what: the scratch tree changed: $(diff <(echo "$before") <(echo "$after") | head -5)"
  echo "ok: $what: $err"
}

populate() {
  mkdir -p "$D/state" "$D/unrelated" "$D/pinroot-existing/mine"
  echo precious >"$D/unrelated/keep.txt"
  echo notes >"$D/notes.txt"
  echo theirs >"$D/pinroot-existing/mine/file"
}

if [ "$MODE" = refusals ]; then
  populate
  roots=(--state-root "$D/state" --pin-root "$D/pins")
  long=$(printf 'h%.0s' $(seq 33))
  for verb in cleanup dump pod-add pod-del forget policy node-del init; do
    case $verb in
      init) extra=(--nic eth0 --netns "$NONS") ;;
      pod-add) extra=(--pod-netns p --veth v --ip 198.19.1.10 --netns "$NONS") ;;
      pod-del | forget) extra=(--ip 198.19.1.10 --netns "$NONS") ;;
      node-del) extra=(--node-ip 198.18.0.12) ;;
      *) extra=(--netns "$NONS") ;;
      # policy and node-del take no --netns
    esac
    [ "$verb" = policy ] && extra=()
    for host in .. . ../x x/.. "" "a/b" "/etc" "$long" "-x" "a b" $'a\nb'; do
      refused "$verb --host $(printf %q "$host")" "--host" -- "$verb" --host "$host" "${roots[@]}" "${extra[@]}"
    done
  done
  # Other names reach no path either.
  refused "init --netns ../x" "--netns" -- init --host h --netns ../x --nic eth0 "${roots[@]}"
  refused "pod-add --pod-netns ../x" "--pod-netns" -- pod-add --host h --netns "$NONS" \
    --pod-netns ../x --veth v --ip 198.19.1.10 "${roots[@]}"
  refused "relative --state-root" "--state-root" -- cleanup --host h --netns "$NONS" \
    --state-root state --pin-root "$D/pins"

  # A symbolic link as the host's state directory, pointing out of the root.
  ln -s "$D/unrelated" "$D/state/h1"
  refused "cleanup of a state directory that is a symbolic link" "--state-root" -- \
    cleanup --host h1 --netns "$NONS" "${roots[@]}"
  rm "$D/state/h1"
  # A directory (with a file named like a pod record) the agent did not create: no marker.
  mkdir "$D/state/h2"
  echo "not the agent's" >"$D/state/h2/198.19.1.10"
  refused "cleanup of a directory without the agent's marker" "no marker" -- \
    cleanup --host h2 --netns "$NONS" "${roots[@]}"
  refused "pod-add into a state directory without the marker" "no marker" -- \
    pod-add --host h2 --netns "$NONS" --pod-netns p --veth v --ip 198.19.1.11 "${roots[@]}"
  # A marked directory that holds a file the agent does not write: nothing deleted, records
  # included.
  mkdir "$D/state/h3"
  echo "oncache-agent state of host h3" >"$D/state/h3/.oncache-agent"
  echo "p eth0" >"$D/state/h3/198.19.1.10"
  echo precious >"$D/state/h3/precious.txt"
  refused "cleanup of a marked directory holding a foreign file" "precious.txt" -- \
    cleanup --host h3 --netns "$NONS" "${roots[@]}"
  # The marker itself as a symbolic link does not count.
  mkdir "$D/state/h4"
  ln -s "$D/notes.txt" "$D/state/h4/.oncache-agent"
  refused "cleanup with a marker that is a symbolic link" "no marker" -- \
    cleanup --host h4 --netns "$NONS" "${roots[@]}"
  # The pin root: an existing ordinary directory the agent did not create gets no bpffs
  # mounted over it (refused before Cleanup's namespace work and before any mount).
  refused "init over an existing non-bpffs pin root" "--pin-root" -- \
    init --host h5 --netns "$NONS" --nic eth0 --state-root "$D/state" --pin-root "$D/pinroot-existing"
  mkdir "$D/pinroot-empty"
  refused "init over an existing empty pin root" "--pin-root" -- \
    init --host h5 --netns "$NONS" --nic eth0 --state-root "$D/state" --pin-root "$D/pinroot-empty"

  # Controls. A plain name passes the name check (here: nothing to clean, exit 0).
  if ! err=$("$AGENT" cleanup --host h-ok_1 --netns "$NONS" "${roots[@]}" 2>&1); then
    fail "control: cleanup of a plain host name with nothing to clean failed: $err"
  fi
  # A state directory as the agent writes it (marker, pod records) is cleaned; nothing else is.
  mkdir "$D/state/h6"
  echo "oncache-agent state of host h6" >"$D/state/h6/.oncache-agent"
  echo "p1 eth0" >"$D/state/h6/198.19.1.10"
  echo "p2 eth0" >"$D/state/h6/198.19.1.11"
  before=$(snapshot | grep -v '^\./state/h6')
  if ! err=$("$AGENT" cleanup --host h6 --netns "$NONS" "${roots[@]}" 2>&1); then
    fail "control: cleanup of the agent's own state directory failed: $err"
  fi
  [ -e "$D/state/h6" ] && fail "control: cleanup left $D/state/h6"
  [ "$before" = "$(snapshot)" ] || fail "control: cleanup changed something besides state/h6"
  # The tree comparison itself notices a change.
  before=$(snapshot)
  rm "$D/notes.txt"
  [ "$before" != "$(snapshot)" ] || fail "control: the tree comparison missed a deleted file"
  [ -f "$D/unrelated/keep.txt" ] || fail "unrelated/keep.txt was deleted"
elif [ "$MODE" = lifecycle ]; then
  [ "$(id -u)" -eq 0 ] || skip "needs root (network and mount namespaces, bpffs, eBPF)"
  for tool in ip tc unshare; do
    command -v "$tool" >/dev/null || skip "'$tool' is not installed"
  done
  # Run again in a private mount namespace: the bpffs mounted by init stays in it.
  if [ -z "${ONCACHE_PATHS_UNSHARED:-}" ]; then
    rm -rf "$D"
    trap - EXIT
    ONCACHE_PATHS_UNSHARED=1 exec unshare --mount --propagation private -- "$0" "$@"
  fi
  populate
  NS="onc-paths-$$"
  NSP="onc-paths-$$-p"
  ip netns add "$NS" 2>/dev/null || skip "the kernel refuses network namespaces"
  ip netns add "$NSP"
  ip -n "$NS" link set lo up
  ip -n "$NS" link add eth0 type dummy 2>/dev/null ||
    ip -n "$NS" link add eth0 type veth peer name eth0p
  ip -n "$NS" addr add 198.18.0.11/24 dev eth0
  ip -n "$NS" link set eth0 up
  ip -n "$NS" link add vp1 type veth peer name eth0 netns "$NSP"
  ip -n "$NS" link set vp1 up
  ip -n "$NSP" link set eth0 up
  A=(--host h --netns "$NS" --state-root "$D/state" --pin-root "$D/pins")
  if ! out=$("$AGENT" init "${A[@]}" --nic eth0 2>&1); then
    case "$out" in
      *"Operation not permitted"* | *"refused"*) skip "the kernel refuses bpffs or eBPF: $out" ;;
    esac
    fail "init: $out"
    exit 1
  fi
  [ "$(stat -f -c %T "$D/pins")" = bpf_fs ] || fail "init did not mount a bpffs on the pin root it created"
  [ -d "$D/pins/h/oncache-agent-marker" ] || fail "no marker in the pin directory"
  [ -f "$D/state/h/.oncache-agent" ] || fail "no marker in the state directory"
  [ -e "$D/pins/h/ingress_cache" ] || fail "no pinned ingress_cache"
  # pod-add whose egress attach fails: an operator's filter of another protocol holds the
  # agent's priority on the veth, so tc refuses the agent's filter there.
  tc -n "$NS" qdisc add dev vp1 clsact
  tc -n "$NS" filter add dev vp1 ingress prio 1 protocol ip u32 match u32 0 0 classid 1:1 ||
    skip "cannot add a u32 filter (cls_u32)"
  if err=$("$AGENT" pod-add "${A[@]}" --pod-netns "$NSP" --veth vp1 --ip 198.19.1.10 2>&1); then
    fail "pod-add succeeded although the egress attach should fail"
  fi
  echo "ok: pod-add with a failing egress attach: $err"
  "$AGENT" dump "${A[@]}" | grep -q '^ingress 198.19.1.10' &&
    fail "pod-add left an ingress entry although its egress program is not attached"
  [ -e "$D/state/h/198.19.1.10" ] && fail "pod-add left a pod record after failing"
  tc -n "$NSP" filter show dev eth0 ingress | grep -q bpf &&
    fail "pod-add left the learning program attached after failing"
  # Control: without the conflicting filter the same pod-add publishes the entry.
  tc -n "$NS" filter del dev vp1 ingress prio 1
  if ! err=$("$AGENT" pod-add "${A[@]}" --pod-netns "$NSP" --veth vp1 --ip 198.19.1.10 2>&1); then
    fail "control: pod-add failed: $err"
  fi
  "$AGENT" dump "${A[@]}" | grep -q '^ingress 198.19.1.10 unlearned$' ||
    fail "control: pod-add wrote no ingress entry"
  tc -n "$NS" filter show dev vp1 ingress | grep -q bpf || fail "control: egress program not attached"
  # A file the agent did not write in its state directory stops cleanup before any deletion.
  echo precious >"$D/state/h/precious.txt"
  if "$AGENT" cleanup "${A[@]}" 2>/dev/null; then
    fail "cleanup went on with a foreign file in the state directory"
  fi
  [ -e "$D/pins/h/ingress_cache" ] || fail "a refused cleanup deleted pins"
  tc -n "$NS" filter show dev vp1 ingress | grep -q bpf || fail "a refused cleanup detached programs"
  rm "$D/state/h/precious.txt"
  # The legitimate cleanup deletes what the agent made, and nothing else.
  before=$(snapshot | grep -v '^\./state/h')
  if ! err=$("$AGENT" cleanup "${A[@]}" 2>&1); then
    fail "cleanup: $err"
  fi
  [ -e "$D/state/h" ] && fail "cleanup left the state directory"
  [ -e "$D/pins/h" ] && fail "cleanup left the pin directory"
  tc -n "$NS" filter show dev vp1 ingress | grep -q bpf && fail "cleanup left the egress program"
  tc -n "$NS" filter show dev eth0 egress | grep -q bpf && fail "cleanup left the NIC program"
  [ "$before" = "$(snapshot)" ] || fail "cleanup changed something besides its own directories"
  # The pin root the agent created keeps its mount marker: init mounts a bpffs again there
  # (after an unmount), but not on a pin root holding anything else.
  umount "$D/pins"
  [ -f "$D/pins/.oncache-agent-bpffs" ] || fail "no mount marker under the pin root"
  "$AGENT" init "${A[@]}" --nic eth0 || fail "init on the agent's own (unmounted) pin root"
  "$AGENT" cleanup "${A[@]}" || fail "second cleanup"
  umount "$D/pins"
  echo theirs >"$D/pins/file"
  if err=$("$AGENT" init "${A[@]}" --nic eth0 2>&1); then
    fail "init mounted a bpffs over a pin root holding a file it did not write"
  fi
  [ "$(stat -f -c %T "$D/pins")" = bpf_fs ] && fail "a bpffs was mounted over $D/pins"
  echo "ok: init over a pin root with a foreign file: $err"
else
  echo "usage: $0 refusals|lifecycle <oncache-agent>"
  exit 2
fi

if [ "$failures" -ne 0 ]; then
  echo "$failures failures"
  exit 1
fi
echo "PASS"

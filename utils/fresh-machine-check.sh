#!/usr/bin/env bash
# Proves the README's two set-up commands on a fresh Debian 12 machine: builds a clean
# bookworm root (minbase, from Debian's archive) with mmdebstrap, copies the committed tree
# (git HEAD) into it and runs, as root inside the root, exactly the two commands the README
# gives: the main job, then the tests (in a second, fresh copy of the tree). Nothing from this
# machine's installed packages reaches the root. Needs root and mmdebstrap (installed here if
# missing); 7 minutes on an idle 2-core machine (25 on a busy one), most of it the two builds.
#
#   utils/fresh-machine-check.sh                 # check HEAD; the root is removed afterwards
#   utils/fresh-machine-check.sh --keep DIR      # build the root in DIR and keep it
#
# Prints one line per step and "fresh-machine-check: PASS" (exit 0) or the failing step with
# the tail of its log (exit 1). Logs: <root>/root/fresh-check-{main,tests}.log.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
keep=""
if [ "${1:-}" = "--keep" ]; then
  keep=${2:?"--keep needs a directory"}
elif [ $# -gt 0 ]; then
  echo "usage: $0 [--keep DIR]" >&2
  exit 2
fi
[ "$(id -u)" -eq 0 ] || { echo "fresh-machine-check: run as root" >&2; exit 1; }

# The two commands, read from the README so that the check and the README cannot drift apart:
# the first and second code lines that start with utils/install-deps.sh.
mapfile -t commands < <(grep -E '^utils/install-deps\.sh && ' "$repo/README.md")
[ "${#commands[@]}" -eq 2 ] || {
  echo "fresh-machine-check: expected 2 set-up commands in README.md, found ${#commands[@]}" >&2
  exit 1
}

if ! command -v mmdebstrap > /dev/null; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq mmdebstrap > /dev/null
fi

root=${keep:-$(mktemp -d /var/tmp/fresh-debian12.XXXXXX)}
mounts=()
cleanup() {
  for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do umount -l "${mounts[i]}" 2> /dev/null || true; done
  [ -n "$keep" ] || rm -rf --one-file-system "$root"
}
trap cleanup EXIT

step() { echo "fresh-machine-check: $(date +%T) $*"; }

step "building a clean Debian 12 root in $root"
rm -rf --one-file-system "$root"
mmdebstrap --quiet --variant=minbase --mode=root \
  --aptopt='Acquire::Check-Valid-Until "false"' \
  bookworm "$root" \
  "deb http://deb.debian.org/debian bookworm main" \
  "deb http://deb.debian.org/debian bookworm-updates main" \
  "deb http://deb.debian.org/debian-security bookworm-security main"

# The root is a mount point of its own, as / is on a real machine (ip netns exec, which the
# eBPF testbed's tests use, makes / a slave mount and fails on a plain directory).
mount --bind "$root" "$root"
mounts+=("$root")
mount --make-private "$root"
for m in proc sys dev dev/pts; do
  mount --bind "/$m" "$root/$m"
  mounts+=("$root/$m")
done
cp /etc/resolv.conf "$root/etc/resolv.conf"

# Two fresh copies of the committed tree, as a clone would have it.
for copy in main tests; do
  mkdir -p "$root/root/$copy/suite"
  git -C "$repo" archive --format=tar HEAD | tar -x -C "$root/root/$copy/suite"
done

run() { # name, command
  local name=$1 command=$2 log="/root/fresh-check-$1.log" start=$SECONDS
  step "$name: $command"
  if ! chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
       LANG=C.UTF-8 /bin/bash -c "cd /root/$name/suite && ( $command )" > "$root$log" 2>&1; then
    step "$name: FAILED after $((SECONDS - start)) s; last lines of $root$log:"
    tail -n 30 "$root$log"
    echo "fresh-machine-check: FAIL"
    keep=${keep:-$root} # leave the root for a look
    exit 1
  fi
  step "$name: passed in $((SECONDS - start)) s"
}

run main "${commands[0]}"
grep -E '^# completion time ratio' "$root/root/fresh-check-main.log" || true
run tests "${commands[1]}"
grep -E 'tests passed|tests failed' "$root/root/fresh-check-tests.log" || true
echo "fresh-machine-check: PASS"

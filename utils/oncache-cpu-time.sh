#!/usr/bin/env bash
# Runs CMD as a child, passes SIGINT or SIGTERM on to it as SIGTERM, and writes the CPU time of CMD and of all
# its waited-for descendants (getrusage RUSAGE_CHILDREN via bash's `times`: user + system,
# which on a kernel without CONFIG_IRQ_TIME_ACCOUNTING includes the softirq work that ran in
# their context) as seconds to OUT, and CMD's PID to OUT.pid. Used by utils/oncache-bench.sh.
#
#   utils/oncache-cpu-time.sh OUT CMD...
set -u
[ $# -ge 2 ] || {
  echo "oncache-cpu-time: error: usage: oncache-cpu-time.sh OUT CMD..." >&2
  exit 1
}
out=$1
shift
"$@" &
child=$!
echo "$child" >"$out.pid"
trap 'kill -TERM "$child" 2>/dev/null' INT TERM
status=0
while :; do
  wait "$child"
  status=$?
  kill -0 "$child" 2>/dev/null || break # wait returned because of a trapped signal
done
# `times`: line 2 is the children's user and system time, e.g. "0m1.234s 0m0.567s".
# (`times` must run in this shell, not in a pipeline's subshell.)
times >"$out"
awk 'NR == 2 {split($1, u, /[ms]/); split($2, s, /[ms]/); printf "%.3f\n", u[1] * 60 + u[2] + s[1] * 60 + s[2]}' "$out" >"$out.tmp"
mv "$out.tmp" "$out"
exit "$status"

#!/usr/bin/env python3
"""Counters of an ONCache testbed (utils/oncache-testbed.sh) around a command: the timing-free
evidence of where packets go and where they are lost. Root.

    utils/oncache-counters.py --tag T [--json FILE] [--all] -- CMD...

Runs CMD and prints, for every namespace of the testbed (onc-<T>-*), the change of:
  * the SNMP/netstat counters (/proc/net/snmp, /proc/net/netstat: Udp InDatagrams,
    InErrors, RcvbufErrors, SndbufErrors, Ip InReceives/OutRequests/ForwDatagrams, TcpExt ...),
  * every device's statistics (ip -s -s -j link: packets, bytes, dropped, errors),
  * every qdisc's statistics (tc -s -j qdisc: sent, dropped, overlimits, requeues),
  * the ONCache programs' run counts and run time (bpftool prog show: run_cnt, run_time_ns;
    needs kernel.bpf_stats_enabled=1, which this script sets for the run and restores),
and the machine-wide backlog counters (/proc/net/softnet_stat: processed, dropped,
time_squeeze per CPU). Only counters that changed are printed (all with --all); --json writes
every delta. Nothing here depends on timing: a packet lost is counted where it is lost.
"""
import argparse
import json
import os
import signal
import subprocess
import sys


def _terminate(signum, frame):
    raise SystemExit(128 + signum)


def sh(args, ns=None):
    if ns:
        args = ["ip", "netns", "exec", ns] + args
    return subprocess.run(args, check=True, capture_output=True, text=True).stdout


def namespaces(tag):
    out = sh(["ip", "-j", "netns", "list"])
    names = [n["name"] for n in json.loads(out or "[]")]
    return sorted(n for n in names if n.startswith("onc-%s-" % tag))


def snmp(ns):
    values = {}
    text = sh(["cat", "/proc/net/snmp", "/proc/net/netstat"], ns)
    lines = text.splitlines()
    for head, vals in zip(lines[0::2], lines[1::2]):
        h = head.split()
        v = vals.split()
        if not h or h[0] != v[0]:
            continue
        for name, value in zip(h[1:], v[1:]):
            try:
                values[h[0].rstrip(":") + "." + name] = int(value)
            except ValueError:
                pass
    return values


def links(ns):
    values = {}
    for link in json.loads(sh(["ip", "-s", "-s", "-j", "link", "show"], ns) or "[]"):
        name = link["ifname"]
        if name == "lo":
            continue
        for direction in ("rx", "tx"):
            for key, value in link.get("stats64", {}).get(direction, {}).items():
                if isinstance(value, int):
                    values["link.%s.%s_%s" % (name, direction, key)] = value
    return values


def qdiscs(ns):
    values = {}
    for q in json.loads(sh(["tc", "-s", "-j", "qdisc", "show"], ns) or "[]"):
        name = "qdisc.%s.%s.%s" % (q.get("dev"), q.get("kind"), q.get("handle", ""))
        for key in ("bytes", "packets", "drops", "overlimits", "requeues", "backlog", "qlen"):
            if isinstance(q.get(key), int):
                values[name + "." + key] = q[key]
    return values


def softnet():
    values = {}
    with open("/proc/net/softnet_stat") as f:
        for cpu, line in enumerate(f):
            fields = [int(x, 16) for x in line.split()]
            values["softnet.cpu%d.processed" % cpu] = fields[0]
            values["softnet.cpu%d.dropped" % cpu] = fields[1]
            values["softnet.cpu%d.time_squeeze" % cpu] = fields[2]
    return values


def bpf_progs():
    values = {}
    try:
        progs = json.loads(sh(["bpftool", "-j", "prog", "show"]) or "[]")
    except (subprocess.CalledProcessError, FileNotFoundError):
        return values
    for p in progs:
        name = p.get("name", "")
        if not name.startswith("oncache"):
            continue
        key = "bpf.%s#%d" % (name, p["id"])
        values[key + ".run_cnt"] = p.get("run_cnt", 0)
        values[key + ".run_time_ns"] = p.get("run_time_ns", 0)
    return values


def snapshot(tag):
    values = {}
    for ns in namespaces(tag):
        short = ns[len("onc-%s-" % tag):]
        for getter in (snmp, links, qdiscs):
            for key, value in getter(ns).items():
                values[short + ":" + key] = value
    values.update(softnet())
    values.update(bpf_progs())
    return values


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tag", required=True)
    parser.add_argument("--json")
    parser.add_argument("--all", action="store_true")
    parser.add_argument("cmd", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    cmd = args.cmd[1:] if args.cmd[:1] == ["--"] else args.cmd
    if not cmd:
        parser.error("no command")
    if os.geteuid() != 0:
        parser.error("needs root")
    # SIGTERM (a killed job) unwinds through the finally below, which restores the sysctl.
    signal.signal(signal.SIGTERM, _terminate)
    stats_path = "/proc/sys/kernel/bpf_stats_enabled"
    with open(stats_path) as f:
        stats_before = f.read().strip()
    with open(stats_path, "w") as f:
        f.write("1")
    try:
        before = snapshot(args.tag)
        status = subprocess.run(cmd).returncode
        after = snapshot(args.tag)
    finally:
        with open(stats_path, "w") as f:
            f.write(stats_before)
    delta = {k: after[k] - before.get(k, 0) for k in sorted(after)}
    if args.json:
        with open(args.json, "w") as f:
            json.dump(delta, f, indent=1, sort_keys=True)
    for key, value in delta.items():
        if value or args.all:
            print("%-60s %14d" % (key, value))
    return status


if __name__ == "__main__":
    sys.exit(main())

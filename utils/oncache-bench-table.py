#!/usr/bin/env python3
"""The table of utils/oncache-bench.sh from its CSV (mode,rep,metric,value): per mode the
median over the repetitions and its spread, and ONCache's gain over the overlay as the median
of the per-repetition ratios (the two modes measured side by side) with their range.

    utils/oncache-bench-table.py CSV [--spread PCT]

Gains: rates ONCache over overlay (+ is more), latency overlay over ONCache (+ is faster),
CPU ONCache over overlay (- is less CPU); skb sizes, ACK ratios and drop shares have none.
Spread of a mode: (max - min) / median over its repetitions, in percent. A gain is flagged
in the last column, and is not a gain, when the overlay's or ONCache's spread exceeds --spread
percent ("spread") or when its per-repetition ratios do not all have the same sign ("sign"),
or when fewer than 3 repetitions measured both modes ("reps<3").
Beside it, the paper's figure (ONCache against Antrea, evaluation; RR figures are 1-byte
netperf).
"""
import argparse
import csv
import math
import sys

MODES = ("baremetal", "overlay", "oncache")
PAPER = {
    "tcp_gbps_P1": "+11.5%",
    "tcp_gbps_P2": "+14.0%",
    "udp_gbps": "+19.7..31.8%",
    "tcp_rr_tps_64": "+35.8..40.9%",
    "udp_rr_tps_64": "+34.1..39.1%",
    "tcp_lat_us_64": "+31.3%",  # stack latency 22.97 against 17.49 us
    "udp_lat_us_64": "+31.3%",
    "cpu_us_per_trans_tcp_rr_64": "-26.0..-32.0%",
    "tcp_crr_tps_64": "modest",
}


def kind(metric):
    if "per_skb" in metric or "per_ack" in metric or "_pct" in metric:
        return "none"
    if "_lat_" in metric:
        return "lat"
    if metric.startswith("cpu_"):
        return "cpu"
    return "rate"


def median(values):
    v = sorted(values)
    n = len(v)
    if not n:
        return math.nan
    return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2


def spread(values):
    m = median(values)
    if not values or not m:
        return math.nan
    return (max(values) - min(values)) / abs(m) * 100


def fmt(x):
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "-"
    if abs(x) >= 1000:
        return "%.0f" % x
    if abs(x) >= 100:
        return "%.1f" % x
    return "%.3g" % x if abs(x) < 1 else "%.2f" % x


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("csv")
    parser.add_argument("--spread", type=float, default=10.0)
    args = parser.parse_args()
    values = {}
    order = []
    reps = set()
    with open(args.csv) as f:
        for row in csv.DictReader(f):
            try:
                v = float(row["value"])
            except ValueError:
                continue
            if math.isnan(v):
                continue
            key = (row["mode"], row["metric"])
            values.setdefault(key, {})[row["rep"]] = v
            reps.add(row["rep"])
            if row["metric"] not in order:
                order.append(row["metric"])
    head = "%-30s %9s %9s %9s %9s %14s %16s %7s %7s %7s  %s"
    print(head % ("metric", "baremetal", "overlay", "oncache", "onc/ovl", "paper", "ratio range",
                  "spr.bm", "spr.ovl", "spr.onc", "flag"))
    for metric in order:
        per = {m: values.get((m, metric), {}) for m in MODES}
        med = {m: median(list(per[m].values())) for m in MODES}
        spr = {m: spread(list(per[m].values())) for m in MODES}
        k = kind(metric)
        gain = rng = "n/a"
        flag = ""
        if k != "none":
            ratios = []
            for rep in sorted(set(per["overlay"]) & set(per["oncache"])):
                o, v = per["oncache"][rep], per["overlay"][rep]
                if o > 0 and v > 0:
                    ratios.append((v / o if k == "lat" else o / v) - 1)
            if ratios:
                gain = "%+.1f%%" % (median(ratios) * 100)
                rng = "%+.0f..%+.0f%%" % (min(ratios) * 100, max(ratios) * 100)
                flags = []
                if max(spr["overlay"], spr["oncache"]) > args.spread:
                    flags.append("spread>%g%%" % args.spread)
                if min(ratios) < 0 < max(ratios):
                    flags.append("sign")
                if len(ratios) < 3:
                    flags.append("reps<3")
                flag = ",".join(flags) or "held"
        print(head % (metric, fmt(med["baremetal"]), fmt(med["overlay"]), fmt(med["oncache"]),
                      gain, PAPER.get(metric, "-"), rng,
                      *("%.0f%%" % spr[m] if not math.isnan(spr[m]) else "-" for m in MODES),
                      flag))
    print("(medians of %d repetitions; onc/ovl: median of the per-repetition ratios, range: their"
          " min..max;\n spr.*: (max - min) / median per mode; flag: held, or why the gain is not"
          " one (bound %g%%))" % (len(reps), args.spread))
    return 0


if __name__ == "__main__":
    sys.exit(main())

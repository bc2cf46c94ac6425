#!/usr/bin/env python3
"""docs/results/overlap-alltoall-2026-11-26/table.py RESULTS.jsonl ... - the README's table: one row
per configuration, one column per cell (ranks, bytes a block), the median us per iteration and
its ratio to the blocking alltoall of the cell; * marks a row measured before the wait change
(its "measured_before")."""
import json
import sys

rows = [json.loads(line) for path in sys.argv[1:] for line in open(path)]
cells = sorted({(r["ranks"], r["bytes"]) for r in rows})
base = {(r["ranks"], r["bytes"]): r["median_us"] for r in rows if r["mode"] == "blocking"}


def name(r):
    return r["config"] + ("" if r["mode"] == "blocking" else f" /{r['slices']}")


names = []
for r in rows:
    if name(r) not in names:
        names.append(name(r))
names.sort(key=lambda n: (n.endswith("/8"), not n.startswith("blocking"),
                          not n.startswith("nonblocking_smpi"), n.endswith("race /1") or
                          n.endswith("race /8")))
value = {}
for r in rows:
    star = "*" if "measured_before" in r else ""
    ratio = r["median_us"] / base[(r["ranks"], r["bytes"])]
    value[(name(r), r["ranks"], r["bytes"])] = f"{r['median_us']:.2f}{star} ({ratio:.3f})"
print("| configuration | " + " | ".join(f"{p} ranks, {b} B" for p, b in cells) + " |")
print("|---|" + "---|" * len(cells))
for n in names:
    print(f"| {n} | " + " | ".join(value.get((n, p, b), "") for p, b in cells) + " |")

#!/usr/bin/env python3
"""docs/results/overlap-2026-11-26/summarize.py RESULTS.jsonl - the overlap benchmark's table:
per ranks, bytes and computation, the median time per iteration of each configuration (us;
q1-q3 in brackets where they differ) and its ratio to the blocking allreduce after the
computation (below 1: faster)."""
import json
import sys
from collections import defaultdict

rows = [json.loads(line) for line in open(sys.argv[1])]
cells = defaultdict(dict)
for r in rows:
    name = r["config"] + ("" if r["mode"] == "blocking" else f" /{r['slices']}")
    cells[(r["ranks"], r["bytes"], r["compute_us"])][name] = r
names = []
for c in cells.values():
    for n in c:
        if n not in names:
            names.append(n)
print("| ranks | bytes | compute us | " + " | ".join(names) + " |")
print("|---|---|---|" + "---|" * len(names))
for (ranks, nbytes, compute), c in sorted(cells.items()):
    base = c["blocking_native_ompi_selector"]["median_us"]
    out = []
    for n in names:
        r = c.get(n)
        if not r:
            out.append("")
            continue
        spread = "" if r["q1_us"] == r["q3_us"] else f" [{r['q1_us']:.2f}-{r['q3_us']:.2f}]"
        out.append(f"{r['median_us']:.2f}{spread} ({r['median_us'] / base:.3f})")
    print(f"| {ranks} | {nbytes} | {compute} | " + " | ".join(out) + " |")

#!/usr/bin/env python3
"""summarize.py RESULTS.jsonl... - the overlap benchmark's tables (docs/results/overlap-*):

1. per cell (ranks, bytes, computation): the blocking baseline (the fastest configuration in
   blocking mode: the computation, then the blocking collective), then for 1 and 8 slices the
   fastest configuration forced (its name, us, ratio to the baseline), the race's and the
   two-stage race's where the run has them (nonblocking_race, nonblocking_race_two_stages: us,
   ratio to the baseline, ratio to that fastest one) and the library's own nonblocking
   collective (nonblocking_smpi_linear);
2. every configuration's median (us) and ratio to the baseline, one row per configuration and
   slices, one column per cell.

Medians over the iterations after the first fifth; the simulation is deterministic, so q1 = q3
= the median in every cell but where a spread is printed (table 2)."""
import json
import sys
from collections import defaultdict

rows = [json.loads(line) for path in sys.argv[1:] for line in open(path) if line.strip()]
cells = defaultdict(dict)
for r in rows:
    name = r["config"] + ("" if r["mode"] == "blocking" else f" /{r['slices']}")
    cells[(r["ranks"], r["bytes"], r["compute_us"])][name] = r
keys = sorted(cells)


def base_of(c):
    blocking = {n: r for n, r in c.items() if r["mode"] == "blocking"}
    name = min(blocking, key=lambda n: blocking[n]["median_us"])
    return name, blocking[name]["median_us"]


print("Table 1. Per cell: the blocking baseline, the fastest forced configuration and the race "
      "(us per iteration; ratio to the baseline).\n")
print("| ranks | bytes | compute us | baseline (blocking) | slices | fastest forced | race "
      "| race / fastest | race, two stages | two stages / fastest | library's own |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
for k in keys:
    c = cells[k]
    bname, base = base_of(c)
    for s in (1, 8):
        forced = {n: r for n, r in c.items() if n.endswith(f" /{s}") and r["mode"] != "blocking"
                  and "race" not in n and "smpi" not in n}
        if not forced:
            continue
        best = min(forced, key=lambda n: forced[n]["median_us"])
        bt = forced[best]["median_us"]
        cols = []
        for config in ("nonblocking_race", "nonblocking_race_two_stages"):
            race = c.get(f"{config} /{s}")
            cols += [f"{race['median_us']:.2f} ({race['median_us'] / base:.3f})" if race else "",
                     f"{race['median_us'] / bt:.3f}" if race else ""]
        lib = c.get(f"nonblocking_smpi_linear /{s}")
        lt = f"{lib['median_us']:.2f} ({lib['median_us'] / base:.3f})" if lib else ""
        name = best.replace("nonblocking_", "")[: -len(f" /{s}")]
        print(f"| {k[0]} | {k[1]} | {k[2]} | {bname.replace('blocking_', '')} {base:.2f} | {s} "
              f"| {name} {bt:.2f} ({bt / base:.3f}) | " + " | ".join(cols) + f" | {lt} |")

names = []
for k in keys:
    for n in cells[k]:
        if n not in names:
            names.append(n)
print("\nTable 2. Every configuration: median us per iteration (ratio to the cell's blocking "
      "baseline); columns: ranks/bytes/compute us.\n")
print("| configuration | " + " | ".join(f"{a}/{b}/{c}" for a, b, c in keys) + " |")
print("|---|" + "---|" * len(keys))
for n in names:
    out = []
    for k in keys:
        r = cells[k].get(n)
        if not r:
            out.append("")
            continue
        base = base_of(cells[k])[1]
        spread = "" if r["q1_us"] == r["q3_us"] else f" [{r['q1_us']:.2f}-{r['q3_us']:.2f}]"
        out.append(f"{r['median_us']:.2f}{spread} ({r['median_us'] / base:.3f})")
    print(f"| {n} | " + " | ".join(out) + " |")

#!/usr/bin/env python3
"""compare.py - how the simulation and the runs agree on the emulated-cluster matrix (run.sh compare).

Reference: the matrix run on the emulated clusters of the 16-core machine (device16/). Compared
with it, cell by cell, over the fixed algorithms both ran:
  device16-rep2/  the same machine, a second time (what run-to-run noise alone gives)
  2-core          ../emulated-final-2026-11-22/: the same matrix on the 2-core machine (Open MPI 4.1.4)
  sim-rate        simulated-rate/: SimGrid, the emulated cluster's links at 100 Mbit/s
  sim-burst       simulated-burst/: SimGrid, the links unshaped (the tbf bucket never empties)
Per cell and comparison:
  rho      Spearman's rank correlation of the fixed algorithms' medians (1: the same order)
  pick     the reference's time of the comparison's fastest algorithm / the reference's fastest
           (1.000: it picks the best; what a table tuned on the comparison would lose here)
  scale    the comparison's fastest time / the reference's fastest time
Then per source: native / oracle, and each strategy's steady median / oracle (its own cell).
"""
import json
import math
import statistics
from pathlib import Path

from autocoll.analysis.benchreport import geomean

HERE = Path(__file__).resolve().parent
SOURCES = {
    "rep2": HERE / "device16-rep2",
    "2-core": HERE.parent / "emulated-final-2026-11-22",
    "sim-rate": HERE / "simulated-rate",
    "sim-burst": HERE / "simulated-burst",
}
REFERENCE = HERE / "device16"
STRATEGIES = ["race", "race_final", "star_enhanced", "lottery"]


def load(folder, part, cell):
    """The cell's JSON (the simulated ones carry the selector in their name) or None."""
    for name in (f"{cell}.json", f"{cell}-ompi.json"):
        path = folder / part / name
        if path.exists():
            return json.loads(path.read_text())
    return None


def fixed(doc):
    return {c["name"]: c["median"] for c in doc["configurations"] if c["kind"] == "fixed"}


def layer(doc, name):
    for c in doc["configurations"]:
        if c["name"] == f"layer:{name}":
            return c["steady_median"]
    return None


def native(doc):
    return next(c["median"] for c in doc["configurations"] if c["kind"] == "native")


def ranks(values):
    order = sorted(range(len(values)), key=lambda i: values[i])
    r = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            r[order[k]] = (i + j) / 2
        i = j + 1
    return r


def spearman(a, b):
    ra, rb = ranks(a), ranks(b)
    ma, mb = statistics.fmean(ra), statistics.fmean(rb)
    num = sum((x - ma) * (y - mb) for x, y in zip(ra, rb))
    den = math.sqrt(sum((x - ma) ** 2 for x in ra) * sum((y - mb) ** 2 for y in rb))
    return num / den if den else float("nan")


def main():
    print(__doc__.split("\n\n")[0])
    print("Reference: device16/ (16-core machine, Open MPI 4.1.6, one rank per emulated node).\n")
    cells = sorted((p.parent.name, p.stem) for p in REFERENCE.glob("*/*.json"))
    groups = {"1K, no bcast": lambda c: "-1K-" in c and not c.startswith("bcast"),
              "16K, no bcast": lambda c: "-16K-" in c and not c.startswith("bcast"),
              "bcast": lambda c: c.startswith("bcast")}
    summary = {(g, s): {"rho": [], "pick": [], "scale": []} for g in groups for s in SOURCES}
    head = f"{'cell':34} {'best (device16)':>26} {'worst/best':>10}"
    for s in SOURCES:
        head += f" | {s:^21}"
    print(head)
    print(f"{'':34} {'':>26} {'':>10}" + " | {:>6} {:>6} {:>7}".format("rho", "pick", "scale") * len(SOURCES))
    for part, cell in cells:
        ref = fixed(load(REFERENCE, part, cell))
        best = min(ref, key=ref.get)
        line = (f"{part + '/' + cell:34} {best[:17]:>17} {ref[best] * 1e3:6.3f}ms"
                f" {max(ref.values()) / ref[best]:10.1f}")
        for s, folder in SOURCES.items():
            doc = load(folder, part, cell)
            if doc is None:
                line += f" | {'-':>6} {'-':>6} {'-':>7}"
                continue
            other = fixed(doc)
            common = sorted(set(ref) & set(other))
            rho = spearman([ref[a] for a in common], [other[a] for a in common])
            pick_name = min(common, key=other.get)
            pick = ref[pick_name] / min(ref[a] for a in common)
            scale = min(other[a] for a in common) / min(ref[a] for a in common)
            for g, member in groups.items():
                if member(cell):
                    summary[g, s]["rho"].append(rho)
                    summary[g, s]["pick"].append(pick)
                    summary[g, s]["scale"].append(scale)
            line += f" | {rho:6.2f} {pick:6.3f} {scale:7.2f}"
        print(line)
    print(f"\nover the cells ({len(cells)} in the reference; bcast apart: without a common start,"
          " its times are\nthose of ranks leaving the call, README.md):")
    print(f"{'':14} {'':10} {'cells':>5} {'median rho':>10} {'pick geomean':>12} {'pick worst':>10}"
          f" {'picks <= 1.05':>13} {'scale median':>12}")
    for (g, s), v in summary.items():
        n = len(v["pick"])
        print(f"{g:14} {s:10} {n:5} {statistics.median(v['rho']):10.2f} "
              f"{geomean(v['pick']):12.3f} {max(v['pick']):10.3f} "
              f"{sum(p <= 1.05 for p in v['pick']):13} {statistics.median(v['scale']):12.2f}")
    print("\nnative and the strategies against their own cell's oracle, bcast left out (median over"
          " the cells [worst]):")
    print(f"{'':10} {'native':>14}" + "".join(f" {s:>14}" for s in STRATEGIES))
    for s, folder in [("device16", REFERENCE)] + list(SOURCES.items()):
        nat, strat = [], {x: [] for x in STRATEGIES}
        for part, cell in cells:
            doc = load(folder, part, cell)
            if doc is None or cell.startswith("bcast"):
                continue
            oracle = min(fixed(doc).values())
            nat.append(native(doc) / oracle)
            for x in STRATEGIES if s != "2-core" else []:  # its layers had other meanings then
                t = layer(doc, x)
                if t is not None:
                    strat[x].append(t / oracle)
        row = f"{s:10} {statistics.median(nat):7.2f} [{max(nat):4.1f}]"
        for x in STRATEGIES:
            row += (f" {statistics.median(strat[x]):7.2f} [{max(strat[x]):4.1f}]" if strat[x]
                    else f" {'-':>14}")
        print(row)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""platforms_summary.py - the tables of issue 21 item 4 on every simulated platform: per
platform and collective, the models `autocoll tune` fits on the 16-, 32- and 64-rank cells (the
same functions: tune.cell_entry, generalise.cross_validate, choose and evaluate), the one its
leave-one-count-out cross-validation chooses, and every model's penalty (time of its pick / the
cell's best time) in the cells of the counts never fitted (48 and 128 ranks, and the 256-rank
allreduce of 8 B where the simulated-clusters runs measured every algorithm); then, over every
platform, each model's geometric mean, worst and cells within 1.05, against the floor lookup.

Cells: fat-tree-ib's in cells/ (run.sh and the README's commands), the other platforms' in
platforms/<platform>/ (run-platforms.sh). Run from the repository root:

  .venv/bin/python docs/results/generalise-2026-11-24/platforms_summary.py \\
      > docs/results/generalise-2026-11-24/platforms_summary.txt
"""

import json
import sys
from pathlib import Path
from types import SimpleNamespace

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2] / "tools"))

from autocoll.analysis import generalise, tune  # noqa: E402

FITTED = (16, 32, 64)
PLATFORMS = {"fat-tree-ib": HERE / "cells"}
PLATFORMS.update((p.name, p) for p in sorted((HERE / "platforms").iterdir()) if p.is_dir())
GOAL = 1.05
# 256-rank cells with every algorithm, measured by the simulated-clusters runs (5 calls per
# algorithm after 1 warm-up; fat-tree-ib's with --sync barrier as the sweeps, the others with
# --sync clock: every call started at one instant of the simulated clock)
SIMGRID = HERE.parent / "simgrid-2026-11-23"
AT_256 = {"fat-tree-ib": SIMGRID / "cells256/fat-tree-ib",
          "dragonfly": SIMGRID / "allreduce256clock/dragonfly",
          "one-switch-gbe": SIMGRID / "allreduce256clock/one-switch-gbe"}


def entries(folder):
    return [tune.cell_entry(json.loads(p.read_text()), tune.DEFAULTS["statistic"],
                            tune.DEFAULTS["margin"]) for p in sorted(folder.glob("*-ompi.json"))]


def main():
    margin = tune.DEFAULTS["margin"]
    every = {}  # model (and the two choices) -> [(ranks, penalty) of each test cell]
    print("# Tables fitted at 16, 32 and 64 ranks, applied at the counts never fitted\n")
    for platform, folder in PLATFORMS.items():
        cells = entries(folder)
        if platform in AT_256:
            cells += [c for c in entries(AT_256[platform]) if c["collective"] == "allreduce"]
        costs = tune.cost_source(SimpleNamespace(simgrid=platform, ppn=1, build=None,
                                                 mpi="openmpi"), print)
        for coll in dict.fromkeys(c["collective"] for c in cells):
            train = [c for c in cells if c["collective"] == coll and c["ranks"] in FITTED]
            test = [c for c in cells if c["collective"] == coll and c["ranks"] not in FITTED]
            if not train or not test:
                continue
            cv = generalise.cross_validate(train, 1, margin, costs=costs)
            chosen = generalise.choose(cv)
            # the choice before the ensemble existed (session 22): among the four others
            before = generalise.choose([r for r in cv if r["model"] != "ensemble"])
            rows = generalise.evaluate(generalise.available(costs), train, test, 1, margin, costs)
            models = list(dict.fromkeys(r["model"] for r in rows))
            picks = {"chosen": chosen, "chosen without the ensemble": before}
            print(f"## {platform} {coll}: cross-validation chose {chosen}"
                  f"{'' if before == chosen else f' ({before} without the ensemble)'}\n")
            print("| ranks | bytes | best | " + " | ".join(models) + " |")
            print("|---|---|---|" + "---|" * len(models))
            for cell in sorted({(r["ranks"], r["bytes"]) for r in rows}):
                mine = {r["model"]: r for r in rows if (r["ranks"], r["bytes"]) == cell}
                marks = [f"{mine[m]['penalty']:.4f}" + (" *" if m == chosen else "")
                         for m in models]
                print(f"| {cell[0]} | {cell[1]} | {mine[models[0]]['oracle']} | "
                      + " | ".join(marks) + " |")
                for m in models + list(picks):
                    every.setdefault(m, []).append((cell[0], mine[picks.get(m, m)]["penalty"]))
            print()
    counts = sorted({r for r, _ in every["chosen"]})
    print(f"## Over every platform (* above: the model cross-validation chose, per platform and "
          f"collective; `chosen` below: those picks; `chosen without the ensemble`: the choice "
          f"among floor, trees, curve and cost)\n")
    print("geometric mean / worst / cells within 1.05 of the best, per test count and over "
          "all\n")
    print("| model | " + " | ".join(f"{r} ranks" for r in counts) + " | all |")
    print("|---|" + "---|" * (len(counts) + 1))
    for m, scored in every.items():
        parts = []
        for r in counts + [None]:
            p = [x for q, x in scored if r is None or q == r]
            parts.append(f"{generalise.geomean(p):.4f} / {max(p):.4f} / "
                         f"{sum(x <= GOAL for x in p)} of {len(p)}")
        print(f"| {m} | " + " | ".join(parts) + " |")


if __name__ == "__main__":
    main()

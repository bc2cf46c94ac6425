#!/usr/bin/env python3
"""summary.py CELLS REPLAY - summary.md of run.sh: per cell (collective, size, ranks, ranks per
node) the oracle, the baselines and every replayed strategy against them; then per strategy,
start, ranks and ranks per node the goals of issue 38 (steady within 1.02 of the oracle, whole
run of 1000 calls within 1.05), the tuned layer against each baseline (geomean and worst cell),
and the cells where its whole run is slower than the best baseline by more than 1.01 (issue 38's
rule for a default strategy).

The baselines, each measured in the same simulation set-up (20 calls, medians):
  ompi     SMPI's copy of Open MPI's coll/tuned fixed rules (the `ompi` selector's native);
  mpich    SMPI's `mpich` selector (MPICH 2/3-era thresholds, MVAPICH2 algorithms);
  mpich4   the table layer with tables/mpich4-defaults.json: MPICH 4's Csel defaults run by
           autocoll's own algorithms (docs/baselines.md; its layer's median);
  ompi5    where CELLS holds a <platform>-ppn<N>-ompi5 folder (headline-2026-11-28): the table
           layer with tables/ompi5-defaults.json, Open MPI 5.0's HAN over tuned.
The oracle is the fastest of every fixed algorithm and `ompi` native. A strategy's steady time
is the replay's median of its last calls, its whole run the mean of its 1000 calls."""

import json
import math
import sys
from pathlib import Path

FLAT_BASELINES = ("ompi", "mpich")
TABLE_BASELINES = ("mpich4", "ompi5")
NUMBERS = {3: "three", 4: "four"}


def load(path):
    return json.loads(Path(path).read_text())


def native_median(cell):
    (n,) = [c["median"] for c in cell["configurations"] if c["kind"] == "native"]
    return n


def table_layer(cell):
    """(median, algorithms it ran) of the table layer in a cell of the mpich4 run."""
    (layer,) = [c for c in cell["configurations"] if c["name"] == "layer:table"]
    ran = sorted({a for a, _ in layer["layer"]["algorithm_runs"]})
    return layer["median"], ran


def geomean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else float("nan")


def main(cells_root, replay_root):
    cells_root, replay_root = Path(cells_root), Path(replay_root)
    rows, unbased = [], []
    tables = [t for t in TABLE_BASELINES if any(cells_root.glob(f"*-ppn*-{t}"))]
    baselines = FLAT_BASELINES + tuple(tables)
    for replay_file in sorted(replay_root.glob("*.json")):
        stem = replay_file.stem  # <platform>-ppn<N>-<cold|warm>
        platform_ppn, start = stem.rsplit("-", 1)
        platform, ppn = platform_ppn.rsplit("-ppn", 1)
        ppn = int(ppn)
        folder = cells_root / platform_ppn
        for r in load(replay_file)["cells"]:
            name = r["cell"]
            mpich_cell = folder.parent / f"{platform_ppn}-mpich" / name.replace("-ompi.json",
                                                                                 "-mpich.json")
            if not mpich_cell.exists() or not all(
                    (folder.parent / f"{platform_ppn}-{t}" / name).exists() for t in tables):
                unbased.append(f"{platform_ppn}/{name} ({start})")
                continue
            mpich = native_median(load(mpich_cell))
            base = {"ompi": r["native_medians"]["ompi"], "mpich": mpich}
            ran = {}
            for t in tables:
                base[t], ran[t] = table_layer(load(folder.parent / f"{platform_ppn}-{t}" / name))
            for s in r["replayed"]:
                cell = name.removesuffix("-ompi.json")
                rows.append({"platform": platform, "cell": cell,
                             "ranks": int(cell.rsplit("-np", 1)[1]), "ppn": ppn,
                             "start": start, "oracle": r["oracle"],
                             "oracle_median": r["oracle_median"], "base": base,
                             "table_ran": ran, **s})
    if not rows:
        sys.exit("no replay rows")

    print("## Per cell (cold start, 1000 calls)\n")
    print("| platform | ppn | cell | oracle (us) | ompi / oracle | mpich / oracle | "
          + "".join(f"{t} / oracle (runs) | " for t in tables)
          + "strategy | steady / oracle | whole / oracle | calls to decide |")
    print("|---|---|---|---|---|---|" + "---|" * len(tables) + "---|---|---|---|")
    for x in rows:
        if x["start"] != "cold":
            continue
        o = x["oracle_median"]
        b = x["base"]
        print(f"| {x['platform']} | {x['ppn']} | {x['cell']} | {x['oracle']} {1e6 * o:.2f} "
              f"| {b['ompi'] / o:.2f} | {b['mpich'] / o:.2f} "
              + "".join(f"| {b[t] / o:.2f} ({', '.join(x['table_ran'][t])}) " for t in tables)
              + f"| {x['layer']} | {x['steady_vs_oracle']:.3f} | {x['whole_vs_oracle']:.3f} "
              f"| {x['decision']} |")

    print("\n## Per strategy, start and ranks per node\n")
    print("Goals: steady / oracle <= 1.02 in every cell, whole run / oracle <= 1.05. "
          "\"x faster\" is the baseline's median over the layer's time (geomean over the "
          "cells; > 1: the layer is faster); \"worst\" is the cell where it is smallest.\n")
    print("| platform | strategy | start | ranks | ppn | cells | steady <= 1.02 | whole <= 1.05 "
          f"| median decision | steady: x faster than {' / '.join(baselines)} / best baseline "
          "(worst) | whole run: x faster than best baseline (worst) | whole run slower than the "
          "best baseline by > 1.01 |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    groups = {}
    for x in rows:
        groups.setdefault((x["platform"], x["layer"], x["start"], x["ranks"], x["ppn"]),
                          []).append(x)
    for (platform, layer, start, ranks, ppn), xs in sorted(groups.items()):
        steady = [x["steady_seconds"] for x in xs]
        whole = [x["mean_seconds"] for x in xs]
        best = [min(x["base"].values()) for x in xs]
        speed = {b: geomean([x["base"][b] / s for x, s in zip(xs, steady)]) for b in baselines}
        vs_best = [b / s for b, s in zip(best, steady)]
        whole_best = [b / w for b, w in zip(best, whole)]
        decisions = sorted(x["decision"] for x in xs)
        print(f"| {platform} | {layer} | {start} | {ranks} | {ppn} | {len(xs)} "
              f"| {sum(x['steady_vs_oracle'] <= 1.02 for x in xs)} "
              f"| {sum(x['whole_vs_oracle'] <= 1.05 for x in xs)} "
              f"| {decisions[len(decisions) // 2]} "
              f"| {' / '.join(f'{speed[b]:.2f}' for b in baselines)} / "
              f"{geomean(vs_best):.2f} ({min(vs_best):.2f}) "
              f"| {geomean(whole_best):.2f} ({min(whole_best):.2f}) "
              f"| {sum(w < 1 / 1.01 for w in whole_best)} of {len(xs)} |")

    print("\n## The baselines against each other (geomean of baseline / oracle)\n")
    print(f"| platform | ranks | ppn | cells | {' | '.join(baselines)} "
          f"| best of the {NUMBERS.get(len(baselines), len(baselines))} |")
    print("|---|---|---|---|" + "---|" * len(baselines) + "---|")
    seen = {}
    for x in rows:
        seen[(x["platform"], x["ranks"], x["ppn"], x["cell"])] = x
    for platform, ranks, ppn in sorted({k[:3] for k in seen}):
        xs = [x for k, x in seen.items() if k[:3] == (platform, ranks, ppn)]
        g = {b: geomean([x["base"][b] / x["oracle_median"] for x in xs]) for b in baselines}
        best = geomean([min(x["base"].values()) / x["oracle_median"] for x in xs])
        print(f"| {platform} | {ranks} | {ppn} | {len(xs)} "
              f"| {' | '.join(f'{g[b]:.2f}' for b in baselines)} "
              f"| {best:.2f} |")
    if unbased:
        print("\nCells left out, a baseline not measured: " + ", ".join(unbased))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])

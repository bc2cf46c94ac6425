#!/usr/bin/env python3
"""trial_summary.py - tables fitted at 16, 32 and 64 ranks, applied at counts never fitted, with
and without a trial (AUTOCOLL_TABLE_TRY, docs/table.md).

Per platform and collective, as `autocoll tune` does it (tune.cell_entry, generalise's
cross_validate, choose, table_model): the table's lists are the floor lookup's and
cross-validation's model's alternately, the floor's first. In every test cell (48 and 128
ranks, and 256 where a cell has every algorithm):

- `floor`, `model`, `table`: the penalty (time of the pick / the cell's best time) of the
  first algorithm of the floor lookup's, the chosen model's and the table's list that was
  measured there (what AUTOCOLL_TABLE_TRY=1 runs: nothing is measured);
- `try K`: the fastest of the table list's first K measured there and native (what the trial
  settles on if its race measures without error);
- `replay`: the trial of 3 replayed call by call (bench/strategy_replay: race's own code over
  the cell's measured per-call times of native and the three, one agreement's time per
  agreement, 1000 calls; `autocoll simgrid replay`'s method), without noise and under the
  measured noise `detour:0.01:2e-5` (docs/results/model-eval-2026-11-24): whole run / oracle,
  steady / oracle (median of the last 100 calls) and decision length; `replay warm` the same
  started from knowledge of the few (as from the history of an earlier run: replay --warm, each
  one's median); and, for comparison,
  the run-time strategies `race` and `model` over every candidate, cold, replayed the same way.

Two sets of cells:
- `design`: the 43 test cells of docs/results/generalise-2026-11-24 (allreduce and bcast, 8 B
  and 1 KiB, five platforms), which the design of the lists and of the trial was made on;
- `validation`: reduce of 8 B, 1 KiB and 64 KiB and bcast of 64 KiB on the five platforms at
  48 and 128 ranks (run-validation.sh), simulated after the design was fixed and its check
  written down (prereg.md);
- `validation 256`: reduce of 8 B and 1 KiB at 256 ranks on one-switch-gbe and torus-3d
  (README.md's command), simulated after the check.

And `e2e`: the trial simulated end to end (run-e2e.sh: the table layer of `autocoll bench
--simgrid`, 300 calls at 128 ranks, AUTOCOLL_TABLE_TRY 1 and 3) on three design cells, against
the same cell's oracle in the sweep and the replay's figures.

Run from the repository root (build/openmpi built):

  .venv/bin/python docs/results/generalise-2026-11-25/trial_summary.py [SET ...] \\
      > docs/results/generalise-2026-11-25/trial_summary.txt

(SET: design, validation, "validation 256"; default all.)
"""

import json
import statistics
import sys
from pathlib import Path
from types import SimpleNamespace

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2] / "tools"))

from autocoll.analysis import generalise, simreplay, tune  # noqa: E402

FITTED = (16, 32, 64)
BEFORE = HERE.parent / "generalise-2026-11-24"
SIMGRID = HERE.parent / "simgrid-2026-11-23"
CALLS = 1000
TRY = 3
NOISE = (0.01, 2e-5)  # detour:0.01:2e-5
GOALS = (1.05, 1.02)


def design_folders():
    out = {"fat-tree-ib": [(BEFORE / "cells", None)]}
    for p in sorted((BEFORE / "platforms").iterdir()):
        if p.is_dir():
            out[p.name] = [(p, None)]
    # 256-rank allreduce cells of 8 B with every algorithm (platforms_summary.py's)
    out["fat-tree-ib"].append((SIMGRID / "cells256/fat-tree-ib", "allreduce"))
    out["dragonfly"].append((SIMGRID / "allreduce256clock/dragonfly", "allreduce"))
    out["one-switch-gbe"].append((SIMGRID / "allreduce256clock/one-switch-gbe", "allreduce"))
    return out


def validation_folders():
    root = HERE / "platforms"
    return {p.name: [(p, None)] for p in sorted(root.iterdir()) if p.is_dir()} \
        if root.exists() else {}


def is_validation_test(cell, set_name):
    """The validation sets' test cells: reduce, and bcast of 64 KiB (its 8 B and 1 KiB were the
    design's); `validation` at 48 and 128 ranks (the check's), `validation 256` at 256 (added
    after the check)."""
    new = cell["collective"] == "reduce" or cell["bytes"] == 65536
    return new and (cell["ranks"] == 256) == (set_name == "validation 256")


def load(folders):
    """[(raw cell, tune entry)] of the folders (`only`: that collective only)."""
    out = []
    for folder, only in folders:
        for path in sorted(folder.glob("*-ompi.json")):
            data = json.loads(path.read_text())
            entry = tune.cell_entry(data, tune.DEFAULTS["statistic"], tune.DEFAULTS["margin"])
            if only is None or entry["collective"] == only:
                out.append((path, data, entry))
    return out


def agreement(platform, ranks):
    """One agreement's seconds: the native median of the 8-byte allreduce at that count on that
    platform (simreplay.agreement_seconds' rule), from the folders that have it."""
    names = [f"allreduce-8-np{ranks}-ompi.json"]
    folders = [BEFORE / "cells" if platform == "fat-tree-ib" else BEFORE / "platforms" / platform,
               SIMGRID / "cells256" / platform, SIMGRID / "allreduce256clock" / platform,
               HERE / "agreement256" / platform]  # native only, made for torus-3d's 256
    for folder in folders:
        for name in names:
            if (folder / name).exists():
                return simreplay.native_median(json.loads((folder / name).read_text()))
    raise SystemExit(f"no allreduce-8 cell for {platform} at {ranks} ranks")


def replay(path, candidates, layers, agree, noise, calls=CALLS, warm=False):
    """`autocoll simgrid replay`'s replay_cell: {layer: (whole / oracle, steady / oracle,
    decision calls, chosen)}, the ratios against the whole cell's oracle (under noise, it
    replayed under the same delays)."""
    row = simreplay.replay_cell(path, simreplay.replay_program(), layers, calls, agree, noise,
                                1, warm, candidates=candidates)
    return {r["layer"]: (r["whole_vs_oracle"], r["steady_vs_oracle"], r["decision"],
                         r["chosen"]) for r in row["replayed"]}


def test_cells(set_name, folders):
    """The set's test cells, as (row, path, the cell's tune entry, the floor's, the chosen
    model's and the table's list there): row has the cell's platform, collective, ranks, bytes,
    the model chosen by cross-validation and the cell's oracle."""
    for platform, where in folders.items():
        cells = load(where)
        costs = tune.cost_source(SimpleNamespace(simgrid=platform, ppn=1, build=None,
                                                 mpi="openmpi"), lambda *a: None)
        for coll in dict.fromkeys(e["collective"] for _, _, e in cells):
            train = [e for _, _, e in cells if e["collective"] == coll and e["ranks"] in FITTED]
            test = [(p, d, e) for p, d, e in cells if e["collective"] == coll and
                    e["ranks"] not in FITTED and
                    (set_name == "design" or is_validation_test(e, set_name))]
            if not train or not test:
                continue
            margin = tune.DEFAULTS["margin"]
            chosen = generalise.choose(generalise.cross_validate(train, 1, margin, costs=costs))
            models = {"floor": generalise.fit("floor", train, 1, margin),
                      "model": generalise.fit(chosen, train, 1, margin, costs),
                      "table": generalise.table_model(chosen, train, 1, margin, costs)}
            points = [(e["ranks"], e["bytes"]) for _, _, e in test]
            lists = {k: m.lists(points) for k, m in models.items()}
            for i, (path, data, e) in enumerate(test):
                row = {"platform": platform, "collective": coll, "ranks": e["ranks"],
                       "bytes": e["bytes"], "chosen": chosen,
                       "oracle": min(e["times"], key=e["times"].get)}
                yield row, path, e, {k: v[i] for k, v in lists.items()}


def cells_of(sets):
    """Per set: rows of every test cell (the scores above)."""
    results = {}
    for set_name, folders in sets.items():
        rows = []
        for row, path, e, lists in test_cells(set_name, folders):
            best = min(e["times"].values())
            for k in ("floor", "model", "table"):
                row[k] = e["times"][generalise.pick(lists[k], e)] / best
            for k in (2, 3, 4):
                row[f"try {k}"] = e["times"][generalise.trial_pick(lists["table"], e, k)] / best
            tried = [n for n in lists["table"] if n in e["times"]][:TRY]
            agree = agreement(row["platform"], e["ranks"])
            for noise, tag in (((0.0, 0.0), ""), (NOISE, " noise")):
                row["replay" + tag] = replay(path, tried, ["race"], agree, noise)["race"]
                row["replay warm" + tag] = replay(path, tried, ["race"], agree, noise,
                                                  warm=True)["race"]
                full = replay(path, None, ["race", "model"], agree, noise)
                row["race" + tag], row["model strategy" + tag] = full["race"], full["model"]
            row["tried"] = tried
            rows.append(row)
        results[set_name] = rows
    return results


def e2e(design_rows):
    """The simulated trials (e2e/try<k>/<platform>/) against the sweep's cell and the replay."""
    root = HERE / "e2e"
    if not root.exists():
        return
    print("# e2e: the trial simulated end to end (128 ranks, 300 calls)\n")
    print("whole = mean of the 300 calls / the oracle's mean in the sweep's cell; steady = "
          "median of the last 100 / the oracle's median; replay: the sweep's cell replayed, "
          "race over the same three and native, 300 calls\n")
    print("| platform | coll | bytes | try 1: chosen, whole / steady | try 3: chosen, whole / "
          "steady, decision calls | replay of try 3: chosen, whole / steady, decision |")
    print("|---|---|---|---|---|---|")
    for path in sorted((root / "try3").glob("*/*-ompi.json")):
        platform = path.parent.name
        sweep = json.loads((BEFORE / "platforms" / platform / path.name).read_text())
        oracle = simreplay.oracle_of(sweep)
        parts = []
        for k in (1, 3):
            data = json.loads((root / f"try{k}" / platform / path.name).read_text())
            layer = next(c for c in data["configurations"] if c["name"] == "layer:table")
            (x,) = layer["layer"]["contexts"]
            times = layer["times"]
            whole = statistics.mean(times) / statistics.mean(oracle["times"])
            parts.append(f"{x['chosen']}, {whole:.3f}"
                         f" / {statistics.median(times[-100:]) / oracle['median']:.3f}"
                         + (f", {x['decision_calls']}" if k == 3 else ""))
        p = sweep["parameters"]
        (row,) = [r for r in design_rows if (r["platform"], r["collective"], r["ranks"],
                                             r["bytes"]) == (platform, p["collective"], 128,
                                                             p["bytes"])]
        whole, steady, decision, chosen = replay(
            BEFORE / "platforms" / platform / path.name, row["tried"], ["race"],
            agreement(platform, 128), (0.0, 0.0), calls=300)["race"]
        print(f"| {platform} | {p['collective']} | {p['bytes']} | {parts[0]} | {parts[1]} | "
              f"{chosen}, {whole:.3f} / {steady:.3f}, {decision} |")
    print()


def summary(scores):
    return (f"{generalise.geomean(scores):.4f} / {max(scores):.4f} / "
            + " / ".join(f"{sum(s <= g for s in scores)}" for g in GOALS))


def main():
    sets = {"design": design_folders(), "validation": validation_folders(),
            "validation 256": validation_folders()}
    results = cells_of({k: v for k, v in sets.items() if k in (sys.argv[1:] or sets)})
    static = ["floor", "model", "table", "try 2", "try 3", "try 4"]
    runs = ["replay", "replay warm", "race", "model strategy"]
    for set_name, rows in results.items():
        if not rows:
            print(f"# {set_name}: no test cells\n")
            continue
        print(f"# {set_name}: {len(rows)} test cells\n")
        print("Per cell: the penalty of each pick; replayed runs as whole / steady "
              "(x the oracle), decision calls\n")
        print("| platform | coll | ranks | bytes | best | model chosen | "
              + " | ".join(static) + " | " + " | ".join(
                  f"{r}{t}" for r in runs for t in ("", " noise")) + " |")
        print("|---" * (6 + len(static) + 2 * len(runs)) + "|")
        for r in rows:
            runs_text = []
            for name in runs:
                for tag in ("", " noise"):
                    whole, steady, decision, _ = r[name + tag]
                    runs_text.append(f"{whole:.3f} / {steady:.3f}, {decision}")
            print(f"| {r['platform']} | {r['collective']} | {r['ranks']} | {r['bytes']} | "
                  f"{r['oracle']} | {r['chosen']} | "
                  + " | ".join(f"{r[k]:.4f}" for k in static) + " | "
                  + " | ".join(runs_text) + " |")
        print(f"\n## {set_name}: over its {len(rows)} cells\n")
        print("geometric mean / worst / cells within 1.05 / within 1.02\n")
        print("| what | penalty or steady / oracle | whole run / oracle | decision calls "
              "(median, max; -1: never settled) |")
        print("|---|---|---|---|")
        for k in static:
            print(f"| {k} | {summary([r[k] for r in rows])} | (no learning) | 0 |")
        for name in runs:
            for tag in ("", " noise"):
                vals = [r[name + tag] for r in rows]
                decisions = [v[2] for v in vals]
                print(f"| {name}{tag} | {summary([v[1] for v in vals])} | "
                      f"{summary([v[0] for v in vals])} | {statistics.median(decisions)}, "
                      f"{max(decisions)} |")
        for ranks in sorted({r["ranks"] for r in rows}):
            mine = [r for r in rows if r["ranks"] == ranks]
            print(f"\nAt {ranks} ranks ({len(mine)} cells): "
                  f"floor {summary([r['floor'] for r in mine])}"
                  f"; table {summary([r['table'] for r in mine])}"
                  f"; try 3 {summary([r['try 3'] for r in mine])}"
                  f"; replay steady {summary([r['replay'][1] for r in mine])}"
                  f"; replay whole {summary([r['replay'][0] for r in mine])}")
        print()
    if "design" in results:
        e2e(results["design"])


if __name__ == "__main__":
    main()

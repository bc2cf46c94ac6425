#!/usr/bin/env python3
"""suggest_summary.py - the `model` strategy given a table's rule at counts the table never
swept ("model + table": AUTOCOLL_STRATEGY=model AUTOCOLL_TABLE=T.json, its first decision also
measures the rule's first AUTOCOLL_TABLE_TRY algorithms; docs/model.md), beside its two parts:
the table's trial of 3 (AUTOCOLL_STRATEGY=table AUTOCOLL_TABLE_TRY=3: race among the rule's
first three and native) and the model strategy alone.

The cells, tables and agreement times are ../generalise-2026-11-25/trial_summary.py's (tables
fitted at 16, 32 and 64 ranks per platform and collective, as `autocoll tune` fits them; test
cells at 48, 128 and 256 ranks):
- `design`: the 43 test cells of ../generalise-2026-11-24 (allreduce and bcast);
- `validation`: reduce of 8 B, 1 KiB, 64 KiB and bcast of 64 KiB at 48 and 128 ranks;
- `validation 256`: reduce of 8 B and 1 KiB at 256 ranks on one-switch-gbe and torus-3d;
- `new 256`: the 8-byte allreduce at 256 ranks on torus-3d and four-switch-gbe
  (../simgrid-2026-11-23/allreduce256clock/, simulated in this session; the tables are the
  design set's allreduce tables of those platforms).

Every figure is a replay (`autocoll simgrid replay`: the strategies' own code over the cell's
simulated per-call times, one agreement's time per agreement, 1000 calls), without noise and
under the measured noise `detour:0.01:2e-5`: whole run / oracle, steady / oracle (median of the
last 100 calls) and the decision length (calls until settled).

Run from the repository root (build/openmpi built):

  .venv/bin/python docs/results/suggest-2026-11-25/suggest_summary.py \\
      > docs/results/suggest-2026-11-25/suggest_summary.txt
"""

import statistics
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2] / "tools"))
sys.path.insert(0, str(HERE.parent / "generalise-2026-11-25"))

import trial_summary as ts  # noqa: E402
from autocoll.analysis import generalise, simreplay  # noqa: E402

NOISES = (((0.0, 0.0), ""), (ts.NOISE, " noise"))
SUGGEST = (1, 2, 3)
NEW_256 = ("torus-3d", "four-switch-gbe")


def replay(path, layer, agree, noise, candidates=None, suggest=()):
    """(whole / oracle, steady / oracle, decision calls, chosen) of one layer replayed."""
    row = simreplay.replay_cell(path, simreplay.replay_program(), [layer], ts.CALLS, agree,
                                noise, 1, candidates=candidates, suggest=suggest)
    (r,) = row["replayed"]
    return r["whole_vs_oracle"], r["steady_vs_oracle"], r["decision"], r["chosen"]


def new_256_folders():
    """The design set's folders of torus-3d and four-switch-gbe, with the new 256-rank
    allreduce cells where they exist."""
    out = {}
    for p in NEW_256:
        cell = ts.SIMGRID / "allreduce256clock" / p / "allreduce-8-np256-ompi.json"
        if cell.exists():
            out[p] = [(ts.BEFORE / "platforms" / p, "allreduce"), (cell.parent, "allreduce")]
    return out


def rows_of(set_name, folders, keep=lambda row: True):
    rows = []
    table_set = "design" if set_name == "new 256" else set_name
    for row, path, e, lists in ts.test_cells(table_set, folders):
        if not keep(row):
            continue
        tried = [n for n in lists["table"] if n in e["times"]][:ts.TRY]
        agree = ts.agreement(row["platform"], e["ranks"])
        for noise, tag in NOISES:
            row["trial 3" + tag] = replay(path, "race", agree, noise, candidates=tried)
            row["model" + tag] = replay(path, "model", agree, noise)
            for k in SUGGEST if not tag else (ts.TRY,):
                row[f"model + table {k}" + tag] = replay(path, "model", agree, noise,
                                                         suggest=tried[:k])
        row["tried"] = tried
        rows.append(row)
    return rows


def summary(scores):
    return (f"{generalise.geomean(scores):.4f} / {max(scores):.4f} / "
            + " / ".join(f"{sum(s <= g for s in scores)}" for g in ts.GOALS))


def runs_of(rows):
    return [k for k in rows[0] if isinstance(rows[0][k], tuple)]


def print_set(set_name, rows):
    runs = runs_of(rows)
    print(f"# {set_name}: {len(rows)} test cells\n")
    print("Per cell: whole / steady (x the oracle), decision calls, chosen\n")
    print("| platform | coll | ranks | bytes | oracle | table's first three | "
          + " | ".join(runs) + " |")
    print("|---" * (6 + len(runs)) + "|")
    for r in rows:
        print(f"| {r['platform']} | {r['collective']} | {r['ranks']} | {r['bytes']} | "
              f"{r['oracle']} | {', '.join(r['tried'])} | "
              + " | ".join(f"{r[k][0]:.3f} / {r[k][1]:.3f}, {r[k][2]}, {r[k][3]}"
                           for k in runs) + " |")
    print(f"\n## {set_name}: over its {len(rows)} cells\n")
    print_summary(rows)


def print_summary(rows):
    print("geometric mean / worst / cells within 1.05 / within 1.02\n")
    print("| what | steady / oracle | whole run / oracle | decision calls (median, max) |")
    print("|---|---|---|---|")
    for k in runs_of(rows):
        vals = [r[k] for r in rows]
        decisions = [v[2] for v in vals]
        print(f"| {k} | {summary([v[1] for v in vals])} | {summary([v[0] for v in vals])} | "
              f"{statistics.median(decisions)}, {max(decisions)} |")
    print()


def check(rows):
    """The pre-registered check (prereg.md) over the design and validation sets."""
    geo = {k: generalise.geomean([r[k][1] for r in rows])
           for k in ("model + table 3", "trial 3", "model")}
    within = {k: sum(r[k][1] <= 1.02 for r in rows) for k in geo}
    whole = {k: generalise.geomean([r[k][0] for r in rows]) for k in ("model + table 3", "model")}
    longest = max(r["model + table 3"][2] for r in rows)
    items = [
        ("steady geomean <= trial 3's and model's",
         f"{geo['model + table 3']:.4f} against {geo['trial 3']:.4f} and {geo['model']:.4f}",
         geo["model + table 3"] <= min(geo["trial 3"], geo["model"])),
        ("cells steady <= 1.02 >= trial 3's and model's",
         f"{within['model + table 3']} against {within['trial 3']} and {within['model']}",
         within["model + table 3"] >= max(within["trial 3"], within["model"])),
        ("whole-run geomean <= model's",
         f"{whole['model + table 3']:.4f} against {whole['model']:.4f}",
         whole["model + table 3"] <= whole["model"]),
        ("cold decision <= 20 calls in every cell", f"longest {longest}", 0 <= longest <= 20),
    ]
    print(f"# The pre-registered check (prereg.md), over {len(rows)} cells\n")
    print("| item | figures | result |")
    print("|---|---|---|")
    for name, figures, ok in items:
        print(f"| {name} | {figures} | {'passed' if ok else 'FAILED'} |")
    print()


def main():
    sets = {"design": (ts.design_folders(), lambda r: True),
            "validation": (ts.validation_folders(), lambda r: True),
            "validation 256": (ts.validation_folders(), lambda r: True),
            "new 256": (new_256_folders(), lambda r: r["ranks"] == 256)}
    results = {}
    for name, (folders, keep) in sets.items():
        if name in (sys.argv[1:] or sets):
            results[name] = rows_of(name, folders, keep)
    for name, rows in results.items():
        if rows:
            print_set(name, rows)
        else:
            print(f"# {name}: no test cells\n")
    checked = results.get("design", []) + results.get("validation", [])
    if "design" in results and "validation" in results:
        check(checked)
        print("# design and validation together\n")
        print_summary(checked)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""summary.py - the tables of README.md from replay/*.json (run.sh): per noise setting, rank
count and platform, each strategy side by side: decision length cold and warm (calls until
settled: median and worst; a strategy that had not settled after the run's 1000 calls counts
as undecided), whole run of 1000 calls / oracle and steady / oracle (median, worst), the cells
within the goals (steady <= 1.02, whole <= 1.05), and steady / native under SMPI's Open MPI and
MPICH selectors (geometric mean). reduce_scatter of 8 B is left out, as in
../simgrid-2026-11-23/summary.py (SMPI's ompi selector models no message for it).

  .venv/bin/python docs/results/model-eval-2026-11-24/summary.py > summary.txt
"""

import json
import math
import statistics
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
STRATEGIES = ("model", "model_groups_off", "model_horizon_off", "race", "lottery",
              "star_enhanced", "star_basic")
# run.sh's *-groups-off.json and *-horizon-off.json: the model with one rule off
VARIANTS = {"AUTOCOLL_MODEL_GROUP_RANGE": "_groups_off", "AUTOCOLL_MODEL_HORIZON": "_horizon_off"}
DEGENERATE = ("reduce_scatter", 8)
CALLS = 1000


def load():
    """{(noise, warm): {(ranks, platform, collective, bytes): {strategy: row}}}"""
    runs = {}
    for path in sorted((HERE / "replay").glob("*.json")):
        for cell in json.loads(path.read_text())["cells"]:
            if (cell["collective"], cell["bytes"]) == DEGENERATE:
                continue
            key = (cell["ranks"], cell["platform"], cell["collective"], cell["bytes"])
            rows = runs.setdefault((cell["noise"], cell["warm"]), {}).setdefault(key, {})
            settings = cell.get("settings") or {}
            suffix = "".join(VARIANTS[k] for k, v in settings.items() if v == "0")
            for r in cell["replayed"]:
                name = r["layer"] + suffix
                if name in rows:
                    sys.exit(f"summary.py: {key} {name} replayed twice ({path.name})")
                rows[name] = dict(r, start_seconds=cell.get("start_seconds"),
                                  oracle_median=cell["oracle_median"])
    return runs


def geomean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values))


def decisions(rows):
    """'median / worst' of the decision lengths, undecided ones counted apart."""
    done = [r["decision"] for r in rows if r["decision"] is not None and r["decision"] >= 0]
    undecided = len(rows) - len(done)
    text = f"{statistics.median(done):g} / {max(done)}" if done else "-"
    return text + (f" ({undecided} undecided)" if undecided else "")


def ratio(values, digits=3):
    return f"{statistics.median(values):.{digits}f} / {max(values):.{digits}f}"


def row_cells(cold, warm, name, keys):
    c = [cold[k][name] for k in keys]
    w = [warm[k][name] for k in keys] if warm and name in warm[keys[0]] else None
    steady = [r["steady_vs_oracle"] for r in c]
    whole = [r["whole_vs_oracle"] for r in c]
    sels = sorted(set.intersection(*(set(r["vs_native"]) for r in c)))
    return [name, str(len(keys)), decisions(c), decisions(w) if w else "-", ratio(whole),
            f"{sum(x <= 1.05 for x in whole)}", ratio(steady),
            f"{sum(x <= 1.02 for x in steady)}",
            ratio([r["whole_vs_oracle"] for r in w]) if w else "-"] + \
        [f"{s} {geomean([r['vs_native'][s] for r in c]):.3f}" for s in sels]


HEAD = ("| strategy | cells | decision cold: median / worst | warm | whole/oracle cold: median / "
        "worst | <= 1.05 | steady/oracle: median / worst | <= 1.02 | whole/oracle warm | "
        "steady/native geomean |")


def table(cold, warm, groups):
    print(HEAD)
    print("|" + "---|" * 10)
    for label, keys in groups:
        for name in STRATEGIES:
            cols = row_cells(cold, warm, name, keys)
            natives = ", ".join(cols[9:])
            print(f"| {label} {cols[0]} | " + " | ".join(cols[1:9]) + f" | {natives} |")


def floors(cold, calls=CALLS):
    """The cells whose replay charged the layer's set-up (start_seconds: its private
    communicator, made at the layer's first call): per cell the lowest whole run / oracle any
    strategy in the layer can reach, 1 + start / (calls x oracle), beside model's."""
    print("## the layer's set-up: the floor of whole run / oracle, no noise, cold\n")
    print("| ranks | platform | cell | oracle us | set-up us | floor | model whole | model - floor |")
    print("|" + "---|" * 8)
    by_ranks = {}
    for k in sorted(cold):
        m = cold[k]["model"]
        start, oracle = m.get("start_seconds"), m.get("oracle_median")
        if start is None:
            continue
        floor = 1 + start / (calls * oracle)
        by_ranks.setdefault(k[0], []).append((floor, m["whole_vs_oracle"]))
        print(f"| {k[0]} | {k[1]} | {k[2]} {k[3]} | {oracle * 1e6:.2f} | {start * 1e6:.0f} | "
              f"{floor:.3f} | {m['whole_vs_oracle']:.3f} | "
              f"{m['whole_vs_oracle'] - floor:.3f} |")
    for n, rows in sorted(by_ranks.items()):
        print(f"\n{n} ranks, median of {len(rows)} cells: floor "
              f"{statistics.median(f for f, _ in rows):.3f}, model whole "
              f"{statistics.median(w for _, w in rows):.3f}, model - floor "
              f"{statistics.median(w - f for f, w in rows):.3f}")
    print()


def main():
    runs = load()
    for noise in sorted({n for n, _ in runs}, key=lambda n: n != "none"):
        cold, warm = runs[(noise, False)], runs.get((noise, True), {})
        ranks = sorted({k[0] for k in cold})
        print(f"## noise {noise}: every platform, per rank count\n")
        table(cold, warm, [(f"{n} ranks,", sorted(k for k in cold if k[0] == n)) for n in ranks])
        print(f"\n## noise {noise}: per rank count and platform\n")
        groups = []
        for n in ranks:
            for p in sorted({k[1] for k in cold if k[0] == n}):
                groups.append((f"{n} {p}", sorted(k for k in cold if k[:2] == (n, p))))
        table(cold, warm, groups)
        print(f"\n## noise {noise}: cells (ranks platform collective bytes: model's steady / "
              f"whole / decision, then the best other strategy's whole run)\n")
        for k in sorted(cold):
            m = cold[k]["model"]
            best = min((r for s, r in cold[k].items() if not s.startswith("model")),
                       key=lambda r: r["whole_vs_oracle"])
            print(f"{k[0]} {k[1]} {k[2]} {k[3]}: model {m['steady_vs_oracle']:.3f} / "
                  f"{m['whole_vs_oracle']:.3f} / {m['decision']}; best other {best['layer']} "
                  f"{best['whole_vs_oracle']:.3f}")
        print()
        if noise == "none":
            floors(cold)


if __name__ == "__main__":
    main()

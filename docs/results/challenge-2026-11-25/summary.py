"""The tables of README.md from replay/*.json (run.sh): the model strategy with its challenges
(AUTOCOLL_MODEL_CHALLENGES=4, the default) against without them (0), per rank count, without
noise and with the measured noise; then every cell whose figures differ. Definitions as
`autocoll simgrid replay`'s: steady = median of the last 100 calls / the oracle's median (with
noise: the oracle replayed under the same delays), whole = mean of the 1000 calls / the
oracle's mean, decision = calls until the first choice. reduce_scatter of 8 B is left out, as
in ../model-eval-2026-11-24/summary.py (SMPI models no message for it). Last, the 64- and
256-rank cells under the measured noise per seed of its draws (seed 1: replay/, 2 to 5:
replay/seed<N>/)."""
import glob
import json
import math
import statistics
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEGENERATE = ("reduce_scatter", 8)
SETTINGS = ("challenges0", "challenges4")
NOISES = ("none", "detour")


def load(setting, folder=HERE / "replay"):
    rows = {}
    for path in sorted(glob.glob(str(folder / f"{setting}-*.json"))):
        noise = Path(path).name.split("-")[1]
        for cell in json.load(open(path))["cells"]:
            if (cell["collective"], cell["bytes"]) == DEGENERATE:
                continue
            row = [r for r in cell["replayed"] if r["layer"] == "model"][0]
            key = (noise, cell["ranks"], cell["platform"], cell["collective"], cell["bytes"])
            rows[key] = row
    return rows


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs))


def main():
    data = {s: load(s) for s in SETTINGS}
    keys = sorted(set(data[SETTINGS[0]]) & set(data[SETTINGS[1]]))
    print("| noise | ranks | cells | challenges | steady <= 1.02 | steady median / worst |"
          " steady geomean | whole <= 1.05 | whole median / worst | decision worst |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for noise in NOISES:
        for ranks in (16, 64, 256):
            ks = [k for k in keys if k[0] == noise and k[1] == ranks]
            for s in SETTINGS:
                steady = [data[s][k]["steady_vs_oracle"] for k in ks]
                whole = [data[s][k]["whole_vs_oracle"] for k in ks]
                decision = [data[s][k]["decision"] for k in ks]
                print(f"| {noise} | {ranks} | {len(ks)} | {s[len('challenges'):]} | "
                      f"{sum(x <= 1.02 for x in steady)} | "
                      f"{statistics.median(steady):.3f} / {max(steady):.3f} | "
                      f"{geomean(steady):.4f} | {sum(x <= 1.05 for x in whole)} | "
                      f"{statistics.median(whole):.3f} / {max(whole):.3f} | {max(decision)} |")
    print()
    print("Cells whose steady or whole run differ by more than 0.001 (without -> with):")
    print()
    print("| noise | ranks | platform | cell | steady | whole | chosen |")
    print("|---|---|---|---|---|---|---|")
    for k in keys:
        a, b = data[SETTINGS[0]][k], data[SETTINGS[1]][k]
        if (abs(a["steady_vs_oracle"] - b["steady_vs_oracle"]) > 0.001 or
                abs(a["whole_vs_oracle"] - b["whole_vs_oracle"]) > 0.001):
            print(f"| {k[0]} | {k[1]} | {k[2]} | {k[3]} {k[4]} | "
                  f"{a['steady_vs_oracle']:.3f} -> {b['steady_vs_oracle']:.3f} | "
                  f"{a['whole_vs_oracle']:.3f} -> {b['whole_vs_oracle']:.3f} | "
                  f"{a['chosen']} -> {b['chosen']} |")

    print()
    print("Under the measured noise, per seed of its draws (without -> with):")
    print()
    print("| ranks | seed | steady <= 1.02 | steady geomean | whole <= 1.05 | whole median |")
    print("|---|---|---|---|---|---|")
    for ranks in (64, 256):
        for seed in range(1, 6):
            folder = HERE / "replay" / (f"seed{seed}" if seed > 1 else "")
            runs = [load(s, folder) for s in SETTINGS]
            ks = [k for k in sorted(set(runs[0]) & set(runs[1]))
                  if k[0] == "detour" and k[1] == ranks]
            if not ks:
                continue
            cols = []
            for fig in (lambda xs: str(sum(x <= 1.02 for x in xs)),
                        lambda xs: f"{geomean(xs):.4f}"):
                cols.append(" -> ".join(fig([r[k]["steady_vs_oracle"] for k in ks]) for r in runs))
            for fig in (lambda xs: str(sum(x <= 1.05 for x in xs)),
                        lambda xs: f"{statistics.median(xs):.3f}"):
                cols.append(" -> ".join(fig([r[k]["whole_vs_oracle"] for k in ks]) for r in runs))
            print(f"| {ranks} ({len(ks)} cells) | {seed} | " + " | ".join(cols) + " |")


if __name__ == "__main__":
    main()

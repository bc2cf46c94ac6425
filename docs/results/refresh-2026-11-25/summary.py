"""The tables of README.md from replay/*.json (run.sh): the model strategy with its refresh
(AUTOCOLL_MODEL_REFRESH=4096, the default) against without it (0), over 20000 calls per cell,
per rank count, without noise and with the measured noise; the cells whose figures differ;
and whether the 1000-call replays are identical. Definitions as `autocoll simgrid replay`'s:
steady = median of the last 100 calls / the oracle's median (with noise: the oracle replayed
under the same delays), whole = mean of the calls / the oracle's mean. reduce_scatter of 8 B
is left out, as in ../challenge-2026-11-25/summary.py (SMPI models no message for it)."""
import glob
import json
import math
import statistics
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEGENERATE = ("reduce_scatter", 8)
SETTINGS = ("refresh0", "refresh4096")
NOISES = ("none", "detour")


def load(calls, setting):
    rows = {}
    for path in sorted(glob.glob(str(HERE / "replay" / f"{calls}-{setting}-*.json"))):
        noise = Path(path).name.split("-")[2]
        for cell in json.load(open(path))["cells"]:
            if (cell["collective"], cell["bytes"]) == DEGENERATE:
                continue
            row = [r for r in cell["replayed"] if r["layer"] == "model"][0]
            rows[(noise, cell["ranks"], cell["platform"], cell["collective"], cell["bytes"])] = row
    return rows


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs))


def main():
    data = {s: load(20000, s) for s in SETTINGS}
    keys = sorted(set(data[SETTINGS[0]]) & set(data[SETTINGS[1]]))
    print("20000 calls per cell:\n")
    print("| noise | ranks | cells | refresh | steady <= 1.02 | steady geomean | whole <= 1.05 |"
          " whole geomean | whole median / worst |")
    print("|---|---|---|---|---|---|---|---|---|")
    for noise in NOISES:
        for ranks in (16, 64, 256):
            ks = [k for k in keys if k[0] == noise and k[1] == ranks]
            for s in SETTINGS:
                steady = [data[s][k]["steady_vs_oracle"] for k in ks]
                whole = [data[s][k]["whole_vs_oracle"] for k in ks]
                print(f"| {noise} | {ranks} | {len(ks)} | {s[len('refresh'):]} | "
                      f"{sum(x <= 1.02 for x in steady)} | {geomean(steady):.4f} | "
                      f"{sum(x <= 1.05 for x in whole)} | {geomean(whole):.4f} | "
                      f"{statistics.median(whole):.4f} / {max(whole):.3f} |")
    print("\nCells whose steady or whole run differ by more than 0.001 (without -> with):\n")
    print("| noise | ranks | platform | cell | steady | whole | chosen |")
    print("|---|---|---|---|---|---|---|")
    for k in keys:
        a, b = data[SETTINGS[0]][k], data[SETTINGS[1]][k]
        if (abs(a["steady_vs_oracle"] - b["steady_vs_oracle"]) > 0.001 or
                abs(a["whole_vs_oracle"] - b["whole_vs_oracle"]) > 0.001):
            print(f"| {k[0]} | {k[1]} | {k[2]} | {k[3]} {k[4]} | "
                  f"{a['steady_vs_oracle']:.3f} -> {b['steady_vs_oracle']:.3f} | "
                  f"{a['whole_vs_oracle']:.4f} -> {b['whole_vs_oracle']:.4f} | "
                  f"{a['chosen']} -> {b['chosen']} |")
    short = {s: load(1000, s) for s in SETTINGS}
    same = sum(short[SETTINGS[0]][k] == short[SETTINGS[1]].get(k) for k in short[SETTINGS[0]])
    print(f"\n1000 calls: {same} of {len(short[SETTINGS[0]])} cells identical with and without "
          "the refresh")


if __name__ == "__main__":
    main()

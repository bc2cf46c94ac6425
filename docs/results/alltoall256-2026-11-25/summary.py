"""summary.txt from replay/*.json (run.sh): per platform the cell's oracle and natives, then per
strategy steady / oracle (median of the last 100 calls), whole run / oracle (mean of the 1000
calls, the layer's set-up included), the decision's calls and the algorithm it ends on; without
noise, and under the measured noise per seed of its draws."""
import json
from pathlib import Path

HERE = Path(__file__).resolve().parent
PLATFORMS = ("torus-3d", "dragonfly", "one-switch-gbe", "four-switch-gbe")
NOISES = ("none", "detour1", "detour2", "detour3")


def main():
    for p in PLATFORMS:
        first = json.load(open(HERE / "replay" / f"none-{p}.json"))["cells"][0]
        oracle = first["oracle_median"]
        print(f"## {p}: oracle {first['oracle']} {oracle * 1e6:.2f} us; native (ompi) "
              f"{first['native_medians']['ompi'] / oracle:.3f} x, (mpich) "
              f"{first['native_medians']['mpich'] / oracle:.3f} x; layer set-up "
              f"{first['start_seconds'] * 1e6:.0f} us; {first['candidates']} candidates\n")
        print("| noise | strategy | steady / oracle | whole / oracle | decision | chosen |")
        print("|---|---|---|---|---|---|")
        for noise in NOISES:
            cell = json.load(open(HERE / "replay" / f"{noise}-{p}.json"))["cells"][0]
            for r in cell["replayed"]:
                print(f"| {noise} | {r['layer']} | {r['steady_vs_oracle']:.3f} | "
                      f"{r['whole_vs_oracle']:.3f} | {r['decision']} | {r['chosen'] or '-'} |")
        print()


if __name__ == "__main__":
    main()

"""compare.py BEFORE AFTER: the model strategy's rows of two sets of `autocoll simgrid replay`
--json files (glob patterns; the noise is read from the name, "-detour-" or not), per noise
and rank count: cells steady within 1.02 of the oracle, steady geomean, whole runs within
1.05, whole geomean and median, longest decision; then every cell whose steady or whole run
moved by more than 0.001. reduce_scatter of 8 B is left out (SMPI models no message for it)."""
import glob
import json
import math
import statistics
import sys
from pathlib import Path

DEGENERATE = ("reduce_scatter", 8)


def load(pattern):
    rows = {}
    for path in sorted(glob.glob(pattern)):
        noise = "detour" if "-detour-" in Path(path).name else "none"
        for cell in json.load(open(path))["cells"]:
            if (cell["collective"], cell["bytes"]) == DEGENERATE:
                continue
            row = [r for r in cell["replayed"] if r["layer"] == "model"][0]
            rows[(noise, cell["ranks"], cell["platform"], cell["collective"], cell["bytes"])] = row
    return rows


def geomean(xs):
    return math.exp(sum(map(math.log, xs)) / len(xs))


def main(before, after):
    a, b = load(before), load(after)
    keys = sorted(set(a) & set(b))
    print("| noise | ranks | cells | steady<=1.02 a->b | steady gm | whole<=1.05 | whole gm |"
          " whole median | decision max |")
    for noise in ("none", "detour"):
        for ranks in (16, 64, 256):
            ks = [k for k in keys if k[0] == noise and k[1] == ranks]
            if not ks:
                continue

            def pair(f):
                return f"{f([a[k] for k in ks])} -> {f([b[k] for k in ks])}"
            steady = [lambda rs: sum(r["steady_vs_oracle"] <= 1.02 for r in rs),
                      lambda rs: f"{geomean([r['steady_vs_oracle'] for r in rs]):.4f}"]
            whole = [lambda rs: sum(r["whole_vs_oracle"] <= 1.05 for r in rs),
                     lambda rs: f"{geomean([r['whole_vs_oracle'] for r in rs]):.4f}",
                     lambda rs: f"{statistics.median(r['whole_vs_oracle'] for r in rs):.4f}"]
            cols = [pair(f) for f in steady + whole]
            cols.append(pair(lambda rs: max(r["decision"] for r in rs)))
            print(f"| {noise} | {ranks} | {len(ks)} | " + " | ".join(cols) + " |")
    print()
    for k in keys:
        x, y = a[k], b[k]
        if (abs(x["steady_vs_oracle"] - y["steady_vs_oracle"]) > 0.001 or
                abs(x["whole_vs_oracle"] - y["whole_vs_oracle"]) > 0.001):
            print(k, f"steady {x['steady_vs_oracle']:.3f} -> {y['steady_vs_oracle']:.3f} "
                  f"whole {x['whole_vs_oracle']:.3f} -> {y['whole_vs_oracle']:.3f}",
                  x["chosen"], "->", y["chosen"], x["decision"], "->", y["decision"])


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])

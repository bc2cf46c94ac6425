"""compare.py BEFORE AFTER: the model strategy's rows of two sets of `autocoll simgrid replay`
--json files (glob patterns; the noise is read from the name, "-detour-" or not), per noise
and rank count: cells steady within 1.02 of the oracle, steady geomean, whole runs within
1.05, whole geomean and median, longest decision; then every cell whose steady or whole run
moved by more than 0.001. reduce_scatter of 8 B is left out (SMPI models no message for it)."""
import glob, json, math, statistics, sys
from pathlib import Path
DEG = ("reduce_scatter", 8)
def load(pattern):
    rows = {}
    for path in sorted(glob.glob(pattern)):
        noise = "detour" if "-detour-" in Path(path).name else "none"
        for cell in json.load(open(path))["cells"]:
            if (cell["collective"], cell["bytes"]) == DEG: continue
            row = [r for r in cell["replayed"] if r["layer"] == "model"][0]
            rows[(noise, cell["ranks"], cell["platform"], cell["collective"], cell["bytes"])] = row
    return rows
a = load(sys.argv[1]); b = load(sys.argv[2])
keys = sorted(set(a) & set(b))
gm = lambda xs: math.exp(sum(map(math.log, xs)) / len(xs))
print("| noise | ranks | cells | steady<=1.02 a->b | steady gm | whole<=1.05 | whole gm | whole median | decision max |")
for noise in ("none", "detour"):
    for r in (16, 64, 256):
        ks = [k for k in keys if k[0] == noise and k[1] == r]
        if not ks:
            continue
        f = lambda d, key: [d[k][key] for k in ks]
        print(f"| {noise} | {r} | {len(ks)} | {sum(x<=1.02 for x in f(a,'steady_vs_oracle'))} -> {sum(x<=1.02 for x in f(b,'steady_vs_oracle'))} | "
              f"{gm(f(a,'steady_vs_oracle')):.4f} -> {gm(f(b,'steady_vs_oracle')):.4f} | "
              f"{sum(x<=1.05 for x in f(a,'whole_vs_oracle'))} -> {sum(x<=1.05 for x in f(b,'whole_vs_oracle'))} | "
              f"{gm(f(a,'whole_vs_oracle')):.4f} -> {gm(f(b,'whole_vs_oracle')):.4f} | "
              f"{statistics.median(f(a,'whole_vs_oracle')):.4f} -> {statistics.median(f(b,'whole_vs_oracle')):.4f} | "
              f"{max(f(a,'decision'))} -> {max(f(b,'decision'))} |")
print()
for k in keys:
    x, y = a[k], b[k]
    if abs(x["steady_vs_oracle"] - y["steady_vs_oracle"]) > 0.001 or abs(x["whole_vs_oracle"] - y["whole_vs_oracle"]) > 0.001:
        print(k, f"steady {x['steady_vs_oracle']:.3f} -> {y['steady_vs_oracle']:.3f} whole {x['whole_vs_oracle']:.3f} -> {y['whole_vs_oracle']:.3f}", x["chosen"], "->", y["chosen"], x["decision"], "->", y["decision"])

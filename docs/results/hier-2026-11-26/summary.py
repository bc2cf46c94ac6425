#!/usr/bin/env python3
"""summary.py CELLS REPLAY - summary.md of run.sh: per cell (collective, size, ranks per node)
the oracle over every fixed algorithm and native, the oracle without the hierarchical family
(the flat algorithms and the orthogonal meshes: what the registry had before), their ratio (how
much hierarchy is worth there), the best hierarchical instance, native (`ompi`: SMPI's copy of
Open MPI's tuned rules) and each replayed strategy's steady state over the oracle with its
decision length (calls). Then the baselines per cell, each measured in the same set-up:
  ompi     SMPI's copy of Open MPI's coll/tuned fixed rules (native of the cells);
  ompi5    Open MPI 5.0's HAN over tuned: the table layer with tables/ompi5-defaults.json;
  mpich    SMPI's `mpich` selector (MPICH 2/3-era thresholds, MVAPICH2 algorithms);
  mpich4   MPICH 4's Csel defaults and ch4 compositions: tables/mpich4-defaults.json;
and model's steady state against the best of them. All medians of the cells' 4 calls
(simulated, deterministic)."""

import json
import sys
from pathlib import Path


def load(path):
    return json.loads(Path(path).read_text())


def best(configs):
    c = min(configs, key=lambda c: c["median"])
    return c["name"], c["median"]


def main(cells_root, replay_root):
    cells_root, replay_root = Path(cells_root), Path(replay_root)
    print("## Per cell: what hierarchy is worth, and the strategies from a cold start\n")
    cells = [load(f) for f in cells_root.glob("*-ppn*/*-ompi.json")]
    ranks = sorted({c["machine"]["ranks"] for c in cells})
    placement = " and ".join(sorted({c.get("simgrid", {}).get("placement", "block")
                                     for c in cells}))
    print(f"fat-tree-ib, {', '.join(map(str, ranks))} ranks, {placement} placement; times in "
          "microseconds; \"without\" is the "
          "oracle of the flat algorithms, the orthogonal meshes and native; \"worth\" is it over "
          "the oracle with the family (> 1: hierarchy is faster).\n")
    print("| ppn | cell | oracle | without the family | worth | best hierarchical | native "
          "| model steady / oracle (decision) | race steady / oracle (decision) |")
    print("|---|---|---|---|---|---|---|---|---|")
    totals = {}
    for replay_file in sorted(replay_root.glob("*-cold.json")):
        platform_ppn = replay_file.stem.removesuffix("-cold")
        ppn = int(platform_ppn.rsplit("-ppn", 1)[1])
        for r in load(replay_file)["cells"]:
            cell = load(cells_root / platform_ppn / r["cell"])
            fixed = [c for c in cell["configurations"] if c["kind"] in ("fixed", "native")]
            flat = [c for c in fixed if not c["name"].startswith("hier_")]
            hier = [c for c in fixed if c["name"].startswith("hier_")]
            o_name, o = best(fixed)
            f_name, f = best(flat)
            h_name, h = best(hier) if hier else ("-", float("nan"))
            (native,) = [c["median"] for c in fixed if c["kind"] == "native"]
            strat = {s["layer"]: s for s in r["replayed"]}
            cols = []
            for layer in ("model", "race"):
                s = strat.get(layer)
                cols.append(f"{s['steady_vs_oracle']:.3f} ({s['decision']})" if s else "-")
                if s:
                    t = totals.setdefault((ppn, layer), [0, 0, []])
                    t[0] += 1
                    t[1] += s["steady_vs_oracle"] <= 1.02
                    t[2].append(s["decision"])
            print(f"| {ppn} | {r['cell'].removesuffix('-ompi.json')} | {o_name} {1e6 * o:.2f} "
                  f"| {f_name} {1e6 * f:.2f} | {f / o:.3f} | {h_name} {1e6 * h:.2f} "
                  f"| {1e6 * native:.2f} | {cols[0]} | {cols[1]} |")
    print("\n## Per strategy\n")
    print("| ppn | strategy | cells | steady <= 1.02 x oracle | median decision | longest |")
    print("|---|---|---|---|---|---|")
    for (ppn, layer), (n, ok, decisions) in sorted(totals.items()):
        decisions.sort()
        print(f"| {ppn} | {layer} | {n} | {ok} | {decisions[len(decisions) // 2]} "
              f"| {decisions[-1]} |")


BASELINES = ("ompi", "ompi5", "mpich", "mpich4")


def table_layer(path):
    """(median, algorithms it ran) of the table layer in a baseline cell; None when absent."""
    if not path.exists():
        return None
    (layer,) = [c for c in load(path)["configurations"] if c["name"] == "layer:table"]
    return layer["median"], sorted({a for a, _ in layer["layer"]["algorithm_runs"]})


def native_of(path):
    if not path.exists():
        return None
    (n,) = [c["median"] for c in load(path)["configurations"] if c["kind"] == "native"]
    return n, []


def baselines(cells_root, replay_root):
    print("\n## Baselines: today's libraries' defaults against the oracle and model\n")
    print("Each baseline over the oracle (the fastest fixed algorithm or native); in brackets "
          "what the table layer ran; the last columns: the best baseline over the oracle, and "
          "model's steady state (cold start) against the best baseline (> 1: model is "
          "faster).\n")
    print("| ppn | cell | oracle (us) | ompi | ompi5 (HAN) | mpich | mpich4 | best baseline "
          "| model steady vs best | model whole run vs best |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    speed, whole_speed = {}, {}
    for replay_file in sorted(replay_root.glob("*-cold.json")):
        platform_ppn = replay_file.stem.removesuffix("-cold")
        ppn = int(platform_ppn.rsplit("-ppn", 1)[1])
        for r in load(replay_file)["cells"]:
            name = r["cell"]
            cell = load(cells_root / platform_ppn / name)
            fixed = [c for c in cell["configurations"] if c["kind"] in ("fixed", "native")]
            o = min(c["median"] for c in fixed)
            (native,) = [c["median"] for c in fixed if c["kind"] == "native"]
            base = {"ompi": (native, []),
                    "ompi5": table_layer(cells_root / f"{platform_ppn}-ompi5" / name),
                    "mpich": native_of(cells_root / f"{platform_ppn}-mpich" /
                                       name.replace("-ompi.json", "-mpich.json")),
                    "mpich4": table_layer(cells_root / f"{platform_ppn}-mpich4" / name)}
            cols = []
            for b in BASELINES:
                if base[b] is None:
                    cols.append("-")
                    continue
                t, ran = base[b]
                cols.append(f"{t / o:.2f}" + (f" ({', '.join(ran)})" if ran else ""))
            have = [base[b][0] for b in BASELINES if base[b] is not None]
            if len(have) < len(BASELINES):  # a baseline not run in this cell: no comparison
                print(f"| {ppn} | {name.removesuffix('-ompi.json')} | {1e6 * o:.2f} | "
                      + " | ".join(cols) + " | - | - | - |")
                continue
            best = min(have)
            model = {s["layer"]: s for s in r["replayed"]}.get("model")
            vs = best / (model["steady_vs_oracle"] * o) if model else float("nan")
            whole = best / (model["whole_vs_oracle"] * o) if model else float("nan")
            speed.setdefault(ppn, []).append(vs)
            whole_speed.setdefault(ppn, []).append(whole)
            print(f"| {ppn} | {name.removesuffix('-ompi.json')} | {1e6 * o:.2f} | "
                  + " | ".join(cols) + f" | {best / o:.2f} | {vs:.2f} | {whole:.3f} |")
    print("\nmodel from a cold start against the best baseline of each cell with all four "
          "baselines (> 1: model is "
          "faster); the whole run is the mean of its 1000 calls, learning included. The rule "
          "for a default (issue 38): faster in geomean, and no cell's whole run slower than "
          "1.01 x the best baseline (a ratio below 0.990).\n")
    print("| ppn | cells | steady: geomean | worst | best | whole run: geomean | worst "
          "| cells below 0.990 |")
    print("|---|---|---|---|---|---|---|---|")
    for ppn, v in sorted(speed.items()):
        w = whole_speed[ppn]
        print(f"| {ppn} | {len(v)} | {geomean(v):.3f} | {min(v):.3f} | {max(v):.3f} "
              f"| {geomean(w):.3f} | {min(w):.3f} | {sum(x < 0.990 for x in w)} |")


def geomean(values):
    g = 1.0
    for x in values:
        g *= x
    return g ** (1 / len(values))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
    baselines(Path(sys.argv[1]), Path(sys.argv[2]))

#!/usr/bin/env python3
"""summary.py CELLS REPLAY - summary.md of run.sh.

One node (run.sh step 1): per cell the oracle over every fixed algorithm and native, the oracle
without `shm`, their ratio (what shared memory is worth there: > 1, shm is faster), shm itself,
native (SMPI's `ompi`) and each replayed strategy's steady state over the oracle with its
decision length (calls, from a cold start).

64 ranks (step 2): per cell the best instance with a `shm` phase against the oracle of
docs/results/hier-2026-11-26 (every fixed algorithm of that day's registry, the hierarchical
family with native and binomial_tree phases included, read from its cells.tar.xz) and against
the same instance with its `shm` phases replaced by `native` ones, in the same run of
hier-2026-11-26. All medians of the cells' 4 calls (simulated, deterministic)."""

import json
import re
import sys
import tarfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
EARLIER = HERE.parent / "hier-2026-11-26" / "cells.tar.xz"


def load(path):
    return json.loads(Path(path).read_text())


def best(configs):
    c = min(configs, key=lambda c: c["median"])
    return c["name"], c["median"]


def one_node(cells_root, replay_root):
    print("## One node: bcast, reduce and allreduce through shared memory\n")
    print("fat-tree-ib, one node of 8 or 32 ranks; times in microseconds; \"without\" is the "
          "oracle of every other fixed algorithm and native; \"worth\" is it over the oracle "
          "(> 1: shm is the fastest, by that much).\n")
    print("| ranks | cell | oracle | without shm | worth | shm | native | model steady / oracle "
          "(decision) | race steady / oracle (decision) |")
    print("|---|---|---|---|---|---|---|---|---|")
    for replay_file in sorted(replay_root.glob("*-node*-cold.json")):
        folder = replay_file.stem.removesuffix("-cold")
        ranks = int(folder.rsplit("-node", 1)[1])
        for r in load(replay_file)["cells"]:
            cell = load(cells_root / folder / r["cell"])
            fixed = [c for c in cell["configurations"] if c["kind"] in ("fixed", "native")]
            o_name, o = best(fixed)
            f_name, f = best([c for c in fixed if c["name"] != "shm"])
            (shm,) = [c["median"] for c in fixed if c["name"] == "shm"]
            (native,) = [c["median"] for c in fixed if c["kind"] == "native"]
            strat = {s["layer"]: s for s in r["replayed"]}
            cols = [f"{strat[k]['steady_vs_oracle']:.3f} ({strat[k]['decision']})"
                    if k in strat else "-" for k in ("model", "race")]
            print(f"| {ranks} | {r['cell'].removesuffix('-ompi.json')} | {o_name} {1e6 * o:.2f} "
                  f"| {f_name} {1e6 * f:.2f} | {f / o:.3f} | {1e6 * shm:.2f} "
                  f"| {1e6 * native:.2f} | {cols[0]} | {cols[1]} |")


def earlier_cells():
    """hier-2026-11-26's cells by (ppn folder, cell name)."""
    cells = {}
    with tarfile.open(EARLIER) as tar:
        for m in tar.getmembers():
            if m.isfile() and m.name.endswith("-ompi.json") and "-ppn" in m.name:
                folder, name = Path(m.name).parent.name, Path(m.name).name
                if re.fullmatch(r"fat-tree-ib-ppn\d+", folder):  # not the baselines' folders
                    cells[(folder, name)] = json.loads(tar.extractfile(m).read())
    return cells


def two_levels(cells_root):
    print("\n## 64 ranks: the hierarchical instances with a shm phase inside the nodes\n")
    print("fat-tree-ib, 64 ranks at 8 and 32 a node; times in microseconds. \"oracle then\": "
          "the fastest fixed algorithm or native of docs/results/hier-2026-11-26 (the family "
          "with native and binomial_tree phases, the flat algorithms, the meshes; not HAN's "
          "pipelines); \"same, native inside\": the best shm instance with `native` in place of "
          "`shm`, from the same archive; ratios > 1: the shm instance is faster.\n")
    print("| ppn | cell | best with shm | same, native inside | ratio | oracle then | ratio "
          "| native now | native then |")
    print("|---|---|---|---|---|---|---|---|---|")
    earlier = earlier_cells()
    for folder in sorted(cells_root.glob("*-ppn*"), key=lambda p: -int(p.name.rsplit("ppn")[1])):
        ppn = int(folder.name.rsplit("ppn", 1)[1])
        for path in sorted(folder.glob("*-ompi.json")):
            cell = load(path)
            confs = cell["configurations"]
            shm = [c for c in confs if "shm" in c["name"]]
            if not shm:
                continue
            s_name, s = best(shm)
            (native,) = [c["median"] for c in confs if c["kind"] == "native"]
            then = earlier.get((folder.name, path.name))
            if then is None:
                print(f"| {ppn} | {path.name.removesuffix('-ompi.json')} | {s_name} "
                      f"{1e6 * s:.2f} | - | - | - | - | {1e6 * native:.2f} | - |")
                continue
            fixed = [c for c in then["configurations"] if c["kind"] in ("fixed", "native")]
            o_name, o = best(fixed)
            twin_name = s_name.replace("shm", "native")
            twin = [c["median"] for c in fixed if c["name"] == twin_name]
            (native_then,) = [c["median"] for c in fixed if c["kind"] == "native"]
            twin_col = f"{twin_name} {1e6 * twin[0]:.2f} | {twin[0] / s:.3f}" if twin else "- | -"
            print(f"| {ppn} | {path.name.removesuffix('-ompi.json')} | {s_name} {1e6 * s:.2f} "
                  f"| {twin_col} | {o_name} {1e6 * o:.2f} | {o / s:.3f} | {1e6 * native:.2f} "
                  f"| {1e6 * native_then:.2f} |")


if __name__ == "__main__":
    one_node(Path(sys.argv[1]), Path(sys.argv[2]))
    two_levels(Path(sys.argv[1]))

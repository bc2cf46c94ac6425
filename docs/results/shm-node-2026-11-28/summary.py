#!/usr/bin/env python3
"""summary.py CELLS REPLAY - summary.md of run.sh: per cell (one node of 8 or 32 ranks) the
oracle over every fixed algorithm and native, the oracle without `shm`, their ratio (what shared
memory is worth: > 1, shm is the fastest, by that much), shm itself, native (SMPI's `ompi`), each
replayed strategy's steady state over the oracle with its decision length (calls, from a cold
start), and the oracle of the same cell in docs/results/shm-2026-11-28 (before the node was
built out of one host a rank). Medians of the cells' 4 calls (simulated, deterministic). Then
the wall time each cell's simulation took, now and then."""

import json
import sys
import tarfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
BEFORE = HERE.parent / "shm-2026-11-28" / "cells.tar.xz"


def load(path):
    return json.loads(Path(path).read_text())


def best(configs):
    c = min(configs, key=lambda c: c["median"])
    return c["name"], c["median"]


def fixed(cell):
    return [c for c in cell["configurations"] if c["kind"] in ("fixed", "native")]


def before_cells():
    """shm-2026-11-28's one-node cells by (folder, cell name)."""
    cells = {}
    with tarfile.open(BEFORE) as tar:
        for m in tar.getmembers():
            if m.isfile() and m.name.endswith("-ompi.json") and "-node" in m.name:
                cells[(Path(m.name).parent.name, Path(m.name).name)] = \
                    json.loads(tar.extractfile(m).read())
    return cells


def main(cells_root, replay_root):
    before = before_cells()
    print("## One node, the node built out of one host a rank\n")
    print("fat-tree-ib, one node of 8 or 32 ranks; times in microseconds; \"without shm\" is the "
          "oracle of every other fixed algorithm and native; \"worth\" is it over the oracle "
          "(> 1: shm is the fastest, by that much); \"oracle before\": the same cell on the node "
          "of docs/results/shm-2026-11-28 (one host, FATPIPE loopback).\n")
    print("| ranks | cell | oracle | without shm | worth | shm | native | model steady / oracle "
          "(decision) | race steady / oracle (decision) | oracle before |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for replay_file in sorted(replay_root.glob("*-node*-cold.json")):
        folder = replay_file.stem.removesuffix("-cold")
        ranks = int(folder.rsplit("-node", 1)[1])
        for r in load(replay_file)["cells"]:
            cell = load(cells_root / folder / r["cell"])
            o_name, o = best(fixed(cell))
            f_name, f = best([c for c in fixed(cell) if c["name"] != "shm"])
            (shm,) = [c["median"] for c in fixed(cell) if c["name"] == "shm"]
            (native,) = [c["median"] for c in fixed(cell) if c["kind"] == "native"]
            strat = {s["layer"]: s for s in r["replayed"]}
            cols = [f"{strat[k]['steady_vs_oracle']:.3f} ({strat[k]['decision']})"
                    if k in strat else "-" for k in ("model", "race")]
            then = before.get((folder, r["cell"]))
            then_col = "-"
            if then is not None:
                b_name, b = best(fixed(then))
                then_col = f"{b_name} {1e6 * b:.2f}"
            print(f"| {ranks} | {r['cell'].removesuffix('-ompi.json')} | {o_name} {1e6 * o:.2f} "
                  f"| {f_name} {1e6 * f:.2f} | {f / o:.3f} | {1e6 * shm:.2f} "
                  f"| {1e6 * native:.2f} | {cols[0]} | {cols[1]} | {then_col} |")


def wall(cells_root):
    """Seconds of this machine each cell's simulation took, now and in shm-2026-11-28."""
    before = before_cells()
    print("\n## Simulation wall time (seconds of this 2-core machine, one cell a simulation)\n")
    print("| cell | before | now | now / before |")
    print("|---|---|---|---|")
    total = [0.0, 0.0]
    for path in sorted(cells_root.glob("*-node*/*-ompi.json")):
        then = before.get((path.parent.name, path.name))
        if then is None:
            continue
        a, b = then["simgrid"]["wall_seconds"], load(path)["simgrid"]["wall_seconds"]
        total[0] += a
        total[1] += b
        print(f"| {path.name.removesuffix('-ompi.json')} | {a:.1f} | {b:.1f} | {b / a:.1f} |")
    print(f"| all | {total[0]:.1f} | {total[1]:.1f} | {total[1] / total[0]:.1f} |")


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))
    wall(Path(sys.argv[1]))

#!/usr/bin/env python3
"""multileader.py ML CELLS - multileader.md of run_multileader.sh: per cell (ppn, collective,
size) the best instance of several leaders a node (ML's cells) against the oracle of every
algorithm run.sh simulated (CELLS: the flat algorithms, the orthogonal meshes, the one-leader
instances and native) and against the best one-leader instance; native of both runs must agree
(the same platform and code path), else the cell is marked."""

import json
import sys
from pathlib import Path


def fixed(path):
    data = json.loads(Path(path).read_text())
    return {c["name"]: c["median"] for c in data["configurations"]
            if c["kind"] in ("fixed", "native")}


def main(ml_root, cells_root):
    print("fat-tree-ib, 64 ranks, block placement, medians of 4 calls from a common start; "
          "times in microseconds; ratio > 1: the instance of several leaders is faster.\n")
    print("| ppn | cell | oracle before | best one-leader instance | best of several leaders "
          "| oracle / it | one-leader / it |")
    print("|---|---|---|---|---|---|---|")
    for ml_dir in sorted(Path(ml_root).glob("fat-tree-ib-ppn*"), key=lambda p: int(
            p.name.rsplit("ppn", 1)[1])):
        ppn = int(ml_dir.name.rsplit("ppn", 1)[1])
        for path in sorted(ml_dir.glob("*.json")):
            new, old = fixed(path), fixed(Path(cells_root) / ml_dir.name / path.name)
            same = abs(new["native"] - old["native"]) <= 1e-12
            o = min(old, key=old.get)
            one = min((n for n in old if n.startswith("hier_")), key=old.get)
            k = min((n for n in new if n.startswith("hier_k")), key=new.get)
            print(f"| {ppn} | {path.stem.removesuffix('-ompi')}{'' if same else ' (native differs)'}"
                  f" | {o} {1e6 * old[o]:.2f} | {one} {1e6 * old[one]:.2f} | {k} "
                  f"{1e6 * new[k]:.2f} | {old[o] / new[k]:.3f} | {old[one] / new[k]:.3f} |")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])

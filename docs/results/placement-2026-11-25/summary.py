#!/usr/bin/env python3
"""summary.py BLOCK CYCLIC - per cell of both folders: the oracle and SMPI's `ompi` native
under block and under cyclic placement, and where each placement's oracle ranks under the
other (medians of 20 calls, simulated time, each call from a common start)."""

import json
import sys
from pathlib import Path


def fixed(cell):
    return {c["name"]: c["median"] for c in cell["configurations"] if c["kind"] == "fixed"}


def native(cell):
    (n,) = [c["median"] for c in cell["configurations"] if c["kind"] == "native"]
    return n


def main(block_dir, cyclic_dir):
    print("| cell | block: oracle (us) | block: ompi / oracle | cyclic: oracle (us) "
          "| cyclic: ompi / oracle | block's oracle under cyclic | ompi cyclic / block |")
    print("|---|---|---|---|---|---|---|")
    for path in sorted(Path(cyclic_dir).glob("*-ompi.json")):
        block_path = Path(block_dir) / path.name
        if not block_path.exists():
            continue
        b, c = json.loads(block_path.read_text()), json.loads(path.read_text())
        assert c["simgrid"]["placement"] == "cyclic", path
        fb, fc = fixed(b), fixed(c)
        ob, oc = min(fb, key=fb.get), min(fc, key=fc.get)
        print(f"| {path.name.removesuffix('-ompi.json')} | {ob} {1e6 * fb[ob]:.2f} "
              f"| {native(b) / fb[ob]:.2f} | {oc} {1e6 * fc[oc]:.2f} | {native(c) / fc[oc]:.2f} "
              f"| {fc[ob] / fc[oc]:.2f} x | {native(c) / native(b):.2f} |")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])

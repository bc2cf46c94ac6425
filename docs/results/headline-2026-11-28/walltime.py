#!/usr/bin/env python3
"""walltime.py CELLS - what each cell of every fixed algorithm cost this 2-core machine: the
simulation's wall seconds (the cell's simgrid.wall_seconds), per ranks, ranks per node and
size, summed over the collectives, with the longest cell."""

import json
import sys
from pathlib import Path


def main(cells_root):
    groups = {}
    for f in sorted(Path(cells_root).glob("*-ppn*/*-ompi.json")):
        if f.parent.name.endswith(("-mpich", "-mpich4", "-ompi5")):
            continue
        d = json.loads(f.read_text())
        key = (d["machine"]["ranks"], d["simgrid"]["ppn"], d["parameters"]["bytes"])
        groups.setdefault(key, []).append((d["simgrid"]["wall_seconds"],
                                           d["parameters"]["collective"]))
    print("| ranks | ppn | bytes | cells | wall seconds, all cells | longest cell |")
    print("|---|---|---|---|---|---|")
    for (ranks, ppn, size), xs in sorted(groups.items()):
        longest = max(xs)
        print(f"| {ranks} | {ppn} | {size} | {len(xs)} | {sum(s for s, _ in xs):.0f} "
              f"| {longest[1]} {longest[0]:.0f} |")


if __name__ == "__main__":
    main(sys.argv[1])

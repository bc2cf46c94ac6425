#!/usr/bin/env python3
"""summary.py OUT - the tables of summary.md from run.sh's cells (OUT/{before,after}/...):
per cell, the fastest fixed algorithm (the oracle) before and after the sender pays, the
oracle's and SMPI's Open MPI selector's medians, where the old oracle now ranks, and the
simulation's wall time on this machine. Times are the medians of 10 calls, each call's time
the slowest rank's from a common start; `ompi` is SMPI's copy of Open MPI's tuned rules."""

import json
import sys
from pathlib import Path


def cells(folder):
    """{(folder name, cell file name): cell} of one side."""
    found = {}
    for path in sorted(Path(folder).glob("*/*.json")):
        found[(path.parent.name, path.name)] = json.loads(path.read_text())
    return found


def fixed(cell):
    return {c["name"]: c["median"] for c in cell["configurations"] if c["kind"] == "fixed"}


def native(cell):
    (n,) = [c["median"] for c in cell["configurations"] if c["kind"] == "native"]
    return n


def us(seconds):
    return f"{1e6 * seconds:.2f}"


def main(out):
    before, after = cells(Path(out) / "before"), cells(Path(out) / "after")
    print("| platform, sync | cell | oracle before (us) | oracle after (us) | old oracle now "
          "| ompi / oracle before | ompi / oracle after | wall before (s) | wall after (s) |")
    print("|---|---|---|---|---|---|---|---|---|")
    wall = [0.0, 0.0]
    for key in sorted(after):
        if key not in before:
            continue
        b, a = before[key], after[key]
        fb, fa = fixed(b), fixed(a)
        ob, oa = b["oracle"], a["oracle"]
        ranked = sorted(fa, key=fa.get)
        rank = ranked.index(ob["name"]) + 1
        ratio = fa[ob["name"]] / oa["median"]
        old_now = ("same" if ob["name"] == oa["name"]
                   else f"{ob['name']}: tied" if ratio < 1 + 1e-9
                   else f"{ob['name']}: #{rank}, {ratio:.2f} x")
        wb, wa = b["simgrid"]["wall_seconds"], a["simgrid"]["wall_seconds"]
        wall[0] += wb
        wall[1] += wa
        print(f"| {key[0]} | {key[1].removesuffix('-ompi.json')} | {ob['name']} {us(ob['median'])} "
              f"| {oa['name']} {us(oa['median'])} | {old_now} "
              f"| {native(b) / ob['median']:.2f} | {native(a) / oa['median']:.2f} "
              f"| {wb:.1f} | {wa:.1f} |")
    print(f"\nWall time of all these cells: {wall[0]:.0f} s before, {wall[1]:.0f} s after "
          f"({wall[1] / wall[0]:.2f} x).\n")

    print("Flat against binomial bcast, 8 B, 64 ranks (one rank per node):\n")
    print("| platform, sync | flat_tree before | binomial_tree before | flat_tree after "
          "| binomial_tree after |")
    print("|---|---|---|---|---|")
    for key in sorted(after):
        if not key[1].startswith("bcast-8-np64") or key not in before:
            continue
        fb, fa = fixed(before[key]), fixed(after[key])
        print(f"| {key[0]} | {us(fb['flat_tree'])} | {us(fb['binomial_tree'])} "
              f"| {us(fa['flat_tree'])} | {us(fa['binomial_tree'])} |")


if __name__ == "__main__":
    main(sys.argv[1])

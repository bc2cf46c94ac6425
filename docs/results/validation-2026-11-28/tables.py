#!/usr/bin/env python3
"""tables.py [validation.txt] - the markdown tables of platforms/README.md ("Validation") from
run.sh's output: ping-pong, message rate, OSU-style collective latency per platform, and the
STAR-MPI topology (a) comparison (the paper's numbers are typed in below, from seed 000's
Table 6, MPICH column, topology (a))."""

import re
import sys
from pathlib import Path

# seed 000 (STAR-MPI, ICS 2006), Table 6, "MPICH" column, topology (a): 16 nodes, one
# 100 Mbit/s switch; per-invocation time in ms of its micro-benchmark (Figure 4)
STAR_MPICH_A = {("alltoall", 16384): 32.0, ("alltoall", 65536): 305.7,
                ("alltoall", 262144): 519.4,
                ("allgather", 16384): 31.8, ("allgather", 65536): 111.6,
                ("allgather", 262144): 446.0,
                ("allreduce", 16384): 5.9, ("allreduce", 65536): 18.7,
                ("allreduce", 262144): 68.3}


def runs(text):
    """[(section, command, output lines)] of validation.txt."""
    section, found = None, []
    for block in re.split(r"\n(?=\$ |=== )", text):
        lines = block.strip().splitlines()
        if not lines:
            continue
        if lines[0].startswith("=== "):
            section = lines[0][4:]
            lines = lines[1:]
            if not lines:
                continue
        if lines[0].startswith("$ "):
            found.append((section, lines[0][2:], [l for l in lines[1:] if l.strip()]))
    return found


def rows(out):
    return [l.split() for l in out if not l.startswith("#")]


def option(command, name, default=None):
    m = re.search(rf"{name} (\S+)", command)
    return m.group(1) if m else default


def main(path):
    found = runs(Path(path).read_text())
    platforms = [s for s in dict.fromkeys(s for s, _, _ in found) if not s.startswith("STAR")]

    print("Ping-pong (bench/pingpong: half the median round trip):\n")
    print("| platform | 8 B, two nodes | 64 KiB | 4 MiB (MB/s) | 8 B, one node | 4 MiB, one node "
          "(MB/s) |")
    print("|---|---|---|---|---|---|")
    for p in platforms:
        ping = [(c, rows(o)) for s, c, o in found if s == p and "pingpong" in c]
        (two, one) = [r for c, r in sorted(ping, key=lambda x: "--ppn" in x[0])]
        two, one = {r[0]: r for r in two}, {r[0]: r for r in one}
        print(f"| {p} | {two['8'][1]} us | {two['65536'][1]} us | {two['4194304'][2]} "
              f"| {one['8'][1]} us | {one['4194304'][2]} |")

    print("\nMessage rate (bench/msgrate: rank 0 sends 8 B to K others from a common start; "
          "the sender's time per message, and the time until the last receiver has its "
          "message):\n")
    print("| platform | between nodes: us per message sent (K = 1, 8, 64, 255) | last receiver "
          "at K = 255 | inside one node: us per message (K = 1, 8, 31) | last at K = 31 |")
    print("|---|---|---|---|---|")
    for p in platforms:
        rate = {("--ppn" in c): {r[0]: r for r in rows(o)} for s, c, o in found
                if s == p and "msgrate" in c}
        net, node = rate[False], rate[True]
        print(f"| {p} | {', '.join(net[k][2] for k in ('1', '8', '64', '255'))} "
              f"| {net['255'][4]} us | {', '.join(node[k][2] for k in ('1', '8', '31'))} "
              f"| {node['31'][4]} us |")

    print("\nCollectives (bench/osu_collective: OSU's average latency in us; SMPI's `ompi` "
          "selector; 64 ranks):\n")
    print("| platform | ranks per node | allreduce 8 B / 64 KiB / 1 MiB | bcast 8 B / 64 KiB / "
          "1 MiB | alltoall 8 B / 64 KiB / 1 MiB |")
    print("|---|---|---|---|---|")
    for p in platforms:
        for ppn in ("1", "8"):
            cells = []
            for coll in ("allreduce", "bcast", "alltoall"):
                (out,) = [o for s, c, o in found if s == p and "osu_collective" in c
                          and option(c, "--ppn") == ppn and f" {coll} " in c]
                cells.append(" / ".join(f"{float(r[1]):.1f}" for r in rows(out)))
            print(f"| {p} | {ppn} | {' | '.join(cells)} |")

    star = [(c, o) for s, c, o in found if s and s.startswith("STAR")]
    if star:
        print("\nSTAR-MPI's topology (a), 16 nodes on one 100 Mbit/s switch: the one-switch-gbe "
              "model with 100 Mbit/s node links under SMPI's `mpich` selector (OSU average "
              "latency) against the MPICH column of the paper's Table 6 (its micro-benchmark, "
              "MPICH of 2006 on Pentium 4 nodes):\n")
        print("| collective | block | simulated (ms) | published (ms) | simulated / published |")
        print("|---|---|---|---|---|")
        for c, o in star:
            if "osu_collective" not in c:
                continue
            coll = next(x for x in ("alltoall", "allgather", "allreduce") if f" {x} " in c)
            for r in rows(o):
                published = STAR_MPICH_A[(coll, int(r[0]))]
                simulated = float(r[1]) / 1000
                print(f"| {coll} | {int(r[0]) // 1024} KiB | {simulated:.1f} | {published} "
                      f"| {simulated / published:.2f} |")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).with_name("validation.txt"))

#!/usr/bin/env python3
"""table.py [NODE.txt ...] - run.sh's rows (default: every node*.txt here) beside the same rows of ../validation-2026-11-25 (the node
of one host whose loopback let every transfer inside it run at 10 GB/s), as markdown: ping-pong
inside a node, the message rate inside a node of 32, OSU-style latency at 8 ranks a node.
Reads both files with that folder's parser (tables.py)."""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "validation-2026-11-25"))
from tables import option, rows, runs  # noqa: E402


def node_rows(path):
    """{(platform, what): output rows} of the runs at several ranks a node."""
    found = {}
    for section, command, out in runs(Path(path).read_text()):
        if option(command, "--ppn", "1") == "1" or not section or section.startswith("STAR"):
            continue
        what = ("pingpong" if "pingpong" in command else "msgrate" if "msgrate" in command
                else next(c for c in ("allreduce", "bcast", "alltoall") if f" {c} " in command))
        found[(section, what)] = {r[0]: r for r in rows(out)}
    return found


def main(paths):
    now = {}
    for path in paths:
        now.update(node_rows(path))
    then = node_rows(HERE.parent / "validation-2026-11-25" / "validation.txt")
    platforms = list(dict.fromkeys(p for p, _ in now))
    print("Inside one node (ping-pong, --ppn 2; message rate, 32 ranks), then / now:\n")
    print("| platform | 8 B ping-pong (us) | 64 KiB (us) | 4 MiB (MB/s) | us per message sent, "
          "K = 31 | last receiver at K = 31 (us) |")
    print("|---|---|---|---|---|---|")
    for p in platforms:
        a, b = then[(p, "pingpong")], now[(p, "pingpong")]
        m, n = then[(p, "msgrate")], now[(p, "msgrate")]
        print(f"| {p} | {a['8'][1]} / {b['8'][1]} | {a['65536'][1]} / {b['65536'][1]} "
              f"| {a['4194304'][2]} / {b['4194304'][2]} | {m['31'][2]} / {n['31'][2]} "
              f"| {m['31'][4]} / {n['31'][4]} |")
    print("\nOSU-style latency at 8 ranks a node, 64 ranks, SMPI's `ompi` selector (us), "
          "then / now:\n")
    print("| platform | collective | 8 B | 64 KiB | 1 MiB |")
    print("|---|---|---|---|---|")
    for p in platforms:
        for c in ("allreduce", "bcast", "alltoall"):
            a, b = then[(p, c)], now.get((p, c), {})
            cells = [f"{float(a[s][1]):.1f} / " + (f"{float(b[s][1]):.1f}" if s in b else "-")
                     for s in ("8", "65536", "1048576")]
            print(f"| {p} | {c} | {' | '.join(cells)} |")


if __name__ == "__main__":
    main(sys.argv[1:] or sorted(HERE.glob("node*.txt")))

#!/usr/bin/env python3
"""table.py - the table of run.sh's cells: per ranks per node and message size, each algorithm's
median simulated time (us) and its ratio to the unpipelined instance of its phases
(hier_segment_64k_<intra>_native against hier_<intra>_native).

  table.py RESULTS    (RESULTS: results/han-pipeline-2026-11-27 of the checkout)"""

import json
import sys
from pathlib import Path

SIZES = {"8": 8, "64K": 65536, "1M": 1048576}
PIPELINED = "hier_segment_64k_"


def main(results):
    print("| ranks per node (nodes) | bytes | algorithm | median (us) | pipelined / unpipelined |")
    print("|---|---|---|---|---|")
    for ppn_dir in sorted(Path(results).iterdir(), key=lambda p: int(p.name.split("ppn")[1])):
        ppn = int(ppn_dir.name.split("ppn")[1])
        cells = sorted(ppn_dir.glob("bcast-*-np64-ompi.json"),
                       key=lambda p: SIZES[p.name.split("-")[1]])
        for path in cells:
            cell = json.loads(path.read_text())
            median = {c["name"]: c["median"] * 1e6 for c in cell["configurations"]}
            for name, t in sorted(median.items(), key=lambda kv: kv[1]):
                ratio = ""
                if name.startswith(PIPELINED):
                    plain = "hier_" + name[len(PIPELINED):]
                    ratio = f"{t / median[plain]:.3f}" if plain in median else "-"
                print(f"| {ppn} ({64 // ppn}) | {path.name.split('-')[1]} | {name} | {t:.2f} | "
                      f"{ratio} |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))

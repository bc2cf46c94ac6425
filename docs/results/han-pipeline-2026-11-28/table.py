#!/usr/bin/env python3
"""table.py - the table of run.sh's cells: per collective, ranks per node and message size, each
algorithm's median simulated time (us), the pipelined instances against the unpipelined
instance of their phases (hier_segment_64k_<intra>_native against hier_<intra>_native), and the
"Open MPI 5.0 defaults" baseline (layer:table) with the algorithm it ran.

  table.py RESULTS    (RESULTS: results/han-pipeline-2026-11-28 of the checkout)"""

import json
import sys
from pathlib import Path

SIZES = {"8": 8, "64K": 65536, "1M": 1048576}
PIPELINED = "hier_segment_64k_"


def main(results):
    print("| collective | ranks per node (nodes) | bytes | algorithm | median (us) | "
          "pipelined / unpipelined |")
    print("|---|---|---|---|---|---|")
    dirs = sorted(Path(results).iterdir(), key=lambda p: int(p.name.split("ppn")[1]))
    for coll in ("reduce", "allreduce"):
        for ppn_dir in dirs:
            ppn = int(ppn_dir.name.split("ppn")[1])
            cells = sorted(ppn_dir.glob(f"{coll}-*-np64-ompi.json"),
                           key=lambda p: SIZES[p.name.split("-")[1]])
            for path in cells:
                cell = json.loads(path.read_text())
                median, ran = {}, {}
                for c in cell["configurations"]:
                    median[c["name"]] = c["median"] * 1e6
                    if c["name"] == "layer:table":
                        ran[c["name"]] = ", ".join(a for a, _ in c["layer"]["algorithm_runs"])
                for name, t in sorted(median.items(), key=lambda kv: kv[1]):
                    ratio = ""
                    if name.startswith(PIPELINED):
                        plain = "hier_" + name[len(PIPELINED):]
                        ratio = f"{t / median[plain]:.3f}" if plain in median else "-"
                    shown = f"{name} ({ran[name]})" if name in ran else name
                    print(f"| {coll} | {ppn} ({64 // ppn}) | {path.name.split('-')[1]} | "
                          f"{shown} | {t:.2f} | {ratio} |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))

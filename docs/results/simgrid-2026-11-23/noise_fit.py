#!/usr/bin/env python3
"""noise_fit.py - the per-call detours of native in the project's real runs on the emulated
cluster (docs/results/emulated-final-2026-11-22: Open MPI over real TCP between network
namespaces of this 2-core VM, 8 and 16 nodes, 100 Mbit/s), to compare with the noise setting
of the simulated matrix (run.sh: --noise detour:PROB:MEAN).

A detour is a call slower than DETOUR_FACTOR x the cell's native median; per cell it prints the
share of such calls and their mean excess over the median (absolute, and over the median).
bcast is left out: those cells ran without --sync barrier, and a bcast's time then drifts
(README.md, "Findings"), which is not noise.

  python3 noise_fit.py [FOLDER]
"""

import json
import statistics
import sys
from pathlib import Path

DETOUR_FACTOR = 1.5
LEFT_OUT = {"bcast"}


def detours(times):
    """(share of calls above DETOUR_FACTOR x median, mean excess over the median of those in
    seconds, the same over the median); excesses None when there is none."""
    median = statistics.median(times)
    excess = [t - median for t in times if t > DETOUR_FACTOR * median]
    if not excess:
        return 0.0, None, None
    mean = statistics.mean(excess)
    return len(excess) / len(times), mean, mean / median


def main(folder):
    rows = []
    for path in sorted(Path(folder).glob("*/*.json")):
        data = json.loads(path.read_text())
        if data["parameters"]["collective"] in LEFT_OUT:
            continue
        native = next(c for c in data["configurations"] if c["kind"] == "native")
        share, mean, relative = detours(native["times"])
        rows.append((f"{path.parent.name}/{path.stem}", len(native["times"]),
                     statistics.median(native["times"]), share, mean, relative))
    print(f"| cell | calls | native median (us) | calls > {DETOUR_FACTOR} x median | "
          f"their mean excess (us) | excess / median |")
    print("|---|---|---|---|---|---|")
    for name, n, median, share, mean, relative in rows:
        print(f"| {name} | {n} | {1e6 * median:.0f} | {share:.3f} | "
              f"{'-' if mean is None else f'{1e6 * mean:.0f}'} | "
              f"{'-' if relative is None else f'{relative:.2f}'} |")
    shares = [r[3] for r in rows]
    relatives = [r[5] for r in rows if r[5] is not None]
    print(f"\n{len(rows)} cells: share of detours median {statistics.median(shares):.3f}, "
          f"max {max(shares):.3f}; excess / median over the cells with detours: median "
          f"{statistics.median(relatives):.2f}, max {max(relatives):.2f}")


if __name__ == "__main__":
    here = Path(__file__).resolve().parent
    main(sys.argv[1] if len(sys.argv) > 1 else here.parent / "emulated-final-2026-11-22")

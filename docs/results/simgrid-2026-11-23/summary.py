#!/usr/bin/env python3
"""summary.py - the per-strategy figures of README.md from every cell of this folder, through
`autocoll simgrid report`'s own functions (tools/autocoll/simreport.py): per noise setting and
rank count, each strategy's cells, steady/oracle (median, max, cells <= 1.02), whole-run/oracle
(median, max) and steady tuned/native per selector (geomean, max), and the median learning cost
in oracle calls. reduce_scatter of 8 B is left out (SMPI's ompi selector models no message for
it: README.md, "Cells we lose").

  .venv/bin/python docs/results/simgrid-2026-11-23/summary.py > summary.txt
"""

import statistics
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2] / "tools"))

from autocoll.analysis import benchreport, simreport  # noqa: E402

# big16 (two 1 MiB cells) is left out: README.md gives it apart, and the 16-rank rows stay
# those of the 8 B to 64 KiB matrix
FOLDERS = ["cells16", "cells64", "noise16", "noise16m", "tables16", "scale", "scale-noise"]
DEGENERATE = ("reduce_scatter", 8)


def kept(rows):
    return [r for r in rows if (r["key"][0], r["key"][1]) != DEGENERATE]


def line(values, fmt="{:.3f}"):
    v = [x for x in values if x is not None]
    if not v:
        return "-", "-"
    return fmt.format(statistics.median(v)), fmt.format(max(v))


def main():
    dirs = [str(d) for f in FOLDERS if (HERE / f).is_dir() for d in sorted((HERE / f).iterdir())
            if d.is_dir()]
    cells, _ = simreport.read_cells(dirs)
    for noise, group in simreport.by_noise(cells):
        rows = kept(simreport.strategy_rows(group))
        costs = {(r["platform"], r["cell"], r["strategy"]): r["excess_calls"]
                 for r in simreport.learning_costs(group)}
        sels = simreport.selectors(group)
        for ranks in sorted({r["key"][2] for r in rows}):
            print(f"## noise {noise}, {ranks} ranks (without reduce_scatter 8 B)\n")
            print("| strategy | platforms | cells | steady/oracle median | max | <= 1.02 | "
                  "whole-run/oracle median | max | " +
                  " | ".join(f"tuned/native({s}) geomean | max" for s in sels) +
                  " | learning cost (oracle calls) median |")
            print("|---" * (8 + 2 * len(sels) + 1) + "|")
            mine = [r for r in rows if r["key"][2] == ranks]
            for strategy in dict.fromkeys(r["strategy"] for r in mine):
                rs = [r for r in mine if r["strategy"] == strategy]
                steady = [r["steady_vs_oracle"] for r in rs]
                near = sum(x is not None and x <= simreport.NEAR_ORACLE for x in steady)
                native = []
                for s in sels:
                    v = [r["vs_native"][s] for r in rs if r["vs_native"][s] is not None]
                    native += [f"{benchreport.geomean(v):.3f}" if v else "-",
                               f"{max(v):.3f}" if v else "-"]
                cost = [costs.get((r["platform"], r["cell"], strategy)) for r in rs]
                print(f"| {strategy} | {len({r['platform'] for r in rs})} | {len(rs)} | "
                      f"{' | '.join(line(steady))} | {near} of {len(rs)} | "
                      f"{' | '.join(line(r['whole_vs_oracle'] for r in rs))} | "
                      f"{' | '.join(native)} | {line(cost, '{:.1f}')[0]} |")
            print()


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""at_other_counts.py - the models `autocoll tune` fits on this folder's 16-, 32- and 64-rank
cells (cells/), scored on cells of the same platform measured by another run at counts the
sweep never measured: each model's pick there and its time / the cell's best time, as `autocoll
tune --test-ranks` prints them (tune.py's test_models, through the same functions). For counts
whose sweep would cost hours here: the 256-rank allreduce of 8 B of
../simgrid-2026-11-23/cells256/ took 73 minutes with 5 calls per algorithm.

  .venv/bin/python docs/results/generalise-2026-11-24/at_other_counts.py CELL.json... \\
      > docs/results/generalise-2026-11-24/output-256.txt
"""

import json
import sys
from pathlib import Path
from types import SimpleNamespace

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2] / "tools"))

from autocoll.analysis import generalise, tune  # noqa: E402

FITTED = (16, 32, 64)


def entry(path):
    return tune.cell_entry(json.loads(Path(path).read_text()), tune.DEFAULTS["statistic"],
                           tune.DEFAULTS["margin"])


def main(paths):
    if not paths:
        sys.exit(__doc__)
    tests = [entry(p) for p in paths]
    train = [e for e in map(entry, sorted((HERE / "cells").glob("*-ompi.json")))
             if e["ranks"] in FITTED]
    costs = tune.cost_source(SimpleNamespace(simgrid="fat-tree-ib", ppn=1, build=None,
                                             mpi="openmpi"), print)
    for coll in dict.fromkeys(e["collective"] for e in tests):
        mine = [e for e in train if e["collective"] == coll]
        if not mine:
            sys.exit(f"at_other_counts.py: no fitted cells of {coll} in {HERE / 'cells'}")
        rows = generalise.evaluate(generalise.available(costs), mine,
                                   [e for e in tests if e["collective"] == coll], 1,
                                   tune.DEFAULTS["margin"], costs)
        print("\n".join(generalise.test_text(coll, rows)))


if __name__ == "__main__":
    main(sys.argv[1:])

"""`autocoll plot`: figures of a tune sweep folder (`autocoll tune --out`), docs/plots.md.

  candidates  per collective and process count: the time of native and of every fixed
              algorithm against message size (the Tianhe-2 paper's Figure 2);
  best map    per collective: the winning algorithm at every (message size, process count),
              its marker's area proportional to its speedup over native (Figure 3);
  mesh        per collective and process count with orthogonal-decomposition candidates:
              throughput of each mesh layout against message size, with native and the best
              non-mesh algorithm (the decomposition paper's Figures 5-7).

The series come from sweepseries (the analysis: the cells as tune keeps them, winners,
speedups, mesh layouts); this module only draws them, in plotstyle's look. Every figure carries
the machine the sweep ran on (host, cores online, MPI library).
"""

import sys

from ..analysis.sweepseries import PlotError, read_sweep
from ..plot.plot import write_plots


def main(args):
    collectives = [c.strip() for text in args.collective or [] for c in text.split(",")
                   if c.strip()]
    try:
        cells, results, settings = read_sweep(args.sweep)
        written = write_plots(cells, results, settings, args.out, collectives)
    except PlotError as e:
        print(f"autocoll plot: {e}", file=sys.stderr)
        return 1
    for path in written:
        print(path)
    if not written:
        print("autocoll plot: nothing to draw (only cells of 0 bytes)", file=sys.stderr)
        return 1
    return 0


def add_arguments(p):
    p.add_argument("sweep", metavar="SWEEP_FOLDER", help="an `autocoll tune --out` folder")
    p.add_argument("--out", required=True, help="folder for the PNG files")
    p.add_argument("--collective", action="append", metavar="NAME",
                   help="only this collective (repeat it, or a comma list; default: all)")

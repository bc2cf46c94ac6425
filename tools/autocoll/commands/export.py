"""`autocoll export`: a configuration table (`autocoll tune`, docs/table.md) in the native
libraries' own formats, for the algorithms the native library has.

  ompi-rules   Open MPI's coll_tuned dynamic rules, the classic text format (Open MPI 4.1):
                 mpirun --mca coll_tuned_use_dynamic_rules 1 \\
                        --mca coll_tuned_dynamic_rules_filename FILE ...
  mpich-json   MPICH's collective selection JSON (MPICH 4.0):
                 MPIR_CVAR_DEVICE_COLLECTIVES=none MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE=FILE
  mpich-ch4-json  MPICH's ch4-level selection JSON (MPICH 4.0): on communicators over several
               nodes, a hierarchical instance as MPICH's node-aware composition, a flat
               algorithm as the composition that runs the MPIR selection (mpich-json's):
                 MPIR_CVAR_CH4_COLL_SELECTION_TUNING_JSON_FILE=FILE
  mpich-cvars  MPIR_CVAR_<COLL>_INTRA_ALGORITHM settings as shell `export` lines: one value per
               collective, the native choice of most of the table's cells

Only autocoll algorithms that run the same schedule as a native one are exported as it (the
mapping is in docs/table.md). A rule whose algorithm has none is exported as the mapped
algorithm that did best in the rule's cells, or as the library's own choice where native did
best; every such substitution is listed on stderr.
"""

import sys
from pathlib import Path

from ..analysis.export import FORMATS, USAGE, ExportError, load_table, render


def main(args):
    notes = []
    if args.ppn is not None and args.ppn < 1:
        print("autocoll export: --ppn must be at least 1", file=sys.stderr)
        return 1
    try:
        table = load_table(args.table, args.ppn)
        text = render(table, args.format, args.table, notes, args.mpich_library)
    except ExportError as e:
        print(f"autocoll export: {e}", file=sys.stderr)
        return 1
    for note in notes:
        print(f"autocoll export: {note}", file=sys.stderr)
    if args.out == "-":
        sys.stdout.write(text)
        return 0
    Path(args.out).write_text(text)
    print(f"{args.format}: {args.out}; use: {USAGE[args.format].format(out=args.out)}")
    return 0


def add_arguments(p):
    p.add_argument("table", help="a configuration table (autocoll tune)")
    p.add_argument("--format", required=True, choices=list(FORMATS))
    p.add_argument("--out", default="-", help="file to write (default: standard output)")
    p.add_argument("--ppn", type=int, help="ranks per node of the cluster the export is for: "
                   "needed when the table's rules are keyed by node layout (\"nodes\", \"ppn\"), "
                   "which the native formats cannot say (default for a table `autocoll tune "
                   "--simgrid` wrote: the ranks per node it swept)")
    p.add_argument("--mpich-library", help="mpich-json, mpich-ch4-json: the libmpich whose "
                   "built-in selection "
                   "stands for MPICH's own choice (default: libmpich.so.12 from ldconfig)")

"""`autocoll programs`: real programs nobody here wrote, run natively and under autocoll, with
their results checked equal, their end-to-end times, their time inside collectives and the
algorithms the layer chose.

The programs are Debian's (linked against Open MPI only, so the runs are Open MPI's):
  hpcc            HPC Challenge with its shipped small input (`_hpccinf.txt`, N = 1000; the
                  process grid P x Q is set to the most square factorization of the rank
                  count). MPIFFT and MPIRandomAccess call MPI_Alltoall(v); HPL, PTRANS and
                  the ring tests bcast and allreduce. Its results are its own checks.
  lammps-melt     LAMMPS `examples/melt` (Lennard-Jones liquid, 4000 atoms, 250 steps, fix
                  nve): allreduce and bcast.
  lammps-peptide  LAMMPS `examples/peptide` (solvated peptide, PPPM, fix nvt, 300 steps).

Layer configurations (LAYERS): `none` is the program alone (no autocoll: the reference of the
result checks and of the end-to-end ratios); `native` is autocoll with the library's own
algorithms (what the layer costs, and the time inside collectives it measures); `race`,
`star`, `lottery` are the strategies from a cold start (AUTOCOLL_HISTORY=off); `table` is the
configuration table given with `--table PATH` (AUTOCOLL_STRATEGY=table AUTOCOLL_TABLE=<its
absolute path>, docs/table.md): every tuning context runs the rule covering it, native where
none does. `table` in --layers without --table, or a --table that is not a file, is refused
before anything runs. A table the layer refuses (another registry fingerprint, malformed,
unreadable) makes the layer run every call native; the layer's JSON report does not say so, so
its warning on the run's stderr is looked for, and a `table` run with it fails (the command
exits 1 naming the program and the configuration) rather than measure native under the name
`table`. Every configuration runs `repeat` times, the repetitions interleaved (repetition 1 of
every configuration, then 2, ...) so that a drift of the machine touches them all alike.

Result checks (CHECKS): each program's outputs are parsed into named values, and every value
of every run is compared with the same value of the first `none` run by a rule:
  exact        equal (counts of errors, failed checks, printed thermo values of an NVE run);
  rel:X        |a - b| <= X |b| (LAMMPS peptide: its thermostat feeds an allreduced sum back
               into the dynamics, so an MPI-valid change of summation order changes the last
               bits, which 300 steps of molecular dynamics amplify; see docs/programs.md);
  max:X        both at most X (hpcc's residuals, which it checks against a threshold itself).
A run whose values do not all pass, or that fails, makes the whole command fail.

Performance figures (PROGRAMS' `metrics`), measured and never checked: each run's `metrics`
are the program's own: hpcc's MPIFFT_Gflops, MPIFFT_time (the sum of its MPIFFT_time0..6, the
forward transform's stages; hpcc prints no single MPIFFT time), MPIRandomAccess_GUPs and
MPIRandomAccess_time (seconds); LAMMPS's `loop_s` (its "Loop time of X on N procs", summed
over the run commands of the input). The report gives their median (min-max) per
configuration and the ratio of medians to `none`'s.

Output: `<out>/programs.json` (schema autocoll-programs, version 1; its `table` member is the
`table` configuration's table, `{"path", "registry_fingerprint"}`, or null) and every run's
folder (`<out>/<program>/<layer>-<k>/`: its input, output, stdout/stderr and the layer's JSON
report). `autocoll report <out>` renders the tables. With `--cluster NAME` the runs go to an
emulated cluster (tools/autocoll/cluster.py) instead of local ranks.
"""

import sys

from ..analysis.programsreport import load, render
from ..run import cluster
from ..run.programs import (DEFAULT_LAYERS, DEFAULT_PROGRAMS, LAYERS, PROGRAMS, ProgramsError,
                            cluster_launch, run_programs)


def main(args):
    launch, launcher = None, "local"
    if args.cluster:
        launch = cluster_launch(args.cluster, args.timeout)
        try:
            launcher = f"cluster {args.cluster}: {cluster.describe(cluster.load_state(args.cluster))}"
        except cluster.ClusterError as e:
            print(f"autocoll programs: {e}", file=sys.stderr)
            return 1
    try:
        run_programs(args.out, programs=args.programs, layers=args.layers, ranks=args.ranks,
                     repeat=args.repeat, build=args.build, timeout=args.timeout, launch=launch,
                     launcher=launcher, table=args.table)
    except ProgramsError as e:
        print(f"autocoll programs: {e}", file=sys.stderr)
        return 1
    print(render(load(args.out)))
    return 0


def add_arguments(p):
    p.add_argument("--out", required=True, help="folder for the runs and programs.json")
    p.add_argument("--programs", default=DEFAULT_PROGRAMS,
                   help=f"comma-separated, of {', '.join(PROGRAMS)}")
    p.add_argument("--layers", default=DEFAULT_LAYERS,
                   help=f"configurations, of {', '.join(LAYERS)} (`none`, the program alone, "
                        "is the reference and must be there; `table` runs the layer with "
                        "AUTOCOLL_STRATEGY=table and the --table; default: "
                        f"{DEFAULT_LAYERS})")
    p.add_argument("--ranks", type=int, default=4)
    p.add_argument("--repeat", type=int, default=3, help="runs of each configuration")
    p.add_argument("--build", help="autocoll's Open MPI build folder (default build/openmpi)")
    p.add_argument("--table", metavar="PATH",
                   help="the configuration table of the `table` layer configuration "
                        "(`autocoll tune`, docs/table.md); required with it")
    p.add_argument("--timeout", type=int, default=600, help="seconds per run")
    p.add_argument("--cluster", help="run on this emulated cluster (`autocoll cluster up`, "
                   "docs/cluster.md) instead of local ranks")

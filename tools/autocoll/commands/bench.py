"""`autocoll bench`: run the benchmark driver (bench/autocoll_bench.c) over a matrix of
collectives x message sizes x rank counts, one `mpirun` per cell, each cell's JSON in one folder.

A cell whose JSON is already there (and valid) is not run again, so an interrupted matrix
resumes where it stopped. Cells run one after another: they share the machine's cores.

With `--cluster NAME` the cells run on an emulated cluster (`autocoll cluster up`,
docs/cluster.md), rank r on node r mod nodes, instead of on local ranks.

With `--simgrid PLATFORM` the cells run on a simulated platform (SimGrid's SMPI, platforms/,
docs/simgrid.md) with the driver of build/simgrid: once per native selector of `--selectors`
(SMPI's copies of Open MPI's and MPICH's decision logic, the native baselines), cells named
`<coll>-<size>-np<ranks>-<selector>.json`. The computation between calls is simulated time
(`--compute sleep`), `--noise` adds the driver's random delays, and buffers of at least
`--shared-malloc` bytes are shared between the simulated ranks (timings stay right, data does
not), so that 256 and 1024 ranks fit in memory.
"""

import sys

from ..run.bench import DEFAULTS, BenchError, run_matrix
from .simgrid import add_platform_arguments


def main(args):
    try:
        run_matrix(args.out, mpi=args.mpi, build=args.build, collectives=args.collectives,
                   sizes=args.sizes, ranks=args.ranks, layers=args.layers,
                   iterations=args.iterations, fixed_iterations=args.fixed_iterations,
                   warmup=args.warmup, factor=args.factor, timeout=args.timeout,
                   history=args.history, only=args.only, cluster=args.cluster, simgrid=args.simgrid,
                   ppn=args.ppn, placement=args.placement, selectors=args.selectors,
                   noise=args.noise,
                   noise_seed=args.noise_seed, shared_malloc=args.shared_malloc,
                   sync=args.sync, table=args.table, jobs=args.jobs, cfg=args.cfg,
                   exclude=args.exclude)
    except BenchError as e:
        print(f"autocoll bench: {e}", file=sys.stderr)
        return 1
    print(f"results in {args.out}; `autocoll report {args.out}` makes the tables and plots")
    return 0


def add_arguments(p):
    p.add_argument("--out", required=True, help="folder for the cells' JSON (resumable)")
    p.add_argument("--mpi", default="openmpi", choices=["openmpi", "mpich"])
    p.add_argument("--build", help="build folder (default: build/<mpi> of this checkout)")
    p.add_argument("--collectives", default=DEFAULTS["collectives"])
    p.add_argument("--sizes", default=DEFAULTS["sizes"], help="e.g. 1K,8K,64K,1M")
    p.add_argument("--ranks", default=DEFAULTS["ranks"], help="e.g. 2,4,8")
    p.add_argument("--only", metavar="NAME[,NAME...]",
                   help="fixed algorithms to run (native always runs; default: every applicable "
                        "one); e.g. `--only native --layers ''` measures native alone")
    p.add_argument("--exclude", metavar="NAME[,NAME...]",
                   help="fixed algorithms to leave out of every cell (recorded in the cell as "
                        "not selected), e.g. an algorithm whose simulation takes hours")
    p.add_argument("--history",
                   help="history file: the layers start warm from it and add what they learn "
                        "(default: off, every layer starts cold)")
    p.add_argument("--layers", default=DEFAULTS["layers"],
                   help="layer configurations (autocoll_bench --help lists them)")
    p.add_argument("--iterations", type=int, default=500,
                   help="invocations of native and of each layer configuration")
    p.add_argument("--fixed-iterations", type=int, default=100,
                   help="invocations of each fixed algorithm (the oracle's candidates)")
    p.add_argument("--warmup", type=int, default=10)
    p.add_argument("--factor", type=float, default=5.0,
                   help="computation per iteration, in multiples of the native time")
    p.add_argument("--timeout", type=int, default=1800, help="seconds per cell")
    add_platform_arguments(p)
    p.add_argument("--selectors", default="ompi,mpich",
                   help="--simgrid: SMPI's native selectors, one run of each cell per selector")
    p.add_argument("--shared-malloc", type=int, default=1 << 20, metavar="BYTES",
                   help="--simgrid: share allocations of at least BYTES between the simulated "
                        "ranks (default 1 MiB, above the driver's and the layer's own tables; "
                        "0: none)")
    p.add_argument("--jobs", type=int, default=1,
                   help="--simgrid: share each cell's fixed algorithms among this many "
                        "simulations side by side (one core each), merged into the cell; "
                        "times within 0.3 %% of one simulation's (docs/simgrid.md)")
    p.add_argument("--cfg", action="append", default=[], metavar="KEY:VALUE",
                   help="--simgrid: another SMPI setting (repeatable), recorded in each cell; "
                        "for example network/optim:Full (docs/simgrid.md)")
    p.add_argument("--noise", default="none",
                   help="the driver's random delay before every call: none, exp:MEAN or "
                        "detour:PROB:MEAN (seconds; docs/simgrid.md)")
    p.add_argument("--noise-seed", type=int, default=1)
    p.add_argument("--sync", default="none", choices=["none", "barrier", "clock"],
                   help="barrier: an untimed barrier before every call, so that calls that do "
                        "not synchronise (bcast, reduce, ...) are timed from ranks in step; "
                        "clock (with --simgrid): every call starts at one instant of the "
                        "simulated clock, so that its time ends at the last rank "
                        "(bench/autocoll_bench.c)")
    p.add_argument("--table", metavar="TABLE.json",
                   help="run the jobs with AUTOCOLL_TABLE set to this configuration table "
                        "(for the `table` layer); each cell records the table and the "
                        "platform it was tuned on")
    p.add_argument("--cluster", metavar="NAME",
                   help="run the cells on this emulated cluster (`autocoll cluster up`, "
                        "docs/cluster.md; root) instead of on local ranks")

"""`autocoll simgrid`: run an MPI program on a simulated cluster with SimGrid's SMPI.

The program is built with `smpicc` and linked with `build/simgrid/libautocoll.so`
(`scripts/build` builds the library, the tests, the benchmark driver and the demo there;
docs/simgrid.md says how to link a program of your own). This command writes the hostfile,
gives the run a temporary folder of its own and calls `smpirun` with the settings every run
of the project uses:

  --cfg=smpi/privatize-libs:<libautocoll.so>   each simulated rank gets its own copy of the
                                               layer's globals (found with ldd; a program
                                               without autocoll runs as SMPI alone)
  --cfg=smpi/simulate-computation:no           simulated time depends on messages only, not on
                                               this machine's load: runs are deterministic
  --cfg=smpi/coll-selector:<selector>          SMPI's copy of a library's decision logic for
                                               the native collectives (ompi, mpich, ...)

The platform's own network-model settings (bandwidth and latency factors, eager threshold,
per-message overheads) are in its XML file (platforms/README.md). A platform whose root zone
declares overheads for messages inside a node (autocoll/shm-os, -ois, -or) is given to smpirun
as build/simgrid/libnode_overheads.so (platforms/node_overheads.cpp) with the XML file in
AUTOCOLL_PLATFORM_FILE. Ranks fill the platform's hosts in the file's order,
`--ppn` ranks per host (processes per node), so rank r runs on host r // ppn (`--placement
block`, the default) or, with `--placement cyclic`, on host r mod nodes (nodes = ceil(ranks /
ppn): the ranks of a node are not neighbours in MPI_COMM_WORLD).

  autocoll simgrid platforms
  autocoll simgrid run --platform one-switch-gbe -n 16 [--ppn 1] [--placement block|cyclic]
                       [--selector ompi] PROGRAM ARGS
"""

import argparse
import json
import sys
from pathlib import Path

from ..analysis.simadcl import read_cells, tables
from ..analysis.simreplay import (LAYERS, ReplayError, agreement_summary, parse_noise,
                                  parse_settings, print_cell, replay_cell, replay_program)
from ..analysis.simreport import SimReportError, render
from ..formats.paths import checkout_build, platform_files, platform_path
from ..formats.platforms import SimgridError, platform_hosts, platform_summary
from ..formats.schemas import REPLAY_SCHEMA, REPLAY_VERSION
from ..plot.simplot import write_plots
from ..run.adcl import (SEARCHES, SHORT_ITERATIONS, AdclTablesError, cell_path, implementations,
                       parse_size, run_cell, size_name)
from ..run.simgrid import (DEADLOCK_EXIT, DEFAULT_SELECTOR, PLACEMENTS, SELECTORS, deadlocked,
                           run)


def main(args):
    if args.simgrid_command == "report":
        return report_main(args)
    if args.simgrid_command == "adcl":
        return adcl_main(args)
    if args.simgrid_command == "replay":
        try:
            return replay_main(args)
        except ReplayError as e:
            print(f"autocoll simgrid replay: {e}", file=sys.stderr)
            return 2
    try:
        if args.simgrid_command == "platforms":
            for path in platform_files():
                hosts = platform_hosts(path)
                print(f"{path.stem:20} {len(hosts):5d} hosts x {hosts[0][1]:2d} cores  "
                      f"{platform_summary(path)}")
            return 0
        if not Path(args.program).exists():
            raise SimgridError(f"{args.program}: no such program")
        done = run(args.platform, args.n, args.program, args.args, ppn=args.ppn,
                   selector=args.selector, shared_malloc=args.shared_malloc, cfg=args.cfg,
                   placement=args.placement)
        if deadlocked(done.stderr):
            print(f"autocoll simgrid: the simulation deadlocked (exit status {DEADLOCK_EXIT})",
                  file=sys.stderr)
        return done.returncode
    except SimgridError as e:
        print(f"autocoll simgrid: {e}", file=sys.stderr)
        return 2


def report_main(args):
    try:
        text = render(args.dirs)
    except SimReportError as e:
        print(f"autocoll simgrid report: {e}", file=sys.stderr)
        return 2
    if args.plots:
        try:
            written = write_plots(args.dirs, args.plots)
        except OSError as e:
            print(f"autocoll simgrid report: {args.plots}: {e}", file=sys.stderr)
            return 1
        print(f"autocoll simgrid report: {len(written)} learning-curve figure(s) in "
              f"{args.plots}", file=sys.stderr if not args.out else sys.stdout)
    if not args.out:
        sys.stdout.write(text)
        return 0
    try:
        Path(args.out).write_text(text)
    except OSError as e:
        print(f"autocoll simgrid report: {args.out}: {e}", file=sys.stderr)
        return 1
    print(f"autocoll simgrid report: wrote {args.out}")
    return 0


def add_report_arguments(p):
    p.add_argument("dirs", nargs="+", metavar="DIR",
                   help="folders of `autocoll bench --simgrid` cells (or cell files)")
    p.add_argument("--out", metavar="FILE.md", help="write the report here (default: stdout)")
    p.add_argument("--plots", metavar="DIR",
                   help="also draw the learning curves (one PNG per noise setting, platform, "
                        "rank count and collective) into DIR")


def add_replay_arguments(p):
    p.add_argument("cells", nargs="+", help="cells of `autocoll bench --simgrid` (JSON)")
    p.add_argument("--layers", default=",".join(LAYERS),
                   help=f"strategies to replay (default {','.join(LAYERS)})")
    p.add_argument("--calls", type=int, default=1000, help="calls per strategy (default 1000)")
    p.add_argument("--agreement", metavar="SECONDS|CELL",
                   help="seconds of one agreement, or a cell (an 8-byte allreduce on the same "
                        "platform and ranks) whose native median it is (default: the "
                        "allreduce-8 cell beside the cell)")
    p.add_argument("--noise", default="none", help="none or detour:PROB:MEAN (the driver's model)")
    p.add_argument("--seed", type=int, default=1, help="of the noise draws")
    p.add_argument("--warm", action="store_true",
                   help="start every strategy warm, as from a history file that knows every "
                        "candidate's median")
    p.add_argument("--candidates", metavar="NAMES",
                   help="comma-separated: the strategies choose among these and native only "
                        "(AUTOCOLL_TABLE_TRY's trial of a rule's first few); ratios against "
                        "the whole cell's oracle")
    p.add_argument("--suggest", metavar="NAMES",
                   help="comma-separated, best first: a table's rule for the cell, which the "
                        "model strategy measures first (as the layer gives it a loaded "
                        "AUTOCOLL_TABLE's rule at a count the table has no cell at)")
    p.add_argument("--set", action="append", metavar="AUTOCOLL_NAME=VALUE",
                   help="a layer setting for the replayed strategies (repeatable; default: "
                        "every setting's default, whatever the environment says)")
    p.add_argument("--compare", action="store_true",
                   help="side by side with the strategies the cell ran in the simulation")
    p.add_argument("--describe", action="store_true",
                   help="also say what each strategy measured, in order, and its own "
                        "description after the last call (model: the fitted platform and its "
                        "fastest predictions beside the measured medians)")
    p.add_argument("--json", metavar="FILE", help="write every row as JSON here too")
    p.add_argument("--build", help="build folder with bench/strategy_replay (default "
                                   "build/openmpi)")


def replay_main(args):
    layers = [x for x in args.layers.split(",") if x]
    bad = [x for x in layers if x not in LAYERS]
    if bad or not layers:
        raise ReplayError(f"--layers: {','.join(bad) or 'empty'}: choose from {','.join(LAYERS)}")
    if args.calls < 1:
        raise ReplayError("--calls must be at least 1")
    program = replay_program(args.build)
    noise = parse_noise(args.noise)
    settings = parse_settings(args.set)
    candidates = ([x for x in args.candidates.split(",") if x]
                  if args.candidates is not None else None)
    suggest = [x for x in (args.suggest or "").split(",") if x]
    results = []
    for path in args.cells:
        r = replay_cell(path, program, layers, args.calls, args.agreement, noise, args.seed,
                        args.warm, settings, candidates, suggest, args.describe)
        r["noise"] = args.noise
        r["warm"] = args.warm
        r["settings"] = settings
        results.append(r)
        print_cell(r, args.compare)
    if args.compare and len(results) > 1:
        print("\n".join(agreement_summary(results)))
    if args.json:
        Path(args.json).write_text(json.dumps({"schema": REPLAY_SCHEMA, "version": REPLAY_VERSION,
                                               "cells": results}, indent=1) + "\n")
    return 0


def add_adcl_arguments(p):
    p.add_argument("--platforms", default="one-switch-gbe,four-switch-gbe,fat-tree-ib,torus-3d,"
                   "dragonfly", help="platforms/ names, comma-separated (default: all five)")
    p.add_argument("--ranks", default="16,32", help="process counts (default 16,32)")
    p.add_argument("--sizes", default="32x32x32,64x32x32,64x64x32",
                   help="points per process, NXxNYxNZ, comma-separated (default: ADCL's three)")
    p.add_argument("--iterations", type=int, default=700,
                   help="iterations of each search's solve (default 700, ADCL's)")
    p.add_argument("--fixed-iterations", type=int, default=100,
                   help=f"iterations of each forced implementation's longer run (default 100; "
                        f"the shorter one: {SHORT_ITERATIONS})")
    p.add_argument("--searches", default=",".join(SEARCHES),
                   help=f"AUTOCOLL_ADCL_SEARCH values (default {','.join(SEARCHES)})")
    p.add_argument("--out", required=True, help="folder of the cells' JSON files and tables.md")
    p.add_argument("--tables-only", action="store_true",
                   help="print the tables of the cells in --out, run nothing")
    p.add_argument("--program", help="the solver built for SMPI (default "
                   "build/simgrid/adcl_jacobi)")


def adcl_main(args):
    try:
        searches = [s for s in args.searches.split(",") if s]
        out = Path(args.out)
        if not args.tables_only:
            platforms = [p for p in args.platforms.split(",") if p]
            try:
                ranks = [int(r) for r in args.ranks.split(",") if r]
            except ValueError:
                raise AdclTablesError(f"--ranks {args.ranks!r}: want integers, e.g. 16,32")
            if not ranks or min(ranks) < 1:
                raise AdclTablesError("--ranks: at least one count >= 1")
            sizes = [parse_size(s) for s in args.sizes.split(",") if s]
            if args.iterations < 1 or args.fixed_iterations <= SHORT_ITERATIONS:
                raise AdclTablesError(f"--iterations must be >= 1 and --fixed-iterations > "
                                      f"{SHORT_ITERATIONS}")
            for p in platforms:
                platform_path(p)
            program = Path(args.program or checkout_build("simgrid") / "adcl_jacobi")
            if not program.exists():
                raise AdclTablesError(f"{program}: not built (scripts/build, or cmake --build "
                                      "build/simgrid)")
            names = implementations(program)
            out.mkdir(parents=True, exist_ok=True)
            todo = []
            for p in platforms:
                for r in ranks:
                    for s in sizes:
                        path = cell_path(out, p, r, s)
                        old = json.loads(path.read_text()) if path.exists() else None
                        if (old is None or "fixed_full" not in old or
                                any(x not in old["searches"] for x in searches)):
                            todo.append((p, r, s, old))
            for i, (p, r, s, old) in enumerate(todo, 1):
                print(f"[{i}/{len(todo)}] {p} {r} processes {size_name(s)}"
                      f"{' (completing it)' if old else ''}", file=sys.stderr, flush=True)
                cell = run_cell(program, p, r, s, args.iterations, args.fixed_iterations,
                                searches, names, old)
                path = cell_path(out, p, r, s)
                tmp = path.with_suffix(".tmp")
                tmp.write_text(json.dumps(cell, indent=1) + "\n")
                tmp.replace(path)
        text = tables(read_cells(out), searches)
        if not args.tables_only:
            (out / "tables.md").write_text(text)
        sys.stdout.write(text)
        return 0
    except (AdclTablesError, SimgridError) as e:
        print(f"autocoll simgrid adcl: {e}", file=sys.stderr)
        return 2


def add_platform_arguments(p):
    """--simgrid, --ppn and --placement, for the commands that run cells on a simulated
    platform (bench, tune)."""
    p.add_argument("--simgrid", metavar="PLATFORM",
                   help="run the cells on this simulated platform (SimGrid's SMPI: platforms/ "
                        "name or a file; build/simgrid; docs/simgrid.md)")
    p.add_argument("--ppn", type=int, default=1,
                   help="--simgrid: processes per node (default 1)")
    p.add_argument("--placement", choices=PLACEMENTS, default="block",
                   help="--simgrid: rank r on node r // ppn (block, the default) or on node "
                        "r mod nodes (cyclic)")


def add_arguments(p):
    sub = p.add_subparsers(dest="simgrid_command", required=True)
    sub.add_parser("platforms", help="the platforms of platforms/: hosts, cores, what they model")
    r = sub.add_parser("run", help="run a program built with smpicc on a simulated platform")
    r.add_argument("--platform", required=True, help="a file of platforms/ (name) or a path")
    r.add_argument("-n", type=int, required=True, help="ranks")
    r.add_argument("--ppn", type=int, default=1, help="processes per node (default 1)")
    r.add_argument("--placement", choices=PLACEMENTS, default="block",
                   help="rank r on node r // ppn (block, the default) or on node r mod nodes "
                        "(cyclic)")
    r.add_argument("--selector", default=DEFAULT_SELECTOR, choices=SELECTORS,
                   help="SMPI's native collective selector (default ompi)")
    r.add_argument("--shared-malloc", type=int, metavar="BYTES",
                   help="share every allocation of at least BYTES between the ranks "
                        "(timing-only runs: the data is wrong)")
    r.add_argument("--cfg", action="append", default=[], metavar="KEY:VALUE",
                   help="another SMPI setting (repeatable)")
    r.add_argument("program")
    r.add_argument("args", nargs=argparse.REMAINDER, help="the program's arguments")
    rep = sub.add_parser("report", help="a Markdown report over `autocoll bench --simgrid` "
                                        "cells: best algorithm per platform, strategies against "
                                        "the oracle and each selector's native, cross-platform "
                                        "penalty, wall time")
    add_report_arguments(rep)
    rp = sub.add_parser("replay", help="the run-time strategies replayed over a cell's measured "
                                       "per-call times (learning at 256 or 1024 ranks in "
                                       "seconds; --compare checks it against simulated runs)")
    add_replay_arguments(rp)
    ad = sub.add_parser("adcl", help="ADCL's Tables 2 to 5 on the simulated platforms: the "
                                     "Jacobi solver with every exchange implementation forced "
                                     "and under every search (docs/adcl.md)")
    add_adcl_arguments(ad)

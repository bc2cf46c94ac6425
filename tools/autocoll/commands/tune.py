"""`autocoll tune`: the configuration phase. Runs native and every fixed algorithm over
collectives x message sizes x rank counts (one `mpirun` of the benchmark driver per cell, as
`autocoll bench` does, without layer configurations) and writes a configuration table
(docs/table.md, schema "autocoll-table" version 2) for AUTOCOLL_STRATEGY=table and `autocoll
export`: per collective the rules of the model that generalises best across the swept process
counts (generalise.py: the floor lookup of the swept winners, gradient-boosted trees, fitted
curves or the registry's cost formulas with fitted parameters, chosen by leave-one-count-out
cross-validation, or the one --model names).

With `--simgrid PLATFORM` the cells run on a simulated platform (SimGrid's SMPI, build/simgrid,
docs/simgrid.md), native being SMPI's `--selector` (default ompi); the table records the platform,
and its rules the node layout swept (`"ppn"`: the ranks on the fullest node at `--ppn` ranks a
node), so that they run only on that layout.

Resumable: the cells' JSON stay in --out; a cell already there is not run again. A noisy cell
(p90/p10 of its winner or of native above --spread-limit) is run again, up to --repeats times,
into --out/repeat-N/; the repetition whose winner has the smallest spread is kept, and a cell
still noisy after them is marked "noisy" in the table.
"""

import json
import sys
import time
from pathlib import Path

from ..analysis import generalise
from ..analysis.tune import (DEFAULTS, STATISTICS, TuneError, build_table, cost_source,
                             generalised_rules, platform_of, summary, sweep_cells, test_models,
                             with_layout)
from ..run.bench import BenchError
from .simgrid import add_platform_arguments


def main(args):
    log = print
    try:
        if args.test_ranks and args.profile:
            raise TuneError("--test-ranks needs --ranks, not --profile")
        if args.placement != "block":
            raise TuneError("--placement: a table's cost models place ranks by block "
                            "(ceil(ranks / ppn) nodes in order); tune with block placement")
        cells, results, reg, collectives, sizes, rank_counts = sweep_cells(args, log)
        if not cells:
            raise TuneError("no cell to tune (every size left out)")
        sweep = {"collectives": collectives, "sizes": sizes, "ranks": rank_counts,
                 "statistic": args.statistic, "iterations": args.iterations,
                 "warmup": args.warmup, "spread_limit": args.spread_limit,
                 "repeats": args.repeats, "margin": args.margin, "factor": args.factor,
                 "sync": args.sync,
                 "profile": str(args.profile) if args.profile else None,
                 "model": args.model}
        ppn = args.ppn if args.simgrid else 1
        costs = (cost_source(args, log) if args.model in ("auto", "cost") or args.test_ranks
                 else None)
        rules, models = generalised_rules(cells, args.model, ppn, args.margin, costs)
        if args.simgrid:  # the layout of the sweep is known: its rules say it
            rules = with_layout(rules, args.ppn)
        tests = test_models(args, cells, costs, models, log) if args.test_ranks else {}
        for coll, rows in tests.items():
            models[coll]["test"] = rows
        table = build_table(cells, sweep, reg["registry_fingerprint"], reg["autocoll_version"],
                            "simgrid" if args.simgrid else args.mpi,
                            results[0]["machine"].get("mpi_library"),
                            platform_of(results),
                            time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), rules, models)
        path = Path(args.table) if args.table else Path(args.out) / "table.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(table, indent=1) + "\n")
    except (TuneError, BenchError, generalise.GeneraliseError) as e:
        print(f"autocoll tune: {e}", file=sys.stderr)
        return 1
    print(summary(table))
    for coll, m in models.items():
        print("\n".join(generalise.cv_text(coll, m["cross_validation"], m["model"])))
        if coll in tests:
            print("\n".join(generalise.test_text(coll, tests[coll])))
    print(f"table: {path} ({len(table['rules'])} rules from {len(cells)} cells)")
    return 0


def add_arguments(p):
    d = DEFAULTS
    p.add_argument("--out", required=True, help="folder for the cells' JSON and the table "
                   "(resumable)")
    p.add_argument("--table", help="where to write the table (default: OUT/table.json)")
    p.add_argument("--mpi", default="openmpi", choices=["openmpi", "mpich"])
    p.add_argument("--build", help="build folder (default: build/<mpi> of this checkout)")
    p.add_argument("--collectives", default=d["collectives"])
    p.add_argument("--sizes", default=d["sizes"],
                   help="message sizes, e.g. 8,1K,64K,1M (default: 1 B to 8 MiB, powers of two)")
    p.add_argument("--ranks", default=d["ranks"], help="rank counts, e.g. 2,4,8")
    p.add_argument("--iterations", type=int, default=d["iterations"],
                   help="timed invocations of native and of each fixed algorithm per cell")
    p.add_argument("--warmup", type=int, default=d["warmup"])
    p.add_argument("--factor", type=float, default=d["factor"],
                   help="computation per iteration, in multiples of the native time")
    p.add_argument("--sync", default="none", choices=["none", "barrier", "clock"],
                   help="barrier: an untimed barrier before every call; clock (with "
                        "--simgrid): every call starts at one instant of the simulated clock "
                        "(autocoll bench --sync; docs/simgrid.md)")
    p.add_argument("--statistic", default=d["statistic"], choices=STATISTICS,
                   help="what decides a cell: the median or the minimum of the times")
    p.add_argument("--spread-limit", type=float, default=d["spread_limit"],
                   help="p90/p10 of the winner or of native above this: the cell is noisy")
    p.add_argument("--repeats", type=int, default=d["repeats"],
                   help="extra runs of a noisy cell (into OUT/repeat-N/)")
    p.add_argument("--margin", type=float, default=d["margin"],
                   help="a winner must beat native by more than this fraction, else native")
    p.add_argument("--profile", metavar="REPORT",
                   help="tune only what a program uses: the collectives, communicator sizes "
                        "and message-size bins of its report's profile (AUTOCOLL_REPORT JSON); "
                        "replaces --collectives, --sizes and --ranks")
    p.add_argument("--model", default="auto", choices=("auto",) + generalise.MODELS,
                   help="what the rules come from: floor (the swept winners, a floor lookup), "
                        "trees (gradient-boosted trees), curve (fitted curves), cost (the "
                        "registry's cost formulas with fitted parameters), or auto (the best by "
                        "leave-one-count-out cross-validation, per collective; floor when one "
                        "count is swept)")
    p.add_argument("--test-ranks", metavar="COUNTS",
                   help="also sweep these counts, never used to fit, and print each model's "
                        "penalty there (time of its pick / the cell's best time)")
    p.add_argument("--timeout", type=int, default=1800, help="seconds per cell")
    p.add_argument("--cluster", metavar="NAME",
                   help="run the cells on this emulated cluster (`autocoll cluster up`, "
                        "docs/cluster.md; root) instead of on local ranks")
    add_platform_arguments(p)
    p.add_argument("--selector", default="ompi",
                   help="--simgrid: SMPI's native selector, the native candidate (default ompi)")

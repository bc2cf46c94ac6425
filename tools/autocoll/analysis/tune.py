"""The configuration phase behind `autocoll tune` (commands/tune.py says what it does): the
sweep of native and every fixed algorithm (run/bench.py's matrix, noisy cells repeated), the
cells' winners, the rules of the model that generalises best (generalise.py) and the
configuration table (docs/table.md)."""

import socket
import subprocess
from pathlib import Path

from ..formats import jsonfile
from ..formats.cells import size_label
from ..formats.paths import build_folder, find_info
from ..formats.registry import algorithms_by_collective
from ..formats.schemas import BENCH_SCHEMA, BENCH_VERSION, TABLE_SCHEMA, TABLE_VERSION
from ..run.bench import parse_list, parse_ranks, parse_size, run_matrix
from ..run.info import cost_vectors, load as load_registry
from . import generalise, report

NATIVE = "native"

DEFAULTS = {
    "collectives": "alltoall,allgather,allreduce,bcast",
    "sizes": ",".join(size_label(1 << k) for k in range(24)),  # 1 B .. 8 MiB
    "ranks": "2,4",
    "iterations": 100,
    "warmup": 10,
    "factor": 5.0,
    "statistic": "median",
    "spread_limit": 1.5,
    "repeats": 2,
    "margin": 0.02,
}
STATISTICS = ("median", "min")

# The message sizes the driver accepts (autocoll_bench --help): reductions reduce doubles, so
# their bytes are a multiple of 8; reduce_scatter_block gives each rank as many doubles, so a
# multiple of 8 x ranks; barrier moves no data. Sizes a collective does not accept are left
# out of its sweep (and said so).
BYTES_MULTIPLE = {
    "allreduce": lambda ranks: 8,
    "reduce": lambda ranks: 8,
    "reduce_scatter": lambda ranks: 8,
    "reduce_scatter_block": lambda ranks: 8 * ranks,
}
ONLY_ZERO_BYTES = {"barrier"}


class TuneError(RuntimeError):
    pass


def needs_topology(collective):
    """The MPI-3 neighbourhood collectives (neighbor_alltoall, ...) run on a Cartesian or
    distributed-graph communicator, which the benchmark driver does not make
    (docs/neighbor.md): they are tuned at run time only."""
    return collective.startswith("neighbor_")


def accepts(collective, nbytes, ranks):
    """Whether the driver takes `nbytes` for `collective` on `ranks` ranks."""
    if collective in ONLY_ZERO_BYTES:
        return nbytes == 0
    multiple = BYTES_MULTIPLE.get(collective)
    return multiple is None or nbytes % multiple(ranks) == 0


# ---- one cell ---------------------------------------------------------------------------------

def spread_of(configuration):
    """p90/p10 of a configuration's times; None when p10 is not positive (no spread to speak of
    can be computed: treated as noisy)."""
    p10, p90 = configuration.get("p10"), configuration.get("p90")
    if not isinstance(p10, (int, float)) or not isinstance(p90, (int, float)) or p10 <= 0:
        return None
    return p90 / p10


def winner_of(times, margin):
    """The configuration with the lowest time, unless it beats native by no more than `margin`
    (a fraction of native's time): then native."""
    best = min(times, key=lambda name: (times[name], name != NATIVE))
    if best != NATIVE and NATIVE in times and times[best] >= times[NATIVE] * (1 - margin):
        return NATIVE
    return best


def cell_entry(data, statistic, margin):
    """The table's cell for one benchmark result (schema autocoll-bench): native and the fixed
    algorithms only (layer configurations are not candidates)."""
    configurations = [c for c in data["configurations"] if c["kind"] in ("native", "fixed")]
    if not any(c["kind"] == "native" for c in configurations):
        raise TuneError("the result has no native configuration")
    times = {c["name"]: c[statistic] for c in configurations}
    spread = {c["name"]: spread_of(c) for c in configurations}
    return {"collective": data["parameters"]["collective"], "ranks": data["machine"]["ranks"],
            "bytes": data["parameters"]["bytes"], "times": times, "spread": spread,
            "winner": winner_of(times, margin), "noisy": False}


def noisy_configurations(entry, spread_limit):
    """The configurations that make the cell noisy: its winner and native, where their p90/p10
    is above the limit (or unknown)."""
    names = [entry["winner"]] + ([NATIVE] if entry["winner"] != NATIVE else [])
    return [n for n in names if entry["spread"].get(n) is None or entry["spread"][n] > spread_limit]


def steadier(entries, spread_limit):
    """Of several repetitions of one cell, the index of the one to keep: a quiet one before a
    noisy one, then the smallest spread of its winner, then the earliest."""
    def key(i):
        e = entries[i]
        s = e["spread"].get(e["winner"])
        return (bool(noisy_configurations(e, spread_limit)), float("inf") if s is None else s, i)
    return min(range(len(entries)), key=key)


# ---- cells to rules (pure) ------------------------------------------------------------------

def intervals(points):
    """Inclusive intervals [p_i, p_(i+1) - 1] of sorted points, the last [p_k, None]."""
    return [[p, points[i + 1] - 1 if i + 1 < len(points) else None] for i, p in enumerate(points)]


def band_rules(cells, choice=None):
    """The rules of one collective at one rank count (its cells): byte intervals from the
    measured sizes (the first from 0, the last open), adjacent equal choices merged. The choice
    of a cell: `choice(cell)`, a version 2 list (`algorithms`), or without it version 1's
    winner (`algorithm`). A merged rule keeps the times of its first cell (the smallest
    size)."""
    key = "algorithms" if choice else "algorithm"
    cells = sorted(cells, key=lambda c: c["bytes"])
    spans = intervals([c["bytes"] for c in cells])
    spans[0][0] = 0
    rules = []
    for cell, span in zip(cells, spans):
        picked = choice(cell) if choice else cell["winner"]
        if rules and rules[-1][key] == picked:
            rules[-1]["bytes"][1] = span[1]
            continue
        rules.append({"bytes": span, key: picked, "seconds": cell["times"][cell["winner"]],
                      "native_seconds": cell["times"].get(NATIVE)})
    return rules


def collective_rules(collective, cells, choice=None):
    """The rules of one collective: a band of ranks [r_i, r_(i+1) - 1] per measured rank count
    (the last open), each with its band_rules (`choice`: theirs); adjacent bands with the same
    rule list (byte intervals and algorithms) merged, keeping the first band's times."""
    key = "algorithms" if choice else "algorithm"
    counts = sorted({c["ranks"] for c in cells})
    bands = []
    for ranks, span in zip(counts, intervals(counts)):
        rules = band_rules([c for c in cells if c["ranks"] == ranks], choice)
        shape = [(r["bytes"], r[key]) for r in rules]
        if bands and bands[-1][1] == shape:
            bands[-1][0][1] = span[1]
            continue
        bands.append((span, shape, rules))
    return [{"collective": collective, "ranks": list(span), "bytes": list(r["bytes"]),
             key: r[key], "seconds": r["seconds"], "native_seconds": r["native_seconds"]}
            for span, _, rules in bands for r in rules]


def floor_rules(collective, cells, margin):
    """The floor lookup's rules in version 2's form: each lists its cell's ranking
    (generalise.ranking: the winner first)."""
    return collective_rules(collective, cells, lambda c: generalise.ranking(c, margin))


def rules_from_cells(cells, choice=None):
    """Every collective's rules (collective_rules', with `choice`), collectives in the order
    they first appear in `cells`."""
    order = list(dict.fromkeys(c["collective"] for c in cells))
    return [rule for coll in order
            for rule in collective_rules(coll, [c for c in cells if c["collective"] == coll],
                                         choice)]


def rule_algorithms(rule):
    """A rule's algorithms in order of preference: version 2's "algorithms", version 1's one
    "algorithm"."""
    return rule["algorithms"] if "algorithms" in rule else [rule["algorithm"]]


def generalised_rules(cells, model, ppn, margin, costs=None):
    """Per collective (in the order of `cells`): the cross-validation rows, the model used
    (`model`, or with "auto" the one cross-validation chooses among those available: cost only
    with `costs`, cost_source's) and its rules (version 2). Returns (rules, {collective:
    {"model", "cross_validation"}})."""
    rules, chosen = [], {}
    for coll in dict.fromkeys(c["collective"] for c in cells):
        mine = [c for c in cells if c["collective"] == coll]
        rows = (generalise.cross_validate(mine, ppn, margin, costs=costs) if model == "auto"
                else [])
        name = generalise.choose(rows) if model == "auto" else model
        if name == "floor":
            rules += floor_rules(coll, mine, margin)
        else:
            rules += generalise.compile_rules(
                coll, generalise.table_model(name, mine, ppn, margin, costs), mine)
        chosen[coll] = {"model": name, "cross_validation": rows}
    return rules, chosen


def with_layout(rules, ppn):
    """The rules of a sweep of `ppn` ranks a node by block placement (`--simgrid --ppn`), keyed by
    the node layout they were measured on (docs/table.md): "ppn", the ranks on the fullest node,
    over a rule's process counts [lo, hi] is [min(ppn, lo), min(ppn, hi)] (hi None: ppn), so
    that the table's rules never run on a layout the sweep did not measure (a table tuned at 8
    ranks a node covers nothing at 32)."""
    return [{**r, "ppn": [min(ppn, r["ranks"][0]),
                          ppn if r["ranks"][1] is None else min(ppn, r["ranks"][1])]}
            for r in rules]


def cost_source(args, log):
    """The cost formulas for the cost model: costs(collective, ranks, bytes) from a plain
    autocoll-info (under --simgrid the Open MPI build's: the SimGrid one runs only under
    smpirun; the formulas are the same source), cached; the ranks on ceil(ranks / --ppn) nodes
    under --simgrid (the largest divisor of ranks not above it), else on one node. None, said
    so, when there is no such program."""
    try:
        info = (find_info("openmpi") if args.simgrid else
                build_folder(args.mpi, args.build) / "autocoll-info")
    except FileNotFoundError as e:
        info = None
        log(f"cost model left out: {e}")
    if info is None or not Path(info).exists():
        if info is not None:
            log(f"cost model left out: no {info}")
        return None
    cache = {}

    def costs(collective, ranks, nbytes):
        nodes = -(-ranks // args.ppn) if args.simgrid else 1
        nodes = max(d for d in range(1, nodes + 1) if ranks % d == 0)
        if (ranks, nbytes, nodes) not in cache:
            try:
                cache[(ranks, nbytes, nodes)] = cost_vectors(info, ranks, nbytes, nodes)
            except (OSError, ValueError, KeyError, subprocess.CalledProcessError) as e:
                raise generalise.GeneraliseError(f"cost formulas from {info}: {e}") from e
        return cache[(ranks, nbytes, nodes)].get(collective, {})
    return costs


def build_table(cells, sweep, registry_fingerprint, autocoll_version, mpi, mpi_library, platform,
                created, rules=None, models=None):
    """The configuration table (a dict, docs/table.md) for `cells` (cell_entry dicts, "noisy"
    set): `rules` (generalised_rules'; default: the floor lookup's with the default margin) and,
    when given, the models
    behind them ({collective: {"model", "cross_validation", "test"}}). Pure: everything it
    records comes in through its arguments."""
    table = {"schema": TABLE_SCHEMA, "version": TABLE_VERSION,
             "autocoll_version": autocoll_version, "registry_fingerprint": registry_fingerprint,
             "mpi": mpi, "mpi_library": mpi_library, "platform": platform, "created": created,
             "sweep": sweep, "cells": [dict(c) for c in cells],
             "rules": (rules if rules is not None
                       else rules_from_cells(cells, lambda c: generalise.ranking(
                           c, DEFAULTS["margin"])))}
    if models is not None:
        table["models"] = models
    return table


# ---- the sweep --------------------------------------------------------------------------------

def read_cell(path):
    return jsonfile.load(path, BENCH_SCHEMA, TuneError, BENCH_VERSION)


def check_cell(path, data, fingerprint, parameters):
    """A kept cell must come from this build's registry and these options: a resumed folder
    never mixes sweeps."""
    measured_with = data["machine"].get("registry_fingerprint")
    if measured_with != fingerprint:
        raise TuneError(f"{path}: measured with registry {measured_with}, the build's is "
                        f"{fingerprint}: tune into a new --out folder")
    for name, value in parameters.items():
        got = data["parameters"].get(name)
        if got != value:
            raise TuneError(f"{path}: made with {name} {got}, this sweep asks {value}: use the "
                            f"same options or a new --out folder")


def format_interval(span):
    """[4, 7] -> "4-7", [8, 8] -> "8", [8, None] -> "8+"."""
    lo, hi = span
    return f"{lo}+" if hi is None else str(lo) if lo == hi else f"{lo}-{hi}"


SUMMARY_RULES = 40  # rules printed per collective


def summary(table):
    """Short text: the rules per collective (the first SUMMARY_RULES), then the noisy cells."""
    lines = ["rules (ranks, bytes: algorithm):"]
    for coll in dict.fromkeys(r["collective"] for r in table["rules"]):
        lines.append(f"  {coll}")
        rules = [r for r in table["rules"] if r["collective"] == coll]
        for r in rules[:SUMMARY_RULES]:
            lines.append(f"    ranks {format_interval(r['ranks']):8} bytes "
                         f"{format_interval(r['bytes']):18} {', '.join(rule_algorithms(r))}")
        if len(rules) > SUMMARY_RULES:
            lines.append(f"    ... {len(rules) - SUMMARY_RULES} more rules (the table has them)")
    noisy = [c for c in table["cells"] if c["noisy"]]
    lines.append(f"noisy cells (p90/p10 above {table['sweep']['spread_limit']} after "
                 f"{table['sweep']['repeats']} repeats): {len(noisy)}")
    for c in noisy:
        lines.append(f"  {c['collective']} {size_label(c['bytes'])} on {c['ranks']} ranks: "
                     f"{c['winner']}")
    return "\n".join(lines)


def representative(collective, lo, hi, ranks):
    """The size that stands for a profile bin [lo, hi] (hi None: open): its lower bound, rounded
    up to a size the driver takes for the collective; None when none is in the bin."""
    multiple = BYTES_MULTIPLE.get(collective, lambda r: 1)(ranks)
    size = max(lo, 1)
    size = -(-size // multiple) * multiple
    return size if hi is None or size <= hi else None


def profile_plan(path, known, log):
    """What a program's report (AUTOCOLL_REPORT JSON, its "profile") asks to tune: {(collective,
    ranks): [sizes]}, one size per message-size bin the program used (representative()), on the
    communicator sizes it used (2 ranks or more)."""
    try:
        data = report.load(path)
    except report.ReportError as e:
        raise TuneError(str(e)) from e
    if "profile" not in data:
        raise TuneError(f"{path}: the report has no collective profile (made by an older "
                        f"autocoll?)")
    plan = {}
    for row in data["profile"]:
        coll, ranks = row["collective"], row["comm_size"]
        if coll not in known or ranks < 2:
            log(f"profile: {coll} on {ranks} ranks is not tuned (nothing to choose there)")
            continue
        if needs_topology(coll):
            log(f"profile: {coll} is not tuned here: the driver has no topology communicator "
                f"(it is tuned at run time)")
            continue
        if coll in ONLY_ZERO_BYTES:  # one cell, whatever bins the report has
            plan[(coll, ranks)] = [0]
            continue
        for b in row["sizes"]:
            size = representative(coll, b["bytes"][0], b["bytes"][1], ranks)
            if size is None:
                log(f"profile: {coll} on {ranks} ranks, {b['bytes']} bytes: no size the driver "
                    f"takes in that bin; left out")
                continue
            plan.setdefault((coll, ranks), [])
            if size not in plan[(coll, ranks)]:
                plan[(coll, ranks)].append(size)
    if not plan:
        raise TuneError(f"{path}: the profile has nothing to tune")
    return {key: sorted(sizes) for key, sizes in plan.items()}


def sweep_cells(args, log, ranks=None):
    """Runs (or keeps) every cell and its repetitions (on `ranks`, a list of counts, instead of
    --ranks when given). Returns the table's cells, the bench result each was made from, the
    registry, and the collectives, sizes and rank counts asked."""
    out = Path(args.out)
    mpi = "simgrid" if args.simgrid else args.mpi
    build = build_folder(mpi, args.build)
    try:
        reg = load_registry(mpi, info=build / "autocoll-info")
    except (OSError, ValueError, subprocess.CalledProcessError) as e:
        raise TuneError(f"registry of {build}: {e}") from e
    known = algorithms_by_collective(reg)
    if args.profile:
        plan = profile_plan(args.profile, known, log)
        collectives = list(dict.fromkeys(c for c, _ in plan))
        rank_counts = sorted({r for _, r in plan})
        sizes = sorted({size for v in plan.values() for size in v})
    else:
        collectives = parse_list(args.collectives, "collectives", str)
        sizes = parse_list(args.sizes, "sizes", parse_size)
        rank_counts = ranks or parse_list(args.ranks, "rank counts", parse_ranks)
        plan = {(c, r): sizes for r in rank_counts for c in collectives}
    unknown = [c for c in collectives if c not in known]
    if unknown:
        raise TuneError(f"unknown collective(s) {', '.join(unknown)} (autocoll info lists them)")
    topology = [c for c in collectives if needs_topology(c)]
    if topology:
        raise TuneError(f"{', '.join(topology)}: the benchmark driver has no topology "
                        f"communicator; neighbourhood collectives are tuned at run time only")
    parameters = {"iterations": args.iterations, "fixed_iterations": args.iterations,
                  "warmup": args.warmup, "factor": args.factor, "sync": args.sync}
    options = dict(mpi=args.mpi, build=build, layers="", iterations=args.iterations,
                   fixed_iterations=args.iterations, warmup=args.warmup, factor=args.factor,
                   timeout=args.timeout, cluster=args.cluster, simgrid=args.simgrid,
                   ppn=args.ppn, selectors=args.selector, sync=args.sync)

    groups = list(plan)
    cells, results = [], []
    for g, (coll, ranks) in enumerate(groups, 1):
        kept = [s for s in plan[(coll, ranks)] if accepts(coll, s, ranks)]
        left = [size_label(s) for s in plan[(coll, ranks)] if s not in kept]
        if left:
            log(f"{coll} on {ranks} ranks: the driver does not take {', '.join(left)} bytes "
                f"for {coll}; left out")
        if not kept:
            continue
        prefix = f"[{coll} on {ranks} ranks, group {g}/{len(groups)}] "
        paths = run_matrix(out, collectives=coll, sizes=",".join(map(str, kept)),
                           ranks=str(ranks), log=lambda m: log(prefix + m), **options)
        for path in paths:
            data = read_cell(path)
            check_cell(path, data, reg["registry_fingerprint"], parameters)
            entries, datas = [cell_entry(data, args.statistic, args.margin)], [data]
            for n in range(1, args.repeats + 1):
                loud = noisy_configurations(entries[-1], args.spread_limit)
                if not loud:
                    break
                log(f"{prefix}{path.name}: p90/p10 of {', '.join(loud)} above "
                    f"{args.spread_limit}: repetition {n} of {args.repeats}")
                (again,) = run_matrix(out / f"repeat-{n}", collectives=coll,
                                      sizes=str(data["parameters"]["bytes"]), ranks=str(ranks),
                                      log=lambda m: log(prefix + m), **options)
                again_data = read_cell(again)
                check_cell(again, again_data, reg["registry_fingerprint"], parameters)
                entries.append(cell_entry(again_data, args.statistic, args.margin))
                datas.append(again_data)
            chosen = steadier(entries, args.spread_limit)
            entry = entries[chosen]
            entry["noisy"] = bool(noisy_configurations(entry, args.spread_limit))
            cells.append(entry)
            results.append(datas[chosen])
    return cells, results, reg, collectives, sizes, rank_counts


def platform_of(results):
    """hostname and cores_online of the cells' machine, and the emulated cluster or the
    simulated platform they ran on."""
    first = results[0]
    cluster = first.get("cluster")
    if cluster:
        cluster = {k: cluster[k] for k in ("name", "topology", "rate", "rate_bits",
                                           "oversubscription", "switches") if k in cluster}
    simulated = first.get("simgrid")
    if simulated:
        simulated = {k: simulated[k] for k in ("platform", "ppn", "selector")}
    return {"hostname": first["machine"].get("hostname", socket.gethostname()),
            "cores_online": first["machine"].get("cores_online"), "cluster": cluster or None,
            "simgrid": simulated or None}


def test_models(args, cells, costs, models, log):
    """--test-ranks: sweeps those counts (never used to fit) and scores every model fitted on the
    table's cells there, and the table's own lists (`models`: generalised_rules'), per
    collective. Returns {collective: rows} (generalise.evaluate)."""
    counts = parse_list(args.test_ranks, "test rank counts", parse_ranks)
    test, _, _, _, _, _ = sweep_cells(args, log, ranks=counts)
    ppn = args.ppn if args.simgrid else 1
    out = {}
    for coll in dict.fromkeys(c["collective"] for c in cells):
        mine = [c for c in test if c["collective"] == coll]
        if mine:
            out[coll] = generalise.evaluate(generalise.available(costs),
                                            [c for c in cells if c["collective"] == coll],
                                            mine, ppn, args.margin, costs,
                                            table=models[coll]["model"])
    return out

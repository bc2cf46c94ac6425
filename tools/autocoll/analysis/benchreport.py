"""Tables over benchmark results (schema autocoll-bench, from `autocoll bench` or
autocoll_bench --out), and the data of their figures (benchplot.py draws them).

Ratios are taken inside one cell (one run of the driver), never across runs:
  learning  = mean time per call of a layer configuration over all its invocations (its
              Measure_Select included) / the oracle configuration's mean;
  steady    = median of the layer's last 100 invocations / the oracle's median;
  vs native = the same with native in place of the oracle.
The oracle is the fastest fixed choice of that run (native included). Decision length is the
calls the strategy spent in Measure_Select. Overheads are rank 0's, from the layer's tuning
context: O_MS^a and O_MA (the layer's own time while deciding, after), O_MS^c (running slower
candidates while measuring).
"""

import math
import statistics
from pathlib import Path

from ..formats import jsonfile
from ..formats.schemas import BENCH_SCHEMA, BENCH_VERSION
from ..run.cluster import TBF_MIN_BURST_BYTES


class BenchReportError(ValueError):
    pass


def load(path):
    return jsonfile.load(path, BENCH_SCHEMA, BenchReportError, BENCH_VERSION)


def is_bench(path):
    return jsonfile.schema_of(path)[0] == BENCH_SCHEMA


def cell_files(paths):
    """Bench JSON files among `paths` (files or folders, folders searched for *.json)."""
    out = []
    for p in map(Path, paths):
        if p.is_dir():
            out += sorted(q for q in p.glob("*.json") if is_bench(q))
        else:
            out.append(p)
    return out


def _mean(times):
    return sum(times) / len(times)


def cell(data):
    """One row per layer configuration of a cell: dicts of the table's values."""
    p = data["parameters"]
    configs = {c["name"]: c for c in data["configurations"]}
    native = configs["native"]
    oracle = configs[data["oracle"]["name"]] if data.get("oracle") else native
    rows = []
    for c in data["configurations"]:
        if c["kind"] != "layer":
            continue
        layer = c["layer"]
        ctx = layer["contexts"][0] if layer["contexts"] else None
        row = {
            "collective": p["collective"], "bytes": p["bytes"],
            "ranks": data["machine"]["ranks"], "cores": data["machine"]["cores_online"],
            "mpi": data["mpi"], "layer": layer["spec"], "iterations": c["iterations"],
            "native_us": 1e6 * native["median"], "oracle": oracle["name"],
            "oracle_us": 1e6 * oracle["median"],
            "learning_vs_oracle": _mean(c["times"]) / _mean(oracle["times"]),
            "steady_vs_oracle": c["steady_median"] / oracle["median"],
            "learning_vs_native": _mean(c["times"]) / _mean(native["times"]),
            "steady_vs_native": c["steady_median"] / native["median"],
            "steady_us": 1e6 * c["steady_median"],
            "steady_p10_us": 1e6 * c["steady_p10"], "steady_p90_us": 1e6 * c["steady_p90"],
            "final": layer["algorithm_runs"][-1][0],
            # decision_calls: every strategy; measure_select_calls: star's results before it
            "decision": (ctx.get("decision_calls", ctx.get("measure_select_calls"))
                         if ctx else None),
            "switches": ctx.get("switches") if ctx else None,
            # started from the history file (autocoll_bench --history), else cold
            "start": "warm" if ctx and ctx.get("warm") else "cold",
            "o_ms_a_us": 1e6 * ctx["overhead"]["deciding_seconds"] if ctx else None,
            "o_ms_c_us": 1e6 * ctx["o_ms_c_seconds"] if ctx and "o_ms_c_seconds" in ctx else None,
            "o_ma_us": 1e6 * ctx["overhead"]["settled_seconds"] if ctx else None,
            "times": c["times"],
        }
        # The layer's steady cost over the same algorithm fixed (when it settled on one that
        # ran fixed in this run): what choosing costs per call once settled.
        final = configs.get(row["final"])
        row["settled_overhead_us"] = (1e6 * (c["steady_median"] - final["median"])
                                      if final and final["kind"] != "layer" else None)
        rows.append(row)
    return {"data": data, "rows": rows, "native": native, "oracle": oracle}


def _fmt(v, spec):
    return "-" if v is None else format(v, spec)


def geomean(values):
    values = [v for v in values if v and v > 0]
    return math.exp(sum(map(math.log, values)) / len(values)) if values else float("nan")


def machine_line(cells):
    d = cells[0]["data"]
    m = d["machine"]
    warn = any("share the" in w for c in cells for w in c["data"]["warnings"])
    return (f"machine: {m['hostname']}, {m['cores_online']} cores online, "
            f"{m['mpi_library'].split(',')[0]}" +
            ("; ranks oversubscribe the cores in some cells" if warn else ""))


def matrix_table(cells):
    lines = [machine_line(cells), "",
             f"{'collective':10} {'bytes':>8} {'np':>3} {'layer':14} {'native us':>10} "
             f"{'oracle':>30} {'oracle us':>10} {'learn/or':>8} {'steady/or':>9} "
             f"{'learn/nat':>9} {'steady/nat':>10} {'start':>5} {'decided':>7} {'sw':>3} "
             f"{'O_MS^a us':>9} {'O_MS^c us':>9} {'O_MA us':>8}  final"]
    for c in cells:
        for r in c["rows"]:
            lines.append(
                f"{r['collective']:10} {r['bytes']:8d} {r['ranks']:3d} {r['layer']:14} "
                f"{r['native_us']:10.2f} {r['oracle'][-30:]:>30} {r['oracle_us']:10.2f} "
                f"{r['learning_vs_oracle']:8.3f} {r['steady_vs_oracle']:9.3f} "
                f"{r['learning_vs_native']:9.3f} {r['steady_vs_native']:10.3f} "
                f"{r['start']:>5} {_fmt(r['decision'], '7d')} {_fmt(r['switches'], '3d')} "
                f"{_fmt(r['o_ms_a_us'], '9.1f')} {_fmt(r['o_ms_c_us'], '9.1f')} "
                f"{_fmt(r['o_ma_us'], '8.1f')}  {r['final']}")
    return "\n".join(lines)


def summary(cells):
    """Per layer: median and geomean over cells of each ratio, and where native wins."""
    by_layer = {}
    for c in cells:
        for r in c["rows"]:
            key = r["layer"] + (" (warm)" if r["start"] == "warm" else "")
            by_layer.setdefault(key, []).append(r)
    lines = ["", "summary over cells (median, geomean, min-max):"]
    for layer, rows in by_layer.items():
        for key in ("learning_vs_oracle", "steady_vs_oracle", "learning_vs_native",
                    "steady_vs_native"):
            v = [r[key] for r in rows]
            lines.append(f"  {layer:14} {key:20} median {statistics.median(v):.3f}  "
                         f"geomean {geomean(v):.3f}  range {min(v):.3f}-{max(v):.3f}  "
                         f"({len(v)} cells)")
        decided = [r["decision"] for r in rows if r["decision"] is not None]
        if decided:
            lines.append(f"  {layer:14} {'decision length':20} median "
                         f"{statistics.median(decided):.0f}  range {min(decided)}-{max(decided)}"
                         f"  ({len(decided)} cells)")
    native_wins = [c for c in cells if c["oracle"]["name"] == "native"]
    ours = [c for c in cells if c["oracle"]["name"] != "native"]
    lines.append(f"  oracle is native in {len(native_wins)} of {len(cells)} cells; one of ours "
                 f"in {len(ours)}:")
    for c in ours:
        p = c["data"]["parameters"]
        lines.append(f"    {p['collective']} {p['bytes']} B on {c['data']['machine']['ranks']} "
                     f"ranks: {c['oracle']['name']} "
                     f"({c['oracle']['median'] / c['native']['median']:.3f} x native)")
    return "\n".join(lines)


def improvement_table(cells):
    """The decomposition paper's Figure 8: per layer, collective and rank count, the improvement
    over native across message sizes, (native - steady) / native in percent (steady: the
    layer's median once settled), as minimum, mean and maximum."""
    groups = {}
    for c in cells:
        for r in c["rows"]:
            key = (r["layer"], r["collective"], r["ranks"])
            groups.setdefault(key, []).append(100.0 * (1.0 - r["steady_vs_native"]))
    lines = ["", "improvement over native across message sizes, percent "
             "((native - steady) / native; negative: slower than native):",
             f"  {'layer':14} {'collective':10} {'np':>3} {'sizes':>5} {'min':>8} {'mean':>8} "
             f"{'max':>8}"]
    for (layer, coll, np), v in sorted(groups.items()):
        lines.append(f"  {layer:14} {coll:10} {np:3d} {len(v):5d} {min(v):8.1f} "
                     f"{statistics.mean(v):8.1f} {max(v):8.1f}")
    return "\n".join(lines)


def aeos_table(cells):
    """Basic against enhanced AEOS (STAR-MPI Table 1): decision length, final choice, and the
    enhanced steady time relative to basic's, per cell with both."""
    lines = ["", "basic vs enhanced AEOS (decision length = calls in Measure_Select):",
             f"  {'collective':10} {'bytes':>8} {'np':>3} {'basic':>6} {'enhanced':>8} "
             f"{'enh/basic steady':>16}  basic final / enhanced final"]
    pairs = []
    for c in cells:
        rows = {r["layer"]: r for r in c["rows"]}
        b, e = rows.get("star_basic"), rows.get("star_enhanced")
        if not b or not e:
            continue
        ratio = e["steady_us"] / b["steady_us"]
        pairs.append((b, e, ratio))
        lines.append(f"  {b['collective']:10} {b['bytes']:8d} {b['ranks']:3d} "
                     f"{_fmt(b['decision'], '6d')} {_fmt(e['decision'], '8d')} "
                     f"{ratio:16.3f}  {b['final']} / {e['final']}")
    if pairs:
        fewer = sum(1 for b, e, _ in pairs if (e["decision"] or 0) < (b["decision"] or 0))
        within = sum(1 for *_, r in pairs if r <= 1.05)
        lines.append(f"  enhanced decides in fewer calls in {fewer} of {len(pairs)} cells; "
                     f"its steady time is within 5 % of basic's (or better) in {within}")
    return "\n".join(lines)


TREE_SHAPES = ["binomial", "binary", "chain", "flat", "knomial_k4"]
TREE_SEGMENTS = ["", "_segment_1k", "_segment_8k", "_segment_64k"]


def tree_name(shape, segment):
    """The registry name of a tree instance: <shape>_tree[_k<k>][_segment_<size>]."""
    base, _, k = shape.partition("_")
    return f"{base}_tree{'_' + k if k else ''}{segment}"


def tree_table(cells):
    """The rooted collectives' tree x segment instances against native (the Berkeley report's
    Figure 3 as a table): median / native median, per cell that ran them."""
    lines = []
    for c in cells:
        fixed = {x["name"]: x for x in c["data"]["configurations"] if x["kind"] == "fixed"}
        if not any(tree_name(s, "") in fixed for s in TREE_SHAPES):
            continue
        p = c["data"]["parameters"]
        native = c["native"]["median"]
        lines += ["", f"{p['collective']} {p['bytes']} B on {c['data']['machine']['ranks']} "
                      f"ranks: tree x segment, median / native median "
                      f"(native {1e6 * native:.2f} us)",
                  f"  {'tree':12}" + "".join(f"{(s[9:] or 'none'):>10}" for s in TREE_SEGMENTS)]
        for shape in TREE_SHAPES:
            values = [fixed.get(tree_name(shape, s)) for s in TREE_SEGMENTS]
            lines.append(f"  {shape:12}" + "".join(
                f"{x['median'] / native:10.3f}" if x else f"{'-':>10}" for x in values))
        others = [n for n in fixed if "_tree" not in n]
        for n in others:
            lines.append(f"  {n}: {fixed[n]['median'] / native:.3f}")
    return "\n".join(lines)


def platform(data):
    """Where a cell ran: `local`, or the emulated cluster's topology and link rate (the
    `cluster` block `autocoll bench --cluster` adds to the cell)."""
    c = data.get("cluster")
    if not c:
        return "local"
    mpi = "" if data.get("mpi", "openmpi") == "openmpi" else f" {data['mpi']}"
    return f"{c['topology']} {c['rate_bits'] / 1e6:g}Mbit{mpi}"


def link_bound_seconds(data):
    """The least time the cell's data volume needs on the emulated cluster's links (None on
    one host): the largest, over the nodes and over the switches' uplinks, of the bytes that
    must cross the link one way / its rate. Ranks are placed as the cluster placed them
    (`rank_nodes`). Per collective, with m the message size (the driver's --bytes), p ranks,
    c ranks on a node (k on a switch), N nodes (S switches) holding ranks:
      alltoall   c (p - c) m each way (every rank sends m to every other);
      allgather  (p - c) m received (every other rank's block, at least once);
      allreduce  2 (N - 1) / N m (the bandwidth term of the known lower bound, Patarasuk and
                 Yuan 2009, over nodes, or switches as the units);
      bcast      m received by every node but the root's.
    It bounds the sustained rate only: tbf lets a burst of at least 32 KiB through at line
    rate, so a cell whose busiest link carries less can run faster (best_map says so).
    """
    c = data.get("cluster")
    if not c:
        return None
    coll, m = data["parameters"]["collective"], float(data["parameters"]["bytes"])
    p = data["machine"]["ranks"]
    node_of = c["rank_nodes"][:p]
    switch_of_node = {n: s for s, sw in enumerate(c["switches"]) for n in sw["nodes"]}
    links = []  # (ranks behind the link, units holding ranks, link bits/s, holds the root)
    per_node = {}
    for n in node_of:
        per_node[n] = per_node.get(n, 0) + 1
    for n, k in per_node.items():
        links.append((k, len(per_node), c["rate_bits"], n == node_of[0]))
    if len(c["switches"]) > 1:
        per_switch = {}
        for n in node_of:
            s = switch_of_node[n]
            per_switch[s] = per_switch.get(s, 0) + 1
        for s, k in per_switch.items():
            if k < p:
                links.append((k, len(per_switch), c["switches"][s]["uplink_bits"],
                              s == switch_of_node[node_of[0]]))
    volume = {
        "alltoall": lambda k, units, root: k * (p - k) * m,
        "allgather": lambda k, units, root: (p - k) * m,
        "allreduce": lambda k, units, root: 2.0 * (units - 1) / units * m,
        "bcast": lambda k, units, root: 0.0 if root else m,
    }.get(coll)
    if volume is None:
        return None
    return max(8.0 * volume(k, units, root) / bits for k, units, bits, root in links)


def best_map(cells):
    """Per collective and platform, the oracle (the fastest fixed choice) over ranks x message
    size, with each strategy's final choice where it differs (STAR-MPI's point: the best
    depends on the platform, and a tuned layer should follow it)."""
    groups = {}
    for c in cells:
        d = c["data"]
        groups.setdefault((d["parameters"]["collective"], platform(d)), []).append(c)
    if len({plat for _, plat in groups}) < 2 and not any(c["data"].get("cluster") for c in cells):
        return ""
    lines = ["", "the best fixed algorithm (oracle) per platform; `x native` is its median over "
                 "native's; strategies' final choices where they differ from it:"]
    for (coll, plat), cs in sorted(groups.items()):
        lines.append(f"  {coll} on {plat}:")
        for c in sorted(cs, key=lambda c: (c["data"]["machine"]["ranks"],
                                           c["data"]["parameters"]["bytes"])):
            d = c["data"]
            bound = link_bound_seconds(d)
            # tbf lets a burst (at least 32 KiB) through at line rate: a cell whose busiest
            # link carries less than that can beat the rate's bound.
            burst = bound is not None and bound * d["cluster"]["rate_bits"] / 8 < TBF_MIN_BURST_BYTES
            others = [f"{r['layer']} {r['final']}" for r in c["rows"]
                      if r["final"] != c["oracle"]["name"] and r["layer"] != "native"]
            lines.append(
                f"    np {d['machine']['ranks']:3d} {d['parameters']['bytes']:>8d} B  "
                f"{c['oracle']['name']:38} {c['oracle']['median'] / c['native']['median']:6.3f}"
                f" x native" + (f", {c['oracle']['median'] / bound:5.2f} x link bound"
                                if bound else "") +
                (" (less than a tbf burst per link)" if burst else "") +
                (f"  ({'; '.join(others)})" if others else ""))
    return "\n".join(lines)


STEADY_CALLS = 100    # the driver's steady window: a layer's last 100 calls
LOSS_MARGIN = 1.05    # a strategy loses a cell when its steady median is above this x native's
FOLLOW_MARGIN = 1.10  # a final choice follows the oracle when, run fixed, it is within this


def fixed_median(c, name):
    """The median of `name` run fixed (or native) in cell `c`; None when it did not run so."""
    for x in c["data"]["configurations"]:
        if x["name"] == name and x["kind"] in ("fixed", "native"):
            return x["median"]
    return None


def followed(c, r):
    """(the final choice of strategy row `r` run fixed / cell `c`'s oracle, whether that is
    within FOLLOW_MARGIN); the ratio is None when the choice did not run fixed."""
    fixed = fixed_median(c, r["final"])
    ratio = fixed / c["oracle"]["median"] if fixed else None
    return ratio, ratio is not None and ratio <= FOLLOW_MARGIN


def control_row(c):
    """Native through the layer (`layer:native`): its ratio to native is the run's noise."""
    return next((r for r in c["rows"] if r["layer"] == "native"), None)


def loss_reason(c, r):
    """Why strategy row `r` of cell `c` ran slower than native, from the cell's own data."""
    ctrl = control_row(c)
    noise = (f" (native through the layer: {ctrl['steady_vs_native']:.3f} x native in this run)"
             if ctrl else "")
    if r["decision"] is None or r["decision"] > r["iterations"] - STEADY_CALLS:
        return (f"still deciding inside the steady window (decided after {r['decision']} of "
                f"{r['iterations']} calls)")
    if r["final"] == "native":
        return "settled on native: the gap is run-to-run noise" + noise
    fixed = fixed_median(c, r["final"])
    if fixed is None:
        return f"settled on {r['final']}, which did not run fixed in this cell"
    versus = fixed / c["native"]["median"]
    if versus > 1.0:
        return (f"a wrong choice: {r['final']} is {versus:.3f} x native run fixed, but the "
                f"calls it measured while deciding ranked it first")
    return (f"chose {r['final']} ({versus:.3f} x native run fixed), but its settled calls were "
            f"slower than the same algorithm fixed: noise between parts of the run" + noise)


def strategy_rows(c):
    return [r for r in c["rows"] if r["layer"] != "native"]


def _cell_label(c):
    d = c["data"]
    return (f"{d['parameters']['collective']:10} {d['parameters']['bytes']:8d} B "
            f"np {d['machine']['ranks']:3d}")


def emulated_summary(cells):
    """Over the cells run on emulated clusters: every cell's steady / native per strategy with
    its spread (p10-p90 of the steady calls over native's median), the geomean per strategy and
    platform and over all, the cells lost with their reason, and, where the best algorithm
    differs between topologies, whether each strategy followed it."""
    cells = [c for c in cells if c["data"].get("cluster")]
    if not cells:
        return ""
    lines = ["", "emulated clusters: steady median / native median per cell, and in brackets "
                 "the steady calls' p10-p90 over native's median (`control` is native through "
                 "the layer: the run's own noise):"]
    by_platform = {}
    for c in cells:
        by_platform.setdefault(platform(c["data"]), []).append(c)
    overall = {}
    for plat, cs in sorted(by_platform.items()):
        lines.append(f"  {plat}:")
        per = {}
        for c in sorted(cs, key=lambda c: (c["data"]["parameters"]["collective"],
                                           c["data"]["machine"]["ranks"],
                                           c["data"]["parameters"]["bytes"])):
            nat = c["native"]["median"]
            parts = []
            for r in c["rows"]:
                name = "control" if r["layer"] == "native" else r["layer"]
                parts.append(f"{name} {r['steady_vs_native']:.3f} "
                             f"({1e-6 * r['steady_p10_us'] / nat:.2f}-"
                             f"{1e-6 * r['steady_p90_us'] / nat:.2f})")
                per.setdefault(name, []).append(r["steady_vs_native"])
                overall.setdefault(name, []).append(r["steady_vs_native"])
            lines.append(f"    {_cell_label(c)}  " + "  ".join(parts))
        for name, v in per.items():
            lines.append(f"    geomean {name:14} {geomean(v):.3f}  range {min(v):.3f}-"
                         f"{max(v):.3f}  ({len(v)} cells)")
    lines.append("  over every emulated cell:")
    for name, v in overall.items():
        lines.append(f"    geomean {name:14} {geomean(v):.3f}  median {statistics.median(v):.3f}"
                     f"  range {min(v):.3f}-{max(v):.3f}  ({len(v)} cells)")
    lost = [(c, r) for c in cells for r in strategy_rows(c)
            if r["steady_vs_native"] > LOSS_MARGIN]
    lines.append(f"  cells where a strategy's steady median is above {LOSS_MARGIN} x native "
                 f"({len(lost)}), with the reason:")
    for c, r in lost:
        lines.append(f"    {platform(c['data'])} {_cell_label(c)} {r['layer']} "
                     f"{r['steady_vs_native']:.3f}: {loss_reason(c, r)}")
    lines += follow_table(cells)
    return "\n".join(lines)


def follow_table(cells):
    """Lines: for each (collective, ranks, size, rate) measured on more than one topology with
    different oracles, each strategy's final choice per topology and whether it followed (its
    fixed median within FOLLOW_MARGIN of that topology's oracle)."""
    groups = {}
    for c in cells:
        d = c["data"]
        key = (d["parameters"]["collective"], d["machine"]["ranks"], d["parameters"]["bytes"],
               d["cluster"]["rate_bits"], d.get("mpi", "openmpi"))
        groups.setdefault(key, {})[d["cluster"]["topology"]] = c
    lines = ["", f"where the best algorithm differs between topologies: each strategy's final "
                 f"choice, its fixed median over that topology's oracle, and `ok` where within "
                 f"{FOLLOW_MARGIN}:"]
    tally = {}
    differ = 0
    for (coll, ranks, nbytes, rate, mpi), by_top in sorted(groups.items()):
        if len(by_top) < 2 or len({c["oracle"]["name"] for c in by_top.values()}) < 2:
            continue
        differ += 1
        lines.append(f"  {coll} {nbytes} B np {ranks} at {rate / 1e6:g}Mbit"
                     f"{'' if mpi == 'openmpi' else ' ' + mpi}: " + ", ".join(
            f"{top} {c['oracle']['name']}" for top, c in sorted(by_top.items())))
        for layer in [r["layer"] for r in strategy_rows(next(iter(by_top.values())))]:
            parts = []
            for top, c in sorted(by_top.items()):
                r = next((r for r in c["rows"] if r["layer"] == layer), None)
                if r is None:
                    continue
                ratio, ok = followed(c, r)
                tally.setdefault(layer, [0, 0])[0] += ok
                tally[layer][1] += 1
                parts.append(f"{top} {r['final']} {_fmt(ratio, '.3f')}{' ok' if ok else ''}")
            lines.append(f"    {layer:14} " + "; ".join(parts))
    if not differ:
        return []
    lines.append(f"  in {differ} such cells, final choices within {FOLLOW_MARGIN} x the "
                 f"topology's oracle: " + ", ".join(
                     f"{layer} {ok} of {n}" for layer, (ok, n) in tally.items()))
    return lines


def render(paths):
    cells = [cell(load(p)) for p in cell_files(paths)]
    if not cells:
        raise BenchReportError("no benchmark results found")
    parts = [matrix_table(cells), summary(cells), improvement_table(cells), aeos_table(cells),
             best_map(cells), emulated_summary(cells), tree_table(cells)]
    return "\n".join(p for p in parts if p), cells


# ---- the data of the figures (benchplot.py draws them) --------------------------------------

def tree_series(cells):
    """{(rooted collective, ranks): lines} over the cells that ran the tree instances: per tree x
    segment instance with points, (shape index, segment index, name, message bytes, its median /
    native's median at each) (the Berkeley report's Figure 3 as lines; below 1 beats native)."""
    groups = {}
    for c in cells:
        fixed = {x["name"]: x for x in c["data"]["configurations"] if x["kind"] == "fixed"}
        if not any(tree_name(s, "") in fixed for s in TREE_SHAPES):
            continue
        p = c["data"]["parameters"]
        groups.setdefault((p["collective"], c["data"]["machine"]["ranks"]), []).append(
            (p["bytes"], fixed, c["native"]["median"]))
    series = {}
    for (coll, ranks), points in sorted(groups.items()):
        points.sort(key=lambda t: t[0])
        lines = []
        for i, shape in enumerate(TREE_SHAPES):
            for j, seg in enumerate(TREE_SEGMENTS):
                name = tree_name(shape, seg)
                xs = [b for b, f, _ in points if name in f]
                ys = [f[name]["median"] / n for b, f, n in points if name in f]
                if xs:
                    lines.append((i, j, name, xs, ys))
        series[(coll, ranks)] = lines
    return series


def best_map_panels(cells):
    """Per collective over the emulated clusters: its platforms (a panel each), message sizes,
    rank counts and oracles (sorted), the cores of its first cell, and a square per cell:
    platform, x and y (indices of its size and ranks), its oracle, the oracle's median over
    native's, and the initials of the strategies whose final choice followed the oracle (within
    FOLLOW_MARGIN run fixed): r race, s star, l lottery."""
    groups = {}
    for c in cells:
        if c["data"].get("cluster"):
            groups.setdefault(c["data"]["parameters"]["collective"], []).append(c)
    panels = []
    for coll, cs in sorted(groups.items()):
        sizes = sorted({c["data"]["parameters"]["bytes"] for c in cs})
        ranks = sorted({c["data"]["machine"]["ranks"] for c in cs})
        squares = [{"platform": platform(c["data"]),
                    "x": sizes.index(c["data"]["parameters"]["bytes"]),
                    "y": ranks.index(c["data"]["machine"]["ranks"]),
                    "oracle": c["oracle"]["name"],
                    "vs_native": c["oracle"]["median"] / c["native"]["median"],
                    "followed": "".join(r["layer"][0] for r in strategy_rows(c)
                                        if followed(c, r)[1])}
                   for c in cs]
        panels.append({"collective": coll, "platforms": sorted({s["platform"] for s in squares}),
                       "sizes": sizes, "ranks": ranks,
                       "oracles": sorted({s["oracle"] for s in squares}),
                       "cores": cs[0]["data"]["machine"]["cores_online"], "squares": squares})
    return panels


def decision_lengths(cells):
    """(cell label, basic AEOS's decision length, enhanced AEOS's) of every cell that ran both
    (0 for a strategy that never decided)."""
    pairs = []
    for c in cells:
        rows = {r["layer"]: r for r in c["rows"]}
        if "star_basic" in rows and "star_enhanced" in rows:
            b, e = rows["star_basic"], rows["star_enhanced"]
            pairs.append((f"{b['collective']} {b['bytes']} np{b['ranks']}", b["decision"] or 0,
                          e["decision"] or 0))
    return pairs

"""`autocoll simgrid report DIR [DIR ...] [--out FILE.md]`: a Markdown report over the cells
`autocoll bench --simgrid PLATFORM` wrote (bench JSON with a `simgrid` block).

Simulated time is deterministic, so cells of the same platform compare across runs: the
native-only cells of other selectors (`--selectors mpich --layers "" --only native`) give
their library's native time for the same (platform, collective, bytes, ranks) as the full
cell. Per noise setting (none first) the report has:
  1. the best algorithm (oracle) per platform and collective over ranks x message size;
  2. every strategy's ratios per cell (benchreport's steady and learning ratios, and its steady
     median over each selector's native) and a summary per strategy and platform;
  3. where the best algorithm differs between platforms;
  4. the cross-platform penalty of running one platform's winner on another (ADCL's Tables
     3-4);
  5. the wall time each simulation took;
  6. the learning cost of each strategy's whole run (time beyond the oracle's), per cell and
     per rank count, beside the cell's slowest candidate.
A cell whose `table` layer ran with a configuration table (`autocoll bench --table`) reports it
as `table_same` (tuned on the cell's platform) or `table_other` (tuned on another), its ratios
against the oracle of the platform's reference cell. Tables are built as data (lists of rows)
and rendered apart; the learning curves (`--plots`) are drawn by plot/simplot.py.
"""

import math
import statistics
from pathlib import Path

from ..formats.cells import size_label
from . import benchreport

REFERENCE_SELECTOR = "ompi"  # its full cell gives the oracle; the map's x native is its native
NEAR_ORACLE = 1.02           # steady / oracle at most this: the strategy found the oracle
LOSS_MARGIN = 1.02           # steady tuned / native above this: the cell is lost to native
NO_NOISE = "none"

DEFINITIONS = [
    "cell: one run of the benchmark driver for (collective, message bytes, ranks) on a "
    "simulated platform with one SMPI selector, named <collective>-<size>-np<ranks>-<selector>",
    "platform: the simgrid block's platform (with its processes per node when not 1)",
    "noise setting: the driver's --noise (with --noise-seed when not none); each is "
    "reported apart",
    "selector: SMPI's copy of a native library's decision logic (ompi: Open MPI's, mpich: "
    "MPICH's)",
    f"reference cell: the cell of a (platform, collective, bytes, ranks) that ran fixed "
    f"algorithms, the {REFERENCE_SELECTOR} selector's when there is one",
    "oracle: the fastest configuration run native or fixed in the reference cell (its median)",
    "native(S): the median of the native configuration in the cell of selector S of the same "
    "platform, collective, bytes and ranks",
    "steady: the median of a layer configuration's last 100 calls (the driver's steady window)",
    "steady/oracle: steady / the oracle's median, in the same cell",
    "whole-run/oracle: the mean of all the layer's call times / the mean of the oracle's call "
    "times, in the same cell (benchreport's learning ratio)",
    "steady tuned/native(S): the layer's steady / native(S)",
    "decision length: decision_calls of the layer's first tuning context (calls spent "
    "deciding)",
    "chosen: the algorithm the layer's first tuning context holds at the end of the run",
    "strategy `table_same` / `table_other`: the `table` layer with a configuration table tuned "
    "(`autocoll tune --simgrid`) on the cell's platform / on the platform in brackets; its "
    "cell ran native and the table alone, and takes the oracle of the reference cell",
    "learning cost: calls x (the layer's mean - the oracle's mean), in simulated time and in "
    "oracle calls (that time / the oracle's mean): what the whole run spent beyond running the "
    "oracle on every call",
    "strategy `native`: native through the layer (the control: its ratios are the layer's own "
    "cost)",
    f"near the oracle: steady/oracle <= {NEAR_ORACLE}",
    f"lost to S: steady tuned/native(S) > {LOSS_MARGIN}",
    "geomean: exp(mean(log(ratio))) over the cells that have the ratio",
    f"best map entry: the oracle's name (native({REFERENCE_SELECTOR}) / oracle median)",
    "differs: the oracles of the platforms that ran the same (collective, bytes, ranks) are "
    "not all the same algorithm",
    "penalty A -> B: over the cells both platforms ran, the median on B of A's oracle (B's "
    "native when A's oracle is native) / B's oracle median; geomean and max over the cells; a "
    "cell where A's oracle did not run on B is skipped and counted",
    "wall time: the simgrid block's wall_seconds (real seconds the simulation took)",
    "numbers have 3 decimals; a ratio that 3 decimals would round onto 1 or onto a margin "
    "gets more, so that no loss is rounded away",
]


class SimReportError(ValueError):
    pass


# ---- reading -------------------------------------------------------------------------------

def noise_label(data):
    p = data["parameters"]
    noise = p.get("noise") or NO_NOISE
    return noise if noise == NO_NOISE else f"{noise} (seed {p.get('noise_seed')})"


def platform_label(data):
    s = data["simgrid"]
    ppn = s.get("ppn", 1)
    return s["platform"] + ("" if ppn == 1 else f" ppn {ppn}")


def has_fixed(data):
    return any(c["kind"] == "fixed" for c in data["configurations"])


def table_source(data):
    """Where the configuration table of a cell's `table` layer was tuned (the bench's table
    block: a simulated platform, an emulated cluster or "local"); None without a table."""
    t = data.get("table")
    if not t:
        return None
    return t.get("platform") or t.get("cluster") or "local"


def sim_cell(path, data):
    """One cell as the report uses it: benchreport's rows and the keys it groups by."""
    p = data["parameters"]
    key = (p["collective"], p["bytes"], data["machine"]["ranks"])
    return {"path": Path(path), "data": data, "bench": benchreport.cell(data),
            "noise": noise_label(data), "platform": platform_label(data), "key": key,
            "selector": data["simgrid"].get("selector") or "default",
            "fixed": has_fixed(data) and data.get("oracle") is not None,
            "table_from": table_source(data),
            "wall": data["simgrid"].get("wall_seconds")}


def strategy_label(c, spec):
    """The strategy name of layer `spec` in cell `c`: the table layer is `table_same` when its
    table was tuned on the cell's platform, else `table_other`."""
    if spec != "table" or c["table_from"] is None:
        return spec
    return "table_same" if c["table_from"] == c["data"]["simgrid"]["platform"] else "table_other"


def cell_label(c):
    coll, nbytes, ranks = c["key"]
    return f"{coll}-{size_label(nbytes)}-np{ranks}-{c['selector']}"


def read_cells(paths):
    """(the cells with a simgrid block, notes on what was left out); raises SimReportError when
    a path is missing or unreadable, or when there is no such cell."""
    for p in paths:
        if not Path(p).exists():
            raise SimReportError(f"{p}: no such file or folder")
    try:
        loaded = [(f, benchreport.load(f)) for f in benchreport.cell_files(paths)]
    except benchreport.BenchReportError as e:
        raise SimReportError(str(e)) from e
    cells, notes, seen = [], [], {}
    without = [f for f, d in loaded if not d.get("simgrid")]
    if without:
        notes.append(f"{len(without)} bench cell(s) without a simgrid block left out")
    for f, d in loaded:
        if not d.get("simgrid"):
            continue
        c = sim_cell(f, d)
        dup = (c["noise"], c["platform"], c["key"], c["selector"], c["fixed"], c["table_from"])
        if dup in seen:
            notes.append(f"{f}: the same cell as {seen[dup]}, left out")
            continue
        seen[dup] = f
        cells.append(c)
    if not cells:
        raise SimReportError("no SimGrid cells (bench JSON with a simgrid block) in "
                             + ", ".join(map(str, paths)))
    return cells, notes


def by_noise(cells):
    """[(noise setting, its cells)], no noise first, then the others by name."""
    groups = {}
    for c in cells:
        groups.setdefault(c["noise"], []).append(c)
    return sorted(groups.items(), key=lambda kv: (kv[0] != NO_NOISE, kv[0]))


def selectors(cells):
    found = {c["selector"] for c in cells}
    return sorted(found, key=lambda s: (s != REFERENCE_SELECTOR, s))


def platforms(cells):
    return sorted({c["platform"] for c in cells})


def native_medians(cells):
    """{(platform, key, selector): native median}, from the full cell where there is one."""
    out = {}
    for c in sorted(cells, key=lambda c: not c["fixed"]):
        out.setdefault((c["platform"], c["key"], c["selector"]), c["bench"]["native"]["median"])
    return out


def reference_cells(cells):
    """{(platform, key): the cell that ran fixed algorithms, the reference selector's first}."""
    out = {}
    for c in sorted((c for c in cells if c["fixed"]),
                    key=lambda c: c["selector"] != REFERENCE_SELECTOR):
        out.setdefault((c["platform"], c["key"]), c)
    return out


# ---- numbers and tables --------------------------------------------------------------------

MARKS = (1.0, NEAR_ORACLE, LOSS_MARGIN)


def _side(v, mark):
    return (v > mark) - (v < mark)


def fmt(v, digits=3):
    """v with `digits` decimals, more when those would put it on the other side of (or onto)
    1 or a margin: 1.0004 prints 1.0004, never 1.000; None prints -."""
    if v is None:
        return "-"
    if isinstance(v, float) and math.isnan(v):
        return "nan"
    text = f"{v:.{digits}f}"
    while digits < 12 and any(_side(float(text), m) != _side(v, m) for m in MARKS):
        digits += 1
        text = f"{v:.{digits}f}"
    return text


def md_table(headers, rows):
    """Markdown lines of a table: `headers` and `rows` are lists of cells (strings)."""
    lines = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    lines += ["| " + " | ".join(str(x) for x in row) + " |" for row in rows]
    return lines


def stats(values):
    """(count, median, geomean, max) of the values that are not None (Nones when none)."""
    v = [x for x in values if x is not None]
    if not v:
        return 0, None, None, None
    return len(v), statistics.median(v), benchreport.geomean(v), max(v)


# ---- 1. best algorithm map -----------------------------------------------------------------

def best_map(cells):
    """{platform: {collective: {(ranks, bytes): (oracle name, native(ref) / oracle)}}}."""
    natives = native_medians(cells)
    out = {}
    for (plat, key), c in reference_cells(cells).items():
        coll, nbytes, ranks = key
        oracle = c["bench"]["oracle"]
        nat = natives.get((plat, key, REFERENCE_SELECTOR))
        ratio = nat / oracle["median"] if nat is not None else None
        out.setdefault(plat, {}).setdefault(coll, {})[(ranks, nbytes)] = (oracle["name"], ratio)
    return out


def best_map_lines(cells):
    lines = ["### 1. Best algorithm (oracle) per platform",
             "", f"Entry: oracle (native({REFERENCE_SELECTOR}) median / oracle median); "
                 f"rows: ranks; columns: message size.", ""]
    for plat, colls in sorted(best_map(cells).items()):
        for coll, entries in sorted(colls.items()):
            ranks = sorted({r for r, _ in entries})
            sizes = sorted({b for _, b in entries})
            rows = [[str(r)] + [f"{entries[(r, b)][0]} ({fmt(entries[(r, b)][1])})"
                                if (r, b) in entries else "-" for b in sizes] for r in ranks]
            lines += [f"{plat}, {coll}:", ""]
            lines += md_table(["ranks"] + [size_label(b) for b in sizes], rows) + [""]
    return lines


# ---- 2. strategies per cell ----------------------------------------------------------------

def layer_configs(data):
    return [c for c in data["configurations"] if c["kind"] == "layer"]


def chosen(config, row):
    ctx = config["layer"]["contexts"][0] if config["layer"].get("contexts") else {}
    return ctx.get("chosen") or row["final"]


def _mean(values):
    return sum(values) / len(values)


def strategy_rows(cells):
    """One dict per (cell, strategy): the ratios, decision length and final choice. The oracle
    is the reference cell's (a cell that ran no fixed algorithm, e.g. a table layer's, takes it
    from there: simulated time is deterministic); without a reference cell the oracle ratios
    are None."""
    natives = native_medians(cells)
    refs = reference_cells(cells)
    sels = selectors(cells)
    out = []
    for c in sorted(cells, key=lambda c: (c["platform"], c["key"], c["selector"],
                                          c["table_from"] or "")):
        ref = refs.get((c["platform"], c["key"]))
        oracle = ref["bench"]["oracle"] if ref else None
        for config, row in zip(layer_configs(c["data"]), c["bench"]["rows"]):
            tuned = config["steady_median"]
            vs_native = {}
            for s in sels:
                nat = natives.get((c["platform"], c["key"], s))
                vs_native[s] = tuned / nat if nat is not None else None
            out.append({"platform": c["platform"], "cell": cell_label(c), "key": c["key"],
                        "strategy": strategy_label(c, row["layer"]),
                        "table_from": c["table_from"] if row["layer"] == "table" else None,
                        "oracle": oracle["name"] if oracle else None,
                        "steady_vs_oracle": tuned / oracle["median"] if oracle else None,
                        "whole_vs_oracle": (_mean(config["times"]) / _mean(oracle["times"])
                                            if oracle else None),
                        "calls": len(config["times"]),
                        "oracle_mean": _mean(oracle["times"]) if oracle else None,
                        "vs_native": vs_native, "decision": row["decision"],
                        "chosen": chosen(config, row)})
    return out


def shown_strategy(r):
    """The strategy as the per-cell table shows it: a table layer with its table's platform."""
    return r["strategy"] + (f" ({r['table_from']})" if r["table_from"] else "")


def strategy_table(rows, sels):
    headers = (["platform", "cell", "strategy", "steady/oracle", "whole-run/oracle"] +
               [f"steady tuned/native({s})" for s in sels] +
               ["decision length", "chosen", "oracle"])
    body = [[r["platform"], r["cell"], shown_strategy(r), fmt(r["steady_vs_oracle"]),
             fmt(r["whole_vs_oracle"])] + [fmt(r["vs_native"][s]) for s in sels] +
            ["-" if r["decision"] is None else str(r["decision"]), r["chosen"],
             r["oracle"] or "-"]
            for r in rows]
    return md_table(headers, body)


def _groups(rows):
    """{(strategy, platform): rows}, strategies in order of first appearance."""
    order = list(dict.fromkeys(r["strategy"] for r in rows))
    groups = {}
    for r in sorted(rows, key=lambda r: (order.index(r["strategy"]), r["platform"])):
        groups.setdefault((r["strategy"], r["platform"]), []).append(r)
    return groups


def strategy_summary(rows, sels):
    """Per (strategy, platform): cells, (cells with it, median, geomean, max) of each ratio,
    cells near the oracle, and per selector the cells lost (their names)."""
    out = []
    for (strategy, plat), rs in _groups(rows).items():
        ratios = {"steady/oracle": stats(r["steady_vs_oracle"] for r in rs),
                  "whole-run/oracle": stats(r["whole_vs_oracle"] for r in rs)}
        for s in sels:
            ratios[f"steady tuned/native({s})"] = stats(r["vs_native"][s] for r in rs)
        out.append({"strategy": strategy, "platform": plat, "cells": len(rs), "ratios": ratios,
                    "near_oracle": sum(r["steady_vs_oracle"] is not None
                                       and r["steady_vs_oracle"] <= NEAR_ORACLE for r in rs),
                    "lost": {s: [r["cell"] for r in rs if r["vs_native"][s] is not None
                                 and r["vs_native"][s] > LOSS_MARGIN] for s in sels},
                    "with_native": {s: sum(r["vs_native"][s] is not None for r in rs)
                                    for s in sels}})
    return out


def summary_lines(summary, sels):
    ratio_rows = [[g["strategy"], g["platform"], name, str(n)] + [fmt(x) for x in values]
                  for g in summary for name, (n, *values) in g["ratios"].items()]
    count_rows = [[g["strategy"], g["platform"], str(g["cells"]), str(g["near_oracle"])] +
                  [f"{len(g['lost'][s])} of {g['with_native'][s]}" +
                   (": " + ", ".join(g["lost"][s]) if g["lost"][s] else "") for s in sels]
                  for g in summary]
    return (["Summary per strategy and platform:", ""] +
            md_table(["strategy", "platform", "ratio", "cells", "median", "geomean", "max"],
                     ratio_rows) + [""] +
            md_table(["strategy", "platform", "cells", f"steady/oracle <= {NEAR_ORACLE}"] +
                     [f"lost to {s} (> {LOSS_MARGIN})" for s in sels], count_rows) + [""])


def strategy_lines(cells):
    rows = strategy_rows(cells)
    lines = ["### 2. Strategies per cell", ""]
    if not rows:
        return lines + ["No cell ran a layer configuration.", ""]
    sels = selectors(cells)
    return (lines + strategy_table(rows, sels) + [""] +
            summary_lines(strategy_summary(rows, sels), sels))


# ---- 3. where the best algorithm differs ---------------------------------------------------

def oracles_across(cells):
    """[(key, {platform: oracle name})] for the keys whose reference cell exists on 2+
    platforms, sorted by key."""
    by_key = {}
    for (plat, key), c in reference_cells(cells).items():
        by_key.setdefault(key, {})[plat] = c["bench"]["oracle"]["name"]
    return sorted((k, v) for k, v in by_key.items() if len(v) > 1)


def disagreement(cells):
    """(cells on 2+ platforms, of which the oracles differ)."""
    shared = oracles_across(cells)
    return len(shared), sum(len(set(names.values())) > 1 for _, names in shared)


def differ_lines(cells):
    lines = ["### 3. Where the best algorithm differs between platforms", ""]
    shared = oracles_across(cells)
    if not shared:
        return lines + ["No (collective, bytes, ranks) ran on two platforms or more.", ""]
    plats = platforms(cells)
    rows = [[coll, size_label(nbytes), str(ranks)] + [names.get(p, "-") for p in plats] +
            ["yes" if len(set(names.values())) > 1 else "no"]
            for (coll, nbytes, ranks), names in shared]
    total, differ = disagreement(cells)
    return (lines + md_table(["collective", "size", "ranks"] + plats + ["differs"], rows) +
            ["", f"The oracles differ in {differ} of {total} cells run on two platforms or "
                 f"more (share {fmt(differ / total)}).", ""])


# ---- 4. cross-platform penalty -------------------------------------------------------------

def penalty(cells):
    """{(A, B): {"ratios": [...], "geomean", "max", "skipped": [cell labels]}} for every pair
    of distinct platforms with common cells: A's oracle run on B over B's oracle."""
    refs = reference_cells(cells)
    plats = platforms(cells)
    out = {}
    for a in plats:
        for b in plats:
            if a == b:
                continue
            ratios, skipped = [], []
            for (plat, key), ca in sorted(refs.items()):
                cb = refs.get((b, key))
                if plat != a or cb is None:
                    continue
                t = benchreport.fixed_median(cb, ca["bench"]["oracle"]["name"])
                if t is None:
                    skipped.append(cell_label(cb))
                else:
                    ratios.append(t / cb["bench"]["oracle"]["median"])
            if ratios or skipped:
                out[(a, b)] = {"ratios": ratios, "skipped": skipped,
                               "geomean": benchreport.geomean(ratios) if ratios else None,
                               "max": max(ratios) if ratios else None}
    return out


def penalty_lines(cells):
    lines = ["### 4. Cross-platform penalty (winner picked on the row's platform, run on the "
             "column's)", ""]
    table = penalty(cells)
    if not table:
        return lines + ["No two platforms ran a common cell.", ""]
    plats = platforms(cells)

    def entry(a, b):
        e = table.get((a, b))
        if e is None:
            return "-"
        text = (f"{fmt(e['geomean'])} (max {fmt(e['max'])}; {len(e['ratios'])} cells"
                if e["ratios"] else "no cell (")
        return text + (f", {len(e['skipped'])} skipped" if e["skipped"] else "") + ")"

    rows = [[a] + ["-" if a == b else entry(a, b) for b in plats] for a in plats]
    lines += ["Entry: geomean (max; cells[, skipped]) of B's median of A's oracle / B's oracle.",
              ""] + md_table(["picked on A \\ run on B"] + plats, rows) + [""]
    for (a, b), e in sorted(table.items()):
        if e["skipped"]:
            lines.append(f"- {a} -> {b}: skipped (A's oracle not run on B): "
                         + ", ".join(e["skipped"]))
    return lines + ([""] if lines[-1] else [])


# ---- 5. wall time --------------------------------------------------------------------------

def wall_times(cells):
    """{(platform, ranks): (cells, sum, max)} of the simulations' wall seconds."""
    groups = {}
    for c in cells:
        if c["wall"] is not None:
            groups.setdefault((c["platform"], c["key"][2]), []).append(c["wall"])
    return {k: (len(v), sum(v), max(v)) for k, v in sorted(groups.items())}


def wall_lines(cells):
    walls = wall_times(cells)
    rows = [[plat, str(ranks), str(n), fmt(total), fmt(most)]
            for (plat, ranks), (n, total, most) in walls.items()]
    total = sum(t for _, t, _ in walls.values())
    return (["### 5. Simulation wall time (seconds)", ""] +
            md_table(["platform", "ranks", "cells", "sum", "max"], rows) +
            ["", f"All simulations of this noise setting: {fmt(total)} s.", ""])


# ---- 6. learning cost ----------------------------------------------------------------------

def slowest_candidate(ref):
    """(name, its median / the oracle's median) of the slowest configuration run native or
    fixed in reference cell `ref`: what one call of the worst candidate costs while learning."""
    runs = [x for x in ref["data"]["configurations"] if x["kind"] in ("native", "fixed")]
    worst = max(runs, key=lambda x: x["median"])
    return worst["name"], worst["median"] / ref["bench"]["oracle"]["median"]


def learning_costs(cells):
    """Per strategy row with an oracle: the learning cost of its whole run, the time it spent
    beyond running the oracle on every call: calls x (its mean - the oracle's mean), in
    simulated seconds and in oracle calls (that time / the oracle's mean)."""
    out = []
    for r in strategy_rows(cells):
        if r["oracle_mean"] is None:
            continue
        excess = r["calls"] * r["oracle_mean"] * (r["whole_vs_oracle"] - 1.0)
        out.append({**r, "excess_seconds": excess, "excess_calls": excess / r["oracle_mean"]})
    return out


def learning_by_ranks(costs):
    """{(strategy, ranks): (cells, median excess in oracle calls, max)}."""
    groups = {}
    for r in costs:
        groups.setdefault((r["strategy"], r["key"][2]), []).append(r["excess_calls"])
    return {k: (len(v), statistics.median(v), max(v)) for k, v in groups.items()}


def learning_lines(cells):
    lines = ["### 6. Learning cost", ""]
    costs = learning_costs(cells)
    if not costs:
        return lines + ["No strategy ran in a cell with an oracle.", ""]
    refs = reference_cells(cells)
    order = list(dict.fromkeys(r["strategy"] for r in costs))
    rows = []
    for (plat, key), ref in sorted(refs.items()):
        mine = {r["strategy"]: r for r in costs if r["platform"] == plat and r["key"] == key}
        if not mine:
            continue
        worst, ratio = slowest_candidate(ref)
        rows.append([plat, cell_label(ref), f"{worst} ({fmt(ratio)})",
                     fmt(1e6 * ref["bench"]["oracle"]["median"], 1)] +
                    [f"{fmt(1e3 * mine[s]['excess_seconds'])} ms "
                     f"({fmt(mine[s]['excess_calls'], 1)})" if s in mine else "-"
                     for s in order])
    by_ranks = learning_by_ranks(costs)
    rank_counts = sorted({k for _, k in by_ranks})
    summary = [[s] + [f"{fmt(by_ranks[(s, n)][1], 1)} (max {fmt(by_ranks[(s, n)][2], 1)}; "
                      f"{by_ranks[(s, n)][0]} cells)" if (s, n) in by_ranks else "-"
                      for n in rank_counts] for s in order]
    return (lines +
            ["Entry: simulated time spent beyond the oracle over the whole run (calls x (mean - "
             "oracle mean)), in ms and (in oracle calls); slowest candidate: the slowest "
             "configuration run fixed in the cell (its median / the oracle's).", ""] +
            md_table(["platform", "cell", "slowest candidate", "oracle (us)"] + order, rows) +
            ["", "Median learning cost in oracle calls per strategy and rank count (max; "
                 "cells):", ""] +
            md_table(["strategy"] + [f"{n} ranks" for n in rank_counts], summary) + [""])


def learning_curves(cells):
    """Per (platform, ranks, collective) with strategy rows: [(bytes, {strategy: running
    whole-run/oracle after each call})], for simplot: call i's point is the mean of the first i
    calls / the oracle's mean."""
    refs = reference_cells(cells)
    groups = {}
    for c in cells:
        ref = refs.get((c["platform"], c["key"]))
        if ref is None:
            continue
        oracle_mean = _mean(ref["bench"]["oracle"]["times"])
        coll, nbytes, ranks = c["key"]
        for config, row in zip(layer_configs(c["data"]), c["bench"]["rows"]):
            total, curve = 0.0, []
            for i, t in enumerate(config["times"], 1):
                total += t
                curve.append(total / i / oracle_mean)
            series = groups.setdefault((c["platform"], ranks, coll), {}).setdefault(nbytes, {})
            series[strategy_label(c, row["layer"])] = curve
    return {k: sorted(v.items()) for k, v in sorted(groups.items())}


# ---- the report ----------------------------------------------------------------------------

def noise_section(noise, cells):
    return ([f"## Noise: {noise}", "",
             f"cells: {len(cells)}; platforms: "
             + ", ".join(platforms(cells)) + "; selectors: " + ", ".join(selectors(cells)), ""]
            + best_map_lines(cells) + strategy_lines(cells) + differ_lines(cells)
            + penalty_lines(cells) + wall_lines(cells) + learning_lines(cells))


def render(paths):
    cells, notes = read_cells(paths)
    lines = ["# SimGrid benchmark report", "", "Definitions:", ""]
    lines += [f"- {d}" for d in DEFINITIONS] + [""]
    if notes:
        lines += ["Left out:", ""] + [f"- {n}" for n in notes] + [""]
    for noise, group in by_noise(cells):
        lines += noise_section(noise, group)
    return "\n".join(lines).rstrip() + "\n"

"""The analysis behind `autocoll plot` (plot.py draws): a tune sweep folder (`autocoll tune
--out`) read into cells and turned into the series of its figures, docs/plots.md.

The cells are read as `autocoll tune` keeps them (its own functions: the statistic, the margin
over native and the choice among a noisy cell's repetitions, with the settings of the folder's
table.json, or tune's defaults without one), so every winner drawn is the table's. Pure apart
from reading the folder; no matplotlib here.
"""

import math
import re
from pathlib import Path

from ..formats import jsonfile
from ..formats.cells import valid_result
from ..formats.schemas import TABLE_SCHEMA, TABLE_VERSIONS
from . import tune

NATIVE = tune.NATIVE
MAX_LINES = 12            # candidates plot: lines in colour and in the legend, native included
MEGABYTE = 1e6            # throughput unit: MB/s, 10^6 bytes per second


class PlotError(RuntimeError):
    pass


# ---- reading the sweep folder (tune's own functions) -----------------------------------------

def sweep_settings(folder):
    """statistic, margin, spread_limit and repeats of the sweep: its table.json's, or tune's
    defaults when the folder has no table (an interrupted sweep, or --table written elsewhere)."""
    settings = {k: tune.DEFAULTS[k] for k in ("statistic", "margin", "spread_limit", "repeats")}
    path = Path(folder) / "table.json"
    if path.exists():
        table = jsonfile.load(path, TABLE_SCHEMA, PlotError, TABLE_VERSIONS)
        settings.update({k: v for k, v in table.get("sweep", {}).items() if k in settings})
    return settings


def kept_cell(path, settings):
    """(entry, result) of one cell as tune keeps it: the cell at `path`, run again into
    repeat-N/ (up to `repeats` times) while it was noisy, and of those repetitions the steadier
    (tune.steadier), as tune.sweep_cells chooses."""
    folder = path.parent
    datas = [tune.read_cell(path)]
    entries = [tune.cell_entry(datas[0], settings["statistic"], settings["margin"])]
    n = 1
    while (n <= settings["repeats"] and tune.noisy_configurations(entries[-1],
                                                                   settings["spread_limit"])
           and valid_result(folder / f"repeat-{n}" / path.name)):
        datas.append(tune.read_cell(folder / f"repeat-{n}" / path.name))
        entries.append(tune.cell_entry(datas[-1], settings["statistic"], settings["margin"]))
        n += 1
    chosen = tune.steadier(entries, settings["spread_limit"])
    return entries[chosen], datas[chosen]


def read_sweep(folder):
    """(cells, results, settings): every cell of the sweep folder (tune.cell_entry dicts, in
    (collective, ranks, bytes) order), the bench result each was made from, and the settings."""
    folder = Path(folder)
    if not folder.is_dir():
        raise PlotError(f"{folder}: not a folder")
    settings = sweep_settings(folder)
    kept = []
    for path in sorted(p for p in folder.glob("*.json") if valid_result(p)):
        try:
            kept.append(kept_cell(path, settings))
        except (tune.TuneError, KeyError) as e:
            raise PlotError(f"{path}: {e}") from e
    if not kept:
        raise PlotError(f"{folder}: no benchmark cells (autocoll tune --out writes them)")
    kept.sort(key=lambda k: (k[0]["collective"], k[0]["ranks"], k[0]["bytes"]))
    return [k[0] for k in kept], [k[1] for k in kept], settings


# ---- analysis (pure) -------------------------------------------------------------------------

def platform_note(results, settings):
    """The line every figure carries: host(s), cores online, MPI library, the emulated cluster
    if any, whether ranks outnumbered the cores, and what decided the cells."""
    hosts = sorted({r["machine"].get("hostname", "?") for r in results})
    cores = sorted({r["machine"].get("cores_online") for r in results if
                    r["machine"].get("cores_online")})
    mpis = sorted({f"{r['machine'].get('mpi_library', '?').split(',')[0]} ({r.get('mpi', '?')})"
                   for r in results})
    clusters = sorted({f"{c['name']} ({c.get('topology', '?')}, {c.get('rate', '?')})"
                       for c in (r.get("cluster") for r in results) if c})
    most = max(r["machine"]["ranks"] for r in results)
    parts = [f"measured on {', '.join(hosts)}",
             f"{' or '.join(map(str, cores)) or '?'} cores online", ", ".join(mpis)]
    if clusters:
        parts.append(f"emulated cluster {', '.join(clusters)} on one host")
    if cores and most > min(cores):
        parts.append(f"up to {most} ranks share the cores")
    parts.append(f"{settings['statistic']} of each configuration, margin over native "
                 f"{settings['margin']:g}")
    return "; ".join(parts)


def by_group(cells):
    """{(collective, ranks): cells sorted by bytes}, cells of 0 bytes left out (no size to put
    on a log axis: barrier)."""
    groups = {}
    for c in cells:
        if c["bytes"] > 0:
            groups.setdefault((c["collective"], c["ranks"]), []).append(c)
    return {k: sorted(v, key=lambda c: c["bytes"]) for k, v in sorted(groups.items())}


def fixed_names(cells):
    """The fixed algorithms measured in any of `cells`, in order of first appearance."""
    return list(dict.fromkeys(n for c in cells for n in c["times"] if n != NATIVE))


def standing(cells):
    """Of every fixed algorithm of one (collective, ranks) group: (its best rank among the
    fixed algorithms at any size, 1 the fastest; the geometric mean over its sizes of its time
    over the fastest fixed time there; its name). Sorting by it puts every size's winner
    first."""
    out = {}
    for name in fixed_names(cells):
        ranks, ratios = [], []
        for c in cells:
            fixed = sorted((t, n) for n, t in c["times"].items() if n != NATIVE)
            if name not in c["times"]:
                continue
            ranks.append(1 + [n for _, n in fixed].index(name))
            if fixed[0][0] > 0:
                ratios.append(c["times"][name] / fixed[0][0])
        mean = math.exp(sum(map(math.log, ratios)) / len(ratios)) if ratios and min(ratios) > 0 \
            else float("inf")
        out[name] = (min(ranks), mean, name)
    return out


def line_of(cells, name):
    """(bytes, microseconds) of one configuration over the cells that measured it."""
    points = [(c["bytes"], 1e6 * c["times"][name]) for c in cells if name in c["times"]]
    return [b for b, _ in points], [t for _, t in points]


def candidate_series(cells, max_lines=MAX_LINES):
    """Per (collective, ranks): native and every fixed algorithm's time (microseconds) against
    message size. Roles: `native`; `shown`, the max_lines - 1 fixed algorithms of best
    standing() (every size's winner before the others); `other`, the rest (drawn grey, no
    legend entry)."""
    series = []
    for (coll, ranks), group in by_group(cells).items():
        stand = standing(group)
        order = sorted(stand, key=stand.get)
        shown = set(order[:max_lines - 1])
        lines = []
        for name, role in [(NATIVE, "native")] + [(n, "shown" if n in shown else "other")
                                                   for n in order]:
            xs, ys = line_of(group, name)
            lines.append({"name": name, "role": role, "bytes": xs, "microseconds": ys})
        series.append({"collective": coll, "ranks": ranks,
                       "bytes": [c["bytes"] for c in group], "lines": lines})
    return series


def best_map_series(cells):
    """Per collective: one point per (ranks, bytes) cell with its winner (tune's: the fastest,
    unless it beats native by no more than the margin) and its speedup over native (native's
    time / the winner's; 1 where native wins)."""
    series = {}
    for (coll, ranks), group in by_group(cells).items():
        for c in group:
            winner = c["winner"]
            best = c["times"][winner]
            speedup = c["times"][NATIVE] / best if best > 0 else float("inf")
            series.setdefault(coll, []).append({
                "ranks": ranks, "bytes": c["bytes"], "winner": winner, "speedup": speedup,
                "native_us": 1e6 * c["times"][NATIVE], "winner_us": 1e6 * best})
    return [{"collective": coll, "points": points,
             "algorithms": sorted({p["winner"] for p in points if p["winner"] != NATIVE})}
            for coll, points in series.items()]


MESH_NAME = re.compile(r"orthogonal_(?P<dims>(?:[1-9][0-9]*x){1,2})n_(?P<phase>[a-z0-9_]+)")


def parse_mesh_name(name):
    """`orthogonal_2xn_native` -> ((2,), "native"); `orthogonal_2x2xn_pair` -> ((2, 2),
    "pair"): the fixed leading dimensions of the mesh and what each phase runs. None for a name
    that is not an orthogonal decomposition."""
    m = MESH_NAME.fullmatch(name)
    if not m:
        return None
    return tuple(int(d) for d in m["dims"].split("x") if d), m["phase"]


def mesh_layout(name, ranks):
    """The mesh an orthogonal candidate uses on `ranks` processes: its fixed dimensions and the
    last one, ranks / their product (`orthogonal_2xn_native` at 8 -> (2, 4),
    `orthogonal_2x2xn_pair` at 8 -> (2, 2, 2)). None when `name` is not orthogonal or the
    dimensions do not divide `ranks`."""
    parsed = parse_mesh_name(name)
    if not parsed:
        return None
    dims = parsed[0]
    product = math.prod(dims)
    if ranks % product:
        return None
    return dims + (ranks // product,)


def mesh_label(name, ranks):
    """"2x4 (native)": the real layout at `ranks` and the phases' algorithm."""
    layout, (dims, phase) = mesh_layout(name, ranks), parse_mesh_name(name)
    shape = "x".join(map(str, layout)) if layout else "x".join(map(str, dims)) + "xn"
    return f"{shape} ({phase})"


def throughput(nbytes, seconds):
    """MB/s (10^6 bytes per second): the message bytes per rank (the sweep's message size, the
    driver's --bytes) over the time of one call."""
    return nbytes / seconds / MEGABYTE if seconds > 0 else float("inf")


def mesh_series(cells):
    """Per (collective, ranks) with orthogonal candidates: each mesh candidate's throughput
    against message size (sorted 2D before 3D, by layout, then phase), native's, and the best
    non-mesh fixed algorithm's (at each size the fastest fixed algorithm that is not
    orthogonal; its name per point)."""
    series = []
    for (coll, ranks), group in by_group(cells).items():
        meshes = [n for n in fixed_names(group) if parse_mesh_name(n)]
        if not meshes:
            continue
        meshes.sort(key=lambda n: (len(parse_mesh_name(n)[0]), parse_mesh_name(n)[0],
                                   parse_mesh_name(n)[1]))
        lines = []
        for name in meshes:
            pts = [(c["bytes"], throughput(c["bytes"], c["times"][name])) for c in group
                   if name in c["times"]]
            lines.append({"name": name, "role": "mesh", "label": mesh_label(name, ranks),
                          "layout": mesh_layout(name, ranks), "phase": parse_mesh_name(name)[1],
                          "bytes": [b for b, _ in pts], "mb_per_s": [v for _, v in pts]})
        pts = [(c["bytes"], throughput(c["bytes"], c["times"][NATIVE])) for c in group]
        lines.append({"name": NATIVE, "role": "native", "label": NATIVE,
                      "bytes": [b for b, _ in pts], "mb_per_s": [v for _, v in pts]})
        best = []
        for c in group:
            others = [(t, n) for n, t in c["times"].items()
                      if n != NATIVE and not parse_mesh_name(n)]
            if others:
                t, n = min(others)
                best.append((c["bytes"], throughput(c["bytes"], t), n))
        if best:
            lines.append({"name": "best non-mesh", "role": "best_other",
                          "label": "best non-mesh (per size)", "names": [n for *_, n in best],
                          "bytes": [b for b, *_ in best], "mb_per_s": [v for _, v, _ in best]})
        series.append({"collective": coll, "ranks": ranks, "lines": lines})
    return series


def only_collectives(cells, results, collectives):
    """(cells, results) of `collectives` only; PlotError when one has no cells."""
    have = list(dict.fromkeys(c["collective"] for c in cells))
    missing = [c for c in collectives if c not in have]
    if missing:
        raise PlotError(f"no cells of {', '.join(missing)} in the sweep (it has "
                        f"{', '.join(have)})")
    keep = [i for i, c in enumerate(cells) if c["collective"] in collectives]
    return [cells[i] for i in keep], [results[i] for i in keep]

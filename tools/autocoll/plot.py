"""`autocoll plot`: figures of a tune sweep folder (`autocoll tune --out`), docs/plots.md.

  candidates  per collective and process count: the time of native and of every fixed
              algorithm against message size (the Tianhe-2 paper's Figure 2);
  best map    per collective: the winning algorithm at every (message size, process count),
              its marker's area proportional to its speedup over native (Figure 3);
  mesh        per collective and process count with orthogonal-decomposition candidates:
              throughput of each mesh layout against message size, with native and the best
              non-mesh algorithm (the decomposition paper's Figures 5-7).

The cells are read as `autocoll tune` keeps them (its own functions: the statistic, the margin
over native and the choice among a noisy cell's repetitions, with the settings of the folder's
table.json, or tune's defaults without one), so every winner drawn is the table's. Analysis
(cells to series) is pure and apart from the drawing; every figure carries the machine the
sweep ran on (host, cores online, MPI library).
"""

import math
import re
import sys
import textwrap
from pathlib import Path

from . import jsonfile, tune
from .schemas import TABLE_SCHEMA, TABLE_VERSION
from .bench import size_label, valid_result

NATIVE = tune.NATIVE
MAX_LINES = 12            # candidates plot: lines in colour and in the legend, native included
AREA_PER_SPEEDUP = 60.0   # best map: marker area (points^2) per 1 x speedup over native
NATIVE_WIN_AREA = 18.0    # best map: the small hollow marker of a cell native wins
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
        table = jsonfile.load(path, TABLE_SCHEMA, PlotError, TABLE_VERSION)
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


# ---- drawing (takes the series) ---------------------------------------------------------------

CANDIDATE_STYLE = {
    "native": {"color": "black", "lw": 2.6, "marker": "o", "ms": 4, "zorder": 4},
    "shown": {"lw": 1.1, "marker": "o", "ms": 3, "zorder": 3},
    "other": {"color": "0.82", "lw": 0.7, "marker": ".", "ms": 2, "zorder": 1},
}
MESH_STYLE = {
    "native": {"color": "black", "lw": 2.6, "marker": "o", "ms": 4, "zorder": 4},
    "best_other": {"color": "0.45", "lw": 2.0, "ls": "--", "marker": "x", "zorder": 3},
    "mesh": {"lw": 1.1, "zorder": 2},
}
# tab20's dark shades first, then the light ones: neighbours in a legend differ in hue
COLOUR_ORDER = list(range(0, 20, 2)) + list(range(1, 20, 2))
PHASE_LINESTYLES = ["-", "--", "-.", ":"]
PHASE_MARKERS = ["o", "s", "^", "v", "D", "P"]
ALGORITHM_MARKERS = ["o", "s", "^", "D", "v", "P"]   # past 20 colours, the next shape
LEGEND = {"loc": "upper left", "bbox_to_anchor": (1.01, 1.0), "fontsize": 7, "frameon": False}


def bytes_axis(ax, sizes):
    ax.set_xscale("log", base=2)
    ticks = sorted(set(sizes))
    step = max(1, math.ceil(len(ticks) / 12))
    ax.set_xticks(ticks[::step])
    ax.set_xticklabels([size_label(b) for b in ticks[::step]], fontsize=7)
    ax.set_xticks([], minor=True)


def footnote(fig, note):
    fig.text(0.0, -0.02, textwrap.fill(note, 150), fontsize=7, ha="left", va="top")


def draw_candidates(series, note, plt):
    """One figure: a candidates series (candidate_series)."""
    fig, ax = plt.subplots(figsize=(9, 5))
    colour = 0
    for line in series["lines"]:
        style = dict(CANDIDATE_STYLE[line["role"]])
        if line["role"] == "shown":
            style["color"] = plt.get_cmap("tab20")(COLOUR_ORDER[colour % 20])
            colour += 1
        label = line["name"] if line["role"] != "other" else None
        ax.plot(line["bytes"], line["microseconds"], label=label, **style)
    bytes_axis(ax, series["bytes"])
    ax.set_yscale("log")
    ax.set_xlabel("message size (bytes per rank)")
    ax.set_ylabel("time per call (us)")
    hidden = sum(1 for line in series["lines"] if line["role"] == "other")
    ax.set_title(f"{series['collective']} on {series['ranks']} ranks: native and every fixed "
                 f"algorithm" + (f" ({hidden} more in grey)" if hidden else ""), fontsize=10)
    ax.grid(True, which="major", lw=0.3)
    ax.legend(**LEGEND)
    footnote(fig, note)
    return fig


def draw_best_map(series, note, plt):
    """One figure: a best-map series (best_map_series)."""
    fig, ax = plt.subplots(figsize=(9, 5))
    cmap = plt.get_cmap("tab20")
    style = {n: {"color": cmap(COLOUR_ORDER[i % 20]), "marker": ALGORITHM_MARKERS[i // 20 % 6]}
             for i, n in enumerate(series["algorithms"])}
    for p in series["points"]:
        if p["winner"] == NATIVE:
            ax.scatter(p["bytes"], p["ranks"], s=NATIVE_WIN_AREA, facecolors="none",
                       edgecolors="black", linewidths=0.8, zorder=3)
            continue
        s = style[p["winner"]]
        ax.scatter(p["bytes"], p["ranks"], s=AREA_PER_SPEEDUP * p["speedup"], c=[s["color"]],
                   marker=s["marker"], alpha=0.8, edgecolors="black", linewidths=0.4, zorder=3)
        ax.annotate(f"{p['speedup']:.2f}", (p["bytes"], p["ranks"]), fontsize=6,
                    xytext=(0, -11), textcoords="offset points", ha="center")
    handles = [ax.scatter([], [], s=AREA_PER_SPEEDUP, c=[style[n]["color"]],
                          marker=style[n]["marker"], edgecolors="black", linewidths=0.4, label=n)
               for n in series["algorithms"]]
    handles.append(ax.scatter([], [], s=NATIVE_WIN_AREA, facecolors="none", edgecolors="black",
                              label="native wins"))
    handles += [ax.scatter([], [], s=AREA_PER_SPEEDUP * k, facecolors="0.85",
                           edgecolors="black", linewidths=0.4, label=f"speedup {k} x (area)")
                for k in (1, 2, 4)]
    bytes_axis(ax, [p["bytes"] for p in series["points"]])
    ranks = sorted({p["ranks"] for p in series["points"]})
    ax.set_yscale("log", base=2)
    ax.set_yticks(ranks)
    ax.set_yticklabels([str(r) for r in ranks], fontsize=7)
    ax.set_yticks([], minor=True)
    ax.set_ylim(ranks[0] / 1.5, ranks[-1] * 1.5)
    ax.set_xlabel("message size (bytes per rank)")
    ax.set_ylabel("processes")
    ax.set_title(f"{series['collective']}: the winning algorithm per cell, marker area "
                 f"proportional to native time / its time", fontsize=10)
    ax.grid(True, lw=0.3)
    ax.legend(handles=handles, labelspacing=1.2, **LEGEND)
    footnote(fig, note)
    return fig


def draw_mesh(series, note, plt):
    """One figure: a mesh throughput series (mesh_series)."""
    fig, ax = plt.subplots(figsize=(9, 5))
    meshes = [line for line in series["lines"] if line["role"] == "mesh"]
    layouts = list(dict.fromkeys(str(line["layout"]) for line in meshes))
    phases = list(dict.fromkeys(line["phase"] for line in meshes))
    cmap = plt.get_cmap("tab20")
    sizes = []
    for line in series["lines"]:
        style = dict(MESH_STYLE[line["role"]])
        if line["role"] == "mesh":
            i = phases.index(line["phase"])
            style.update(color=cmap(COLOUR_ORDER[layouts.index(str(line["layout"])) % 20]),
                         ls=PHASE_LINESTYLES[i % 4], marker=PHASE_MARKERS[i % 6], ms=3)
        ax.plot(line["bytes"], line["mb_per_s"], label=line["label"], **style)
        sizes += line["bytes"]
    bytes_axis(ax, sizes)
    ax.set_yscale("log")
    ax.set_xlabel("message size (bytes per rank)")
    ax.set_ylabel("throughput (MB/s) = message bytes per rank / time per call")
    ax.set_title(f"{series['collective']} on {series['ranks']} ranks: orthogonal decomposition "
                 f"by mesh layout (phase algorithm)", fontsize=10)
    ax.grid(True, which="major", lw=0.3)
    ax.legend(**LEGEND)
    footnote(fig, note)
    return fig


def save(fig, path, note, plt):
    """Writes one figure (the note in the PNG's Description too) and closes it; its path."""
    fig.savefig(path, dpi=100, bbox_inches="tight",
                metadata={"Description": note, "Software": "autocoll plot"})
    plt.close(fig)
    return path


def write_plots(cells, results, settings, folder, collectives=None):
    """Every figure of the sweep's cells (of `collectives` only, when given) into `folder`;
    the paths written."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    if collectives:
        have = list(dict.fromkeys(c["collective"] for c in cells))
        missing = [c for c in collectives if c not in have]
        if missing:
            raise PlotError(f"no cells of {', '.join(missing)} in the sweep (it has "
                            f"{', '.join(have)})")
        keep = [i for i, c in enumerate(cells) if c["collective"] in collectives]
        cells, results = [cells[i] for i in keep], [results[i] for i in keep]
    note = platform_note(results, settings)
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for s in candidate_series(cells):
        written.append(save(draw_candidates(s, note, plt), folder /
                            f"candidates-{s['collective']}-np{s['ranks']}.png", note, plt))
    for s in best_map_series(cells):
        written.append(save(draw_best_map(s, note, plt),
                            folder / f"best-map-{s['collective']}.png", note, plt))
    for s in mesh_series(cells):
        written.append(save(draw_mesh(s, note, plt),
                            folder / f"mesh-{s['collective']}-np{s['ranks']}.png", note, plt))
    return written


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

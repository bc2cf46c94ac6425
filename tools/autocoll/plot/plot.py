"""The figures of a tune sweep folder (`autocoll plot`, commands/plot.py, says which): the
drawing only; the series come from analysis/sweepseries.py, the look from plotstyle."""

import math
import textwrap
from pathlib import Path

from ..analysis.sweepseries import (NATIVE, best_map_series, candidate_series, mesh_series,
                                   only_collectives, platform_note)
from ..formats.cells import size_label
from . import plotstyle


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
    fig, ax = plt.subplots(figsize=plotstyle.SWEEP_FIGURE)
    colour = 0
    for line in series["lines"]:
        style = dict(plotstyle.CANDIDATE_STYLE[line["role"]])
        if line["role"] == "shown":
            style["color"] = plt.get_cmap(plotstyle.COLOUR_MAP)(plotstyle.COLOUR_ORDER[colour % 20])
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
    ax.legend(**plotstyle.LEGEND)
    footnote(fig, note)
    return fig


def draw_best_map(series, note, plt):
    """One figure: a best-map series (best_map_series)."""
    fig, ax = plt.subplots(figsize=plotstyle.SWEEP_FIGURE)
    cmap = plt.get_cmap(plotstyle.COLOUR_MAP)
    style = {n: {"color": cmap(plotstyle.COLOUR_ORDER[i % 20]),
                 "marker": plotstyle.ALGORITHM_MARKERS[i // 20 % 6]}
             for i, n in enumerate(series["algorithms"])}
    for p in series["points"]:
        if p["winner"] == NATIVE:
            ax.scatter(p["bytes"], p["ranks"], s=plotstyle.NATIVE_WIN_AREA, facecolors="none",
                       edgecolors="black", linewidths=0.8, zorder=3)
            continue
        s = style[p["winner"]]
        ax.scatter(p["bytes"], p["ranks"], s=plotstyle.AREA_PER_SPEEDUP * p["speedup"],
                   c=[s["color"]], marker=s["marker"], alpha=0.8, edgecolors="black",
                   linewidths=0.4, zorder=3)
        ax.annotate(f"{p['speedup']:.2f}", (p["bytes"], p["ranks"]), fontsize=6,
                    xytext=(0, -11), textcoords="offset points", ha="center")
    handles = [ax.scatter([], [], s=plotstyle.AREA_PER_SPEEDUP, c=[style[n]["color"]],
                          marker=style[n]["marker"], edgecolors="black", linewidths=0.4, label=n)
               for n in series["algorithms"]]
    handles.append(ax.scatter([], [], s=plotstyle.NATIVE_WIN_AREA, facecolors="none",
                              edgecolors="black", label="native wins"))
    handles += [ax.scatter([], [], s=plotstyle.AREA_PER_SPEEDUP * k, facecolors="0.85",
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
    ax.legend(handles=handles, labelspacing=1.2, **plotstyle.LEGEND)
    footnote(fig, note)
    return fig


def draw_mesh(series, note, plt):
    """One figure: a mesh throughput series (mesh_series)."""
    fig, ax = plt.subplots(figsize=plotstyle.SWEEP_FIGURE)
    meshes = [line for line in series["lines"] if line["role"] == "mesh"]
    layouts = list(dict.fromkeys(str(line["layout"]) for line in meshes))
    phases = list(dict.fromkeys(line["phase"] for line in meshes))
    cmap = plt.get_cmap(plotstyle.COLOUR_MAP)
    sizes = []
    for line in series["lines"]:
        style = dict(plotstyle.MESH_STYLE[line["role"]])
        if line["role"] == "mesh":
            i = phases.index(line["phase"])
            colour = plotstyle.COLOUR_ORDER[layouts.index(str(line["layout"])) % 20]
            style.update(color=cmap(colour), ls=plotstyle.LINESTYLES[i % 4],
                         marker=plotstyle.PHASE_MARKERS[i % 6], ms=3)
        ax.plot(line["bytes"], line["mb_per_s"], label=line["label"], **style)
        sizes += line["bytes"]
    bytes_axis(ax, sizes)
    ax.set_yscale("log")
    ax.set_xlabel("message size (bytes per rank)")
    ax.set_ylabel("throughput (MB/s) = message bytes per rank / time per call")
    ax.set_title(f"{series['collective']} on {series['ranks']} ranks: orthogonal decomposition "
                 f"by mesh layout (phase algorithm)", fontsize=10)
    ax.grid(True, which="major", lw=0.3)
    ax.legend(**plotstyle.LEGEND)
    footnote(fig, note)
    return fig


def save(fig, path, note, plt):
    """Writes one figure (the note in the PNG's Description too) and closes it; its path."""
    fig.savefig(path, dpi=plotstyle.SWEEP_DPI, bbox_inches="tight",
                metadata={"Description": note, "Software": "autocoll plot"})
    plt.close(fig)
    return path


def write_plots(cells, results, settings, folder, collectives=None):
    """Every figure of the sweep's cells (of `collectives` only, when given) into `folder`;
    the paths written."""
    plt = plotstyle.pyplot()
    if collectives:
        cells, results = only_collectives(cells, results, collectives)
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

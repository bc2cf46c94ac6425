"""The figures of `autocoll report --plots` over benchmark results (benchreport's cells): the
drawing only; the series come from benchreport (analysis), the look from plotstyle."""

from pathlib import Path

from ..analysis.benchreport import best_map_panels, decision_lengths, tree_series
from ..formats.cells import size_label
from . import plotstyle


def save(fig, path, plt):
    """Writes and closes one figure; returns its path."""
    fig.tight_layout()
    fig.savefig(path, dpi=plotstyle.BENCH_DPI)
    plt.close(fig)
    return path


def plot_trees(cells, folder, plt):
    """Per rooted collective and rank count: tree x segment median / native over message size
    (benchreport.tree_series), one line per instance; below 1 beats native."""
    written = []
    cores = cells[0]["data"]["machine"]["cores_online"]
    for (coll, ranks), lines in tree_series(cells).items():
        fig, ax = plt.subplots(figsize=plotstyle.TREES_FIGURE)
        for shape, segment, name, xs, ys in lines:
            ax.plot(xs, ys, marker="o", ms=3, lw=1, color=f"C{shape}",
                    ls=plotstyle.LINESTYLES[segment], label=name)
        ax.axhline(1.0, color="k", lw=1)
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("message bytes")
        ax.set_ylabel("median / native median")
        ax.set_title(f"{coll}, {ranks} ranks: trees x segments against native ({cores} cores)")
        ax.legend(fontsize=6, ncol=2)
        written.append(save(fig, folder / f"trees-{coll}-np{ranks}.png", plt))
    return written


def plot_best_map(cells, folder, plt):
    """Per collective over the emulated clusters (benchreport.best_map_panels): one panel per
    platform, a square per (message size, ranks) coloured by the oracle (the same colour for the
    same algorithm in every panel), labelled with its name, its median over native's and the
    strategies whose final choice followed it."""
    written = []
    for m in best_map_panels(cells):
        plats, sizes, ranks = m["platforms"], m["sizes"], m["ranks"]
        colour = {n: f"C{i % 10}" for i, n in enumerate(m["oracles"])}
        fig, axes = plt.subplots(1, len(plats), squeeze=False,
                                 figsize=(2.2 + 1.9 * len(sizes) * len(plats),
                                          1.2 + 1.1 * len(ranks)))
        for ax, plat in zip(axes[0], plats):
            for s in m["squares"]:
                if s["platform"] != plat:
                    continue
                x, y = s["x"], s["y"]
                ax.add_patch(plt.Rectangle((x - 0.48, y - 0.48), 0.96, 0.96, alpha=0.35,
                                           color=colour[s["oracle"]]))
                ax.text(x, y, f"{s['oracle']}\n"
                              f"{s['vs_native']:.2f} x native\n"
                              f"followed: {s['followed'] or '-'}",
                        ha="center", va="center", fontsize=6)
            ax.set_xlim(-0.5, len(sizes) - 0.5)
            ax.set_ylim(-0.5, len(ranks) - 0.5)
            ax.set_xticks(range(len(sizes)))
            ax.set_xticklabels([size_label(b) for b in sizes])
            ax.set_yticks(range(len(ranks)))
            ax.set_yticklabels([str(r) for r in ranks])
            ax.set_xlabel("message size")
            ax.set_ylabel("ranks")
            ax.set_title(plat, fontsize=9)
        fig.suptitle(f"{m['collective']}: the best fixed algorithm per emulated topology "
                     f"(one host, {m['cores']} cores)", fontsize=10)
        written.append(save(fig, folder / f"best-map-{m['collective']}.png", plt))
    return written


def plot(cells, folder):
    """Learning curves (one PNG per cell), the trees, the best maps and the basic-vs-enhanced
    decision lengths; the paths written."""
    plt = plotstyle.pyplot()
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    cores = cells[0]["data"]["machine"]["cores_online"]
    for c in cells:
        d = c["data"]
        p = d["parameters"]
        fig, ax = plt.subplots(figsize=plotstyle.BENCH_LEARNING_FIGURE)
        for r in c["rows"]:
            ax.plot(range(1, len(r["times"]) + 1), [1e6 * t for t in r["times"]],
                    lw=0.8, label=f"layer:{r['layer']}")
        ax.axhline(1e6 * c["native"]["median"], color="k", ls="--", lw=1,
                   label="native median")
        ax.axhline(1e6 * c["oracle"]["median"], color="g", ls=":", lw=1.2,
                   label=f"oracle median ({c['oracle']['name']})")
        ax.set_yscale("log")
        ax.set_xlabel("invocation")
        ax.set_ylabel("time per call (us, max over ranks)")
        ax.set_title(f"{p['collective']} {p['bytes']} B, {d['machine']['ranks']} ranks, "
                     f"{d['mpi']} ({cores} cores)")
        ax.legend(fontsize=7)
        written.append(save(
            fig, folder / f"learning-{p['collective']}-{p['bytes']}-np{d['machine']['ranks']}.png",
            plt))
    written += plot_trees(cells, folder, plt)
    written += plot_best_map(cells, folder, plt)
    pairs = decision_lengths(cells)
    if pairs:
        fig, ax = plt.subplots(figsize=(max(6, 0.35 * len(pairs)), 4.5))
        xs = range(len(pairs))
        ax.bar([x - 0.2 for x in xs], [b for _, b, _ in pairs], width=0.4, label="basic AEOS")
        ax.bar([x + 0.2 for x in xs], [e for *_, e in pairs], width=0.4, label="enhanced AEOS")
        ax.set_xticks(list(xs))
        ax.set_xticklabels([n for n, *_ in pairs], rotation=90, fontsize=7)
        ax.set_ylabel("calls in Measure_Select")
        ax.set_title(f"decision length, basic vs enhanced AEOS ({cores} cores)")
        ax.legend()
        written.append(save(fig, folder / "aeos-decision-length.png", plt))
    return written

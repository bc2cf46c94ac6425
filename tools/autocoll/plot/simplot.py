"""Learning curves of `autocoll simgrid report --plots DIR`: the drawing only; the series come
from analysis/simreport.py's learning_curves.

One PNG per (noise setting, platform, ranks, collective), one panel per message size: for each
strategy, the mean time of its first i calls over the oracle's mean time against i (log x),
so a curve starts at the cost of the first calls, falls as the strategy settles and ends at the
whole run's ratio; the dotted line is the oracle (1) and the dashed one the issue's goal for a
whole run (1.10).
"""

import re
from pathlib import Path

from ..analysis.simreport import by_noise, learning_curves, read_cells
from ..formats.cells import size_label
from . import plotstyle

WHOLE_RUN_GOAL = 1.10   # the goal for a whole run of 1000 calls / oracle


def file_name(noise, platform, ranks, collective):
    """learning-<platform>-np<ranks>-<collective>[-<noise>].png, in letters, digits, '.', '_'
    and '-' only."""
    parts = [platform, f"np{ranks}", collective] + ([] if noise == "none" else [noise])
    return "learning-" + re.sub(r"[^A-Za-z0-9._-]+", "_", "-".join(parts)).strip("_") + ".png"


def draw_learning(noise, platform, ranks, collective, panels, folder, plt):
    """One figure: `panels` is [(bytes, {strategy: curve})]; returns its path."""
    fig, axes = plt.subplots(1, len(panels), squeeze=False,
                             figsize=(plotstyle.SIM_LEARNING_PANEL[0] * len(panels),
                                      plotstyle.SIM_LEARNING_PANEL[1]))
    for ax, (nbytes, curves) in zip(axes[0], panels):
        for strategy, curve in curves.items():
            ax.plot(range(1, len(curve) + 1), curve, lw=1, label=strategy)
        ax.axhline(1.0, color="k", ls=":", lw=1)
        ax.axhline(WHOLE_RUN_GOAL, color="grey", ls="--", lw=0.8)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_title(f"{collective} {size_label(nbytes)}, {ranks} ranks", fontsize=9)
        ax.set_xlabel("calls")
        ax.set_ylabel("mean so far / oracle mean")
    axes[0][0].legend(fontsize=7)
    fig.suptitle(f"{platform} (simulated, SMPI), noise: {noise}", fontsize=10)
    fig.tight_layout()
    path = Path(folder) / file_name(noise, platform, ranks, collective)
    fig.savefig(path, dpi=plotstyle.SIM_DPI, metadata={"Software": "autocoll simgrid report"})
    plt.close(fig)
    return path


def write_learning_curves(groups, folder):
    """`groups`: [(noise, simreport.learning_curves(...))]; writes every figure into `folder`
    and returns the paths."""
    plt = plotstyle.pyplot()
    Path(folder).mkdir(parents=True, exist_ok=True)
    return [draw_learning(noise, platform, ranks, coll, panels, folder, plt)
            for noise, curves in groups
            for (platform, ranks, coll), panels in curves.items()]


def write_plots(paths, folder):
    """The learning curves (simplot) of every noise setting into `folder`; the paths."""
    cells, _ = read_cells(paths)
    return write_learning_curves(
        [(noise, learning_curves(group)) for noise, group in by_noise(cells)], folder)

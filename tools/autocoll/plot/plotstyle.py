"""The look of every figure the tools draw (plot.py: `autocoll plot`; benchplot.py: `autocoll
report --plots`; simplot.py: `autocoll simgrid report --plots`): the matplotlib backend, colours,
markers, line styles, figure sizes and resolutions."""

# tab20's dark shades first, then the light ones: neighbours in a legend differ in hue
COLOUR_MAP = "tab20"
COLOUR_ORDER = list(range(0, 20, 2)) + list(range(1, 20, 2))
LINESTYLES = ["-", "--", "-.", ":"]
PHASE_MARKERS = ["o", "s", "^", "v", "D", "P"]
ALGORITHM_MARKERS = ["o", "s", "^", "D", "v", "P"]   # past 20 colours, the next shape
LEGEND = {"loc": "upper left", "bbox_to_anchor": (1.01, 1.0), "fontsize": 7, "frameon": False}

# `autocoll plot`: lines by role in the candidates and mesh figures; best-map marker areas
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
AREA_PER_SPEEDUP = 60.0   # best map: marker area (points^2) per 1 x speedup over native
NATIVE_WIN_AREA = 18.0    # best map: the small hollow marker of a cell native wins

# figure sizes (inches) and resolutions (dots per inch)
SWEEP_FIGURE = (9, 5)          # `autocoll plot`: every figure
TREES_FIGURE = (8, 5)          # `autocoll report --plots`: trees x segments against native
BENCH_LEARNING_FIGURE = (8, 4.5)  # `autocoll report --plots`: learning curves of one cell
SIM_LEARNING_PANEL = (4.2, 3.2)   # `autocoll simgrid report --plots`: per message-size panel
SWEEP_DPI = 100
BENCH_DPI = 90
SIM_DPI = 80


def pyplot():
    """matplotlib.pyplot on the file-only backend (Agg). Imported when a figure is drawn, not
    with the tools, which run without matplotlib until then."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt

"""`autocoll plot`: the analysis of a tune sweep folder (sweepseries: which cells are kept,
winners, speedups, which candidates are drawn, mesh layouts parsed from names, throughput)
exactly, from synthetic sweep folders written as `autocoll tune --out` writes them (bench cells
named <coll>-<size>-np<ranks>.json, repetitions in repeat-N/, table.json); and the command's PNG
files. No MPI runs here."""

import json

import matplotlib
import pytest

from autocoll.analysis import sweepseries
from autocoll.formats.cells import cell_name
from autocoll.plot import plot

from conftest import autocoll_cli as cli

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

MACHINE = {"hostname": "twocore", "cores_online": 2,
           "mpi_library": "Open MPI v4.1.4, package: Debian OpenMPI, ident: 4.1.4"}
US = 1e-6


def bench_cell(coll, ranks, nbytes, times, spread=None):
    """A bench result (schema autocoll-bench) as the driver writes one: `times` in
    microseconds (the median; min is half of it), p90/p10 = `spread` per name (default 1.1),
    and a layer configuration that is never a candidate."""
    spread = spread or {}
    configurations = [
        {"name": n, "kind": "native" if n == "native" else "fixed", "group": n,
         "median": t * US, "min": t * US / 2, "p10": t * US, "p90": t * US * spread.get(n, 1.1),
         "iterations": 10, "times": [t * US] * 10}
        for n, t in times.items()]
    configurations.append({"name": "layer:race", "kind": "layer", "median": 1e-9, "min": 1e-9,
                           "p10": 1e-9, "p90": 1e-9, "iterations": 10, "times": [1e-9] * 10})
    return {"schema": "autocoll-bench", "version": 1, "autocoll_version": "0.1.0",
            "mpi": "openmpi", "time_unit": "seconds",
            "machine": dict(MACHINE, ranks=ranks, registry_fingerprint="0123456789abcdef"),
            "parameters": {"collective": coll, "bytes": nbytes, "iterations": 10,
                           "fixed_iterations": 10, "warmup": 1, "factor": 0.0},
            "configurations": configurations, "skipped": [], "warnings": []}


def write_cell(folder, coll, ranks, nbytes, times, spread=None):
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / cell_name(coll, nbytes, ranks)
    path.write_text(json.dumps(bench_cell(coll, ranks, nbytes, times, spread)))
    return path


def write_table(folder, **sweep):
    """A table.json with the sweep settings that matter to the plots (cells and rules are not
    read by them)."""
    (folder / "table.json").write_text(json.dumps({
        "schema": "autocoll-table", "version": 1, "sweep": dict(
            {"statistic": "median", "margin": 0.02, "spread_limit": 1.5, "repeats": 2}, **sweep),
        "cells": [], "rules": []}))


# allreduce on 4 and 8 ranks, three sizes, times in microseconds. The winners (margin 0.02):
ALLREDUCE = {
    (4, 64): {"native": 10.0, "ring": 5.0, "recursive_doubling": 8.0},       # ring, 2.0
    (4, 1024): {"native": 10.0, "ring": 9.9, "recursive_doubling": 12.0},    # native (margin)
    (4, 65536): {"native": 40.0, "ring": 30.0, "recursive_doubling": 10.0},  # rd, 4.0
    (8, 64): {"native": 20.0, "ring": 25.0, "recursive_doubling": 16.0},     # rd, 1.25
    (8, 1024): {"native": 30.0, "ring": 20.0, "recursive_doubling": 24.0},   # ring, 1.5
    (8, 65536): {"native": 50.0, "ring": 10.0, "recursive_doubling": 60.0},  # ring, 5.0
}
WINNERS = {(4, 64): ("ring", 2.0), (4, 1024): ("native", 1.0),
           (4, 65536): ("recursive_doubling", 4.0), (8, 64): ("recursive_doubling", 1.25),
           (8, 1024): ("ring", 1.5), (8, 65536): ("ring", 5.0)}

# alltoall on 8 ranks with orthogonal candidates (2D 2x4 and 4x2, 3D 2x2x2) and others
MESH_8 = {
    1024: {"native": 100.0, "bruck": 50.0, "pairwise": 80.0,
           "orthogonal_2xn_native": 64.0, "orthogonal_4xn_native": 128.0,
           "orthogonal_2x2xn_pair": 40.0, "orthogonal_2xn_ring": 256.0},
    1048576: {"native": 1000.0, "bruck": 4000.0, "pairwise": 2000.0,
              "orthogonal_2xn_native": 1048.576, "orthogonal_4xn_native": 524.288,
              "orthogonal_2x2xn_pair": 2097.152, "orthogonal_2xn_ring": 800.0},
}


@pytest.fixture
def sweep(tmp_path):
    folder = tmp_path / "sweep"
    for (ranks, nbytes), times in ALLREDUCE.items():
        write_cell(folder, "allreduce", ranks, nbytes, times)
    for nbytes, times in MESH_8.items():
        write_cell(folder, "alltoall", 8, nbytes, times)
    write_cell(folder, "barrier", 4, 0, {"native": 3.0, "dissemination": 2.0})
    write_table(folder)
    return folder


def cells_of(folder):
    cells, results, settings = sweepseries.read_sweep(folder)
    return cells, results, settings


# ---- reading the folder as tune keeps it -----------------------------------------------------

def test_the_cells_are_tunes_entries_of_native_and_fixed_only(sweep):
    cells, results, settings = cells_of(sweep)
    assert settings == {"statistic": "median", "margin": 0.02, "spread_limit": 1.5,
                        "repeats": 2}
    allreduce = {(c["ranks"], c["bytes"]): c for c in cells if c["collective"] == "allreduce"}
    assert set(allreduce) == set(ALLREDUCE)
    for key, c in allreduce.items():
        assert c["times"] == pytest.approx({n: t * US for n, t in ALLREDUCE[key].items()})
        assert c["winner"] == WINNERS[key][0], key
    assert [c["collective"] for c in cells].count("alltoall") == 2
    assert all(r["machine"]["cores_online"] == 2 for r in results)


def test_the_tables_margin_and_statistic_decide(sweep):
    # a margin of 0.3 makes native win wherever it is beaten by 30 % or less
    write_table(sweep, margin=0.3)
    cells, _, _ = cells_of(sweep)
    got = {(c["ranks"], c["bytes"]): c["winner"] for c in cells if c["collective"] == "allreduce"}
    assert got == {(4, 64): "ring", (4, 1024): "native", (4, 65536): "recursive_doubling",
                   (8, 64): "native", (8, 1024): "ring", (8, 65536): "ring"}
    # the min statistic: the driver's min (here half the median) is what is compared
    write_table(sweep, statistic="min")
    cells, _, settings = cells_of(sweep)
    assert settings["statistic"] == "min"
    (c,) = [c for c in cells if (c["collective"], c["ranks"], c["bytes"]) == ("allreduce", 4, 64)]
    assert c["times"]["ring"] == pytest.approx(2.5 * US)
    # no table: tune's defaults
    (sweep / "table.json").unlink()
    assert sweepseries.read_sweep(sweep)[2] == {"statistic": "median", "margin": 0.02,
                                         "spread_limit": 1.5, "repeats": 2}


def test_a_noisy_cell_is_replaced_by_its_steadier_repetition(tmp_path):
    folder = tmp_path / "sweep"
    # the first run's winner (ring) is noisy (p90/p10 3.0 > 1.5); repetition 1 is quiet and
    # rd wins it; repetition 2 was never needed and must not be read
    write_cell(folder, "allreduce", 4, 64, {"native": 10.0, "ring": 2.0, "recursive_doubling": 8.0},
               spread={"ring": 3.0})
    write_cell(folder / "repeat-1", "allreduce", 4, 64,
               {"native": 10.0, "ring": 9.0, "recursive_doubling": 4.0})
    write_cell(folder / "repeat-2", "allreduce", 4, 64,
               {"native": 10.0, "ring": 1.0, "recursive_doubling": 9.0})
    (cell,), _, _ = sweepseries.read_sweep(folder)
    assert cell["winner"] == "recursive_doubling"
    assert cell["times"]["recursive_doubling"] == pytest.approx(4.0 * US)
    (point,) = sweepseries.best_map_series([cell])[0]["points"]
    assert point["speedup"] == pytest.approx(2.5)


def test_a_folder_without_cells_is_refused(tmp_path):
    with pytest.raises(sweepseries.PlotError, match="no benchmark cells"):
        sweepseries.read_sweep(tmp_path)
    (tmp_path / "table.json").write_text("{}")
    with pytest.raises(sweepseries.PlotError, match="table.json: not an autocoll-table"):
        sweepseries.read_sweep(tmp_path)


# ---- best map --------------------------------------------------------------------------------

def test_best_map_winner_and_speedup_per_cell(sweep):
    cells, _, _ = cells_of(sweep)
    series = {s["collective"]: s for s in sweepseries.best_map_series(cells)}
    assert set(series) == {"allreduce", "alltoall"}   # barrier (0 bytes) has no size axis
    allreduce = series["allreduce"]
    got = {(p["ranks"], p["bytes"]): (p["winner"], p["speedup"]) for p in allreduce["points"]}
    assert set(got) == set(WINNERS)
    for key, (winner, speedup) in WINNERS.items():
        assert got[key][0] == winner, key
        assert got[key][1] == pytest.approx(speedup), key
    assert allreduce["algorithms"] == ["recursive_doubling", "ring"]
    (p,) = [p for p in allreduce["points"] if (p["ranks"], p["bytes"]) == (4, 65536)]
    assert (p["native_us"], p["winner_us"]) == (pytest.approx(40.0), pytest.approx(10.0))
    alltoall = {p["bytes"]: (p["winner"], p["speedup"]) for p in series["alltoall"]["points"]}
    assert alltoall == {1024: ("orthogonal_2x2xn_pair", pytest.approx(2.5)),
                        1048576: ("orthogonal_4xn_native", pytest.approx(1000.0 / 524.288))}


# ---- candidates ------------------------------------------------------------------------------

def test_candidates_native_first_and_values_exact(sweep):
    cells, _, _ = cells_of(sweep)
    series = {(s["collective"], s["ranks"]): s for s in sweepseries.candidate_series(cells)}
    assert set(series) == {("allreduce", 4), ("allreduce", 8), ("alltoall", 8)}
    s = series[("allreduce", 4)]
    assert s["bytes"] == [64, 1024, 65536]
    native, *others = s["lines"]
    assert (native["name"], native["role"]) == ("native", "native")
    assert native["bytes"] == [64, 1024, 65536]
    assert native["microseconds"] == pytest.approx([10.0, 10.0, 40.0])
    # ring is the fastest fixed one at 64 and 1K, rd at 64K: both rank 1 somewhere; then the
    # geometric mean of time / fastest decides: rd's (1.6 x 12/9.9 x 1)^(1/3) = 1.25 before
    # ring's (1 x 1 x 3)^(1/3) = 1.44
    assert sweepseries.standing(cells[:3]) == {
        "ring": (1, pytest.approx(3 ** (1 / 3)), "ring"),
        "recursive_doubling": (1, pytest.approx((1.6 * 12 / 9.9) ** (1 / 3)),
                               "recursive_doubling")}
    assert [(x["name"], x["role"]) for x in others] == [("recursive_doubling", "shown"),
                                                       ("ring", "shown")]
    assert others[1]["microseconds"] == pytest.approx([5.0, 9.9, 30.0])


def test_many_candidates_keep_every_sizes_winner_and_at_most_twelve_lines():
    sizes = [8, 64, 512, 4096]
    names = [f"algo_{i:02d}" for i in range(20)]
    cells = []
    for j, nbytes in enumerate(sizes):
        times = {"native": 100.0}
        for i, n in enumerate(names):
            times[n] = 50.0 + i        # algo_00 fastest, algo_19 slowest ...
        times[names[15 + j]] = 10.0    # ... except that algo_15..18 each win one size
        cells.append({"collective": "alltoall", "ranks": 4, "bytes": nbytes,
                      "times": {n: t * US for n, t in times.items()}, "winner": names[15 + j]})
    (s,) = sweepseries.candidate_series(cells)
    roles = {x["name"]: x["role"] for x in s["lines"]}
    shown = [x["name"] for x in s["lines"] if x["role"] == "shown"]
    assert s["lines"][0]["name"] == "native" and len(s["lines"]) == 21
    assert len(shown) == sweepseries.MAX_LINES - 1
    # every size's winner first, then the best-ranked others (algo_00 is first of the rest
    # at every size: rank 2), and so on
    assert shown[:4] == ["algo_15", "algo_16", "algo_17", "algo_18"]
    assert shown[4:] == [f"algo_{i:02d}" for i in range(7)]
    assert roles["algo_19"] == "other" and roles["algo_07"] == "other"
    # the drawing: native thick black, exactly the shown lines in the legend, the rest grey
    fig = plot.draw_candidates(s, "note: 2 cores online", plt)
    ax = fig.axes[0]
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert legend == ["native"] + shown
    native = [line for line in ax.get_lines() if line.get_label() == "native"][0]
    assert native.get_color() == "black" and native.get_linewidth() > 2
    assert sum(1 for line in ax.get_lines() if line.get_color() == "0.82") == 9
    assert any("2 cores online" in t.get_text() for t in fig.texts)
    plt.close(fig)


# ---- mesh layouts and throughput -------------------------------------------------------------

def test_mesh_layouts_from_names():
    assert sweepseries.parse_mesh_name("orthogonal_2xn_native") == ((2,), "native")
    assert sweepseries.parse_mesh_name("orthogonal_2x2xn_pair") == ((2, 2), "pair")
    assert sweepseries.parse_mesh_name("orthogonal_4xn_binomial_tree") == ((4,), "binomial_tree")
    assert sweepseries.parse_mesh_name("orthogonal_2x4xn_recursive_doubling") == \
        ((2, 4), "recursive_doubling")
    for name in ("ring", "native", "allgather_mesh_2d", "orthogonal_native", "orthogonal_xn_ring",
                 "orthogonal_2x2x2xn_pair", "orthogonal_0xn_ring", "orthogonal_2xn_"):
        assert sweepseries.parse_mesh_name(name) is None, name
        assert sweepseries.mesh_layout(name, 8) is None, name
    assert sweepseries.mesh_layout("orthogonal_2xn_native", 8) == (2, 4)
    assert sweepseries.mesh_layout("orthogonal_2x2xn_pair", 8) == (2, 2, 2)
    assert sweepseries.mesh_layout("orthogonal_4xn_ring", 16) == (4, 4)
    assert sweepseries.mesh_layout("orthogonal_2x4xn_ring", 16) == (2, 4, 2)
    assert sweepseries.mesh_layout("orthogonal_3xn_native", 8) is None     # 3 does not divide 8
    assert sweepseries.mesh_label("orthogonal_2xn_native", 8) == "2x4 (native)"
    assert sweepseries.mesh_label("orthogonal_2x2xn_pair", 8) == "2x2x2 (pair)"
    assert sweepseries.mesh_label("orthogonal_4xn_binomial_tree", 12) == "4x3 (binomial_tree)"
    assert sweepseries.mesh_label("orthogonal_3xn_native", 8) == "3xn (native)"


def test_throughput_is_bytes_per_rank_over_time_in_mb_per_s():
    assert sweepseries.throughput(1048576, 1048.576e-6) == pytest.approx(1000.0)
    assert sweepseries.throughput(1000, 1e-3) == pytest.approx(1.0)


def test_mesh_series_lines_labels_and_throughput(sweep):
    cells, _, _ = cells_of(sweep)
    (s,) = sweepseries.mesh_series(cells)       # allreduce has no orthogonal candidate
    assert (s["collective"], s["ranks"]) == ("alltoall", 8)
    lines = {x["label"]: x for x in s["lines"]}
    # 2D before 3D, by layout, then phase; then native and the best non-mesh
    assert [x["label"] for x in s["lines"]] == ["2x4 (native)", "2x4 (ring)", "4x2 (native)",
                                                "2x2x2 (pair)", "native",
                                                "best non-mesh (per size)"]
    assert lines["2x4 (native)"]["layout"] == (2, 4)
    assert lines["2x2x2 (pair)"]["layout"] == (2, 2, 2)
    assert lines["2x4 (native)"]["bytes"] == [1024, 1048576]
    assert lines["2x4 (native)"]["mb_per_s"] == pytest.approx([1024 / 64.0, 1000.0])
    assert lines["4x2 (native)"]["mb_per_s"] == pytest.approx([1024 / 128.0, 2000.0])
    assert lines["2x2x2 (pair)"]["mb_per_s"] == pytest.approx([1024 / 40.0, 500.0])
    assert lines["native"]["mb_per_s"] == pytest.approx([1024 / 100.0, 1048.576])
    best = lines["best non-mesh (per size)"]
    assert best["names"] == ["bruck", "pairwise"]
    assert best["mb_per_s"] == pytest.approx([1024 / 50.0, 1048576 / 2000.0])


# ---- the note every figure carries -----------------------------------------------------------

def test_platform_note_says_host_cores_and_mpi(sweep):
    _, results, settings = cells_of(sweep)
    note = sweepseries.platform_note(results, settings)
    assert "measured on twocore" in note and "2 cores online" in note
    assert "Open MPI v4.1.4 (openmpi)" in note and "package" not in note
    assert "up to 8 ranks share the cores" in note and "median" in note


# ---- the command -----------------------------------------------------------------------------

EXPECTED = {"candidates-allreduce-np4.png", "candidates-allreduce-np8.png",
            "candidates-alltoall-np8.png", "best-map-allreduce.png", "best-map-alltoall.png",
            "mesh-alltoall-np8.png"}


def test_the_command_writes_every_figure(sweep, tmp_path):
    out = tmp_path / "plots"
    run = cli("plot", str(sweep), "--out", str(out))
    assert run.returncode == 0, run.stdout + run.stderr
    printed = run.stdout.split()
    assert {p.rsplit("/", 1)[-1] for p in printed} == EXPECTED
    assert {p.name for p in out.iterdir()} == EXPECTED
    for path in out.iterdir():
        data = path.read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 10000, path
        assert b"2 cores online" in data and b"measured on twocore" in data, path


def test_the_command_draws_only_the_collectives_asked(sweep, tmp_path):
    out = tmp_path / "plots"
    run = cli("plot", str(sweep), "--out", str(out), "--collective", "alltoall")
    assert run.returncode == 0, run.stderr
    assert {p.name for p in out.iterdir()} == {"candidates-alltoall-np8.png",
                                               "best-map-alltoall.png", "mesh-alltoall-np8.png"}
    run = cli("plot", str(sweep), "--out", str(out), "--collective", "bcast,alltoall")
    assert run.returncode == 1 and "no cells of bcast" in run.stderr
    assert "allreduce, alltoall, barrier" in run.stderr


def test_the_command_refuses_a_folder_without_cells(tmp_path):
    run = cli("plot", str(tmp_path), "--out", str(tmp_path / "plots"))
    assert run.returncode == 1 and "no benchmark cells" in run.stderr and str(tmp_path) in \
        run.stderr

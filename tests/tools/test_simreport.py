"""`autocoll simgrid report`: ratios, best map, disagreement, penalty and wall time over
synthetic SimGrid cells with known times. Every expected value is worked out by hand here."""

import json
import math

import pytest

from autocoll import cli
from autocoll.analysis import simreport
from conftest import autocoll_cli

K1 = ("allreduce", 8, 4)
K2 = ("allreduce", 65536, 4)
K3 = ("alltoall", 1024, 8)
K4 = ("alltoall", 4096, 8)  # on alpha only


def conf(name, kind, times, steady=None, layer=None):
    c = {"name": name, "kind": kind, "median": sorted(times)[len(times) // 2],
         "mean": sum(times) / len(times), "times": times, "iterations": len(times),
         "steady_median": steady if steady is not None else sorted(times)[len(times) // 2],
         "steady_p10": 0.0, "steady_p90": 0.0}
    if layer:
        c["layer"] = layer
    return c


def layer(spec, times, steady, chosen, decision):
    ctx = {"chosen": chosen, "decision_calls": decision, "switches": 0, "warm": False,
           "overhead": {"deciding_seconds": 0.0, "settled_seconds": 0.0}}
    # the run list ends on another algorithm than the context's choice: the report must
    # read the context
    return conf(f"layer:{spec}", "layer", times, steady,
                {"spec": spec, "strategy": spec, "algorithm_runs": [["other", len(times)]],
                 "contexts": [ctx]})


def write_cell(folder, platform, key, selector, native, fixed=None, layers=(), wall=1.0,
               noise="none"):
    """A bench cell: native and fixed configurations run 20 calls of constant time (median =
    mean = the value), the oracle given by hand as the driver would write it."""
    coll, nbytes, ranks = key
    configs = [conf("native", "native", [native] * 20)]
    configs += [conf(n, "fixed", [t] * 20) for n, t in (fixed or {}).items()]
    configs += list(layers)
    runs = {c["name"]: c["median"] for c in configs if c["kind"] != "layer"}
    oracle = None
    if fixed:
        name = min(runs, key=runs.get)
        oracle = {"name": name, "median": runs[name]}
    data = {"schema": "autocoll-bench", "version": 1, "mpi": "simgrid",
            "machine": {"ranks": ranks, "cores_online": 2, "hostname": "h",
                        "mpi_library": "SMPI"},
            "parameters": {"collective": coll, "bytes": nbytes, "iterations": 120,
                           "noise": noise, "noise_seed": 1},
            "configurations": configs, "skipped": [], "oracle": oracle, "warnings": [],
            "simgrid": {"platform": platform, "ppn": 1, "selector": selector,
                        "wall_seconds": wall}}
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{coll}-{nbytes}-np{ranks}-{selector}-{noise.replace(':', '')}.json"
    path.write_text(json.dumps(data))
    return path


@pytest.fixture
def folders(tmp_path):
    """alpha and beta, each with K1 and K2 (layers) and K3 (no layers), K4 on alpha only; an
    mpich native-only cell for alpha K1; a noise cell for alpha K1. Two folders, as two bench
    runs."""
    a, b = tmp_path / "alpha", tmp_path / "beta"
    write_cell(a, "alpha", K1, "ompi", 10.0, {"A": 5.0, "B": 8.0}, [
        layer("star_enhanced", [20.0] * 20 + [5.05] * 100, 5.05, "A", 20),
        layer("race", [11.0] * 120, 11.0, "B", 40)], wall=3.0)
    write_cell(a, "alpha", K2, "ompi", 100.0, {"A": 120.0, "B": 80.0}, [
        layer("star_enhanced", [200.0] * 20 + [80.0] * 100, 80.0, "B", 20),
        layer("race", [100.0] * 120, 100.0, "native", 30)], wall=5.0)
    write_cell(a, "alpha", K3, "ompi", 7.0, {"C": 9.0}, wall=11.0)
    write_cell(a, "alpha", K4, "ompi", 3.0, {"C": 2.0}, wall=13.0)
    write_cell(a, "alpha", K1, "mpich", 4.0, wall=1.0)
    write_cell(a, "alpha", K1, "ompi", 12.0, {"A": 6.0, "B": 9.0}, [
        layer("star_enhanced", [7.0] * 120, 7.0, "A", 18)], wall=9.0, noise="exp:1e-05")
    # beta: B wins K1, native wins K2 where B is not run (inapplicable), native wins K3
    write_cell(b, "beta", K1, "ompi", 20.0, {"A": 16.0, "B": 12.0}, [
        layer("star_enhanced", [12.0] * 120, 12.0, "B", 25)], wall=2.0)
    write_cell(b, "beta", K2, "ompi", 50.0, {"A": 90.0}, [
        layer("star_enhanced", [60.0] * 120, 60.0, "A", 15)], wall=4.0)
    write_cell(b, "beta", K3, "ompi", 6.0, {"C": 8.0}, wall=7.0)
    return a, b


def none_cells(folders):
    cells, _ = simreport.read_cells([str(f) for f in folders])
    groups = dict(simreport.by_noise(cells))
    return groups["none"], groups


def test_grouping_by_noise(folders):
    cells, _ = simreport.read_cells([str(f) for f in folders])
    groups = simreport.by_noise(cells)
    assert [g for g, _ in groups] == ["none", "exp:1e-05 (seed 1)"]
    assert len(groups[0][1]) == 8 and len(groups[1][1]) == 1


def test_best_map(folders):
    cells, _ = none_cells(folders)
    m = simreport.best_map(cells)
    assert m["alpha"]["allreduce"][(4, 8)] == ("A", pytest.approx(10.0 / 5.0))
    assert m["alpha"]["allreduce"][(4, 65536)] == ("B", pytest.approx(100.0 / 80.0))
    assert m["alpha"]["alltoall"][(8, 1024)] == ("native", pytest.approx(1.0))
    assert m["alpha"]["alltoall"][(8, 4096)] == ("C", pytest.approx(3.0 / 2.0))
    assert (8, 4096) not in m["beta"]["alltoall"]
    assert m["beta"]["allreduce"][(4, 8)] == ("B", pytest.approx(20.0 / 12.0))
    assert m["beta"]["allreduce"][(4, 65536)] == ("native", pytest.approx(1.0))


def row(rows, platform, cell, strategy):
    return next(r for r in rows if (r["platform"], r["cell"], r["strategy"]) ==
                (platform, cell, strategy))


def test_strategy_ratios(folders):
    cells, _ = none_cells(folders)
    rows = simreport.strategy_rows(cells)
    assert len(rows) == 6
    r = row(rows, "alpha", "allreduce-8-np4-ompi", "star_enhanced")
    assert r["steady_vs_oracle"] == pytest.approx(5.05 / 5.0)
    # whole run: (20 calls of 20 + 100 of 5.05) / 120, over the oracle's mean 5
    assert r["whole_vs_oracle"] == pytest.approx((20 * 20 + 100 * 5.05) / 120 / 5.0)
    assert r["vs_native"]["ompi"] == pytest.approx(5.05 / 10.0)
    assert r["vs_native"]["mpich"] == pytest.approx(5.05 / 4.0)
    assert (r["decision"], r["chosen"]) == (20, "A")
    r = row(rows, "alpha", "allreduce-8-np4-ompi", "race")
    assert (r["steady_vs_oracle"], r["whole_vs_oracle"]) == (pytest.approx(2.2),
                                                             pytest.approx(2.2))
    assert r["vs_native"] == {"ompi": pytest.approx(1.1), "mpich": pytest.approx(2.75)}
    assert (r["decision"], r["chosen"]) == (40, "B")
    r = row(rows, "alpha", "allreduce-64K-np4-ompi", "star_enhanced")
    assert r["steady_vs_oracle"] == pytest.approx(1.0)
    assert r["whole_vs_oracle"] == pytest.approx((20 * 200 + 100 * 80) / 120 / 80.0)
    assert r["vs_native"] == {"ompi": pytest.approx(0.8), "mpich": None}
    r = row(rows, "beta", "allreduce-64K-np4-ompi", "star_enhanced")
    assert r["steady_vs_oracle"] == pytest.approx(60.0 / 50.0)
    assert r["vs_native"]["ompi"] == pytest.approx(1.2)
    assert r["chosen"] == "A" and r["oracle"] == "native"


def test_strategy_summary(folders):
    cells, _ = none_cells(folders)
    sels = simreport.selectors(cells)
    assert sels == ["ompi", "mpich"]
    summary = {(g["strategy"], g["platform"]): g
               for g in simreport.strategy_summary(simreport.strategy_rows(cells), sels)}
    assert set(summary) == {("star_enhanced", "alpha"), ("race", "alpha"),
                            ("star_enhanced", "beta")}
    star = summary[("star_enhanced", "alpha")]
    n, med, geo, top = star["ratios"]["steady/oracle"]
    assert (n, med, geo, top) == (2, pytest.approx((1.01 + 1.0) / 2),
                                  pytest.approx(math.sqrt(1.01)), pytest.approx(1.01))
    whole = [(20 * 20 + 100 * 5.05) / 600, 1.25]
    assert star["ratios"]["whole-run/oracle"] == (2, pytest.approx(sum(whole) / 2),
                                                  pytest.approx(math.sqrt(whole[0] * 1.25)),
                                                  pytest.approx(whole[0]))
    # only K1 has an mpich native: one cell
    assert star["ratios"]["steady tuned/native(mpich)"] == (1,) + (pytest.approx(1.2625),) * 3
    assert star["near_oracle"] == 2
    assert star["lost"] == {"ompi": [], "mpich": ["allreduce-8-np4-ompi"]}
    race = summary[("race", "alpha")]
    assert race["ratios"]["steady/oracle"] == (2, pytest.approx(1.725),
                                               pytest.approx(math.sqrt(2.2 * 1.25)),
                                               pytest.approx(2.2))
    assert race["near_oracle"] == 0
    assert race["lost"] == {"ompi": ["allreduce-8-np4-ompi"], "mpich": ["allreduce-8-np4-ompi"]}
    beta = summary[("star_enhanced", "beta")]
    assert beta["near_oracle"] == 1 and beta["with_native"] == {"ompi": 2, "mpich": 0}
    assert beta["ratios"]["steady tuned/native(mpich)"] == (0, None, None, None)
    assert beta["lost"] == {"ompi": ["allreduce-64K-np4-ompi"], "mpich": []}


def test_disagreement(folders):
    cells, _ = none_cells(folders)
    shared = dict(simreport.oracles_across(cells))
    assert shared == {K1: {"alpha": "A", "beta": "B"}, K2: {"alpha": "B", "beta": "native"},
                      K3: {"alpha": "native", "beta": "native"}}
    assert simreport.disagreement(cells) == (3, 2)


def test_penalty(folders):
    cells, _ = none_cells(folders)
    p = simreport.penalty(cells)
    # alpha's winners on beta: A on K1 16/12; B on K2 not run there (skipped); native on K3 6/6
    ab = p[("alpha", "beta")]
    assert ab["ratios"] == [pytest.approx(16 / 12), pytest.approx(1.0)]
    assert ab["geomean"] == pytest.approx(math.sqrt(16 / 12))
    assert ab["max"] == pytest.approx(16 / 12)
    assert ab["skipped"] == ["allreduce-64K-np4-ompi"]
    # beta's winners on alpha: B on K1 8/5; native on K2 100/80; native on K3 7/7
    ba = p[("beta", "alpha")]
    assert ba["geomean"] == pytest.approx((1.6 * 1.25 * 1.0) ** (1 / 3))
    assert ba["max"] == pytest.approx(1.6)
    assert ba["skipped"] == []
    assert set(p) == {("alpha", "beta"), ("beta", "alpha")}


def test_wall_times(folders):
    cells, groups = none_cells(folders)
    assert simreport.wall_times(cells) == {
        ("alpha", 4): (3, 9.0, 5.0), ("alpha", 8): (2, 24.0, 13.0),
        ("beta", 4): (2, 6.0, 4.0), ("beta", 8): (1, 7.0, 7.0)}
    assert simreport.wall_times(groups["exp:1e-05 (seed 1)"]) == {("alpha", 4): (1, 9.0, 9.0)}


@pytest.mark.parametrize("value,text", [
    (1.25, "1.250"), (1.0, "1.000"), (None, "-"),
    (1.0004, "1.0004"),      # a loss 3 decimals would round onto 1
    (1.0204, "1.0204"),      # a loss above the margin 3 decimals would put onto it
    (0.9996, "0.9996"),      # a gain likewise
    (2.0004, "2.000"),       # away from 1 and the margins: 3 decimals
])
def test_fmt(value, text):
    assert simreport.fmt(value) == text


def test_report_text(folders, tmp_path, capsys):
    out = tmp_path / "report.md"
    assert cli.main(["simgrid", "report", *map(str, folders), "--out", str(out)]) == 0
    text = out.read_text()
    assert text.index("## Noise: none") < text.index("## Noise: exp:1e-05 (seed 1)")
    none, noise = text.split("## Noise: exp:1e-05 (seed 1)")
    assert "| 4 | A (2.000) | B (1.250) |" in none
    assert "| 4 | B (1.667) | native (1.000) |" in none
    assert "| 8 | native (1.000) | C (1.500) |" in none
    assert "beta, alltoall:\n\n| ranks | 1K |\n|---|---|\n| 8 | native (1.000) |\n" in none
    assert ("| alpha | allreduce-8-np4-ompi | race | 2.200 | 2.200 | 1.100 | 2.750 | 40 | B | A |"
            in none)
    assert "The oracles differ in 2 of 3 cells run on two platforms or more (share 0.667)." in none
    assert "| alpha | - | 1.155 (max 1.333; 2 cells, 1 skipped) |" in none
    assert "- alpha -> beta: skipped (A's oracle not run on B): allreduce-64K-np4-ompi" in none
    assert "| beta | 1.260 (max 1.600; 3 cells) | - |" in none
    assert "| alpha | 4 | 3 | 9.000 | 5.000 |" in none
    assert "| star_enhanced | alpha | steady tuned/native(mpich) | 1 |" in none
    assert "| star_enhanced | beta | steady tuned/native(mpich) | 0 | - | - | - |" in none
    # the noise run stands alone: its own oracle, no mpich cell, no second platform
    assert "| alpha | allreduce-8-np4-ompi | star_enhanced | 1.167 | 1.167 | 0.583 | 18 | A | A |" \
        in noise
    assert "native(mpich)" not in noise
    assert "| alpha | 4 | 1 | 9.000 | 9.000 |" in noise
    for definition in simreport.DEFINITIONS:
        assert f"- {definition}\n" in text


def test_stdout_and_exit_codes(folders, tmp_path, capsys):
    assert cli.main(["simgrid", "report", str(folders[0])]) == 0
    assert capsys.readouterr().out.startswith("# SimGrid benchmark report")
    empty = tmp_path / "empty"
    empty.mkdir()
    done = autocoll_cli("simgrid", "report", str(empty), timeout=120)
    assert done.returncode == 2
    assert "no SimGrid cells" in done.stderr and str(empty) in done.stderr
    assert done.stdout == ""
    assert cli.main(["simgrid", "report", str(tmp_path / "missing")]) == 2
    assert "no such file or folder" in capsys.readouterr().err


def test_cells_without_simgrid_block_are_left_out(folders, tmp_path, capsys):
    local = tmp_path / "local"
    path = write_cell(local, "x", K1, "ompi", 1.0, {"A": 1.0})
    data = json.loads(path.read_text())
    del data["simgrid"]
    path.write_text(json.dumps(data))
    assert cli.main(["simgrid", "report", str(local)]) == 2
    assert "no SimGrid cells" in capsys.readouterr().err
    assert cli.main(["simgrid", "report", str(local), str(folders[1])]) == 0
    assert "1 bench cell(s) without a simgrid block left out" in capsys.readouterr().out


def test_duplicates_and_ppn(folders, tmp_path, capsys):
    again = tmp_path / "again"
    write_cell(again, "alpha", K1, "mpich", 5.0, wall=1.0)  # alpha's mpich K1 once more
    path = write_cell(again, "alpha", K3, "ompi", 7.0, {"C": 9.0}, wall=1.0)
    data = json.loads(path.read_text())
    data["simgrid"]["ppn"] = 2  # another platform: two ranks per host
    path.write_text(json.dumps(data))
    cells, notes = simreport.read_cells([str(folders[0]), str(again)])
    assert len(notes) == 1 and "the same cell as" in notes[0] and "again" in notes[0]
    assert simreport.platforms(cells) == ["alpha", "alpha ppn 2"]
    natives = simreport.native_medians(cells)
    assert natives[("alpha", K1, "mpich")] == 4.0  # the first read, not the duplicate


def table_cell(folder, platform, key, native, table_from, times, steady, chosen):
    """A table layer's cell: native and `layer:table` alone, the table block of a table tuned
    on `table_from` (autocoll bench --table)."""
    path = write_cell(folder, platform, key, "ompi", native,
                      layers=[layer("table", times, steady, chosen, 0)])
    data = json.loads(path.read_text())
    path.unlink()
    data["table"] = {"path": f"/t/{table_from}.json", "platform": table_from, "cluster": None,
                     "created": "x"}
    path = path.with_name(f"table-{table_from}-{path.name}")
    path.write_text(json.dumps(data))
    return path


def test_table_layers_take_the_reference_oracle(folders, tmp_path):
    """A table cell has no fixed algorithm: its ratios use the platform's reference cell (alpha
    K1: oracle A, 5.0); tuned on alpha it is table_same, on beta table_other; both are kept
    (not duplicates of each other)."""
    tables = tmp_path / "tables"
    table_cell(tables, "alpha", K1, 10.0, "alpha", [5.0] * 120, 5.0, "A")
    table_cell(tables, "alpha", K1, 10.0, "beta", [8.0] * 120, 8.0, "B")
    cells, notes = simreport.read_cells([str(folders[0]), str(tables)])
    assert notes == []
    rows = simreport.strategy_rows(simreport.by_noise(cells)[0][1])
    same = row(rows, "alpha", "allreduce-8-np4-ompi", "table_same")
    other = row(rows, "alpha", "allreduce-8-np4-ompi", "table_other")
    assert (same["oracle"], same["steady_vs_oracle"], same["whole_vs_oracle"]) == \
        ("A", pytest.approx(1.0), pytest.approx(1.0))
    assert (other["steady_vs_oracle"], other["whole_vs_oracle"]) == (pytest.approx(1.6),
                                                                   pytest.approx(1.6))
    assert other["vs_native"] == {"ompi": pytest.approx(0.8), "mpich": pytest.approx(2.0)}
    assert (same["table_from"], other["table_from"]) == ("alpha", "beta")
    assert simreport.shown_strategy(other) == "table_other (beta)"
    # without a reference cell (beta has no K4) the oracle ratios are absent, not invented
    lone = tmp_path / "lone"
    table_cell(lone, "beta", K4, 3.0, "alpha", [2.0] * 20, 2.0, "C")
    cells, _ = simreport.read_cells([str(lone)])
    (r,) = simreport.strategy_rows(cells)
    assert (r["oracle"], r["steady_vs_oracle"], r["whole_vs_oracle"]) == (None, None, None)
    assert simreport.learning_costs(cells) == []


def test_learning_costs(folders):
    """calls x (mean - oracle mean): alpha K1 star_enhanced (20 x 20 + 100 x 5.05) - 120 x 5
    = 305 s, 61 oracle calls; race 120 x (11 - 5) = 720 s, 144 calls."""
    cells, _ = none_cells(folders)
    costs = {(r["platform"], r["cell"], r["strategy"]): r
             for r in simreport.learning_costs(cells)}
    star = costs[("alpha", "allreduce-8-np4-ompi", "star_enhanced")]
    assert (star["excess_seconds"], star["excess_calls"]) == (pytest.approx(305.0),
                                                              pytest.approx(61.0))
    race = costs[("alpha", "allreduce-8-np4-ompi", "race")]
    assert race["excess_calls"] == pytest.approx(144.0)
    # beta K2: 120 x (60 - 50) = 1200 s over the native oracle, 24 calls
    assert costs[("beta", "allreduce-64K-np4-ompi", "star_enhanced")]["excess_calls"] == \
        pytest.approx(24.0)
    by_ranks = simreport.learning_by_ranks(simreport.learning_costs(cells))
    # star_enhanced at 4 ranks: alpha K1 61, alpha K2 (20 x 200 + 100 x 80 - 120 x 80) / 80
    # = 30, beta K1 0, beta K2 24
    assert by_ranks[("star_enhanced", 4)] == (4, pytest.approx(27.0), pytest.approx(61.0))
    # race: alpha K1 144, alpha K2 120 x (100 - 80) / 80 = 30
    assert by_ranks[("race", 4)] == (2, pytest.approx(87.0), pytest.approx(144.0))
    assert simreport.slowest_candidate(simreport.reference_cells(cells)[("alpha", K1)]) == \
        ("native", pytest.approx(2.0))


def test_learning_curves_and_plots(folders, tmp_path):
    """The running mean over the oracle's mean: star_enhanced on alpha K1 starts at 20 / 5 and
    ends at its whole-run ratio; one figure per (noise, platform, ranks, collective)."""
    cells, groups = none_cells(folders)
    curves = simreport.learning_curves(cells)
    assert set(curves) == {("alpha", 4, "allreduce"), ("beta", 4, "allreduce")}
    panels = dict(curves[("alpha", 4, "allreduce")])
    assert sorted(panels) == [8, 65536]
    star = panels[8]["star_enhanced"]
    assert star[0] == pytest.approx(4.0)
    assert star[-1] == pytest.approx((20 * 20 + 100 * 5.05) / 120 / 5.0)
    assert len(star) == 120
    out = tmp_path / "plots"
    assert cli.main(["simgrid", "report", *map(str, folders), "--out",
                     str(tmp_path / "r.md"), "--plots", str(out)]) == 0
    names = sorted(p.name for p in out.iterdir())
    assert names == ["learning-alpha-np4-allreduce-exp_1e-05_seed_1.png",
                     "learning-alpha-np4-allreduce.png", "learning-beta-np4-allreduce.png"]
    assert all((out / n).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for n in names)
    assert "### 6. Learning cost" in (tmp_path / "r.md").read_text()

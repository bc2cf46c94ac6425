"""`autocoll simgrid adcl` (tools/autocoll/run/adcl.py, analysis/simadcl.py): ADCL's Tables 2 to
5 from simulated runs of examples/adcl_jacobi.c. One small cell really simulated (every
implementation forced, two searches, then a third added on resume), the tables' arithmetic on
cells whose answers are known, and bad input."""

import json

import pytest

from conftest import ROOT, autocoll_cli, build_dir

from autocoll.analysis import simadcl
from autocoll.run import adcl


@pytest.fixture(autouse=True)
def solver_built():
    build_dir("simgrid")
    assert (ROOT / "build/simgrid/adcl_jacobi").exists(), "build/simgrid has no adcl_jacobi"


def test_one_cell_end_to_end(tmp_path):
    common = ("simgrid", "adcl", "--platforms", "one-switch-gbe", "--ranks", "4", "--sizes",
              "8x8x4", "--iterations", "120", "--fixed-iterations", "20", "--out", str(tmp_path))
    r = autocoll_cli(*common, "--searches", "attribute,race")
    assert r.returncode == 0, r.stderr
    (path,) = tmp_path.glob("*.json")
    assert path.name == "one-switch-gbe-np4-8x8x4.json"
    cell = json.loads(path.read_text())
    names = adcl.implementations(ROOT / "build/simgrid/adcl_jacobi")
    assert len(names) == 21
    # every implementation ran forced, except the one SMPI cannot run (docs/adcl.md)
    assert cell["not_applicable"] == ["Neighbor_alltoallw"]
    assert sorted(cell["fixed"]) == sorted(set(names) - {"Neighbor_alltoallw"})
    assert all(t > 0 for t in cell["fixed"].values())
    assert len(set(cell["fixed"].values())) > 1  # the implementations differ here
    for search in ("attribute", "race"):
        got = cell["searches"][search]
        assert got["function"] in cell["fixed"]
        assert got["outcome"]["search"] == search and got["outcome"]["calls"] == 120
        assert got["seconds_per_iteration"] > 0
    assert (cell["searches"]["attribute"]["outcome"]["functions_measured"] <
            cell["searches"]["race"]["outcome"]["functions_measured"])
    assert "## Table 5" in r.stdout and (tmp_path / "tables.md").read_text() == r.stdout
    # resume: only the missing search runs, the fixed times are kept as they were
    again = autocoll_cli(*common, "--searches", "attribute,race,factorial")
    assert again.returncode == 0, again.stderr
    assert "(completing it)" in again.stderr
    # the finalists (estimated within 5 % of the best, at most 4) ran the whole solve too, and
    # the tables use those times
    assert 1 <= len(cell["fixed_full"]) <= 4
    best_estimate = min(cell["fixed_estimated"].values())
    for name, seconds in cell["fixed_full"].items():
        assert cell["fixed_estimated"][name] <= best_estimate * 1.05
        assert cell["fixed"][name] == seconds
        assert seconds == pytest.approx(cell["fixed_estimated"][name], rel=1e-3)
    after = json.loads(path.read_text())
    assert after["fixed"] == cell["fixed"]
    assert after["searches"]["attribute"] == cell["searches"]["attribute"]
    assert after["searches"]["factorial"]["outcome"]["search"] == "factorial"
    # a fixed implementation's time per iteration of a 120-iteration solve, extrapolated from
    # its 10- and 20-iteration runs, is that of a 120-iteration run within 0.1 %: the simulation
    # has no noise and every iteration after the first costs about the same
    for name in (min(cell["fixed"], key=cell["fixed"].get), "SendIrecv_pair"):
        whole = adcl.run_solver(ROOT / "build/simgrid/adcl_jacobi", "one-switch-gbe", 4,
                                   (8, 8, 4), 120, {"AUTOCOLL_ADCL_FUNCTION": name,
                                                    "AUTOCOLL_HISTORY": "off"})
        assert whole[1] == name
        assert whole[0] == pytest.approx(cell["fixed"][name], rel=1e-3)
        short = cell["fixed_measured"][name]
        assert short["10"] > cell["fixed"][name]  # the first iteration costs more


def synthetic(platform, ranks, size, fixed, searches=None):
    return {"platform": platform, "ranks": ranks, "size": size, "fixed": fixed,
            "searches": searches or {}, "wall_seconds": 1.0}


def test_finalists():
    est = {"a": 1.0, "b": 1.04, "c": 1.06, "d": 1.01, "e": 1.02, "f": 1.03}
    assert adcl.finalists(est) == ["a", "d", "e", "f"]
    assert adcl.finalists({"x": 2.0}) == ["x"]


def test_extrapolation():
    # 10 iterations at 1.5 (the first costs 6), 60 at 1.0833...: 1 per later iteration
    assert adcl.extrapolate(10, 1.5, 60, 65 / 60, 700) == pytest.approx(705 / 700)
    assert adcl.extrapolate(10, 2.0, 10, 2.0, 700) == 2.0


def test_tables_arithmetic():
    a = synthetic("A", 16, (32, 32, 32), {"f": 1.0, "g": 2.0, "h": 4.0},
                  {"race": {"seconds_per_iteration": 1.05, "function": "f",
                            "outcome": {"decided": True, "functions_measured": 3,
                                        "selection_calls": 9}}})
    b = synthetic("B", 16, (32, 32, 32), {"f": 3.0, "g": 1.5, "h": 2.0},
                  {"race": {"seconds_per_iteration": 1.5, "function": "h",
                            "outcome": {"decided": False, "functions_measured": 2,
                                        "selection_calls": 700}}})
    text = simadcl.tables([a, b], ["race"])
    # Table 2: winners f on A, g on B; A's second is g at +100 %, its slowest h at +300 %
    assert "| A | 16 | 32x32x32 | f | 1000000.000 | - | g | 100.00 % | 300.00 % |" in text
    assert "2 of 3 implementations are the fastest or tie with it somewhere" in text
    # ties within 0.1 %: named beside the fastest, the second is the fastest of the rest
    c = synthetic("C", 8, (8, 8, 8), {"f": 1.0, "g": 1.0005, "h": 1.5})
    assert "| C | 8 | 8x8x8 | f | 1000000.000 | g | h | 50.00 % | 50.00 % |" in simadcl.tables(
        [c], [])
    # Table 3: B's winner g run on A costs 100 %; A's winner f run on B costs 100 %
    assert "| A 16 32x32x32 | 0.00 % | 100.00 % |" in text
    assert "| B 16 32x32x32 | 100.00 % | 0.00 % |" in text
    # Table 5: A's race 5 % over and found the best; B's race ended undecided on h (+33.33 %)
    assert "| A | 16 | 32x32x32 | 5.00 % | 3 | 9 | = |" in text
    assert "h (33.33 %) (undecided)" in text
    assert "Worst overhead per search: race 5.00 %" in text


def test_bad_input_is_one_line(tmp_path):
    for args, want in [(("--ranks", "x"), "--ranks"), (("--sizes", "8x8"), "size '8x8'"),
                       (("--platforms", "nowhere"), "nowhere")]:
        r = autocoll_cli("simgrid", "adcl", "--out", str(tmp_path / "o"), *args)
        assert r.returncode == 2, r.stderr
        assert want in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr
    r = autocoll_cli("simgrid", "adcl", "--out", str(tmp_path / "empty"), "--tables-only")
    assert r.returncode == 2 and "no cells" in r.stderr

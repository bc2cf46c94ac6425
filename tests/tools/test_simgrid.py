"""The simulated-cluster benchmark (`autocoll bench --simgrid`, docs/simgrid.md): a 16-rank
cell on platforms/one-switch-gbe.xml, run twice.

- Simulated time is deterministic: the two runs give the same per-call times, to the bit.
- On this cell (allreduce of 8 B on 16 ranks) the best fixed algorithm is well ahead of the
  runner-up; the test checks that this is still so (at least 1.2 x, from the run's own medians)
  and then that `race` and `star` (enhanced and basic) settle on it, within 1000 calls, and
  that the table layer's trial (AUTOCOLL_TABLE_TRY 2 and 3) settles on the fastest it tries.
- The cell records its platform and selector; a platform that does not exist is refused.
- `autocoll tune --simgrid` writes a table for its platform, and the table layer runs it.

The results of every algorithm under SMPI are checked against native in ctest
(tests/simgrid/CMakeLists.txt: the harness and the demo on 16 simulated ranks)."""

import json
import os
import re
import shutil
import subprocess
import sys

import pytest

from conftest import ROOT, autocoll_cli as cli, registry

CELL = ["--simgrid", "one-switch-gbe", "--collectives", "allreduce", "--sizes", "8",
        "--ranks", "16", "--iterations", "1000", "--fixed-iterations", "10", "--warmup", "2",
        "--selectors", "ompi", "--layers", "native,star_enhanced,star_basic,race"]
NAME = "allreduce-8-np16-ompi.json"
SETTLE_MARGIN = 1.2


def simgrid_build():
    if shutil.which("smpirun") is None or \
            not (ROOT / "build/simgrid/bench/autocoll_bench").exists():
        pytest.fail("SimGrid or build/simgrid is missing: run scripts/setup")


@pytest.fixture(scope="module")
def two_runs(tmp_path_factory):
    simgrid_build()
    cells = []
    for run in ("first", "second"):
        out = tmp_path_factory.mktemp(run)
        done = cli("bench", "--out", str(out), *CELL, timeout=600)
        assert done.returncode == 0, done.stdout + done.stderr
        cells.append(json.loads((out / NAME).read_text()))
    return cells


def configurations(cell):
    return {c["name"]: c for c in cell["configurations"]}


def test_two_runs_give_the_same_simulated_times(two_runs):
    first, second = (configurations(c) for c in two_runs)
    assert first.keys() == second.keys()
    assert len(first) > 10  # native, the layers and the applicable fixed algorithms
    for name, conf in first.items():
        assert conf["times"] == second[name]["times"], name
        assert len(conf["times"]) == conf["iterations"] > 0


def test_the_cell_says_where_it_ran(two_runs):
    cell = two_runs[0]
    assert cell["mpi"] == "simgrid"
    assert cell["machine"]["simulated"] is True
    assert cell["simgrid"]["platform"] == "one-switch-gbe"
    assert cell["simgrid"]["selector"] == "ompi"
    assert cell["simgrid"]["wall_seconds"] > 0
    assert cell["parameters"]["compute"] == "sleep"


def test_strategies_settle_on_a_clear_winner(two_runs):
    cell = two_runs[0]
    confs = configurations(cell)
    candidates = sorted((c["median"], name) for name, c in confs.items()
                        if c["kind"] in ("native", "fixed"))
    (best, best_name), (runner_up, _) = candidates[0], candidates[1]
    assert best_name == cell["oracle"]["name"]
    # the premise: otherwise the cell no longer tests settling and must be replaced
    assert runner_up >= SETTLE_MARGIN * best, candidates[:3]
    for spec in ("race", "star_enhanced", "star_basic"):
        layer = confs["layer:" + spec]["layer"]
        (context,) = layer["contexts"]
        assert context["chosen"] == best_name, (spec, context["chosen"])
        assert context["decision_calls"] < 1000, spec
        # after deciding, the layer's calls cost what the winner costs
        steady = sorted(confs["layer:" + spec]["times"][-100:])[50]
        assert steady <= 1.02 * best, (spec, steady, best)


@pytest.fixture(scope="module")
def clock_cell(tmp_path_factory):
    """The same cell with every call started at one instant of the simulated clock (--sync
    clock). Without it a call's time holds the skew the previous call left between the ranks,
    and an algorithm's time in the fixed runs (nothing but the computation between calls) is not
    its time inside the table layer's trial, whose agreements realign the ranks: with the sender
    paying, recursive_doubling measured 192 us a call in the cell and 137 us in the trial."""
    simgrid_build()
    out = tmp_path_factory.mktemp("clock")
    done = cli("bench", "--out", str(out), *CELL[:CELL.index("--layers")], "--layers", "",
               "--sync", "clock", timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    return json.loads((out / NAME).read_text())


@pytest.mark.parametrize("tries", [2, 3])
def test_table_try_settles_on_the_fastest_it_tries(clock_cell, tmp_path, tries):
    """AUTOCOLL_TABLE_TRY (docs/table.md) on the cell timed from a common start: a rule listing
    a slow fixed algorithm (the fastest one at least 1.2 x behind the runner-up), the runner-up
    and the best, in that order. With 3 the trial races them and native and settles on the best
    (at least 1.2 x ahead, checked); with 2 the best never runs and the runner-up wins. Then the
    layer's calls cost what the winner costs."""
    confs = configurations(clock_cell)
    ranked = sorted((c["median"], name) for name, c in confs.items()
                    if c["kind"] == "fixed")
    slow = next(name for median, name in ranked if median >= SETTLE_MARGIN * ranked[1][0])
    listed = [slow, ranked[1][1], ranked[0][1], "native"]
    table = tmp_path / "table.json"
    table.write_text(json.dumps({
        "schema": "autocoll-table", "version": 2,
        "registry_fingerprint": registry("openmpi")["registry_fingerprint"],
        "platform": {"hostname": "test"}, "cells": [],
        "rules": [{"collective": "allreduce", "ranks": [1, None], "bytes": [0, None],
                   "algorithms": listed}]}))
    tried = {name: confs[name]["median"] for name in listed[:tries] + ["native"]}
    expected = min(tried, key=tried.get)
    assert expected == listed[tries - 1]
    assert all(t >= SETTLE_MARGIN * tried[expected] for n, t in tried.items() if n != expected)
    cell = CELL[:CELL.index("--layers")] + ["--layers", "native,table", "--only", "native",
                                            "--sync", "clock"]
    done = subprocess.run(
        [sys.executable, "-m", "autocoll.cli", "bench", "--out", str(tmp_path / "run"), *cell],
        env={**os.environ, "AUTOCOLL_TABLE": str(table), "AUTOCOLL_TABLE_TRY": str(tries)},
        capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    ran = configurations(json.loads((tmp_path / "run" / NAME).read_text()))["layer:table"]
    (context,) = ran["layer"]["contexts"]
    assert context["table_try"] == tries and context["chosen"] == expected, context
    assert set(context["runs"]) <= set(tried), context
    steady = sorted(ran["times"][-100:])[50]
    assert steady <= 1.02 * tried[expected], (steady, tried)


SPLIT_TOLERANCE = 1e-3  # docs/simgrid.md, --jobs: times depend a little on the simulated instant


def test_a_cell_in_parts_is_the_cell_of_one_simulation(two_runs, tmp_path):
    """`--jobs 3` deals the fixed algorithms among three simulations side by side and merges
    them: the same configurations in the same order (native, the fixed algorithms, the layer),
    the same skipped algorithms, medians within SPLIT_TOLERANCE of one simulation's, the same
    oracle time; the shares' folder is gone."""
    done = cli("bench", "--out", str(tmp_path), *CELL, "--layers", "native", "--jobs", "3",
               timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    split = json.loads((tmp_path / NAME).read_text())
    whole = two_runs[0]
    assert split["simgrid"]["simulations"] == 3
    assert not list(tmp_path.glob("*.parts"))
    expected = [c["name"] for c in whole["configurations"] if c["kind"] != "layer"]
    assert [c["name"] for c in split["configurations"]] == expected + ["layer:native"]
    assert split["skipped"] == whole["skipped"]
    by_name = configurations(whole)
    for conf in split["configurations"]:
        reference = by_name[conf["name"]]["median"]
        assert abs(conf["median"] - reference) <= SPLIT_TOLERANCE * reference, conf["name"]
    assert split["oracle"]["median"] == pytest.approx(whole["oracle"]["median"],
                                                      rel=SPLIT_TOLERANCE)
    assert split["parameters"]["only"] is None


def test_jobs_are_refused_where_they_would_change_the_times(tmp_path):
    """--jobs without --simgrid, or with --noise, is refused before any cell runs."""
    for extra in (["--jobs", "2"], ["--jobs", "2", "--simgrid", "one-switch-gbe",
                                     "--noise", "exp:1e-5"], ["--jobs", "0", "--simgrid",
                                                               "one-switch-gbe"]):
        done = cli("bench", "--out", str(tmp_path / "out"), "--collectives", "bcast", "--sizes",
                   "8", "--ranks", "2", *extra, timeout=60)
        assert done.returncode == 1, done.stdout + done.stderr
        assert "--jobs" in done.stderr
        assert not (tmp_path / "out").exists() or not list((tmp_path / "out").iterdir())


def test_smpi_settings_reach_the_simulation_and_the_cell(tmp_path):
    """`--cfg KEY:VALUE` is refused without --simgrid or without a colon, before any cell runs;
    with --simgrid it reaches smpirun (a key SimGrid does not know fails the cell) and is
    recorded in the cell's simgrid block."""
    for extra in (["--cfg", "network/optim:Full"],
                  ["--simgrid", "one-switch-gbe", "--cfg", "network/optim"]):
        done = cli("bench", "--out", str(tmp_path / "refused"), "--collectives", "bcast",
                   "--sizes", "8", "--ranks", "2", *extra, timeout=60)
        assert done.returncode == 1, done.stdout + done.stderr
        assert "--cfg" in done.stderr
        assert not (tmp_path / "refused").exists() or not list((tmp_path / "refused").iterdir())
    simgrid_build()
    cell = ["--simgrid", "one-switch-gbe", "--collectives", "bcast", "--sizes", "8", "--ranks",
            "3", "--iterations", "2", "--fixed-iterations", "2", "--warmup", "1", "--selectors",
            "ompi", "--layers", "", "--only", "binomial_tree"]
    done = cli("bench", "--out", str(tmp_path / "full"), *cell, "--cfg", "network/optim:Full",
               timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    ran = json.loads((tmp_path / "full" / "bcast-8-np3-ompi.json").read_text())
    assert ran["simgrid"]["cfg"] == ["network/optim:Full"]
    done = cli("bench", "--out", str(tmp_path / "unknown"), *cell, "--cfg",
               "autocoll/no-such-setting:1", timeout=300)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "no-such-setting" in done.stderr


def test_excluded_algorithms_are_left_out_and_recorded(tmp_path):
    """`--exclude` leaves its algorithms out of every cell (the driver records them as not
    selected, every other fixed algorithm runs) and the cell lists those of its collective; a
    name that is not a fixed algorithm of the run's collectives, or native, is refused before
    any cell runs."""
    simgrid_build()
    cell = ["--simgrid", "one-switch-gbe", "--collectives", "reduce", "--sizes", "8", "--ranks",
            "3", "--iterations", "2", "--fixed-iterations", "2", "--warmup", "1", "--selectors",
            "ompi", "--layers", ""]
    for bad in ("no_such_algorithm", "native"):
        done = cli("bench", "--out", str(tmp_path / bad), *cell, "--exclude", bad, timeout=300)
        assert done.returncode == 1, done.stdout + done.stderr
        assert f"--exclude {bad}" in done.stderr
        assert not (tmp_path / bad).exists() or not list((tmp_path / bad).iterdir())
    for run, extra in (("all", []), ("less", ["--exclude", "flat_tree_segment_1k,binomial_tree",
                                              "--collectives", "reduce,allgather"])):
        done = cli("bench", "--out", str(tmp_path / run), *cell, *extra, timeout=300)
        assert done.returncode == 0, done.stdout + done.stderr
    # allgather has neither: its cell records nothing left out
    assert "excluded" not in json.loads(
        (tmp_path / "less" / "allgather-8-np3-ompi.json").read_text())["parameters"]
    whole = json.loads((tmp_path / "all" / "reduce-8-np3-ompi.json").read_text())
    less = json.loads((tmp_path / "less" / "reduce-8-np3-ompi.json").read_text())
    assert less["parameters"]["excluded"] == ["binomial_tree", "flat_tree_segment_1k"]
    ran = {c["name"] for c in whole["configurations"]}
    assert {"binomial_tree", "flat_tree_segment_1k"} <= ran
    assert {c["name"] for c in less["configurations"]} == \
        ran - {"binomial_tree", "flat_tree_segment_1k"}
    not_selected = {s["name"] for s in less["skipped"] if s["reason"] == "not selected by --only"}
    assert not_selected == {"binomial_tree", "flat_tree_segment_1k"}


def test_an_unknown_platform_is_refused(tmp_path):
    done = cli("bench", "--out", str(tmp_path), "--simgrid", "no-such-platform",
               "--collectives", "allreduce", "--sizes", "8", "--ranks", "2")
    assert done.returncode == 1
    assert "no platform 'no-such-platform'" in done.stderr
    assert not list(tmp_path.glob("*.json"))


def test_tune_on_a_platform_and_run_its_table(tmp_path):
    """`autocoll tune --simgrid --sync barrier` writes a table that names its platform and its
    sync; `autocoll bench --table` runs the table layer with it on the same platform (the
    table's rule for the cell on every call) and records the table in the cell; the same run
    with AUTOCOLL_TABLE set by hand gives the same simulated times."""
    simgrid_build()
    tuned = cli("tune", "--simgrid", "torus-3d", "--out", str(tmp_path / "tune"),
                "--collectives", "allreduce", "--sizes", "64K", "--ranks", "8",
                "--iterations", "10", "--warmup", "2", "--sync", "barrier", timeout=600)
    assert tuned.returncode == 0, tuned.stdout + tuned.stderr
    table = json.loads((tmp_path / "tune/table.json").read_text())
    assert table["mpi"] == "simgrid"
    assert table["platform"]["simgrid"] == {"platform": "torus-3d", "ppn": 1, "selector": "ompi"}
    assert table["sweep"]["sync"] == "barrier"
    (rule,) = table["rules"]
    assert rule["ppn"] == [1, 1]  # the layout swept: one rank a node
    cell = json.loads((tmp_path / "tune/allreduce-64K-np8-ompi.json").read_text())
    assert cell["parameters"]["sync"] == "barrier"
    first = rule["algorithms"][0]  # one count swept: the floor lookup's winner, then native
    assert first == cell["oracle"]["name"] or rule["algorithms"] == ["native"]
    args = ["bench", "--simgrid", "torus-3d", "--collectives", "allreduce", "--sizes", "64K",
            "--ranks", "8", "--iterations", "20", "--fixed-iterations", "2", "--warmup", "1",
            "--layers", "table", "--selectors", "ompi", "--only", "native"]
    bench = cli(*args, "--out", str(tmp_path / "bench"), "--table",
                str(tmp_path / "tune/table.json"), timeout=600)
    assert bench.returncode == 0, bench.stdout + bench.stderr
    ran = json.loads((tmp_path / "bench/allreduce-64K-np8-ompi.json").read_text())
    layer = next(c for c in ran["configurations"] if c["name"] == "layer:table")
    assert layer["layer"]["algorithm_runs"] == [[first, 20]]
    assert ran["table"]["path"] == str((tmp_path / "tune/table.json").resolve())
    assert ran["table"]["platform"] == "torus-3d"
    by_hand = subprocess.run(
        [sys.executable, "-m", "autocoll.cli", *args, "--out", str(tmp_path / "by-hand")],
        env={**os.environ, "AUTOCOLL_TABLE": str(tmp_path / "tune/table.json")},
        capture_output=True, text=True, timeout=600)
    assert by_hand.returncode == 0, by_hand.stdout + by_hand.stderr
    again = json.loads((tmp_path / "by-hand/allreduce-64K-np8-ompi.json").read_text())
    assert "table" not in again
    assert next(c for c in again["configurations"]
                if c["name"] == "layer:table")["times"] == layer["times"]


def mesh_factors(name, ranks):
    """Whether an orthogonal layout's leading sizes divide `ranks` into lines of 2 or more (the
    layer's AC_REQ_MESH_LAYOUT); True for every other name."""
    m = re.match(r"orthogonal_(\d+)(?:x(\d+))?xn_", name)
    if not m:
        return True
    lead = int(m.group(1)) * int(m.group(2) or 1)
    return ranks % lead == 0 and ranks // lead >= 2


@pytest.mark.parametrize("ranks", [12, 7])
def test_a_generalised_table_at_counts_never_swept(tmp_path, ranks):
    """`autocoll tune --simgrid fat-tree-ib --ranks 4,8` (allreduce, 8 B and 1 KiB) writes a
    version 2 table from the model cross-validation chose; the demo on 12 and on 7 ranks (never
    swept) under AUTOCOLL_STRATEGY=table runs the first algorithm of the covering rule's list
    that can run there (7 ranks: no mesh layout factors it) and its results are correct."""
    simgrid_build()
    tuned = cli("tune", "--simgrid", "fat-tree-ib", "--out", str(tmp_path / "tune"),
                "--collectives", "allreduce", "--sizes", "8,1K", "--ranks", "4,8",
                "--iterations", "10", "--warmup", "2", "--sync", "barrier", timeout=600)
    assert tuned.returncode == 0, tuned.stdout + tuned.stderr
    assert "leave-one-count-out cross-validation" in tuned.stdout
    table = json.loads((tmp_path / "tune/table.json").read_text())
    assert table["version"] == 2
    report = tmp_path / "report.json"
    env = {**os.environ, "AUTOCOLL_STRATEGY": "table",
           "AUTOCOLL_TABLE": str(tmp_path / "tune/table.json"), "AUTOCOLL_REPORT": str(report)}
    run = subprocess.run([sys.executable, "-m", "autocoll.cli", "simgrid", "run", "--platform",
                          "fat-tree-ib", "-n", str(ranks), str(ROOT / "build/simgrid/demo"), "20"],
                         env=env, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0 and "demo: results correct (0 wrong values)" in run.stdout, \
        run.stdout + run.stderr
    world = json.loads(report.read_text())["communicators"][0]
    (x,) = world["collectives"]["allreduce"]["contexts"]
    rule = next(r for r in table["rules"] if r["ranks"][0] <= ranks and
                (r["ranks"][1] is None or ranks <= r["ranks"][1]) and r["bytes"][0] <= x["bytes"]
                and (r["bytes"][1] is None or x["bytes"] <= r["bytes"][1]))
    expected = next(a for a in rule["algorithms"] if mesh_factors(a, ranks))
    assert x["stage"] == "rule" and x["chosen"] == expected, (rule, x)
    assert x["runs"] == {expected: 20}, x


def test_a_table_tuned_at_two_ranks_a_node_runs_there_only(tmp_path):
    """`autocoll tune --simgrid --ppn 2` keys its rules by that layout (docs/table.md): the demo
    on 4 ranks at 2 a node runs the rule's algorithm on every call, at 1 a node no rule covers
    its context and it runs native."""
    simgrid_build()
    tuned = cli("tune", "--simgrid", "fat-tree-ib", "--ppn", "2", "--out", str(tmp_path / "tune"),
                "--collectives", "allreduce", "--sizes", "8", "--ranks", "4",
                "--iterations", "10", "--warmup", "2", "--sync", "barrier", timeout=600)
    assert tuned.returncode == 0, tuned.stdout + tuned.stderr
    table = json.loads((tmp_path / "tune/table.json").read_text())
    (rule,) = table["rules"]
    assert rule["ppn"] == [2, 2] and rule["ranks"] == [4, None], rule
    for ppn, stage in ((2, "rule"), (1, None)):
        report = tmp_path / f"report-{ppn}.json"
        env = {**os.environ, "AUTOCOLL_STRATEGY": "table", "AUTOCOLL_REPORT": str(report),
               "AUTOCOLL_TABLE": str(tmp_path / "tune/table.json")}
        run = subprocess.run([sys.executable, "-m", "autocoll.cli", "simgrid", "run",
                              "--platform", "fat-tree-ib", "-n", "4", "--ppn", str(ppn),
                              str(ROOT / "build/simgrid/demo"), "20"],
                             env=env, capture_output=True, text=True, timeout=600)
        assert run.returncode == 0 and "results correct" in run.stdout, run.stdout + run.stderr
        (x,) = json.loads(report.read_text())["communicators"][0]["collectives"]["allreduce"][
            "contexts"]
        if stage:
            assert x["stage"] == "rule" and x["runs"] == {rule["algorithms"][0]: 20}, x
        else:
            assert x["stage"] != "rule" and x["runs"] == {"native": 20}, x
            assert "no rule ran" in run.stderr, run.stderr


def test_bench_refuses_a_file_that_is_no_table(tmp_path):
    """--table with a file that is not a configuration table fails before any cell runs."""
    simgrid_build()
    bogus = tmp_path / "bogus.json"
    bogus.write_text('{"schema": "autocoll-bench", "version": 1}')
    done = cli("bench", "--simgrid", "torus-3d", "--out", str(tmp_path / "out"),
               "--collectives", "allreduce", "--sizes", "8", "--ranks", "4", "--layers", "table",
               "--table", str(bogus), timeout=60)
    assert done.returncode == 1
    assert "not a configuration table" in done.stderr
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("sync", ["none", "barrier"])
def test_sync_barrier_times_a_bcast_from_ranks_in_step(tmp_path, sync):
    """A bcast does not synchronise its ranks: without --sync barrier they drift apart and,
    after a few calls, each call costs only the busiest rank's own per-message overheads (the
    root's sends at 5.69 us each on this platform: 34.15 us), below two network latencies
    (30.7 us one way, platforms/README.md), where a tree over 16 ranks is at least two deep.
    With the barrier every call pays the latency to the last of the 16 ranks (323.9 us)."""
    simgrid_build()
    done = cli("bench", "--simgrid", "one-switch-gbe", "--out", str(tmp_path),
               "--collectives", "bcast", "--sizes", "1K", "--ranks", "16", "--iterations", "1000",
               "--warmup", "2", "--layers", "", "--only", "native", "--selectors", "ompi",
               "--sync", sync, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    cell = json.loads((tmp_path / "bcast-1K-np16-ompi.json").read_text())
    assert cell["parameters"]["sync"] == sync
    (native,) = [c for c in cell["configurations"] if c["kind"] == "native"]
    last = sorted(native["times"][-100:])[50]
    if sync == "barrier":
        assert native["median"] > 30.7e-6 and last > 30.7e-6
    else:
        assert last < 2 * 30.7e-6


def test_sync_clock_starts_every_rank_at_one_instant(tmp_path):
    """--sync clock starts each call on every rank at one instant of SMPI's global clock, so a
    bcast's time ends at its last receiver: on 2 neighbouring nodes of fat-tree-ib, the one-way
    latency `pingpong` measures (half its round trip). A barrier releases the ranks apart and
    its skew adds to that (the other way round at 256 ranks, where a late receiver found the
    data already there: docs/simgrid.md)."""
    simgrid_build()
    ping = cli("simgrid", "run", "--platform", "fat-tree-ib", "-n", "2",
               str(ROOT / "build/simgrid/bench/pingpong"), "8", timeout=120)
    assert ping.returncode == 0, ping.stdout + ping.stderr
    (one_way,) = [float(line.split()[1]) * 1e-6 for line in ping.stdout.splitlines()
                  if line.split()[:1] == ["8"]]
    times = {}
    for sync in ("clock", "barrier"):
        done = cli("bench", "--simgrid", "fat-tree-ib", "--out", str(tmp_path / sync),
                   "--collectives", "bcast", "--sizes", "8", "--ranks", "2", "--iterations", "5",
                   "--fixed-iterations", "5", "--warmup", "1", "--layers", "", "--only",
                   "flat_tree", "--selectors", "ompi", "--sync", sync, timeout=120)
        assert done.returncode == 0, done.stdout + done.stderr
        cell = json.loads((tmp_path / sync / "bcast-8-np2-ompi.json").read_text())
        assert cell["parameters"]["sync"] == sync
        times[sync] = configurations(cell)["flat_tree"]["times"]
    assert len(set(times["clock"])) == 1, times["clock"]
    assert abs(times["clock"][0] / one_way - 1) < 0.01, (times["clock"][0], one_way)
    assert min(times["barrier"]) > 1.3 * one_way, (times["barrier"], one_way)


def test_sync_clock_needs_a_global_clock(tmp_path):
    """Real MPI's clocks are not one clock (MPI_WTIME_IS_GLOBAL is false): the driver refuses
    --sync clock (exit 2) and `autocoll bench` refuses it without --simgrid, before any cell."""
    driver = ROOT / "build/openmpi/bench/autocoll_bench"
    done = subprocess.run([str(driver), "--collective", "bcast", "--bytes", "8", "--sync",
                           "clock"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2, done.stdout + done.stderr
    assert "MPI_WTIME_IS_GLOBAL" in done.stderr
    done = cli("bench", "--out", str(tmp_path / "out"), "--collectives", "bcast", "--sizes", "8",
               "--ranks", "2", "--sync", "clock", timeout=60)
    assert done.returncode == 1
    assert "--sync clock needs one clock shared by every rank" in done.stderr
    assert not (tmp_path / "out").exists()


def test_a_deadlocked_simulation_fails():
    """smpirun 3.32 exits 0 after "Deadlock detected"; `autocoll simgrid run` exits 3."""
    simgrid_build()
    done = cli("simgrid", "run", "--platform", "one-switch-gbe", "-n", "2",
               str(ROOT / "build/simgrid/tests/simgrid/deadlock"), timeout=120)
    assert done.returncode == 3, done.stdout + done.stderr
    assert "Deadlock detected" in done.stderr
    assert "the simulation deadlocked" in done.stderr
    assert "was not expected to get here" not in done.stdout
    ok = cli("simgrid", "run", "--platform", "one-switch-gbe", "-n", "2",
             str(ROOT / "build/simgrid/bench/pingpong"), "8", timeout=120)
    assert ok.returncode == 0, ok.stdout + ok.stderr


def overlap_time(tmp_path, mode, env):
    """One run of bench/overlap's halo exchange (docs/results/overlap-neighbor-2026-11-27): 16
    ranks, 8 a node, on fat-tree-ib, 64 KiB an edge, 100 us computed; its median us and the
    layer's report."""
    report = tmp_path / f"report-{mode}.json"
    done = subprocess.run(
        [str(ROOT / ".venv/bin/autocoll"), "simgrid", "run", "--platform", "fat-tree-ib", "-n",
         "16", "--ppn", "8", "--cfg", "smpi/test:1e-7", "--cfg", "smpi/grow-injected-times:no",
         str(ROOT / "build/simgrid/bench/overlap"), "--collective", "neighbor_alltoall",
         "--bytes", "65536", "--compute", "100", "--iterations", "10", "--mode", mode],
        capture_output=True, text=True, timeout=300,
        env={**{k: v for k, v in os.environ.items() if not k.startswith("AUTOCOLL")},
             "AUTOCOLL_HISTORY": "off", "AUTOCOLL_REPORT": str(report), **env})
    assert done.returncode == 0, done.stdout + done.stderr
    return json.loads(done.stdout.splitlines()[-1])["median_us"], json.loads(report.read_text())


def test_a_nonblocking_halo_exchange_overlaps_the_computation(tmp_path):
    """SMPI 3.32 has no neighbourhood collectives; the layer runs MPI_Neighbor_alltoall and
    MPI_Ineighbor_alltoall there with its own engines (docs/neighbor.md). The nonblocking
    exchange of 64 KiB an edge, started before 100 us of computation, must hide most of it:
    the iteration takes at most 0.8 of the blocking exchange after the computation (0.703 when
    measured), every MPI_Ineighbor_alltoall run by the layer's isend_irecv."""
    simgrid_build()
    forced = {"AUTOCOLL_NEIGHBOR_ALLTOALL": "isend_irecv"}
    blocking, _ = overlap_time(tmp_path, "blocking", forced)
    nonblocking, report = overlap_time(tmp_path, "nonblocking", forced)
    assert blocking > 100 and nonblocking < 0.8 * blocking, (nonblocking, blocking)
    ran = report["nonblocking_run"]["MPI_Ineighbor_alltoall"]
    assert ran["algorithms"] == {"isend_irecv": 10}, ran


def test_a_nonblocking_race_finds_the_node_aware_allreduce(tmp_path):
    """A nonblocking race with the composed families (AUTOCOLL_RACE_COMPOSED, docs/nonblocking.md)
    on 8 nodes of 8 ranks (fat-tree-ib, MPI_Iallreduce of 64 KiB, bench/overlap, simulated:
    deterministic): its first stage's hierarchical multi-leader instance wins, the second stage
    races that family's six instances and settles on one of them, at least 1.1 x as fast as the
    race without the families, which settles on the ring. Which of the six, and by how much, is
    the node's physics: on the node of docs/results/overlap-ppn8-2026-11-27 (one host, its
    transfers without a bound) two leaders a node with Rabenseifner between them, 53.40 us an
    iteration against the ring's 71.61 us; on the node of one host a rank (platforms/README.md,
    2026-11-28) four leaders, 59.67 us against 71.61 us."""
    simgrid_build()
    times, ran = {}, {}
    for composed in ("on", "off"):
        report = tmp_path / f"report-{composed}.json"
        done = subprocess.run(
            [str(ROOT / ".venv/bin/autocoll"), "simgrid", "run", "--platform", "fat-tree-ib",
             "-n", "64", "--ppn", "8", "--cfg", "smpi/test:1e-7", "--cfg",
             "smpi/grow-injected-times:no", str(ROOT / "build/simgrid/bench/overlap"),
             "--collective", "allreduce", "--bytes", "65536", "--compute", "0",
             "--iterations", "60"],
            capture_output=True, text=True, timeout=600,
            env={**{k: v for k, v in os.environ.items() if not k.startswith("AUTOCOLL")},
                 "AUTOCOLL_HISTORY": "off", "AUTOCOLL_REPORT": str(report),
                 "AUTOCOLL_STRATEGY": "race", "AUTOCOLL_RACE_COMPOSED": composed})
        assert done.returncode == 0, done.stdout + done.stderr
        times[composed] = json.loads(done.stdout.splitlines()[-1])["median_us"]
        ran[composed] = json.loads(report.read_text())["nonblocking_run"]["MPI_Iallreduce"]
    # written as schedules, but those with a phase of the library's own, which a simulated
    # build keeps blocking only (coll/common/phase.c); the registry read is a real build's
    family = [a["name"] for a in registry("openmpi", 64)["algorithms"]
              if a["collective"] == "allreduce" and a["group"] == "hierarchical_multi_leader"
              and a["schedule"] and "native" not in a["name"]]
    assert len(family) == 6, family
    algorithms = ran["on"]["algorithms"]
    assert all(algorithms.get(name, 0) >= 2 for name in family), algorithms
    settled = max(algorithms, key=algorithms.get)
    assert settled in family, algorithms
    assert max(ran["off"]["algorithms"], key=ran["off"]["algorithms"].get) == "ring", ran["off"]
    assert times["on"] < 0.9 * times["off"], times


def test_a_copy_through_shared_memory_costs_its_bandwidth(tmp_path):
    """bcast `shm` (coll/common/shm.h) moves no message: its time is the copies autocoll charges
    at the platform's autocoll/shm-copy-bw (fat-tree-ib: 10e9 bytes a second) and its barriers.
    1 MiB on 4 ranks of one node is 16 chunks of 64 KiB: the root's copy of each chunk overlaps
    the others' copy of the one before, so 17 chunk copies lie on the path, plus 16 barriers of
    2 intra-node steps (under 1.5 us each). Free copies would leave the barriers alone (about
    16 us); on a platform without the property the algorithm does not apply."""
    simgrid_build()
    plain = tmp_path / "no-copy-bandwidth.xml"
    plain.write_text("".join(line for line in
                             (ROOT / "platforms/fat-tree-ib.xml").read_text().splitlines(True)
                             if "autocoll/shm-copy-bw" not in line))
    cells = {}
    for name, platform in (("priced", "fat-tree-ib"), ("plain", str(plain))):
        done = cli("bench", "--simgrid", platform, "--out", str(tmp_path / name), "--ppn", "4",
                   "--collectives", "bcast", "--sizes", "1M", "--ranks", "4", "--iterations",
                   "3", "--fixed-iterations", "3", "--warmup", "1", "--layers", "", "--only",
                   "native,shm", "--selectors", "ompi", "--sync", "clock", timeout=300)
        assert done.returncode == 0, done.stdout + done.stderr
        cells[name] = json.loads((tmp_path / name / "bcast-1M-np4-ompi.json").read_text())
    chunk = 64 * 1024 / 10e9
    (t,) = set(configurations(cells["priced"])["shm"]["times"])
    assert 17 * chunk < t < 17 * chunk + 16 * 1.5e-6, (t, 17 * chunk)
    assert "shm" not in configurations(cells["plain"])
    (skipped,) = [s for s in cells["plain"]["skipped"] if s["name"] == "shm"]
    assert "autocoll/shm-copy-bw" in skipped["reason"], skipped

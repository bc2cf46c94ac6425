"""`autocoll tune`: cells to rules as docs/table.md says (intervals from the measured points,
merging along bytes then across rank bands, the margin, noisy cells), and one small real sweep
under MPI (every rule a registry algorithm, the build's fingerprint, resume)."""

import json
import re

import pytest

from autocoll.analysis import generalise, tune

from conftest import autocoll_cli as cli, registry


def cell(coll, ranks, nbytes, winner, times=None):
    times = times or {"native": 2.0, winner: 1.0}
    return {"collective": coll, "ranks": ranks, "bytes": nbytes, "times": times,
            "spread": {n: 1.1 for n in times}, "winner": winner, "noisy": False}


def shape(rules):
    return [(r["collective"], r["ranks"], r["bytes"], r["algorithm"]) for r in rules]


SIZES = [8, 64, 1024, 8192]


def test_intervals_from_measured_points_first_from_zero_last_open():
    assert tune.intervals([8, 64, 1024]) == [[8, 63], [64, 1023], [1024, None]]
    assert tune.intervals([5]) == [[5, None]]
    rules = tune.rules_from_cells([cell("allreduce", 2, s, w)
                                   for s, w in zip(SIZES, ["a", "b", "c", "d"])])
    assert shape(rules) == [("allreduce", [2, None], [0, 63], "a"),
                            ("allreduce", [2, None], [64, 1023], "b"),
                            ("allreduce", [2, None], [1024, 8191], "c"),
                            ("allreduce", [2, None], [8192, None], "d")]


def test_equal_winners_merge_along_bytes_keeping_the_first_cells_times():
    cells = [cell("bcast", 4, 8, "a", {"native": 3.0, "a": 1.0}),
             cell("bcast", 4, 64, "a", {"native": 5.0, "a": 2.0}),
             cell("bcast", 4, 1024, "native", {"native": 1.0, "a": 2.0}),
             cell("bcast", 4, 8192, "a")]
    rules = tune.rules_from_cells(cells)
    assert shape(rules) == [("bcast", [4, None], [0, 1023], "a"),
                            ("bcast", [4, None], [1024, 8191], "native"),
                            ("bcast", [4, None], [8192, None], "a")]
    assert (rules[0]["seconds"], rules[0]["native_seconds"]) == (1.0, 3.0)


def test_adjacent_equal_bands_merge_and_separated_ones_do_not():
    winners = {2: ["a", "a", "b", "b"], 4: ["a", "a", "b", "b"], 8: ["a", "c", "c", "c"],
               16: ["a", "a", "b", "b"], 32: ["a", "a", "b", "b"]}
    cells = [cell("alltoall", r, s, w) for r, ws in winners.items() for s, w in zip(SIZES, ws)]
    rules = tune.rules_from_cells(cells)
    assert shape(rules) == [("alltoall", [2, 7], [0, 1023], "a"),
                            ("alltoall", [2, 7], [1024, None], "b"),
                            ("alltoall", [8, 15], [0, 63], "a"),
                            ("alltoall", [8, 15], [64, None], "c"),
                            ("alltoall", [16, None], [0, 1023], "a"),
                            ("alltoall", [16, None], [1024, None], "b")]


def test_rules_of_a_simulated_sweep_name_the_layout_swept():
    """with_layout: at 8 ranks a node (block placement) the fullest node of a rule's counts
    [lo, hi] holds min(8, lo) to min(8, hi) ranks; an open band is at 8 from its first count on."""
    rules = [{"collective": "bcast", "ranks": [2, 7], "bytes": [0, None], "algorithms": ["a"]},
             {"collective": "bcast", "ranks": [4, 15], "bytes": [0, None], "algorithms": ["b"]},
             {"collective": "bcast", "ranks": [16, None], "bytes": [0, None], "algorithms": ["c"]},
             {"collective": "bcast", "ranks": [3, None], "bytes": [0, None], "algorithms": ["d"]}]
    keyed = tune.with_layout(rules, 8)
    assert [r["ppn"] for r in keyed] == [[2, 7], [4, 8], [8, 8], [3, 8]]
    assert [{k: v for k, v in r.items() if k != "ppn"} for r in keyed] == rules
    assert [r["ppn"] for r in tune.with_layout(rules, 1)] == [[1, 1]] * 4


def test_collectives_keep_their_own_points():
    cells = [cell("allreduce", 2, 8, "a"), cell("allreduce", 2, 64, "b"),
             cell("alltoall", 3, 1, "x"), cell("alltoall", 5, 1, "y")]
    assert shape(tune.rules_from_cells(cells)) == [
        ("allreduce", [2, None], [0, 63], "a"), ("allreduce", [2, None], [64, None], "b"),
        ("alltoall", [3, 4], [0, None], "x"), ("alltoall", [5, None], [0, None], "y")]


def bench_result(times, p10=None, p90=None, coll="allreduce", ranks=2, nbytes=64):
    p10, p90 = p10 or {}, p90 or {}
    return {"parameters": {"collective": coll, "bytes": nbytes}, "machine": {"ranks": ranks},
            "configurations": [
                {"name": n, "kind": "native" if n == "native" else "fixed", "median": t,
                 "min": t / 2, "p10": p10.get(n, t), "p90": p90.get(n, t * 1.1)}
                for n, t in times.items()]
            + [{"name": "layer:race", "kind": "layer", "median": 0.001, "min": 0.001,
                "p10": 1.0, "p90": 1.0}]}


def test_margin_native_wins_unless_beaten_by_more_than_it():
    for other, winner in [(0.99, "native"), (0.98, "native"), (0.97, "ring")]:
        entry = tune.cell_entry(bench_result({"native": 1.0, "ring": other}), "median", 0.02)
        assert entry["winner"] == winner, other
    # layers are never candidates, whatever their times; min is a statistic of its own
    entry = tune.cell_entry(bench_result({"native": 1.0, "ring": 0.5}), "min", 0.0)
    assert entry["times"] == {"native": 0.5, "ring": 0.25} and entry["winner"] == "ring"


def test_noisy_cells_and_the_steadier_repetition():
    quiet = tune.cell_entry(bench_result({"native": 1.0, "ring": 0.5},
                                         p10={"native": 1.0, "ring": 0.5},
                                         p90={"native": 1.4, "ring": 0.7}), "median", 0.02)
    assert tune.noisy_configurations(quiet, 1.5) == []
    loud_native = tune.cell_entry(bench_result({"native": 1.0, "ring": 0.5},
                                               p10={"native": 1.0, "ring": 0.5},
                                               p90={"native": 1.6, "ring": 0.55}), "median", 0.02)
    assert tune.noisy_configurations(loud_native, 1.5) == ["native"]
    loud_winner = tune.cell_entry(bench_result({"native": 1.0, "ring": 0.5},
                                               p10={"native": 1.0, "ring": 0.5},
                                               p90={"native": 1.0, "ring": 1.0}), "median", 0.02)
    assert tune.noisy_configurations(loud_winner, 1.5) == ["ring"]
    # an unknown spread (p10 of 0) is noisy
    zero = tune.cell_entry(bench_result({"native": 1.0}, p10={"native": 0.0}), "median", 0.02)
    assert zero["spread"]["native"] is None and tune.noisy_configurations(zero, 1.5) == ["native"]
    # a quiet repetition first, then the smallest spread of the winner, then the earliest
    assert tune.steadier([loud_native, quiet, quiet], 1.5) == 1
    assert tune.steadier([loud_native, loud_winner], 1.5) == 0
    assert tune.steadier([loud_winner, loud_native], 1.5) == 1


def test_sizes_the_driver_refuses_are_left_out():
    assert [s for s in (1, 4, 8, 12, 16) if tune.accepts("allreduce", s, 3)] == [8, 16]
    assert [s for s in (8, 24, 48) if tune.accepts("reduce_scatter_block", s, 3)] == [24, 48]
    assert tune.accepts("alltoall", 1, 3) and not tune.accepts("barrier", 8, 2)


def test_build_table_members():
    cells = [cell("allreduce", 2, 8, "ring")]
    t = tune.build_table(cells, {"statistic": "median"}, "0123456789abcdef", "0.1.0", "openmpi",
                         "Open MPI v4.1.4", {"hostname": "h", "cores_online": 2, "cluster": None},
                         "2026-01-01T00:00:00Z")
    assert (t["schema"], t["version"], t["registry_fingerprint"]) == ("autocoll-table", 2,
                                                                      "0123456789abcdef")
    assert t["cells"] == cells and [(r["ranks"], r["bytes"], r["algorithms"]) for r in
                                    t["rules"]] == [([2, None], [0, None], ["ring", "native"])]
    json.dumps(t)


SWEEP = ["--collectives", "allreduce", "--sizes", "8,1K", "--ranks", "2,3", "--iterations", "10",
         "--warmup", "1", "--factor", "0", "--repeats", "1", "--spread-limit", "1.0"]


@pytest.fixture(scope="module")
def sweep(tmp_path_factory):
    out = tmp_path_factory.mktemp("tune")
    run = cli("tune", "--out", str(out), *SWEEP)
    assert run.returncode == 0, run.stdout + run.stderr
    return out, run


def test_sweep_writes_a_table_of_registry_algorithms(sweep):
    out, run = sweep
    table = json.loads((out / "table.json").read_text())
    reg = registry("openmpi")
    names = {a["name"] for a in reg["algorithms"] if a["collective"] == "allreduce"}
    assert table["schema"] == "autocoll-table" and table["version"] == 2
    assert table["registry_fingerprint"] == reg["registry_fingerprint"]
    assert table["mpi"] == "openmpi" and "Open MPI" in table["mpi_library"]
    assert table["platform"]["cores_online"] >= 1 and table["platform"]["cluster"] is None
    assert {(c["ranks"], c["bytes"]) for c in table["cells"]} == {(2, 8), (2, 1024), (3, 8),
                                                                  (3, 1024)}
    # static names, or mesh layouts by their family names (valid at any size, docs/table.md)
    layout = re.compile(r"orthogonal_(\d+x)+n_(" + "|".join(
        p for f in reg["families"] if f["collective"] == "allreduce" for p in f["phases"]) + ")")
    assert table["rules"] and all(r["collective"] == "allreduce" and
                                  all(a in names or layout.fullmatch(a) for a in r["algorithms"])
                                  for r in table["rules"])
    # the model cross-validation chose (which one depends on the timings of this shared
    # machine: the floor lookup when idle, the ensemble in some runs): the floor lookup covers
    # counts from the smallest swept, a learned model every count
    model = table["models"]["allreduce"]["model"]
    assert model in generalise.MODELS and f"chosen: {model}" in run.stdout
    assert [r["ranks"][0] for r in table["rules"]][0] == (2 if model == "floor" else 1)
    assert table["rules"][-1]["ranks"][1] is None and table["rules"][0]["bytes"][0] == 0
    for c in table["cells"]:
        assert "native" in c["times"] and not any(n.startswith("layer:") for n in c["times"])
        assert c["winner"] in names
    # a spread limit of 1.0 makes cells noisy: each was run once more into repeat-1/
    assert sorted(p.name for p in (out / "repeat-1").glob("*.json")) == sorted(
        p.name for p in out.glob("allreduce-*.json"))
    assert "rules (ranks, bytes: algorithm):" in run.stdout and "noisy cells" in run.stdout


def test_second_run_reruns_nothing(sweep):
    out, first = sweep
    before = (out / "table.json").read_text()
    again = cli("tune", "--out", str(out), *SWEEP)
    assert again.returncode == 0, again.stderr
    started = [line for line in again.stdout.splitlines()
               if re.fullmatch(r"\[\d+/\d+\] .* \.\.\.", line)]  # a cell measured again
    assert not started and again.stdout.count("done earlier, kept") >= 4, again.stdout
    table, old = json.loads((out / "table.json").read_text()), json.loads(before)
    assert table["cells"] == old["cells"] and table["rules"] == old["rules"]


def test_a_kept_cell_of_other_options_is_refused(sweep):
    out, _ = sweep
    options = SWEEP.copy()
    options[options.index("--iterations") + 1] = "11"
    run = cli("tune", "--out", str(out), *options)
    assert run.returncode == 1 and "this sweep asks 11" in run.stderr


def test_profile_bins_stand_for_sizes_the_driver_takes():
    assert tune.representative("allgather", 512, 1023, 2) == 512
    assert tune.representative("allreduce", 64, 127, 3) == 64
    assert tune.representative("allreduce", 4, 7, 3) is None  # no multiple of 8 in the bin
    assert tune.representative("allreduce", 8, 15, 3) == 8
    assert tune.representative("alltoall", 0, 0, 2) is None  # 0 bytes: nothing to tune
    assert tune.representative("reduce_scatter_block", 16, 31, 3) == 24
    assert tune.representative("bcast", 1 << 40, None, 4) == 1 << 40


def test_profile_plan_takes_what_the_program_used(tmp_path):
    def row(coll, size, *bins):
        return {"collective": coll, "comm_size": size, "communicators": 1, "calls": 1,
                "seconds": 1e-3, "sizes": [{"bytes": list(b), "calls": 1, "seconds": 1e-4}
                                           for b in bins]}
    report = tmp_path / "report.json"
    report.write_text(json.dumps({"schema": "autocoll-report", "version": 1, "profile": [
        row("allreduce", 3, (4, 7), (64, 127), (1024, 2047)),
        row("allreduce", 8, (65536, 131071)),
        row("allgather", 1, (8, 15)),          # one rank: nothing to choose
        row("barrier", 3, (0, 0)),
        row("bcast", 3, (1024, 2047), (1 << 40, None)),
        row("neighbor_alltoall", 4, (64, 127))]}))  # no topology in the driver
    known = {"allreduce": [], "allgather": [], "barrier": [], "bcast": [],
             "neighbor_alltoall": []}
    logged = []
    plan = tune.profile_plan(report, known, logged.append)
    assert plan == {("allreduce", 3): [64, 1024], ("allreduce", 8): [65536],
                    ("barrier", 3): [0], ("bcast", 3): [1024, 1 << 40]}
    assert any("[4, 7] bytes: no size" in m for m in logged), logged
    assert any("allgather on 1 ranks is not tuned" in m for m in logged), logged
    assert any("neighbor_alltoall is not tuned here" in m for m in logged), logged
    empty = tmp_path / "empty.json"
    empty.write_text(json.dumps({"schema": "autocoll-report", "version": 1, "profile": []}))
    with pytest.raises(tune.TuneError, match="nothing to tune"):
        tune.profile_plan(empty, known, logged.append)
    old = tmp_path / "old.json"
    old.write_text(json.dumps({"schema": "autocoll-report", "version": 1}))
    with pytest.raises(tune.TuneError, match="no collective profile"):
        tune.profile_plan(old, known, logged.append)


def test_tune_from_a_programs_profile(tmp_path):
    """A program's report (tests/mpi/table_calls.c at 3 ranks) tunes exactly its collectives,
    communicator size and sizes, and the table it gives is read by the layer."""
    from conftest import run_mpi
    program = run_mpi("openmpi", 3, "tests/mpi/table_calls", tmp_path, args=["3"])
    assert "ok" in program.stdout, program.stdout + program.stderr
    report = tmp_path / "report-openmpi-3.json"  # run_mpi's AUTOCOLL_REPORT
    out = tmp_path / "tune"
    run = cli("tune", "--out", str(out), "--profile", str(report),
              "--iterations", "5", "--warmup", "1", "--factor", "0", "--repeats", "0")
    assert run.returncode == 0, run.stdout + run.stderr
    table = json.loads((out / "table.json").read_text())
    assert sorted((c["collective"], c["ranks"], c["bytes"]) for c in table["cells"]) == [
        ("allgather", 3, 512), ("allreduce", 3, 64), ("allreduce", 3, 1024),
        ("allreduce", 3, 65536), ("bcast", 3, 1024)]
    assert table["sweep"]["profile"] == str(report)
    layer = run_mpi("openmpi", 3, "tests/mpi/table_calls", tmp_path / "tune",
                    env={"AUTOCOLL_STRATEGY": "table", "AUTOCOLL_TABLE": str(out / "table.json")},
                    args=["3"])
    assert "ok" in layer.stdout and "AUTOCOLL_TABLE" not in layer.stderr, layer.stderr
    contexts = layer.collective("MPI_COMM_WORLD", "allreduce")["contexts"]
    assert {x["bytes"]: x["stage"] for x in contexts}[1024] == "rule"


def test_neighbourhood_collectives_are_refused(tmp_path):
    """The driver has no topology communicator: asking to tune a neighbourhood collective is an
    error that says so, before any run."""
    run = cli("tune", "--out", str(tmp_path / "t"), "--collectives", "allreduce,neighbor_alltoall",
              "--sizes", "8", "--ranks", "2")
    assert run.returncode != 0
    assert "neighbor_alltoall: the benchmark driver has no topology communicator" in (
        run.stdout + run.stderr), run.stdout + run.stderr
    assert not (tmp_path / "t" / "table.json").exists()

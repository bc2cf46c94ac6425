"""The configuration table under MPI (AUTOCOLL_TABLE, docs/table.md): the `table` strategy runs
the rule covering each context (native where none does, or where the rule's algorithm is not
applicable, with a warning); a bad table is reported once with its path and reason and every
call runs native; the table's cells seed a run-time strategy. (Parsing, checks and lookups
without MPI: tests/unit/test_table.c.)"""

import json

import pytest

from autocoll.analysis import benchreport
from conftest import build_dir, registry, run_mpi

ITERATIONS = 20


def table_text(mpi, rules, cells=(), fingerprint=None):
    return json.dumps({
        "schema": "autocoll-table", "version": 1,
        "registry_fingerprint": fingerprint or registry(mpi)["registry_fingerprint"],
        "platform": {"hostname": "test"}, "rules": list(rules), "cells": list(cells)})


def rule(coll, ranks, nbytes, algorithm):
    return {"collective": coll, "ranks": ranks, "bytes": nbytes, "algorithm": algorithm}


def run_calls(mpi, np, tmp_path, env):
    run = run_mpi(mpi, np, "tests/mpi/table_calls", tmp_path, env=env, args=[str(ITERATIONS)])
    assert f"table_calls: {ITERATIONS} iterations, ok" in run.stdout, run.stdout + run.stderr
    return run


def contexts(run, coll):
    """{bytes: context} of the world communicator's `coll` (one context per size: no sites)."""
    return {x["bytes"]: x for x in run.collective("MPI_COMM_WORLD", coll)["contexts"]}


RULES = [rule("allreduce", [1, None], [0, 1023], "ring"),
         rule("allreduce", [1, None], [1024, 65535], "recursive_doubling"),
         rule("allreduce", [1, None], [65536, None], "native"),
         rule("allgather", [1, None], [0, None], "pair")]  # pair: power-of-two sizes only


@pytest.mark.parametrize("mpi,np", [("openmpi", 4), ("mpich", 3), ("openmpi", 1)])
def test_table_strategy_runs_the_rules(mpi, np, tmp_path):
    table = tmp_path / "table.json"
    table.write_text(table_text(mpi, RULES))
    run = run_calls(mpi, np, tmp_path, {"AUTOCOLL_STRATEGY": "table",
                                        "AUTOCOLL_TABLE": str(table), "AUTOCOLL_MAX_SITES": "0"})
    allreduce = contexts(run, "allreduce")
    expected = {64: "ring", 1024: "recursive_doubling", 65536: "native"}
    for nbytes, name in expected.items():
        x = allreduce[nbytes]
        assert x["strategy"] == "table" and x["chosen"] == name, x
        assert x["runs"] == {name: ITERATIONS}, x
        assert x["stage"] == "rule" and x["decision_calls"] == 0, x
    assert allreduce[4]["chosen"] == "ring"  # the final 4-byte MPI_INT check
    gather, = contexts(run, "allgather").values()
    warning = f"the table's pair for {np} ranks and 512 bytes is not applicable here"
    if np & (np - 1) == 0:
        assert gather["chosen"] == "pair" and gather["stage"] == "rule", gather
        assert warning not in run.stderr, run.stderr
    else:
        assert gather["chosen"] == "native" and gather["stage"] == "no_rule", gather
        assert run.stderr.count(warning) == 1, run.stderr
        assert "power-of-two communicator size" in run.stderr, run.stderr


def test_table_that_covers_no_call_says_so(tmp_path):
    """A table whose rules are all for other process counts: every call runs native, and the
    run says so once at the end instead of staying silent; at AUTOCOLL_VERBOSE=2 a table that
    covers the run says how much of it."""
    table = tmp_path / "table.json"
    table.write_text(table_text("openmpi", [rule("allreduce", [64, None], [0, None], "ring")]))
    env = {"AUTOCOLL_STRATEGY": "table", "AUTOCOLL_TABLE": str(table), "AUTOCOLL_MAX_SITES": "0"}
    run = run_calls("openmpi", 2, tmp_path, env)
    assert run.stderr.count("no rule ran in any of rank 0's 6 tuning contexts") == 1, run.stderr
    assert all(x["chosen"] == "native" for x in contexts(run, "allreduce").values())
    table.write_text(table_text("openmpi", RULES))
    run = run_calls("openmpi", 2, tmp_path, {**env, "AUTOCOLL_VERBOSE": "2"})
    assert "no rule ran" not in run.stderr, run.stderr
    assert "rules ran in 5 of rank 0's 6 tuning contexts" in run.stderr, run.stderr


def test_table_rules_beyond_the_context_limits(tmp_path):
    """The table strategy has no call sites (the rules do not depend on them), and a call beyond
    AUTOCOLL_MAX_SIZES contexts is still looked up in the table rather than run native."""
    table = tmp_path / "table.json"
    table.write_text(table_text("openmpi", RULES))
    run = run_calls("openmpi", 4, tmp_path, {"AUTOCOLL_STRATEGY": "table",
                                              "AUTOCOLL_TABLE": str(table),
                                              "AUTOCOLL_MAX_SIZES": "1"})
    allreduce = run.collective("MPI_COMM_WORLD", "allreduce")
    assert len(allreduce["contexts"]) == 1, allreduce["contexts"]
    assert all(x["site"] == "*" for x in allreduce["contexts"]), allreduce["contexts"]  # site-less
    calls = {name: a["calls"] for name, a in allreduce["algorithms"].items()}
    # 64 B and the final 4 B check: ring; 1 KiB: recursive doubling; 64 KiB: native
    assert calls == {"ring": ITERATIONS + 1, "recursive_doubling": ITERATIONS,
                     "native": ITERATIONS}, calls
    assert allreduce["untuned"] == 0, allreduce


def test_twin_of_the_rule_runs_in_its_place(tmp_path):
    """A rule naming a segmented tree whose segment holds the whole message runs its unsegmented
    twin, the candidate selection keeps (the same messages)."""
    mpi, np = "openmpi", 3
    table = tmp_path / "table.json"
    table.write_text(table_text(mpi, [rule("bcast", [1, None], [0, None],
                                           "binomial_tree_segment_8k")]))
    run = run_calls(mpi, np, tmp_path, {"AUTOCOLL_STRATEGY": "table",
                                        "AUTOCOLL_TABLE": str(table)})
    x, = contexts(run, "bcast").values()
    assert x["bytes"] == 1024 and x["stage"] == "rule", x
    assert x["chosen"] == "binomial_tree" and x["runs"] == {"binomial_tree": ITERATIONS}, x
    assert "not applicable" not in run.stderr


# What `autocoll tune` records of the library (the driver's mpi_library), per MPI: the other
# MPI's, and the first line the layer compares (blanks folded).
OTHER_LIBRARY = {"openmpi": "MPICH Version:\t4.0.2\nMPICH Release date:\tThu Mar 10 2022\n",
                 "mpich": "Open MPI v4.1.4, package: Debian OpenMPI, ident: 4.1.4, repo rev: "
                          "v4.1.4, May 26, 2022"}
OTHER_LINE = {"openmpi": "MPICH Version: 4.0.2", "mpich": OTHER_LIBRARY["mpich"]}


def bad_tables(mpi, tmp_path):
    """(name, path, the reason the warning must give)"""
    fine = json.loads(table_text(mpi, RULES))
    cases = {
        "missing": (None, "No such file or directory"),
        "not_json": ("{\"schema\": \"autocoll-table\",", "line 1, column 29: a member name"),
        "fingerprint": (table_text(mpi, RULES, fingerprint="0123456789abcdef"),
                        "registry fingerprint 0123456789abcdef"),
        "unknown_algorithm": (table_text(mpi, [rule("allreduce", [1, None], [0, None],
                                                    "quantum")]),
                              "rule 0: allreduce has no algorithm \"quantum\""),
        "version": (json.dumps({**fine, "version": 3}), "version other than 1 to 2"),
        "directory": ("", "a directory"),
        # JSON leaves a repeated member's meaning open: the first, the last? Refused.
        "two_rules": (table_text(mpi, RULES)[:-1] + ", \"rules\": []}",
                      "the member \"rules\" appears twice"),
        # tuned under the other MPI library: both builds have the same registry fingerprint
        "other_mpi": (json.dumps({**fine, "mpi_library": OTHER_LIBRARY[mpi]}),
                      f"tuned under \"{OTHER_LINE[mpi]}\", this run's MPI library is "),
    }
    out = []
    for name, (text, reason) in cases.items():
        path = tmp_path / f"{name}.json"
        if name == "directory":
            path.mkdir()
        elif text is not None:
            path.write_text(text)
        out.append((name, path, reason))
    return out


@pytest.mark.parametrize("mpi", ["openmpi", "mpich"])
def test_bad_table_is_reported_and_ignored(mpi, tmp_path):
    for name, path, reason in bad_tables(mpi, tmp_path):
        d = tmp_path / name
        d.mkdir()
        run = run_calls(mpi, 3, d, {"AUTOCOLL_STRATEGY": "table", "AUTOCOLL_TABLE": str(path)})
        assert run.stderr.count(f"AUTOCOLL_TABLE={path}: ") == 1, (name, run.stderr)
        assert reason in run.stderr, (name, run.stderr)
        assert run.stderr.count("without a usable AUTOCOLL_TABLE: every call runs native") == 1
        for coll in ("allreduce", "allgather", "bcast"):
            for x in contexts(run, coll).values():
                assert x["chosen"] == "native" and x["stage"] == "no_rule", (name, x)


def test_table_seeds_a_runtime_strategy(tmp_path):
    """With star, a context history does not know starts from the table's covering cell: every
    candidate known, Monitor_Adapt from the first call on the cell's fastest."""
    mpi, np = "openmpi", 4
    names = [a["name"] for a in registry(mpi, np)["algorithms"] if a["collective"] == "allreduce"]
    times = {name: 1e-3 for name in names}
    times["ring"] = 1e-4  # the cell's fastest
    cells = [{"collective": "allreduce", "ranks": 2, "bytes": 1024, "times": times}]
    table = tmp_path / "table.json"
    table.write_text(table_text(mpi, [], cells))
    run = run_calls(mpi, np, tmp_path, {"AUTOCOLL_STRATEGY": "star", "AUTOCOLL_HISTORY": "off",
                                        "AUTOCOLL_TABLE": str(table)})
    allreduce = contexts(run, "allreduce")
    for nbytes in (1024, 65536):  # covered by the cell of 1024 bytes (the largest <= them)
        x = allreduce[nbytes]
        assert x["warm"] is True and x["warm_from"] == "table", x
        assert x["decision_calls"] == 0 and x["stage"] == "monitor_adapt", x
        assert "ring" in x["runs"], x
    for nbytes in (4, 64):  # below the smallest size: the smallest cell covers them too
        assert allreduce[nbytes]["warm_from"] == "table", allreduce[nbytes]
    # allgather has no cell: a cold start
    gather, = contexts(run, "allgather").values()
    assert gather["warm"] is False and "warm_from" not in gather, gather


@pytest.mark.parametrize("mpi", ["openmpi", "mpich"])
def test_table_runs_an_orthogonal_layout(mpi, tmp_path):
    """A rule naming a mesh layout runs it through the layer at the sizes it factors (its line
    communicators built on the first call, reused after) and native where it does not."""
    table = tmp_path / "table.json"
    table.write_text(table_text(mpi, [rule("allreduce", [1, None], [0, None],
                                           "orthogonal_2xn_recursive_doubling")]))
    for np, expected in [(4, "orthogonal_2xn_recursive_doubling"), (3, "native")]:
        run = run_calls(mpi, np, tmp_path, {"AUTOCOLL_STRATEGY": "table",
                                            "AUTOCOLL_TABLE": str(table),
                                            "AUTOCOLL_MAX_SITES": "0"})
        for nbytes, x in contexts(run, "allreduce").items():
            assert x["chosen"] == expected, (np, nbytes, x)
        if expected == "native":
            assert "a communicator size the mesh layout factors" in run.stderr, run.stderr


@pytest.mark.parametrize("mpi,np,expected", [
    ("openmpi", 1, "recursive_doubling"), ("openmpi", 2, "recursive_doubling"),
    ("openmpi", 3, "recursive_doubling"), ("openmpi", 4, "orthogonal_2xn_recursive_doubling"),
    ("openmpi", 5, "recursive_doubling"), ("openmpi", 6, "orthogonal_2xn_recursive_doubling"),
    ("openmpi", 7, "recursive_doubling"), ("mpich", 3, "recursive_doubling")])
def test_version_2_runs_the_first_applicable_algorithm(mpi, np, expected, tmp_path):
    """Format version 2 (docs/table.md): a rule lists algorithms in order of preference and
    the layer runs the first applicable one, at any count: the mesh layout where 2 divides the
    count into lines of 2 or more, the next one where it does not (1, 2, 3, 5, 7), with no
    warning; results checked by table_calls.
    Allgather's list is all power-of-two-only (pair): native with one warning elsewhere."""
    table = tmp_path / "table.json"
    text = json.loads(table_text(mpi, []))
    text["version"] = 2
    text["rules"] = [
        {"collective": "allreduce", "ranks": [1, None], "bytes": [0, None],
         "algorithms": ["orthogonal_2xn_recursive_doubling", "recursive_doubling", "native"]},
        {"collective": "allgather", "ranks": [1, None], "bytes": [0, None],
         "algorithms": ["pair"]}]
    table.write_text(json.dumps(text))
    run = run_calls(mpi, np, tmp_path, {"AUTOCOLL_STRATEGY": "table",
                                        "AUTOCOLL_TABLE": str(table), "AUTOCOLL_MAX_SITES": "0"})
    for nbytes, x in contexts(run, "allreduce").items():
        assert x["chosen"] == expected and x["stage"] == "rule", (nbytes, x)
        assert x["runs"] == {expected: ITERATIONS if nbytes != 4 else 1}, x
    power_of_two = np & (np - 1) == 0
    assert run.stderr.count("not applicable here") == (0 if power_of_two else 1), run.stderr
    gather, = contexts(run, "allgather").values()
    assert gather["chosen"] == ("pair" if power_of_two else "native"), gather


def allreduce_table(mpi, tmp_path, algorithms):
    """A version 2 table of one rule: allreduce at every count and size, `algorithms`."""
    table = tmp_path / "table.json"
    text = json.loads(table_text(mpi, []))
    text["version"] = 2
    text["rules"] = [{"collective": "allreduce", "ranks": [1, None], "bytes": [0, None],
                      "algorithms": algorithms}]
    table.write_text(json.dumps(text))
    return table


TRIAL_RULE = ["orthogonal_2xn_recursive_doubling", "ring", "recursive_doubling",
              "rabenseifner_ring", "native"]


@pytest.mark.parametrize("mpi,np,tried", [
    ("openmpi", 4, {"orthogonal_2xn_recursive_doubling", "ring"}),
    ("openmpi", 3, {"ring", "recursive_doubling"}), ("mpich", 5, {"ring", "recursive_doubling"}),
    ("openmpi", 2, {"ring", "recursive_doubling"})])
def test_table_try_races_the_rules_first_candidates(mpi, np, tried, tmp_path):
    """AUTOCOLL_TABLE_TRY=2 (docs/table.md, "Trying a rule's first few"): a context races the
    first two algorithms of its rule that can run there (the mesh layout where 2 divides the
    count into lines of 2 or more) and native, and runs the one race settles on; nothing else
    of the rule runs. Results checked by table_calls; the report says table, the trial's size
    and race's decision."""
    iterations = 60
    table = allreduce_table(mpi, tmp_path, TRIAL_RULE)
    history = tmp_path / "history"
    run = run_mpi(mpi, np, "tests/mpi/table_calls", tmp_path, args=[str(iterations)],
                  env={"AUTOCOLL_STRATEGY": "table", "AUTOCOLL_TABLE": str(table),
                       "AUTOCOLL_TABLE_TRY": "2", "AUTOCOLL_HISTORY": str(history)})
    assert f"table_calls: {iterations} iterations, ok" in run.stdout, run.stdout + run.stderr
    assert "\ncontext" in history.read_text(), "the trials' measurements are kept"
    for nbytes, x in contexts(run, "allreduce").items():
        calls = 1 if nbytes == 4 else iterations
        assert x["strategy"] == "table" and x["table_try"] == 2, x
        assert set(x["runs"]) <= tried | {"native"} and sum(x["runs"].values()) == calls, x
        if calls > 1:
            assert "native" in x["runs"] and len(x["runs"]) >= 2, x
            assert x["chosen"] in tried | {"native"} and x["decision_calls"] > 0, x
            assert x["stage"] != "rule", x
    assert "not applicable here" not in run.stderr, run.stderr
    # the next run starts from what the trials measured: warm, from history (a race among the
    # chosen one's group members never measured at most), and still among the same few
    again = run_mpi(mpi, np, "tests/mpi/table_calls", tmp_path, args=[str(iterations)],
                    env={"AUTOCOLL_STRATEGY": "table", "AUTOCOLL_TABLE": str(table),
                         "AUTOCOLL_TABLE_TRY": "2", "AUTOCOLL_HISTORY": str(history)})
    assert f"table_calls: {iterations} iterations, ok" in again.stdout, again.stderr
    for nbytes, x in contexts(again, "allreduce").items():
        if nbytes == 4:
            continue
        assert x["warm"] is True and x["warm_from"] == "history", x
        assert set(x["runs"]) <= tried | {"native"} and x["chosen"] in tried | {"native"}, x
        # at most a race among the few (AUTOCOLL_RACE_ROUNDS 4 x AUTOCOLL_RACE_SAMPLES 3 each)
        assert x["decision_calls"] <= 4 * 3 * len(tried), x


@pytest.mark.parametrize("listed,tried", [
    (["orthogonal_2xn_recursive_doubling", "native"], None),
    (["orthogonal_2xn_recursive_doubling", "native", "ring"], {"native", "ring"})])
def test_table_try_counts_what_can_run(listed, tried, tmp_path):
    """On 3 ranks no 2 x n layout runs: AUTOCOLL_TABLE_TRY=2 takes the first two of the rest.
    When that is native alone there is no trial: the rule runs native (stage rule, no
    table_try), as with AUTOCOLL_TABLE_TRY=1; with ring after native, native and ring race."""
    mpi, np = "openmpi", 3
    table = allreduce_table(mpi, tmp_path, listed)
    run = run_calls(mpi, np, tmp_path, {"AUTOCOLL_STRATEGY": "table", "AUTOCOLL_TABLE":
                                        str(table), "AUTOCOLL_TABLE_TRY": "2"})
    for nbytes, x in contexts(run, "allreduce").items():
        if tried is None:
            assert x["stage"] == "rule" and x["chosen"] == "native", x
            assert "table_try" not in x, x
        else:
            assert x["table_try"] == 2 and set(x["runs"]) <= tried, x
            assert nbytes == 4 or set(x["runs"]) == tried, x


@pytest.mark.parametrize("mpi,np", [("openmpi", 4), ("mpich", 3)])
def test_model_measures_a_rules_first_candidates(mpi, np, tmp_path):
    """AUTOCOLL_STRATEGY=model with AUTOCOLL_TABLE (docs/model.md, "A table's rule"): where the
    table has no cell for a context, its first decision measures the first AUTOCOLL_TABLE_TRY
    algorithms of the rule beside its own picks. The rule names the two candidates the model
    predicts slowest, which it never measures alone (the monitor's epsilon is so large here that
    no second decision comes after the first); with the table both run, and the first decision
    stays within the budget (AUTOCOLL_MODEL_BUDGET, 20). Results checked by table_calls."""
    iterations = 60
    env = {"AUTOCOLL_STRATEGY": "model", "AUTOCOLL_HISTORY": "off", "AUTOCOLL_MAX_SITES": "0",
           "AUTOCOLL_MODEL_EPSILON": "1000"}
    alone = run_mpi(mpi, np, "tests/mpi/table_calls", tmp_path, env=env, args=[str(iterations)])
    assert f"table_calls: {iterations} iterations, ok" in alone.stdout, alone.stderr
    x = contexts(alone, "allreduce")[1024]
    slowest = sorted(x["predicted"], key=x["predicted"].get)[-2:]
    assert not set(slowest) & set(x["runs"]), x
    assert "table_suggested" not in x, x
    table = allreduce_table(mpi, tmp_path, slowest + ["native"])
    run = run_mpi(mpi, np, "tests/mpi/table_calls", tmp_path, args=[str(iterations)],
                  env={**env, "AUTOCOLL_TABLE": str(table), "AUTOCOLL_TABLE_TRY": "2"})
    assert f"table_calls: {iterations} iterations, ok" in run.stdout, run.stdout + run.stderr
    for nbytes, x in contexts(run, "allreduce").items():
        if nbytes == 4:  # one call: the first of the decision (native)
            continue
        assert x["strategy"] == "model" and x["warm"] is False, x
        assert x["table_try"] == 2 and x["table_suggested"] == 2, x
        assert set(slowest) <= set(x["runs"]), x
        assert 0 < x["decision_calls"] <= 20 and x["decisions"] == 1, x
    # a measured cell at another process count (2 ranks) does not stand for this one: the rule
    # is still suggested; a cell at this count seeds the contexts as for the other strategies
    times = {name: 1e-3 for name in x["predicted"]}
    times["native"] = 1e-3
    times[slowest[0]] = 1e-4
    text = json.loads(table.read_text())
    for ranks, seeded in ((2, False), (np, True)):
        text["cells"] = [{"collective": "allreduce", "ranks": ranks, "bytes": 8, "times": times}]
        table.write_text(json.dumps(text))
        run = run_mpi(mpi, np, "tests/mpi/table_calls", tmp_path, args=[str(iterations)],
                      env={**env, "AUTOCOLL_TABLE": str(table), "AUTOCOLL_TABLE_TRY": "2"})
        assert f"table_calls: {iterations} iterations, ok" in run.stdout, run.stderr
        for nbytes in (64, 1024, 65536):
            x = contexts(run, "allreduce")[nbytes]
            assert x["warm"] is seeded, x
            if seeded:
                assert x["warm_from"] == "table" and "table_suggested" not in x, x
                assert x["decision_calls"] == 0 and x["chosen"] == slowest[0], x
            else:
                assert x["table_suggested"] == 2 and set(slowest) <= set(x["runs"]), x


def test_bench_table_layer(tmp_path):
    """The driver's `table` layer runs the table's algorithm and is measured against native in
    the same run (benchreport's improvement table); without a usable table it is refused
    rather than measuring native under another name."""
    mpi, np = "openmpi", 4
    table = tmp_path / "table.json"
    table.write_text(table_text(mpi, [rule("bcast", [1, None], [0, None],
                                           "orthogonal_2xn_binomial_tree")]))
    out = tmp_path / "cell.json"
    args = ["--collective", "bcast", "--bytes", "4096", "--iterations", "40",
            "--fixed-iterations", "10", "--warmup", "2", "--factor", "0",
            "--only", "orthogonal_2xn_binomial_tree", "--layers", "table", "--out", str(out)]
    run = run_mpi(mpi, np, "bench/autocoll_bench", tmp_path, preload=False, report=False,
                  env={"AUTOCOLL_TABLE": str(table)}, args=args)
    assert run.rc == 0, run.stdout + run.stderr
    data = json.loads(out.read_text())
    layer, = [c for c in data["configurations"] if c["kind"] == "layer"]
    assert layer["layer"]["spec"] == "table"
    assert layer["layer"]["algorithm_runs"][-1][0] == "orthogonal_2xn_binomial_tree", layer
    # Site-less even though the driver switches to the table strategy after MPI_Init, when
    # AUTOCOLL_MAX_SITES (default 8) was read: no call-site agreement in the measured calls.
    assert [x["site"] for x in layer["layer"]["contexts"]] == ["*"], layer["layer"]["contexts"]
    c = benchreport.cell(data)
    text = benchreport.improvement_table([c])
    row, = [line for line in text.splitlines() if line.strip().startswith("table ")]
    percent = 100.0 * (1.0 - c["rows"][0]["steady_vs_native"])
    assert row.split()[1:4] == ["bcast", "4", "1"], row
    assert [float(v) for v in row.split()[4:7]] == [round(percent, 1)] * 3, row
    refused = run_mpi(mpi, np, "bench/autocoll_bench", tmp_path, preload=False, report=False,
                      args=args)
    assert refused.rc == 2 and "needs a usable configuration table" in refused.stderr, \
        refused.stderr

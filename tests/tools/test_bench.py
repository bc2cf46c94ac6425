"""The benchmark driver (bench/autocoll_bench.c), run small under Open MPI: its JSON (schema
autocoll-bench, version 1), the configurations it runs and skips, the oracle, its table and its
argument errors. No performance assertions: timings are not tests."""

import json
import os
import subprocess

import pytest

from conftest import build_dir, registry, run_mpi

BENCH = "bench/autocoll_bench"
SMALL = ["--iterations", "20", "--warmup", "2", "--factor", "1"]
STATS = ["median", "mean", "min", "max", "p10", "p90"]


def bench(np, tmp_path, *args, env=None):
    if not (build_dir("openmpi") / BENCH).exists():
        pytest.fail(f"build/openmpi/{BENCH} is missing: bench/ must be built (add_subdirectory)")
    return run_mpi("openmpi", np, BENCH, tmp_path, preload=False, report=False, timeout=120,
                   env=env, args=list(args))


def bench_json(np, tmp_path, *args, env=None):
    out = tmp_path / f"bench-{np}.json"
    run = bench(np, tmp_path, *args, "--out", str(out), env=env)
    assert run.rc == 0, run.stdout + run.stderr
    assert not list(tmp_path.glob("*.tmp*")), "temporary output file left behind"
    return run, json.loads(out.read_text())


def interpolated(values, q):
    s = sorted(values)
    pos = q * (len(s) - 1)
    lo = int(pos)
    hi = min(lo + 1, len(s) - 1)
    return s[lo] + (pos - lo) * (s[hi] - s[lo])


def algorithms(coll, np):
    return [a for a in registry("openmpi", np)["algorithms"] if a["collective"] == coll]


@pytest.mark.parametrize("np", [2, 3])
@pytest.mark.parametrize("coll", ["allreduce", "alltoall"])
def test_bench_json(coll, np, tmp_path):
    run, r = bench_json(np, tmp_path, "--collective", coll, "--bytes", "1024", *SMALL)
    assert r["schema"] == "autocoll-bench" and r["version"] == 1
    assert r["time_unit"] == "seconds" and r["mpi"] == "openmpi"

    m = r["machine"]
    assert m["hostname"] and m["cores_online"] >= 1 and m["ranks"] == np
    assert len(m["loadavg_start"]) == 3 and len(m["loadavg_end"]) == 3
    assert "Open MPI" in m["mpi_library"]
    assert sum(h["ranks"] for h in m["hosts"]) == np
    assert m["registry_fingerprint"] == registry("openmpi")["registry_fingerprint"]

    p = r["parameters"]
    assert (p["collective"], p["bytes"], p["iterations"], p["warmup"], p["factor"]) == \
        (coll, 1024, 20, 2, 1)
    if coll == "allreduce":
        assert (p["datatype"], p["op"], p["count"]) == ("MPI_DOUBLE", "MPI_SUM", 128)
    else:
        assert (p["datatype"], p["op"], p["count"]) == ("MPI_BYTE", None, 1024)
    assert r["calibration"]["native_median"] > 0 and r["calibration"]["compute_units"] > 0

    # every algorithm for np ranks exactly once: run (native first) or skipped with a reason;
    # last, the layer's own choice (the default strategy, native)
    configs, skipped = r["configurations"], r["skipped"]
    assert [c["name"] for c in configs if c["kind"] == "layer"] == ["layer:native"]
    assert configs[-1]["kind"] == "layer"
    names = [c["name"] for c in configs[:-1]] + [s["name"] for s in skipped]
    reg = algorithms(coll, np)
    assert sorted(names) == sorted(a["name"] for a in reg)
    assert configs[0]["name"] == "native" and configs[0]["kind"] == "native"
    assert all(c["kind"] == "fixed" for c in configs[1:-1])
    for s in skipped:
        assert s["kind"] == "fixed" and s["reason"].startswith("needs "), s
    pow2 = {a["name"] for a in reg if "power-of-two" in a["requires"]}
    skipped_names = {s["name"] for s in skipped}
    if np == 3:
        assert pow2 <= skipped_names
        assert all("power-of-two" in s["reason"] for s in skipped if s["name"] in pow2)
    else:
        assert not pow2 & skipped_names

    for c in configs:
        t = c["times"]
        assert len(t) == 20 and all(x > 0 for x in t), c["name"]
        assert c["median"] > 0
        assert c["min"] <= c["p10"] <= c["median"] <= c["p90"] <= c["max"], c
        assert c["min"] == min(t) and c["max"] == max(t)
        for q, key in [(0.1, "p10"), (0.5, "median"), (0.9, "p90")]:
            assert c[key] == pytest.approx(interpolated(t, q), rel=1e-6), (c["name"], key)
        assert c["mean"] == pytest.approx(sum(t) / len(t), rel=1e-6)
        assert c["compute_median"] > 0

    # the oracle: the fastest fixed choice, native included (the tuner may choose native)
    fixed = [c for c in configs if c["kind"] != "layer"]
    best = min(fixed, key=lambda c: c["median"])
    assert r["oracle"]["median"] == best["median"]
    assert r["oracle"]["name"] in [c["name"] for c in fixed if c["median"] == best["median"]]

    # the table: every configuration, the oracle marked, skipped ones with their reason
    lines = run.stdout.splitlines()
    for c in configs:
        assert any(line.split()[:2] == [c["name"], c["kind"]] for line in lines), c["name"]
    assert [line.split()[0] for line in lines if line.endswith(" oracle")] == \
        [r["oracle"]["name"]]
    for s in skipped:
        assert any(line.startswith(s["name"] + " ") and s["reason"] in line for line in lines)


def test_bench_only_and_other_collectives(tmp_path):
    run, r = bench_json(3, tmp_path, "--collective", "allgatherv", "--bytes", "1000",
                        "--only", "ring,pair", *SMALL)
    assert [c["name"] for c in r["configurations"]] == ["native", "ring", "layer:native"]
    reasons = {s["name"]: s["reason"] for s in r["skipped"]}
    assert reasons["pair"].startswith("needs power-of-two")
    assert reasons["simple"] == "not selected by --only"
    assert len(r["skipped"]) == len(algorithms("allgatherv", 3)) - 2
    for coll, nbytes in [("bcast", "4K"), ("reduce_scatter_block", "48"), ("barrier", "0")]:
        run = bench(3, tmp_path, "--collective", coll, "--bytes", nbytes, *SMALL)
        assert run.rc == 0, run.stdout + run.stderr
        assert run.stdout.startswith(coll), run.stdout


BAD = [
    (["--collective", "nope", "--bytes", "8"], "unknown collective 'nope'"),
    (["--collective", "allreduce", "--bytes", "12"], "must be a multiple of 8"),
    (["--collective", "allreduce"], "--bytes is required"),
    (["--bytes", "8"], "--collective is required"),
    (["--collective", "allreduce", "--bytes", "8x"], "--bytes: '8x' is not an integer"),
    (["--collective", "allreduce", "--bytes", "8", "--iterations", "0"], "--iterations: '0'"),
    (["--collective", "allreduce", "--bytes", "8", "--factor", "-1"], "--factor: '-1'"),
    (["--collective", "allreduce", "--bytes", "8", "--frobnicate", "1"],
     "unknown option '--frobnicate'"),
    (["--collective", "allreduce", "--bytes", "8", "--only", "ring,nope"],
     "no allreduce algorithm named 'nope'"),
    (["--collective", "barrier", "--bytes", "8"], "--bytes must be 0"),
    (["--collective", "neighbor_alltoall", "--bytes", "8"],
     "neighbor_alltoall needs a topology communicator"),
    (["--collective", "allreduce", "--bytes", "8", "--out", "/nonexistent/dir/x.json"],
     "--out /nonexistent/dir/x.json: cannot write there"),
]


def singleton(*args):
    """The driver started without mpirun (an MPI singleton): quick, for argument errors."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("AUTOCOLL")}
    return subprocess.run([str(build_dir("openmpi") / BENCH), *args], env=env,
                          capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("args,message", BAD, ids=[m for _, m in BAD])
def test_bench_bad_arguments_exit_2(args, message):
    run = singleton(*args)
    assert run.returncode == 2, run.stdout + run.stderr
    assert run.stderr.count("autocoll_bench: error: ") == 1, run.stderr
    assert message in run.stderr, run.stderr
    assert run.stdout == ""


@pytest.mark.parametrize("args,message", [
    (["--collective", "reduce_scatter_block", "--bytes", "32"], "must be a multiple of 24"),
    BAD[-1]], ids=["bytes", "out"])
def test_bench_bad_arguments_every_rank_exits_2(args, message, tmp_path):
    """Every rank reaches the same verdict; rank 0 alone says why."""
    run = bench(3, tmp_path, *args)
    assert run.rc == 2, run.stdout + run.stderr
    assert run.stderr.count("autocoll_bench: error: ") == 1, run.stderr
    assert message in run.stderr, run.stderr


def test_bench_help():
    run = singleton("--help")
    assert run.returncode == 0 and run.stdout.startswith("usage: autocoll_bench"), run.stderr


def test_bench_layer_runs_the_strategy_from_a_cold_start(tmp_path):
    """With AUTOCOLL_STRATEGY=star the layer configuration tunes on its own new communicator:
    it is named after the strategy and times every iteration like the others."""
    run, r = bench_json(2, tmp_path, "--collective", "allreduce", "--bytes", "1K",
                        "--iterations", "300", "--warmup", "0", "--factor", "1",
                        env={"AUTOCOLL_STRATEGY": "star"})
    layer = r["configurations"][-1]
    assert layer["name"] == "layer:star" and layer["kind"] == "layer"
    assert len(layer["times"]) == 300 and layer["median"] > 0


def test_bench_layers_basic_and_enhanced_aeos(tmp_path):
    """Several strategies in one run, each from a cold start on its own communicator: the
    per-call algorithms (equal on every rank, checked by the driver), the tuning contexts, and
    the steady state; fixed algorithms run --fixed-iterations."""
    run, r = bench_json(4, tmp_path, "--collective", "allreduce", "--bytes", "1K",
                        "--iterations", "400", "--fixed-iterations", "15", "--warmup", "1",
                        "--factor", "1", "--layers", "native,star_enhanced,star_basic")
    configs = {c["name"]: c for c in r["configurations"]}
    assert r["parameters"]["fixed_iterations"] == 15
    fixed = [c for c in r["configurations"] if c["kind"] == "fixed"]
    assert fixed and all(c["iterations"] == 15 and len(c["times"]) == 15 for c in fixed)
    assert configs["native"]["iterations"] == 400
    applicable = {c["name"] for c in r["configurations"] if c["kind"] != "layer"}
    decided = {}
    for spec in ["native", "star_enhanced", "star_basic"]:
        c = configs["layer:" + spec]
        assert c["kind"] == "layer" and c["layer"]["spec"] == spec
        assert len(c["times"]) == 400 and c["iterations"] == 400
        assert c["steady_median"] > 0 and c["steady_min"] <= c["steady_median"]
        runs = c["layer"]["algorithm_runs"]
        assert sum(n for _, n in runs) == 400
        assert {name for name, _ in runs} <= applicable, runs
        if spec == "native":
            assert runs == [["native", 400]] and c["layer"]["contexts"] == []
            continue
        (ctx,) = c["layer"]["contexts"]
        assert ctx["strategy"] == "star" and ctx["calls"] == 400
        assert ctx["stage"] == "monitor_adapt"
        decided[spec] = ctx["measure_select_calls"]
        # Measure_Select runs each measured candidate ITER (10) consecutive calls
        first = runs[: ctx["measure_select_calls"] // 10]
        assert all(n >= 10 for _, n in first), first
    # basic AEOS measures every applicable candidate; enhanced only representatives and the
    # best group's members
    assert decided["star_basic"] == 10 * len(applicable)
    assert decided["star_enhanced"] < decided["star_basic"]


def test_bench_rejects_unknown_layer(tmp_path):
    run = bench(2, tmp_path, "--collective", "allreduce", "--bytes", "8", "--layers", "nope")
    assert run.rc == 2 and "--layers: no layer configuration 'nope'" in run.stderr


def test_bench_layer_candidates_leave_out_twins(tmp_path):
    """bcast of 1 KiB: every segmented tree instance sends the same messages as its unsegmented
    tree (one segment holds the message), so the layer's candidates leave them out while the
    bench still runs each of them fixed; at 16 KiB the 1k and 8k instances pipeline and are
    candidates, the 64k ones are twins."""
    for size, kept in [("1K", ()), ("16K", ("_segment_1k", "_segment_8k"))]:
        run, r = bench_json(3, tmp_path, "--collective", "bcast", "--bytes", size,
                            "--iterations", "200", "--fixed-iterations", "2", "--warmup", "0",
                            "--factor", "1", "--layers", "star_basic")
        fixed = [c["name"] for c in r["configurations"] if c["kind"] in ("native", "fixed")]
        segmented = [n for n in fixed if "_segment_" in n]
        assert len(segmented) == 15, fixed
        expected = [n for n in fixed if "_segment_" not in n or n.endswith(kept)]
        (ctx,) = r["configurations"][-1]["layer"]["contexts"]
        assert ctx["candidates"] == len(expected), (ctx, expected)
        # basic AEOS measures every candidate (10 calls each, 200 calls are enough): the twins
        # never ran
        ran = {name for name, _ in r["configurations"][-1]["layer"]["algorithm_runs"]}
        assert ran == set(expected), ran


def test_bench_race_with_and_without_its_final(tmp_path):
    """`race` and `race_final` in one run: the same strategy, the final off (the default) or on,
    each from a cold start; finals are counted in the context."""
    run, r = bench_json(3, tmp_path, "--collective", "allreduce", "--bytes", "1K",
                        "--iterations", "300", "--fixed-iterations", "2", "--warmup", "0",
                        "--factor", "1", "--layers", "race,race_final")
    layers = {c["layer"]["spec"]: c["layer"] for c in r["configurations"] if c["kind"] == "layer"}
    assert layers["race"]["final"] == -1 and layers["race_final"]["final"] == 8
    (off,) = layers["race"]["contexts"]
    assert off["strategy"] == "race" and off["finals"] == 0 and off["overturned"] == 0, off
    (on,) = layers["race_final"]["contexts"]
    assert on["finals"] >= 0 and on["overturned"] <= on["finals"], on
    assert on["races"] >= 1 and on["calls"] == 300, on

"""`autocoll bench` (the matrix runner) and `autocoll report` over its results: cells, resume,
the ratios (recomputed here from the raw times), the summary, basic vs enhanced AEOS, plots."""

import json
import statistics
import time

import pytest

from autocoll.analysis import benchreport
from autocoll.formats.cells import valid_result
from autocoll.run import bench

from conftest import autocoll_cli as cli

MATRIX = ["--collectives", "allreduce,alltoall", "--sizes", "1K", "--ranks", "2,3",
          "--iterations", "150", "--fixed-iterations", "10", "--warmup", "2", "--factor", "1"]
CELLS = ["allreduce-1K-np2.json", "alltoall-1K-np2.json", "allreduce-1K-np3.json",
         "alltoall-1K-np3.json"]


@pytest.fixture(scope="module")
def matrix(tmp_path_factory):
    out = tmp_path_factory.mktemp("matrix")
    run = cli("bench", "--out", str(out), *MATRIX)
    assert run.returncode == 0, run.stdout + run.stderr
    return out, run


def test_every_cell_once_then_resumed(matrix):
    out, run = matrix
    assert sorted(p.name for p in out.glob("*.json")) == sorted(CELLS)
    for name in CELLS:
        data = json.loads((out / name).read_text())
        assert data["schema"] == "autocoll-bench"
        assert [c["name"] for c in data["configurations"] if c["kind"] == "layer"] == \
            ["layer:race", "layer:star_enhanced", "layer:star_basic", "layer:native"]
    # a second run keeps what is there; a damaged cell is run again
    (out / CELLS[1]).write_text("{ truncated")
    again = cli("bench", "--out", str(out), *MATRIX)
    assert again.returncode == 0, again.stderr
    assert again.stdout.count("done earlier, kept") == 3
    assert f"{CELLS[1]}: " in again.stdout and json.loads((out / CELLS[1]).read_text())


def test_report_ratios_summary_and_plots(matrix, tmp_path):
    out, _ = matrix
    run = cli("report", str(out), "--plots", str(tmp_path / "plots"))
    assert run.returncode == 0, run.stderr
    text = run.stdout
    assert "2 cores online" in text or "cores online" in text
    for name in CELLS:
        data = json.loads((out / name).read_text())
        p = data["parameters"]
        conf = {c["name"]: c for c in data["configurations"]}
        oracle = conf[data["oracle"]["name"]]
        # the oracle is the fastest of native and the fixed algorithms
        assert oracle["median"] == min(c["median"] for c in data["configurations"]
                                       if c["kind"] != "layer")
        for spec in ("race", "star_enhanced", "star_basic", "native"):
            c = conf["layer:" + spec]
            learn = statistics.fmean(c["times"]) / statistics.fmean(oracle["times"])
            steady = statistics.median(c["times"][-100:]) / oracle["median"]
            row = next(r for r in benchreport.cell(data)["rows"] if r["layer"] == spec)
            assert row["learning_vs_oracle"] == pytest.approx(learn, rel=1e-6)
            assert row["steady_vs_oracle"] == pytest.approx(steady, rel=1e-6)
            line = next(line for line in text.splitlines()
                        if line.split()[:4] == [p["collective"], str(p["bytes"]),
                                                str(data["machine"]["ranks"]), spec])
            assert f"{learn:.3f}" in line and f"{steady:.3f}" in line, line
    assert "summary over cells" in text and "basic vs enhanced AEOS" in text
    assert "enhanced decides in fewer calls in" in text
    plots = sorted((tmp_path / "plots").glob("*.png"))
    assert len(plots) == len(CELLS) + 1
    assert all(p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for p in plots)


def test_bench_errors(tmp_path):
    run = cli("bench", "--out", str(tmp_path), "--sizes", "12X")
    assert run.returncode == 1 and "bad message size '12X'" in run.stderr
    run = cli("bench", "--out", str(tmp_path), "--build", str(tmp_path / "nowhere"))
    assert run.returncode == 1 and "is missing" in run.stderr
    run = cli("report", str(tmp_path))
    assert run.returncode == 1 and "no benchmark results" in run.stderr


def test_report_trees_and_warm_starts(tmp_path):
    """A rooted collective's cell: the tree x segment table (median / native, recomputed here)
    and its plot; a second run from the history file shows its layer as warm, decided in fewer
    calls (0, or ITER per member of the best group that the first run never measured)."""
    history = tmp_path / "history"
    for phase in ("cold", "warm"):
        run = cli("bench", "--out", str(tmp_path / phase), "--collectives", "bcast", "--sizes",
                  "1K", "--ranks", "2", "--iterations", "150", "--fixed-iterations", "5",
                  "--warmup", "1", "--factor", "1", "--layers", "star", "--history",
                  str(history))
        assert run.returncode == 0, run.stdout + run.stderr
    run = cli("report", str(tmp_path / "cold"), str(tmp_path / "warm"), "--plots",
              str(tmp_path / "plots"))
    assert run.returncode == 0, run.stderr
    text = run.stdout.splitlines()
    starts = {}
    for line in text:
        f = line.split()
        if f[:4] == ["bcast", "1024", "2", "star"]:
            starts[f[11]] = int(f[12])  # start, decided
    assert set(starts) == {"cold", "warm"} and starts["warm"] < starts["cold"], starts
    assert starts["warm"] % 10 == 0, starts
    data = json.loads((tmp_path / "warm" / "bcast-1K-np2.json").read_text())
    conf = {c["name"]: c for c in data["configurations"]}
    native = conf["native"]["median"]
    # the warm cell comes second: its table is the second one
    header = [i for i, line in enumerate(text)
              if line.startswith("bcast 1024 B on 2 ranks: tree x segment")][1]
    chain = next(line for line in text[header:] if line.split()[0] == "chain").split()
    expected = [conf[f"chain_tree{s}"]["median"] / native
                for s in ("", "_segment_1k", "_segment_8k", "_segment_64k")]
    assert [float(v) for v in chain[1:]] == pytest.approx(expected, abs=6e-4)
    assert (tmp_path / "plots" / "trees-bcast-np2.png").read_bytes()[:4] == b"\x89PNG"


def _job(tmp_path, after):
    """A stand-in for a cell's job: writes a valid result, then runs `after` (shell)."""
    path = tmp_path / "cell.json"
    script = (f"sleep 1; echo '{{\"schema\": \"autocoll-bench\", \"version\": 1}}' > {path}; "
              f"echo driver output; {after}")
    return ["sh", "-c", script], path


def test_job_stopped_when_finalize_hangs_keeps_the_result(tmp_path, monkeypatch):
    """MPICH's MPI_Finalize can hang across emulated nodes (ucx#8738): a job whose result is
    written but that does not exit within FINALIZE_GRACE is stopped, and the result kept."""
    monkeypatch.setattr(bench, "FINALIZE_GRACE", 2)
    cmd, path = _job(tmp_path, "sleep 600")
    status, output, stopped = bench.run_job(cmd, path, 60, None)
    assert stopped >= 2 and "driver output" in output and valid_result(path)


def test_job_without_result_times_out_and_exit_status_is_kept(tmp_path, monkeypatch):
    monkeypatch.setattr(bench, "FINALIZE_GRACE", 2)
    status, output, stopped = bench.run_job(["sh", "-c", "sleep 600"], tmp_path / "none.json",
                                            3, None)
    assert status is None and stopped == 0
    cmd, path = _job(tmp_path, "exit 3")
    assert bench.run_job(cmd, path, 60, None)[0::2] == (3, 0)
    cmd, path = _job(tmp_path, "exit 0")
    assert bench.run_job(cmd, path, 60, None)[0::2] == (0, 0)


def test_a_hung_job_is_stopped_by_its_own_progress(tmp_path):
    """A real cell's driver says `progress: i/n` after each configuration; a job that stops
    saying it for STALL_FACTOR x its slowest configuration so far (and the floor) is hung and
    stopped long before the cell's timeout, with why; a steady one is left alone."""
    hung = ["sh", "-c", "echo 'progress: 0/3 calibration'; sleep 0.2; "
            "echo 'progress: 1/3 ring'; sleep 600"]
    start = time.time()
    status, output, stopped = bench.run_job(hung, tmp_path / "h.json", 600, None, stall=(3, 5))
    took = time.time() - start
    assert status is None and stopped == 0 and took < 30, took
    assert "stopped as hung" in output and "no configuration finished for" in output
    steady = ["sh", "-c", "for i in 1 2 3 4 5 6; do echo \"progress: $i/6 x\"; sleep 1; done"]
    status, output, _ = bench.run_job(steady, tmp_path / "s.json", 600, None, stall=(2, 3))
    assert status == 0 and "hung" not in output
    # before the first progress line only the timeout applies (a slow start is not a hang)
    quiet = ["sh", "-c", "sleep 4; echo 'progress: 0/1 calibration'"]
    assert bench.run_job(quiet, tmp_path / "q.json", 600, None, stall=(1, 1))[0] == 0


def test_a_killed_jobs_partial_output_is_removed(tmp_path):
    """The driver writes `<cell>.tmp<pid>` and renames it; a job killed before the rename left
    it behind for good. run_job removes it whatever the job's end, and so does a resumed
    matrix before each cell."""
    path = tmp_path / "allreduce-1K-np2.json"
    leaving = ["sh", "-c", f"echo partial > {path}.tmp4242; sleep 600"]
    status, _, _ = bench.run_job(leaving, path, 2, None)
    assert status is None and not list(tmp_path.glob("*.tmp*"))
    (tmp_path / f"{path.name}.tmp17").write_text("{")
    (tmp_path / "other.json.tmp1").write_text("{")
    bench.remove_temporaries(path)
    assert [p.name for p in tmp_path.glob("*.tmp*")] == ["other.json.tmp1"]

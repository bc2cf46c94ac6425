"""Loading large files at MPI_Init takes time linear in their size (issue 41, item 6): a valid
table of 250,000 rules (29 MB) and a history file of 40 MB of this platform's contexts each load
within a bound that the quadratic checks could not meet (on this 2-core machine the table took
108 s and the history 587 s before; bench/load_time.py measures them,
docs/results/state-2026-11-25/loading.md). The files come from bench/load_time.py's writers."""

import importlib.util
import time

from conftest import ROOT, build_dir, registry, run_mpi

spec = importlib.util.spec_from_file_location("load_time", ROOT / "bench/load_time.py")
load_time = importlib.util.module_from_spec(spec)
spec.loader.exec_module(load_time)

# whole runs of table_calls with the file (1 iteration; the history's 20, so that MPI_Finalize
# merges what they measured into the file: read, merged and written again)
TABLE_BOUND_S = 20
HISTORY_BOUND_S = 30


def timed_run(tmp_path, env, bound, iterations=1):
    """A run of table_calls on 2 ranks of Open MPI, killed at `bound` seconds; its seconds."""
    start = time.monotonic()
    run = run_mpi("openmpi", 2, "tests/mpi/table_calls", tmp_path, args=[str(iterations)],
                  env={"AUTOCOLL_TEST_TIMEOUT": str(bound), **env})
    seconds = time.monotonic() - start
    assert run.rc == 0, f"rc {run.rc} after {seconds:.1f} s (bound {bound} s)\n{run.stderr}"
    assert f"table_calls: {iterations} iterations, ok" in run.stdout, run.stdout + run.stderr
    return run, seconds


def test_a_table_of_250000_rules_loads_quickly(tmp_path):
    table = tmp_path / "table.json"
    load_time.write_table(table, 250000, registry("openmpi")["registry_fingerprint"])
    run, seconds = timed_run(tmp_path, {"AUTOCOLL_STRATEGY": "table",
                                        "AUTOCOLL_TABLE": str(table),
                                        "AUTOCOLL_MAX_SITES": "0"}, TABLE_BOUND_S)
    assert "AUTOCOLL_TABLE" not in run.stderr, run.stderr  # accepted
    assert seconds < TABLE_BOUND_S, seconds
    # the band of 2 ranks holds rules 500 to 999 (1000 bytes each): its rules ran
    allreduce = {x["bytes"]: x for x in run.collective("MPI_COMM_WORLD", "allreduce")["contexts"]}
    for nbytes in (64, 1024, 65536):
        name = load_time.ALGORITHMS[(500 + nbytes // 1000) % 3]
        assert allreduce[nbytes]["stage"] == "rule", allreduce[nbytes]
        assert allreduce[nbytes]["chosen"] == name, (nbytes, allreduce[nbytes])


def test_a_history_of_40_mb_loads_quickly(tmp_path):
    header = load_time.platform_header(build_dir("openmpi"), 2, tmp_path)
    history = tmp_path / "history"
    contexts = load_time.write_history(history, header, 2, 40)
    # 60 iterations: the race measures something to write back (20 were enough before
    # allgather had `shm`, a candidate more; load_time.platform_header)
    run, seconds = timed_run(tmp_path, {"AUTOCOLL_STRATEGY": "race",
                                        "AUTOCOLL_HISTORY": str(history)}, HISTORY_BOUND_S,
                             iterations=60)
    # this platform's section, read whole (a file that does not parse, or one without this
    # platform, is reported)
    assert "history" not in run.stderr, run.stderr
    assert seconds < HISTORY_BOUND_S, seconds
    # and written again at MPI_Finalize (the merge adds its comment line), nothing lost
    lines = history.read_text().splitlines()
    assert lines[1].startswith("# autocoll's learned state") and header[1] in lines, lines[:3]
    assert sum(line.startswith("context ") for line in lines) >= contexts

"""Legal MPI programs that once made ranks take different paths through the layer, and so hung
(issue 19; tests/mpi/divergence.c says what each case does). Each must finish, within a time
limit, with native's results under every run-time strategy and under both MPIs."""

import pytest

from conftest import MPIS, build_dir, run_mpi

STRATEGIES = ["native", "star", "race", "lottery", "model"]
LIMIT = "60"  # seconds (tests/mpirun.sh's AUTOCOLL_TEST_TIMEOUT): a hang exits 124


def divergence(mpi, np, case, tmp_path, env, calls=60):
    run = run_mpi(mpi, np, "tests/mpi/divergence", tmp_path, report=False, timeout=200,
                  env={"AUTOCOLL_TEST_TIMEOUT": LIMIT, **env}, args=[case, str(calls)])
    assert run.rc != 124, f"{case} hung ({mpi}, {np} ranks, {env}):\n{run.stderr}"
    assert run.rc == 0 and f"divergence {case}: ok" in run.stdout, \
        (mpi, np, env, run.stdout, run.stderr)
    return run


@pytest.mark.parametrize("mpi", MPIS)
@pytest.mark.parametrize("strategy", STRATEGIES)
def test_junk_in_arguments_that_are_not_significant(mpi, strategy, tmp_path):
    """Scatter, gather and reduce with junk where MPI ignores the arguments, and in-place
    roots, on 3 ranks (every rank is the root in turn)."""
    divergence(mpi, 3, "junk", tmp_path, {"AUTOCOLL_STRATEGY": strategy})


@pytest.mark.parametrize("mpi", MPIS)
@pytest.mark.parametrize("strategy", ["star", "race", "lottery", "model"])
def test_one_message_described_two_ways_with_history(mpi, strategy, tmp_path):
    """The root's bcast is 1 x contiguous(16 ints), the others' 16 x MPI_INT: a first run
    writes the history file, a second starts from it; every rank must find the same key."""
    env = {"AUTOCOLL_STRATEGY": strategy, "AUTOCOLL_HISTORY": str(tmp_path / "history")}
    divergence(mpi, 4, "typemap", tmp_path, env, calls=400)  # enough for every strategy to
    assert (tmp_path / "history").exists()                   # decide, so the file has the key
    divergence(mpi, 4, "typemap", tmp_path, env, calls=400)


@pytest.mark.parametrize("mpi", MPIS)
def test_a_local_failure_to_make_the_private_state(mpi, tmp_path):
    """World rank 1's duplication of the communicator fails (tests/support/fail_dup.c): the
    ranks agree on it, and every rank passes its calls on that communicator through, instead of
    rank 1 alone."""
    b = build_dir(mpi)
    env = {"AUTOCOLL_STRATEGY": "race", "AUTOCOLL_TEST_FAIL_DUP_RANK": "1",
           "AUTOCOLL_TEST_PRELOAD": f"{b / 'tests/mpi/libfail_dup.so'}:{b / 'libautocoll.so'}"}
    run = divergence(mpi, 3, "junk", tmp_path, env)
    assert "cannot create the private state of a communicator on this rank" in run.stderr
    assert "cannot create the private state of a communicator on another rank" in run.stderr


@pytest.mark.parametrize("mpi", MPIS)
def test_a_local_failure_of_an_algorithms_scratch_memory(mpi, tmp_path):
    """alltoall of 1 MiB blocks on 2 ranks, forced to `recursive_doubling` (a table of 4 MiB a
    rank): the run is ok as it is; with world rank 1's mallocs of 3 MiB or more refused
    (tests/support/fail_malloc.c: its own buffers, 2 MiB, are made, the table is not) the run
    ends within the limit with the layer's error, where rank 1 once returned MPI_ERR_NO_MEM
    alone and rank 0 waited for it for ever."""
    b = build_dir(mpi)
    env = {"AUTOCOLL_ALLTOALL": "recursive_doubling"}
    ok = run_mpi(mpi, 2, "tests/mpi/divergence", tmp_path, timeout=200,
                 env={"AUTOCOLL_TEST_TIMEOUT": LIMIT, **env}, args=["alltoall", "3"])
    assert ok.rc == 0 and "divergence alltoall: ok" in ok.stdout, (ok.stdout, ok.stderr)
    assert list(ok.collective("MPI_COMM_WORLD", "alltoall")["algorithms"]) == \
        ["recursive_doubling"]  # the report: the forced algorithm ran every call
    env.update({"AUTOCOLL_TEST_FAIL_MALLOC_RANK": "1",
                "AUTOCOLL_TEST_FAIL_MALLOC_FROM": str(3 << 20),
                "AUTOCOLL_TEST_PRELOAD":
                    f"{b / 'tests/mpi/libfail_malloc.so'}:{b / 'libautocoll.so'}"})
    run = run_mpi(mpi, 2, "tests/mpi/divergence", tmp_path, report=False, timeout=200,
                  env={"AUTOCOLL_TEST_TIMEOUT": LIMIT, **env}, args=["alltoall", "3"])
    assert run.rc != 124, f"hung ({mpi}):\n{run.stderr}"
    assert run.rc != 0 and "divergence alltoall: ok" not in run.stdout, run.stdout
    assert ("alltoall on MPI_COMM_WORLD: recursive_doubling ran out of memory on this rank"
            in run.stderr), run.stderr

"""The fuzzer of legal MPI programs (tests/mpi/fuzz.c says what a program does): each seed's
program runs natively and under the layer with every run-time strategy and with a sample of
forced algorithms; every rank's hash of its results must equal native's, and no run may hang
(a time limit). A failure names the seed, the rank count, the MPI and the settings, with the
command that reproduces it.

The short run (CI): one seed per rank count in RANKS (1000 + the count), STEPS steps. The long
run: AUTOCOLL_FUZZ_SEEDS=N runs seeds 1..N at every rank count instead (docs/testing.md)."""

import os
import random

import pytest

from conftest import MPIS, registry, run_mpi

RANKS = [1, 2, 3, 5, 7, 8]
STEPS = 150
STRATEGIES = ["native", "star", "race", "lottery", "model"]
LIMIT = "120"  # seconds per run (tests/mpirun.sh): a hang exits 124
SEEDS = int(os.environ.get("AUTOCOLL_FUZZ_SEEDS", "0"))


def forced_sample(mpi, np, seed):
    """One algorithm forced per collective, drawn with `seed` from the registry for np ranks
    (those that do not apply to a call run native with a warning, as for a user)."""
    by = {}
    for a in registry(mpi, np)["algorithms"]:
        by.setdefault(a["collective"], []).append(a["name"])
    rng = random.Random(seed)
    return {f"AUTOCOLL_{coll.upper()}": rng.choice(sorted(names)) for coll, names in by.items()}


def hashes(run):
    return [line for line in run.stdout.splitlines() if line.startswith("fuzz ")]


def fuzz(mpi, np, seed, tmp_path, env, preload=True):
    run = run_mpi(mpi, np, "tests/mpi/fuzz", tmp_path, env={"AUTOCOLL_TEST_TIMEOUT": LIMIT, **env},
                  preload=preload, report=False, timeout=int(LIMIT) + 60,
                  args=[str(seed), str(STEPS)])
    settings = " ".join(f"{k}={v}" for k, v in sorted(env.items()))
    how = (f"seed {seed}, {np} ranks, {mpi}, {settings or 'native'}; reproduce: "
           f"{settings} tests/mpirun.sh {mpi} {np} build/{mpi}/tests/mpi/fuzz {seed} {STEPS}"
           + ("" if not preload else f" (with AUTOCOLL_TEST_PRELOAD=build/{mpi}/libautocoll.so)"))
    assert run.rc != 124, f"hang: {how}\n{run.stderr[-3000:]}"
    assert run.rc == 0 and len(hashes(run)) == np, f"failed (exit {run.rc}): {how}\n" \
        f"{run.stdout[-2000:]}{run.stderr[-3000:]}"
    return hashes(run), how


def configurations(mpi, np, seed):
    return ([{"AUTOCOLL_STRATEGY": s} for s in STRATEGIES] +
            [{"AUTOCOLL_STRATEGY": "native", **forced_sample(mpi, np, seed)}])


def check_seed(mpi, np, seed, tmp_path):
    native, _ = fuzz(mpi, np, seed, tmp_path, {}, preload=False)
    for env in configurations(mpi, np, seed):
        layer, how = fuzz(mpi, np, seed, tmp_path, env)
        assert layer == native, f"results differ from native: {how}\nnative: {native}\n" \
            f"layer:  {layer}"


@pytest.mark.parametrize("mpi", MPIS)
@pytest.mark.parametrize("np", RANKS)
def test_fuzz(mpi, np, tmp_path):
    for seed in range(1, SEEDS + 1) if SEEDS else [1000 + np]:
        check_seed(mpi, np, seed, tmp_path)

"""Run-time strategies under MPI: every rank runs the same algorithm at every call, whatever the
call sites and local timings (invariant 1), and the strategy really tunes (it measures every
candidate, then settles)."""

import json

import pytest

from conftest import MPIS, run_mpi


def per_rank_reports(tmp_path, np):
    return [json.loads((tmp_path / f"agree-{r}.json").read_text()) for r in range(np)]


def algorithm_counts(report):
    """{(communicator id, collective): {algorithm: calls}} of one rank's report."""
    out = {}
    for comm in report["communicators"]:
        for coll, s in comm["collectives"].items():
            out[(comm["id"], coll)] = {a: v["calls"] for a, v in s["algorithms"].items()}
    return out


@pytest.mark.parametrize("mpi,np", [("openmpi", 4), ("mpich", 3)])
def test_star_keeps_every_rank_on_the_same_algorithm(mpi, np, tmp_path):
    env = {"AUTOCOLL_STRATEGY": "star", "AUTOCOLL_REPORT": str(tmp_path / "agree-%r.json")}
    run = run_mpi(mpi, np, "tests/mpi/strategy_agree", tmp_path, env=env, report=False,
                  args=["400"])
    assert "strategy_agree: 400 iterations, ok" in run.stdout, run.stdout + run.stderr
    reports = per_rank_reports(tmp_path, np)
    assert [r["rank"] for r in reports] == list(range(np))
    world = [algorithm_counts(r) for r in reports]
    # Ranks in the same communicator must have run the same algorithms the same number of
    # times. World: every rank. The halves: ranks of equal parity.
    for r in range(1, np):
        for key, counts in world[r].items():
            comm_id, coll = key
            if comm_id == 0:
                assert counts == world[0][key], (r, key, counts, world[0][key])
            elif r >= 2:
                assert counts == world[r - 2][key], (r, key, counts, world[r - 2][key])
    # The strategy tuned: world allreduce measured several candidates and settled on one.
    s = next(c for c in reports[0]["communicators"] if c["id"] == 0)["collectives"]["allreduce"]
    assert len(s["algorithms"]) > 1, s
    (ctx,) = [x for x in s["contexts"] if x["bytes"] == 256 * 8]
    assert ctx["strategy"] == "star" and ctx["stage"] == "monitor_adapt", ctx
    assert ctx["chosen"] in s["algorithms"]
    assert ctx["calls"] == 400


def test_unknown_strategy_warns_and_runs_native(tmp_path):
    run = run_mpi("openmpi", 2, "demo", tmp_path, env={"AUTOCOLL_STRATEGY": "nonsense"})
    assert "AUTOCOLL_STRATEGY=nonsense: no such strategy" in run.stderr
    world = run.collective("MPI_COMM_WORLD", "allreduce")
    assert list(world["algorithms"]) == ["native"]

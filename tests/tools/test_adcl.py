"""ADCL requests in the JSON report (AUTOCOLL_REPORT=<path>, member "adcl_requests"): the Jacobi
solver (examples/adcl_jacobi.c) under each search, the winner named and the same on every rank's
report, the attribute, factorial and model searches measuring fewer functions than brute force,
the race all of them."""

import json

import pytest

from conftest import MPIS, run_mpi

SEARCHES = ["brute_force", "attribute", "factorial", "race", "model"]


@pytest.mark.parametrize("mpi", MPIS)
def test_report_lists_the_requests(mpi, tmp_path):
    measured = {}
    for search in SEARCHES:
        # 300 iterations: room for the race's 4 rounds of 3 calls of every function
        env = {"AUTOCOLL_ADCL_SEARCH": search, "AUTOCOLL_ADCL_SAMPLES": "2",
               "AUTOCOLL_ADCL_MODEL_SAMPLES": "2",
               "AUTOCOLL_REPORT": str(tmp_path / f"report-{search}-%r.json")}
        run = run_mpi(mpi, 4, "adcl_jacobi", tmp_path, env=env, preload=False, report=False,
                      args=("6", "5", "4", "300"))
        assert run.rc == 0, run.stderr
        assert "adcl_jacobi: ok" in run.stdout
        reports = [json.loads((tmp_path / f"report-{search}-{r}.json").read_text())
                   for r in range(4)]
        requests = [rep["adcl_requests"] for rep in reports]
        assert all(len(r) == 1 for r in requests), requests
        first = requests[0][0]
        assert first["function_set"] == "neighborhood" and first["search"] == search
        assert first["decided"] and first["calls"] == 300
        assert first["warm"] is False  # history is off (tests/mpirun.sh)
        assert all(r[0]["function"] == first["function"] for r in requests)
        measured[search] = first["functions_measured"]
    assert measured["attribute"] < measured["brute_force"]
    assert measured["factorial"] < measured["brute_force"]
    assert measured["model"] < measured["brute_force"]
    assert measured["race"] == measured["brute_force"]  # every function, fewer calls each

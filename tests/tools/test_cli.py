"""The autocoll command line over reports."""

import json
import re

from autocoll.analysis import report

from conftest import autocoll_cli as cli

SAMPLE = {
    "schema": "autocoll-report", "version": 1, "mpi_library": "Open MPI v4.1.4",
    "world_size": 4, "rank": 0,
    "communicators": [{"name": "MPI_COMM_WORLD", "id": 0, "size": 4, "freed": False,
                       "collectives": {"allreduce": {
                           "calls": 10, "passthrough": 2, "bytes": 80.0, "seconds": 0.5,
                           "algorithms": {"ring": {"calls": 7, "seconds": 0.3},
                                          "native": {"calls": 3, "seconds": 0.2}}}}}],
    "passthrough_invalid_arguments": {"bcast": 1},
}


def test_render(tmp_path):
    p = tmp_path / "r.json"
    p.write_text(json.dumps(SAMPLE))
    out = cli("report", str(p))
    assert out.returncode == 0
    assert "ring (7)" not in out.stdout  # compact: how many algorithms ran, not which
    assert re.search(r"allreduce .* 2$", out.stdout, re.M), out.stdout
    assert "(invalid args)" in out.stdout and "bcast" in out.stdout
    full = cli("report", "--verbose", str(p))
    assert "ring (7), native (3)" in full.stdout


def test_rows():
    (row,) = report.rows(SAMPLE)
    assert row["calls"] == 10 and row["passthrough"] == 2 and row["collective"] == "allreduce"


def test_bad_reports_are_refused_with_path_and_reason(tmp_path):
    missing = tmp_path / "none.json"
    garbage = tmp_path / "garbage.json"
    garbage.write_text("{not json")
    foreign = tmp_path / "foreign.json"
    foreign.write_text(json.dumps({"schema": "other"}))
    newer = tmp_path / "newer.json"
    newer.write_text(json.dumps(dict(SAMPLE, version=99)))
    for path, reason in [(missing, "cannot read"), (garbage, "cannot read"),
                         (foreign, "not an autocoll report"), (newer, "version 99")]:
        out = cli("report", str(path))
        assert out.returncode == 1
        assert str(path) in out.stderr and reason in out.stderr

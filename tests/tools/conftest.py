"""Shared fixtures: the builds, and a runner for MPI programs under the layer."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MPIS = ["openmpi", "mpich"]


def autocoll_cli(*args, timeout=900):
    """`python -m autocoll.cli ARGS` (the tools as a user runs them), output captured."""
    return subprocess.run([sys.executable, "-m", "autocoll.cli", *args], capture_output=True,
                          text=True, timeout=timeout)


def build_dir(mpi):
    d = ROOT / "build" / mpi
    if not (d / "libautocoll.so").exists():
        pytest.fail(f"{d} has no libautocoll.so: run scripts/build first")
    return d


class Run:
    def __init__(self, proc, report_path):
        self.rc = proc.returncode
        self.stdout = proc.stdout
        self.stderr = proc.stderr
        self.report = None
        if report_path and report_path.exists():
            self.report = json.loads(report_path.read_text())

    def collective(self, comm, coll):
        for c in self.report["communicators"]:
            if c["name"] == comm:
                return c["collectives"].get(coll)
        return None


def run_mpi(mpi, np, program, tmp_path, env=None, preload=True, report=True, timeout=300,
            args=(), wrapper=()):
    """Run `program` (a path relative to the build dir) on np ranks of `mpi`; `wrapper`: a
    command the launcher runs under (e.g. unshare)."""
    b = build_dir(mpi)
    e = {k: v for k, v in os.environ.items() if not k.startswith("AUTOCOLL")}
    report_path = tmp_path / f"report-{mpi}-{np}.json"
    if report_path.exists():
        report_path.unlink()
    if preload:
        e["AUTOCOLL_TEST_PRELOAD"] = str(b / "libautocoll.so")
    if report:
        e["AUTOCOLL_REPORT"] = str(report_path)
    if mpi == "mpich":
        e["AUTOCOLL_TEST_YIELD"] = str(b / "tests/mpi/libyield_progress.so")
    e.update(env or {})
    proc = subprocess.run([*wrapper, str(ROOT / "tests/mpirun.sh"), mpi, str(np), str(b / program),
                           *args],
                          env=e, capture_output=True, text=True, timeout=timeout)
    return Run(proc, report_path if report else None)


def registry(mpi, size=None):
    """autocoll-info --json: the static entries and the families; with `size`, every algorithm
    of a communicator of that many ranks (the families' instances for it included)."""
    cmd = [str(build_dir(mpi) / "autocoll-info"), "--json"]
    cmd += ["--size", str(size)] if size else []
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return json.loads(out)

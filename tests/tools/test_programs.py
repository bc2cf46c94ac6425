"""`autocoll programs`: Debian's hpcc and LAMMPS run natively and under autocoll (Open MPI, 4
ranks), results checked equal; the parsers; a corrupted collective that the checks must catch
(a check that cannot fail is a defect); the `table` configuration running its table's rule, and
failing rather than running native when the layer refuses the table."""

import json
import os
import subprocess

import pytest

from autocoll.analysis import programsreport
from autocoll.run import programs

from conftest import ROOT, autocoll_cli as cli, registry

CORRUPT_SOURCE = r"""
/* Test-only preload: every MPI_Allreduce of doubles with MPI_SUM comes back 1 % too large. */
#include <mpi.h>
int MPI_Allreduce(const void *s, void *r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm c)
{
    int rc = PMPI_Allreduce(s, r, n, t, op, c);
    if (rc == MPI_SUCCESS && t == MPI_DOUBLE && op == MPI_SUM && n > 0) ((double *)r)[0] *= 1.01;
    return rc;
}
"""


@pytest.fixture(scope="module")
def suite(tmp_path_factory):
    out = tmp_path_factory.mktemp("programs")
    run = cli("programs", "--out", str(out), "--repeat", "1", "--ranks", "4",
              "--layers", "none,native,race,star,lottery")
    assert run.returncode == 0, run.stdout + run.stderr
    return out, run, json.loads((out / "programs.json").read_text())


def test_every_program_equal_under_every_layer(suite):
    out, run, data = suite
    assert data["schema"] == "autocoll-programs" and data["failures"] == []
    assert data["programs"] == ["hpcc", "lammps-melt", "lammps-peptide"]
    seen = {(r["program"], r["layer"]) for r in data["runs"]}
    assert seen == {(p, x) for p in data["programs"] for x in data["layers"]}
    for r in data["runs"]:
        assert r["check"] == [] and r["wall_seconds"] > 0
        assert set(r["check_rules"]) == set(r["values"])
        if r["layer"] == "none":
            assert "collective_seconds" not in r
        else:
            # the layer was there: it saw the program's collectives and timed them
            assert r["collective_calls"] > 100 and r["collective_seconds"] > 0
            assert "allreduce" in r["algorithms"] and "bcast" in r["algorithms"]
    hpcc = [r for r in data["runs"] if r["program"] == "hpcc"]
    for r in hpcc:
        v = r["values"]
        assert v["failed_residual_checks"] == 0 and v["Success"] == 1
        assert v["MPIRandomAccess_Errors"] == 0 and 0 < v["HPL_scaled_residual"] < 16
        if r["layer"] != "none":
            assert "alltoall" in r["algorithms"]  # MPIFFT's
    for r in hpcc:  # hpcc's own figures, measured (not checked)
        m = r["metrics"]
        assert m["MPIFFT_Gflops"] > 0 and m["MPIRandomAccess_GUPs"] > 0, m
        assert m["MPIFFT_time"] > 0 and m["MPIRandomAccess_time"] > 0, m
        assert not set(m) & set(r["check_rules"])
    for r in data["runs"]:
        if r["program"] != "hpcc":
            assert r["metrics"]["loop_s"] > 0 and r["metrics"]["loop_s"] < r["wall_seconds"]
    assert data["table"] is None
    melt = next(r for r in data["runs"] if r["program"] == "lammps-melt")
    assert {"0:Temp", "250:Temp", "250:TotEng"} <= set(melt["values"])
    peptide = next(r for r in data["runs"] if r["program"] == "lammps-peptide")
    assert {"300:TotEng", "300:Temp", "0:E_long"} <= set(peptide["values"])
    # the strategies did choose: some collective ran one of autocoll's algorithms
    for layer in ("race", "star", "lottery"):
        names = {n for r in data["runs"] if r["layer"] == layer
                 for per in r["algorithms"].values() for n in per}
        assert names - {"native"}, layer
    assert "hpcc" in run.stdout and "equal" in run.stdout


def test_report_renders_the_runs(suite):
    out, _, data = suite
    run = cli("report", str(out))
    assert run.returncode == 0, run.stderr
    assert "wall/none" in run.stdout and f"({os.cpu_count()} cores)" in run.stdout
    for p in data["programs"]:
        for x in data["layers"]:
            assert any(line.split()[:2] == [p, x] for line in run.stdout.splitlines()), (p, x)
    # the second table: the programs' own figures per configuration, against `none`
    figures = run.stdout.split("the programs' own figures")[1].splitlines()
    for x in data["layers"]:
        for p, label in [("hpcc", "MPIFFT Gflop/s"), ("hpcc", "MPIRandomAccess GUP/s"),
                         ("lammps-melt", "loop time s"), ("lammps-peptide", "loop time s")]:
            assert any(line.startswith(f"{p} ") and line.split()[1] == x and label in line
                       for line in figures), (p, x, label)
    assert any(line.split()[:2] == ["hpcc", "none"] and line.endswith("1.000")
               for line in figures)


def test_a_corrupted_allreduce_is_caught(tmp_path, monkeypatch):
    lib = tmp_path / "libcorrupt.so"
    src = tmp_path / "corrupt.c"
    src.write_text(CORRUPT_SOURCE)
    subprocess.run(["mpicc.openmpi", "-shared", "-fPIC", "-o", str(lib), str(src)], check=True)
    monkeypatch.setitem(programs.LAYERS, "corrupt", {})
    real_env = programs.layer_env

    def env(layer, build, report_path, table=None):
        return {"LD_PRELOAD": str(lib)} if layer == "corrupt" else real_env(layer, build,
                                                                           report_path, table)

    monkeypatch.setattr(programs, "layer_env", env)
    with pytest.raises(programs.ProgramsError, match="results differ") as e:
        programs.run_programs(tmp_path / "out", programs="lammps-melt", layers="none,corrupt",
                              repeat=1, log=lambda *_: None)
    assert "lammps-melt under corrupt" in str(e.value) and "TotEng" in str(e.value)
    data = json.loads((tmp_path / "out" / "programs.json").read_text())
    assert data["failures"] and all(not r["check"] for r in data["runs"]
                                    if r["layer"] == "none")


def test_compare_rules():
    ref = {"a": 1.0, "b": 100.0, "c": 3.0}
    rules = {"a": "exact", "b": "rel:1e-3", "c": "max:4"}
    assert programs.compare(dict(ref), ref, rules) == []
    assert programs.compare({"a": 1.0, "b": 100.05, "c": 3.9}, ref, rules) == []
    bad = programs.compare({"a": 1.0000001, "b": 100.2, "c": 4.5}, ref, rules)
    assert [b.split(":")[0] for b in bad] == ["a", "b", "c"]
    assert programs.compare({"a": 1.0, "b": 100.0}, ref, rules) == ["c: missing"]
    assert programs.compare({**ref, "d": 1.0}, ref, rules) == ["d: no rule"]


def test_lammps_parser_reads_both_thermo_styles(tmp_path):
    (tmp_path / "log.lammps").write_text(
        "Step Temp E_pair\n       0    3.0   -6.77 \n      50    1.6   -4.7\n"
        "Loop time of 0.2 on 4 procs\n"
        "---------------- Step      300 ----- CPU =      1.8331 (sec) ----------------\n"
        "TotEng   =     -5251.3636 KinEng   =      1123.7718 Temp     =       279.3298 \n")
    v = programs.results_lammps(tmp_path)
    assert v == {"0:Temp": 3.0, "0:E_pair": -6.77, "50:Temp": 1.6, "50:E_pair": -4.7,
                 "300:TotEng": -5251.3636, "300:KinEng": 1123.7718, "300:Temp": 279.3298}
    (tmp_path / "log.lammps").write_text("LAMMPS (29 Sep 2021)\nERROR: something\n")
    with pytest.raises(programs.ProgramsError, match="no thermo output"):
        programs.results_lammps(tmp_path)


def test_hpcc_grid_and_bad_input(tmp_path):
    assert [programs.grid(n) for n in (1, 2, 4, 6, 7, 8, 16)] == \
        [(1, 1), (1, 2), (2, 2), (2, 3), (1, 7), (2, 4), (4, 4)]
    programs.prepare_hpcc(tmp_path, 6)
    lines = (tmp_path / "hpccinf.txt").read_text().splitlines()
    assert lines[10].split()[:2] == ["2", "Ps"] and lines[11].split()[:2] == ["3", "Qs"]
    with pytest.raises(programs.ProgramsError, match="hpccoutf.txt is missing"):
        programs.results_hpcc(tmp_path)
    with pytest.raises(programs.ProgramsError, match="unknown program"):
        programs.run_programs(tmp_path, programs="hpl")
    with pytest.raises(programs.ProgramsError, match="must include `none`"):
        programs.run_programs(tmp_path, layers="native,race")
    run = cli("programs", "--out", str(tmp_path / "x"), "--layers", "none,fast")
    assert run.returncode == 1 and "unknown layer configuration 'fast'" in run.stderr


def test_a_relative_out_folder_works(tmp_path, monkeypatch):
    """The ranks run in each run's folder, so a relative --out must not reach them relative
    (the layer's report was looked for in the wrong place)."""
    monkeypatch.chdir(tmp_path)
    programs.run_programs("rel", programs="lammps-melt", layers="none,native", repeat=1,
                          log=lambda *_: None)
    data = json.loads((tmp_path / "rel" / "programs.json").read_text())
    native = next(r for r in data["runs"] if r["layer"] == "native")
    assert native["collective_calls"] > 0 and (tmp_path / "rel" / "lammps-melt" / "native-1" /
                                               "autocoll.json").exists()


def test_hpcc_and_lammps_figures_are_parsed(tmp_path):
    (tmp_path / "hpccoutf.txt").write_text(
        "Begin of Summary section.\nMPIRandomAccess_time=0.866776\nMPIRandomAccess_Errors=0\n"
        "MPIRandomAccess_GUPs=0.00241949\nMPIRandomAccess_LCG_GUPs=0.5\nMPIFFT_N=65536\n"
        "MPIFFT_Gflops=5.98067\nMPIFFT_maxErr=1.29948e-15\nMPIFFT_time0=1.5e-07\n"
        "MPIFFT_time1=0.00015\nMPIFFT_time2=5e-05\nEnd of Summary section.\n")
    m = programs.metrics_hpcc(tmp_path)
    assert m == {"MPIFFT_Gflops": 5.98067, "MPIRandomAccess_GUPs": 0.00241949,
                 "MPIRandomAccess_time": 0.866776, "MPIFFT_time": pytest.approx(2.0015e-4)}
    (tmp_path / "hpccoutf.txt").write_text("MPIFFT_Gflops=2.5\n")  # what is there
    assert programs.metrics_hpcc(tmp_path) == {"MPIFFT_Gflops": 2.5}
    (tmp_path / "log.lammps").write_text(
        "Step Temp\n 0 3.0\nLoop time of 0.198101 on 4 procs for 250 steps with 4000 atoms\n"
        "Step Temp\n 250 1.0\nLoop time of 1.5e-1 on 4 procs for 10 steps with 4000 atoms\n")
    assert programs.metrics_lammps(tmp_path) == {"loop_s": pytest.approx(0.348101)}
    # figures are not results: the checks do not see them
    assert set(programs.results_lammps(tmp_path)) == {"0:Temp", "250:Temp"}


def test_render_figures_and_old_files():
    def run(program, layer, metrics=None):
        r = {"program": program, "layer": layer, "wall_seconds": 1.0, "values": {}, "check": []}
        if metrics is not None:
            r["metrics"] = metrics
        return r

    data = {"machine": {"hostname": "h", "cores_online": 2, "mpi": "m"}, "ranks": 4,
            "launcher": "local", "repeat": 2, "programs": ["hpcc"], "layers": ["none", "table"],
            "table": {"path": "/t.json", "registry_fingerprint": "0123456789abcdef"},
            "runs": [run("hpcc", "none", {"MPIFFT_Gflops": 2.0, "MPIRandomAccess_GUPs": 0.001}),
                     run("hpcc", "none", {"MPIFFT_Gflops": 4.0, "MPIRandomAccess_GUPs": 0.003}),
                     run("hpcc", "table", {"MPIFFT_Gflops": 6.0, "MPIRandomAccess_GUPs": 0.002}),
                     run("hpcc", "table", {"MPIFFT_Gflops": 6.0, "MPIRandomAccess_GUPs": 0.002})],
            "failures": []}
    text = programsreport.render(data)
    rows = {(line.split()[1], line.split()[2]): line for line in
            text.split("the programs' own figures")[1].splitlines()[2:] if line.strip()
            and line.startswith("hpcc")}
    assert rows[("none", "MPIFFT")].split()[-3:] == ["3", "(2-4)", "1.000"]
    assert rows[("table", "MPIFFT")].split()[-3:] == ["6", "(6-6)", "2.000"]
    assert rows[("table", "MPIRandomAccess")].split()[-1] == "1.000"
    assert "layer `table`: /t.json (registry fingerprint 0123456789abcdef)" in text
    # files written before figures and the table were recorded render without them
    del data["table"]
    for r in data["runs"]:
        del r["metrics"]
    text = programsreport.render(data)
    assert "own figures" not in text and "layer `table`" not in text


def test_table_layer_needs_a_table(tmp_path):
    """Refused before anything runs: `table` without --table, a --table that is no file, and a
    --table without the `table` configuration."""
    run = cli("programs", "--out", str(tmp_path / "x"), "--layers", "none,table")
    assert run.returncode == 1 and "`table` layer configuration needs" in run.stderr, run.stderr
    assert "--table PATH" in run.stderr
    run = cli("programs", "--out", str(tmp_path / "x"), "--layers", "none,table", "--table",
              str(tmp_path / "missing.json"))
    assert run.returncode == 1 and "missing.json: no such file" in run.stderr, run.stderr
    with pytest.raises(programs.ProgramsError, match="no such file"):
        programs.run_programs(tmp_path / "x", layers="none,table", table=tmp_path)  # a folder
    with pytest.raises(programs.ProgramsError, match="does not include"):
        programs.run_programs(tmp_path / "x", layers="none,native", table=tmp_path / "t.json")
    assert not (tmp_path / "x").exists()  # nothing ran


def test_table_refusal_is_read_from_the_warning():
    stderr = ("autocoll[0]: warning: AUTOCOLL_TABLE=/t.json: registry fingerprint 0123, this "
              "build's is 3e79: tuned with other algorithms; the table is ignored\n"
              "autocoll[0]: warning: AUTOCOLL_STRATEGY=table without a usable AUTOCOLL_TABLE: "
              "every call runs native\n")
    assert len(programs.table_refusal(stderr)) == 2
    assert programs.table_refusal("autocoll: warning: AUTOCOLL_TABLE=/x: No such file or "
                                  "directory; no table for this run\n")
    assert programs.table_refusal("autocoll[0]: warning: the table's pair for 3 ranks and 512 "
                                  "bytes is not applicable here\n") == []


def melt_table(path, fingerprint=None):
    """A table of one rule: allreduce runs `ring` at every communicator size and message size."""
    info = registry("openmpi")
    path.write_text(json.dumps({
        "schema": "autocoll-table", "version": 1, "autocoll_version": info["autocoll_version"],
        "registry_fingerprint": fingerprint or info["registry_fingerprint"],
        # no mpi_library: a table written by hand, which the layer does not check against
        # the running library (docs/table.md)
        "mpi": info["mpi"], "platform": {"hostname": "test", "cores_online": 1,
                                         "cluster": None},
        "cells": [], "rules": [{"collective": "allreduce", "ranks": [1, None],
                                "bytes": [0, None], "algorithm": "ring"}]}))
    return info["registry_fingerprint"]


def test_table_layer_runs_the_tables_rule(tmp_path):
    table = tmp_path / "table.json"
    fingerprint = melt_table(table)
    out = tmp_path / "out"
    run = cli("programs", "--out", str(out), "--programs", "lammps-melt", "--layers",
              "none,table", "--table", str(table), "--ranks", "4", "--repeat", "1")
    assert run.returncode == 0, run.stdout + run.stderr
    data = json.loads((out / "programs.json").read_text())
    assert data["table"] == {"path": str(table.resolve()), "registry_fingerprint": fingerprint}
    r = next(r for r in data["runs"] if r["layer"] == "table")
    assert r["check"] == [] and data["failures"] == []
    assert "AUTOCOLL_TABLE" not in (out / "lammps-melt" / "table-1" / "stderr.txt").read_text()
    # The layer's report of the run: every allreduce context ran the rule's ring (native would
    # be stage no_rule), and so did every allreduce call, contexts or not (the table strategy
    # has no call sites; melt calls allreduce from more than AUTOCOLL_MAX_SITES sites).
    report = json.loads((out / "lammps-melt" / "table-1" / "autocoll.json").read_text())
    contexts = [x for c in report["communicators"]
                for x in c["collectives"].get("allreduce", {}).get("contexts", [])]
    assert contexts and all(x["strategy"] == "table" and x["stage"] == "rule" and
                            x["chosen"] == "ring" and set(x["runs"]) == {"ring"}
                            for x in contexts), contexts
    assert r["algorithms"]["allreduce"].get("ring", 0) == sum(x["calls"] for x in contexts) > 0
    assert set(r["algorithms"]["allreduce"]) == {"ring"}, r["algorithms"]
    assert "allreduce" in run.stdout and "layer `table`" in run.stdout


def test_a_table_the_layer_refuses_fails_the_command(tmp_path):
    table = tmp_path / "table.json"
    melt_table(table, fingerprint="0123456789abcdef")
    out = tmp_path / "out"
    run = cli("programs", "--out", str(out), "--programs", "lammps-melt", "--layers",
              "none,table", "--table", str(table), "--ranks", "2", "--repeat", "1")
    assert run.returncode == 1, run.stdout + run.stderr
    assert "lammps-melt under table: the layer did not load the table" in run.stderr
    assert "registry fingerprint 0123456789abcdef" in run.stderr and str(table) in run.stderr
    assert not (out / "programs.json").exists()

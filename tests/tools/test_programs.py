"""`autocoll programs`: Debian's hpcc and LAMMPS run natively and under autocoll (Open MPI, 4
ranks), results checked equal; the parsers; and a corrupted collective that the checks must
catch (a check that cannot fail is a defect)."""

import json
import os
import subprocess

import pytest

from autocoll import programs

from conftest import ROOT, autocoll_cli as cli

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


def test_a_corrupted_allreduce_is_caught(tmp_path, monkeypatch):
    lib = tmp_path / "libcorrupt.so"
    src = tmp_path / "corrupt.c"
    src.write_text(CORRUPT_SOURCE)
    subprocess.run(["mpicc.openmpi", "-shared", "-fPIC", "-o", str(lib), str(src)], check=True)
    monkeypatch.setitem(programs.LAYERS, "corrupt", {})
    real_env = programs.layer_env

    def env(layer, build, report_path):
        return {"LD_PRELOAD": str(lib)} if layer == "corrupt" else real_env(layer, build,
                                                                           report_path)

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

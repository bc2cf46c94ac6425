"""autocoll under Slurm's srun (docs/slurm.md): a one-node Slurm cluster of this machine
(scripts/slurm_local; scripts/setup installs Debian's slurmd, slurmctld and slurm-client) runs
the demo as one job per MPI, with LD_PRELOAD and the settings carried to every rank by srun's
--export: Open MPI through PMIx (--mpi=pmix), MPICH through PMI-2 (--mpi=pmi2). Every rank must
write its own report (AUTOCOLL_REPORT with %r), all of one job of that many ranks, with the
strategy the environment asked for."""

import json
import os
import subprocess

import pytest

from conftest import ROOT, build_dir

SLURM_LOCAL = ROOT / "scripts" / "slurm_local"


@pytest.fixture(scope="module")
def slurm(tmp_path_factory):
    """SLURM_CONF of a running one-node cluster; stopped after the module's tests."""
    folder = tmp_path_factory.mktemp("slurm")
    start = subprocess.run([SLURM_LOCAL, "start", folder], capture_output=True, text=True,
                           timeout=120)
    assert start.returncode == 0, start.stdout + start.stderr
    conf = str(folder / "slurm.conf")
    yield conf
    subprocess.run([SLURM_LOCAL, "stop", folder], env={**os.environ, "SLURM_CONF": conf},
                   timeout=60)


# (MPI, srun's PMI plugin, ranks, what the MPI needs on 2 oversubscribed cores)
CASES = [("openmpi", "pmix", 4, {"OMPI_MCA_mpi_yield_when_idle": "1"}),
         ("mpich", "pmi2", 3, {})]


@pytest.mark.parametrize("mpi,plugin,np,extra", CASES)
def test_demo_through_srun(slurm, mpi, plugin, np, extra, tmp_path):
    build = build_dir(mpi)
    settings = {"LD_PRELOAD": str(build / "libautocoll.so"), "AUTOCOLL_STRATEGY": "race",
                "AUTOCOLL_HISTORY": "off", "AUTOCOLL_REPORT": str(tmp_path / "report-%r.json"),
                **extra}
    export = ",".join(["ALL"] + [f"{k}={v}" for k, v in settings.items()])
    run = subprocess.run(["srun", f"--mpi={plugin}", "--overcommit", "-n", str(np),
                          f"--export={export}", str(build / "demo")],
                         env={**os.environ, "SLURM_CONF": slurm}, cwd=tmp_path,
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    # one job: one rank 0 printed the verdict (singletons would print it np times)
    assert run.stdout.count("demo: results correct") == 1, run.stdout + run.stderr
    for rank in range(np):
        report = json.loads((tmp_path / f"report-{rank}.json").read_text())
        assert report["rank"] == rank and report["world_size"] == np, report
        world, = [c for c in report["communicators"] if c["name"] == "MPI_COMM_WORLD"]
        contexts = world["collectives"]["allreduce"]["contexts"]
        assert contexts and all(x["strategy"] == "race" for x in contexts), contexts

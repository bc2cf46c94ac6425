"""The hierarchical family under SimGrid's SMPI (src/coll/hierarchical.c, docs/guide.md): every
instance runs, and none crashes, on simulated nodes of several ranks.

The harness checks the instances' results against native under Open MPI and MPICH
(tests/mpi/CMakeLists.txt, emulated nodes); SMPI's own collectives crash on the harness's
derived-type cases, so here the benchmark driver runs every instance of each collective on 16
simulated ranks of fat-tree-ib: 4 ranks a host in blocks, and 3 a host dealt round-robin (nodes
of 3 and 2 ranks, not in rank order), at 8 bytes (shares of no element with 4 leaders: SMPI's
reductions of 0 elements raise SIGFPE, which an instance must not reach) and 1 KiB. Each
instance the registry lists for the call must appear among the cell's configurations (not
skipped), with a positive time."""

import json

import pytest

from conftest import autocoll_cli as cli, registry
from test_simgrid import simgrid_build

COLLECTIVES = ["allreduce", "bcast", "reduce", "allgather", "gather", "scatter", "alltoall",
               "barrier", "reduce_scatter_block"]
LAYOUTS = [("4", "block"), ("3", "cyclic")]


def hier_names(collective):
    return sorted(a["name"] for a in registry("openmpi", size=16)["algorithms"]
                  if a["collective"] == collective and a["name"].startswith("hier_"))


@pytest.mark.parametrize("ppn,placement", LAYOUTS)
@pytest.mark.parametrize("collective", COLLECTIVES)
def test_every_hierarchical_instance_runs_under_smpi(tmp_path, collective, ppn, placement):
    simgrid_build()
    names = hier_names(collective)
    if not names:
        pytest.fail(f"{collective} has no hierarchical instance at 16 ranks")
    sizes = "8" if collective == "barrier" else "8,1K"
    done = cli("bench", "--simgrid", "fat-tree-ib", "--ppn", ppn, "--placement", placement,
               "--out", str(tmp_path), "--collectives", collective, "--sizes", sizes,
               "--ranks", "16", "--iterations", "1", "--fixed-iterations", "2", "--warmup", "1",
               "--layers", "", "--selectors", "ompi", "--only", ",".join(names), timeout=900)
    assert done.returncode == 0, done.stdout + done.stderr
    for size in sizes.split(","):
        cell = json.loads((tmp_path / f"{collective}-{size}-np16-ompi.json").read_text())
        ran = {c["name"]: c for c in cell["configurations"]}
        skipped = {s["name"]: s["reason"] for s in cell["skipped"] if s["name"] in names}
        # an instance skipped here is one whose phases do not apply at this size (a
        # Rabenseifner phase on a share of fewer elements than leaders): the registry's word
        for name in names:
            assert name in ran or "phase" in skipped.get(name, ""), (name, skipped.get(name))
            if name in ran:
                assert ran[name]["median"] > 0, name
        assert len(ran) > len(names) // 2, (size, sorted(ran))

"""The hierarchical family under SimGrid's SMPI (src/coll/hierarchical.c, docs/guide.md): every
instance runs, and none crashes, on simulated nodes of several ranks.

The harness checks the instances' results against native under Open MPI and MPICH
(tests/mpi/CMakeLists.txt, emulated nodes); SMPI's own collectives crash on the harness's
derived-type cases, so here the benchmark driver runs every instance of each collective on 16
simulated ranks of fat-tree-ib: 4 ranks a host in blocks, and 3 a host dealt round-robin (nodes
of 3 and 2 ranks, not in rank order), at 8 bytes (shares of no element with 4 leaders: SMPI's
reductions of 0 elements raise SIGFPE, which an instance must not reach) and 1 KiB. Every
instance the registry lists must run, with a positive time, in one of these cells at least;
where it does not run, its requirements said it does not apply."""

import json

import pytest

from conftest import autocoll_cli as cli, registry
from test_simgrid import simgrid_build

COLLECTIVES = ["allreduce", "bcast", "reduce", "allgather", "gather", "scatter", "alltoall",
               "barrier", "reduce_scatter_block"]
LAYOUTS = [("4", "block"), ("3", "cyclic")]
# the driver's sizes: a barrier moves nothing; a reduce-scatter-block's vector is a double a rank
SIZES = {"barrier": "0", "reduce_scatter_block": "128,1K"}


def hier_names(collective):
    return sorted(a["name"] for a in registry("openmpi", size=16)["algorithms"]
                  if a["collective"] == collective and a["name"].startswith("hier_"))


@pytest.mark.parametrize("collective", COLLECTIVES)
def test_every_hierarchical_instance_runs_under_smpi(tmp_path, collective):
    simgrid_build()
    names = hier_names(collective)
    if not names:
        pytest.fail(f"{collective} has no hierarchical instance at 16 ranks")
    sizes = SIZES.get(collective, "8,1K")
    ran = set()
    for ppn, placement in LAYOUTS:
        out = tmp_path / f"{ppn}-{placement}"
        done = cli("bench", "--simgrid", "fat-tree-ib", "--ppn", ppn, "--placement", placement,
                   "--out", str(out), "--collectives", collective, "--sizes", sizes,
                   "--ranks", "16", "--iterations", "1", "--fixed-iterations", "2",
                   "--warmup", "1", "--layers", "", "--selectors", "ompi",
                   "--only", ",".join(names), timeout=900)
        assert done.returncode == 0, done.stdout + done.stderr
        for size in sizes.split(","):
            cell = json.loads((out / f"{collective}-{size}-np16-ompi.json").read_text())
            for c in cell["configurations"]:
                if c["name"] in names:
                    assert c["median"] > 0, (c["name"], ppn, placement, size)
                    ran.add(c["name"])
            # the others did not apply to the call (their requirements: k leaders on nodes of
            # 3 and 2 ranks, a phase that does not apply at this size)
            assert all(s["reason"].startswith("needs") for s in cell["skipped"]
                       if s["name"] in names), cell["skipped"]
    assert ran == set(names), sorted(set(names) - ran)

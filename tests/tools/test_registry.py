"""The registry as autocoll-info publishes it, and the settings table."""

import re
import subprocess

import pytest

from conftest import MPIS, ROOT, build_dir, registry


@pytest.mark.parametrize("mpi", MPIS)
def test_repository_sizes(mpi):
    """STAR-MPI's repository: at least 13 alltoall, 12 allgather and 20 allreduce algorithms
    of ours, plus native; native and at least one of ours for every intercepted collective."""
    by = {}
    for a in registry(mpi)["algorithms"]:
        by.setdefault(a["collective"], []).append(a["name"])
    ours = {c: [n for n in names if n != "native"] for c, names in by.items()}
    assert len(ours["alltoall"]) >= 13
    assert len(ours["allgather"]) >= 12
    assert len(ours["allgatherv"]) >= 12
    assert len(ours["allreduce"]) >= 20
    for coll in ["allgather", "allgatherv", "allreduce", "alltoall", "alltoallv", "barrier",
                 "bcast", "gather", "reduce", "reduce_scatter", "reduce_scatter_block",
                 "scatter"]:
        assert by[coll][0] == "native", coll
        assert ours[coll], f"{coll} has no algorithm of ours"


@pytest.mark.parametrize("mpi", MPIS)
def test_entries_are_complete_and_named_properly(mpi):
    data = registry(mpi)
    seen = set()
    for a in data["algorithms"]:
        key = (a["collective"], a["name"])
        assert key not in seen, f"duplicate {key}"
        seen.add(key)
        assert re.fullmatch(r"[a-z][a-z0-9_]*", a["name"]), a["name"]
        assert a["group"] and a["summary"], a
        assert a["attributes"], a


def test_both_builds_have_the_same_registry():
    assert registry("openmpi")["registry_fingerprint"] == registry("mpich")["registry_fingerprint"]


def test_every_setting_in_the_code_is_in_the_table():
    """Nobody reads an AUTOCOLL_* variable that autocoll-info does not document: a setting, or
    a name of the test tooling (which the check at MPI_Init lets pass)."""
    listed = {s["name"] for s in registry("openmpi")["settings"]}
    listed |= set(registry("openmpi")["tooling"])
    used = set()
    for path in (ROOT / "src").rglob("*.c"):
        used |= set(re.findall(r'"(AUTOCOLL(?:_[A-Z0-9_]+)?)"', path.read_text()))
    collectives = {f"AUTOCOLL_{a['collective'].upper()}" for a in registry("openmpi")["algorithms"]}
    assert used <= listed, used - listed
    assert collectives <= listed, collectives - listed


def test_families_are_described_once_and_listed_per_size():
    """Without --size: the static entries and one family per decomposed collective; with
    --size N: the static entries, then the family's instances for N, phase by phase, each phase
    the layouts that factor N (2D p1 ascending, then 3D), then the hierarchical instances."""
    data = registry("openmpi")
    assert not [a for a in data["algorithms"] if a["name"].startswith("orthogonal_")]
    families = {f["collective"]: f for f in data["families"]}
    assert set(families) == {"bcast", "gather", "scatter", "allgather", "allgatherv", "reduce",
                             "allreduce", "alltoall"}
    assert all(f["family"] == "orthogonal" and len(f["phases"]) == 4 and
               "a communicator size the mesh layout factors" in f["requires"]
               for f in families.values())
    at8 = registry("openmpi", 8)
    assert at8["size"] == 8 and at8["registry_fingerprint"] == data["registry_fingerprint"]
    for coll, family in families.items():
        static = [a["name"] for a in data["algorithms"] if a["collective"] == coll]
        names = [a["name"] for a in at8["algorithms"] if a["collective"] == coll]
        hier = [n for n in names if n.startswith("hier_")]  # the hierarchical family, last
        assert names == static + [f"orthogonal_{layout}_{phase}" for phase in family["phases"]
                                  for layout in ("2xn", "4xn", "2x2xn")] + hier, coll
    info = build_dir("openmpi") / "autocoll-info"
    text = subprocess.run([str(info), "--size", "8", "--collective", "alltoall"],
                          capture_output=True, text=True, check=True).stdout
    assert "alltoall (63 algorithms for 8 ranks, force with AUTOCOLL_ALLTOALL=<name>)" in text
    assert "hier_binomial_tree_pair" in text  # 27 before, and 12 hierarchical instances
    assert "orthogonal_2x2xn_pair" in text and "family orthogonal" in text
    for bad in (["--size"], ["--size", "0"], ["--size", "x"], ["--json", "--json"]):
        run = subprocess.run([str(info), *bad], capture_output=True, text=True)
        assert run.returncode == 2 and run.stderr.startswith("autocoll-info: --"), bad

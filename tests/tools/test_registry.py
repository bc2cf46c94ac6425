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
    """Nobody reads an AUTOCOLL_* variable that autocoll-info does not document."""
    listed = {s["name"] for s in registry("openmpi")["settings"]}
    used = set()
    for path in (ROOT / "src").rglob("*.c"):
        used |= set(re.findall(r'"(AUTOCOLL(?:_[A-Z0-9_]+)?)"', path.read_text()))
    collectives = {f"AUTOCOLL_{a['collective'].upper()}" for a in registry("openmpi")["algorithms"]}
    assert used <= listed, used - listed
    assert collectives <= listed, collectives - listed


def test_info_text_and_usage():
    info = build_dir("openmpi") / "autocoll-info"
    text = subprocess.run([str(info)], capture_output=True, text=True, check=True).stdout
    assert "force with AUTOCOLL_ALLREDUCE=<name>" in text
    assert "AUTOCOLL_REPORT" in text
    bad = subprocess.run([str(info), "--nonsense"], capture_output=True, text=True)
    assert bad.returncode == 2 and "usage" in bad.stderr

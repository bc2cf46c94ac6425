"""The "Open MPI 5.0 defaults" baseline table (tables/ompi5-defaults.json, written by
tables/ompi5_defaults.py: HAN on communicators over several nodes; docs/baselines.md):

- the committed file is what the script writes for the current build;
- its rules are keyed by node layout and name the hierarchical instance with the library's own
  phases, for the seven collectives HAN takes;
- under SimGrid's SMPI (`--selectors ompi`: SMPI's copy of tuned) the table layer runs that
  instance on 16 ranks at 4 a node (bcast there, on 4 nodes: HAN's pipelined instance; at 2 a
  node, on 8 nodes: the unpipelined one; allreduce at 8 a node, on 2 nodes: HAN's pipelined
  instance, at 4 a node the unpipelined one) and the library's own selection at one rank a node
  and for a collective HAN does not take."""

import importlib.util
import json
import shutil

import pytest

from conftest import ROOT, autocoll_cli as cli, registry

TABLE = ROOT / "tables/ompi5-defaults.json"


def generator():
    spec = importlib.util.spec_from_file_location("ompi5_defaults",
                                                  ROOT / "tables/ompi5_defaults.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_committed_table_is_the_scripts_output():
    g = generator()
    assert TABLE.read_text() == g.mpich4.text(g.table(registry("openmpi", 16))), \
        f"{TABLE} is not current: regenerate it with `.venv/bin/python tables/ompi5_defaults.py`"


def test_han_collectives_on_several_nodes_only():
    table = json.loads(TABLE.read_text())
    assert {r["collective"] for r in table["rules"]} == {
        "allreduce", "allgather", "barrier", "bcast", "gather", "reduce", "scatter"}
    # HAN's pipeline where libnbc's collectives among the leaders are SMPI's: MPI_Ibcast on up
    # to 4 leaders (linear), MPI_Ireduce on 2 (one message)
    pipelined_up_to = {"bcast": 4, "reduce": 2, "allreduce": 2}
    for r in table["rules"]:
        assert r["ppn"] == [2, None], r
        most = pipelined_up_to.get(r["collective"])
        if most and r["nodes"] == [2, most]:
            assert r["algorithms"][0] == "hier_segment_64k_native_native", r
        else:
            assert r["nodes"] == [most + 1 if most else 2, None], r
            assert r["algorithms"][0] == "hier_native_native", r


@pytest.mark.parametrize("collective,ppn,expected", [
    ("allreduce", 4, "hier_native_native"), ("bcast", 4, "hier_segment_64k_native_native"),
    ("allreduce", 8, "hier_segment_64k_native_native"),
    ("bcast", 2, "hier_native_native"), ("allreduce", 1, "native"), ("alltoall", 4, "native")])
def test_the_table_layer_under_smpi(collective, ppn, expected, tmp_path):
    if shutil.which("smpirun") is None or \
            not (ROOT / "build/simgrid/bench/autocoll_bench").exists():
        pytest.fail("SimGrid or build/simgrid is missing: run scripts/setup")
    done = cli("bench", "--simgrid", "fat-tree-ib", "--ppn", str(ppn), "--out", str(tmp_path),
               "--collectives", collective, "--sizes", "1K", "--ranks", "16", "--iterations",
               "5", "--warmup", "1", "--layers", "table", "--selectors", "ompi", "--only",
               "native", "--table", str(TABLE), timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    (path,) = tmp_path.glob(f"{collective}-*-np16-ompi.json")
    layer = next(c for c in json.loads(path.read_text())["configurations"]
                 if c["name"] == "layer:table")
    assert layer["layer"]["algorithm_runs"] == [[expected, 5]], layer["layer"]

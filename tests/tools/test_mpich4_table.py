"""The "MPICH 4 defaults" baseline table (tables/mpich4-defaults.json, written by
tables/mpich4_defaults.py from MPICH 4.3.2's maint/tuning/coll/mpir/generic.json;
docs/baselines.md):

- the committed file is what the script writes for the current build (its registry
  fingerprint included: when the registry changes, the table must be regenerated);
- every algorithm it names is in the registry, for its collective;
- its process-count bands are exact: at every count from 1 to 4096 and around every
  breakpoint up to its largest count, the rules covering the count are the script's rules
  for that count, and they tile the message sizes from 0 up;
- spot checks, written by hand from generic.json (not from the script), of the algorithm the
  table gives the benchmark's workload (MPI_DOUBLE, MPI_SUM, not in place) at chosen
  (ranks, bytes) points, and of the ch4 compositions (ch4/generic.json) at chosen (ranks,
  nodes, ranks a node, bytes) points; every layout of a composed collective covered once;
- the layer accepts it and runs those choices: table_calls under Open MPI (4 ranks) and MPICH
  (3 ranks), and benchmark cells on 8, 9, 12 and 16 simulated ranks (SimGrid's SMPI)."""

import importlib.util
import json
import shutil

import pytest

from conftest import ROOT, autocoll_cli as cli, registry, run_mpi

TABLE = ROOT / "tables/mpich4-defaults.json"
REGENERATE = ".venv/bin/python tables/mpich4_defaults.py"


def generator():
    spec = importlib.util.spec_from_file_location("mpich4_defaults",
                                                  ROOT / "tables/mpich4_defaults.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def table():
    return json.loads(TABLE.read_text())


@pytest.fixture(scope="module")
def algorithms():
    """{(collective, name): requires} of the registry."""
    return {(a["collective"], a["name"]): a["requires"]
            for a in registry("openmpi", 16)["algorithms"]}


def test_the_fingerprint_is_this_builds(table):
    mine = registry("openmpi")["registry_fingerprint"]
    assert table["registry_fingerprint"] == mine, (
        f"the registry changed ({table['registry_fingerprint']} -> {mine}): regenerate the "
        f"table with `{REGENERATE}` and check that every name still means what "
        f"docs/baselines.md says")
    assert "mpi_library" not in table  # runs under any MPI, SMPI included


def test_the_committed_table_is_the_scripts_output():
    g = generator()
    assert TABLE.read_text() == g.text(g.table(registry("openmpi", 16))), \
        f"{TABLE} is not current: regenerate it with `{REGENERATE}`"


def test_every_name_is_in_the_registry(table, algorithms):
    for r in table["rules"]:
        assert 1 <= len(r["algorithms"]) <= 8, r
        for name in r["algorithms"]:
            assert (r["collective"], name) in algorithms, r
        assert r["source"] in table["mpich_rules"][r["collective"]], r


def inside(interval, x):
    return interval[0] <= x and (interval[1] is None or x <= interval[1])


def covering(table, collective, ranks, nodes=None, ppn=1):
    """The rules covering `ranks` on `nodes` nodes (default: one rank a node) of at most `ppn`
    ranks, by message size."""
    nodes = ranks if nodes is None else nodes
    return sorted((r for r in table["rules"] if r["collective"] == collective
                   and inside(r["ranks"], ranks) and inside(r.get("nodes", [1, None]), nodes)
                   and inside(r.get("ppn", [1, None]), ppn)), key=lambda r: r["bytes"][0])


def test_the_bands_are_exact(table):
    g = generator()
    counts = set(range(1, 4097))
    for p in g.breakpoints():
        counts.update(x for x in (p - 1, p, p + 1) if 1 <= x <= g.MAX_RANKS)
    for coll, function in g.COLLECTIVES.items():
        for p in sorted(counts):
            rules = covering(table, coll, p)
            assert [(r["bytes"][0], r["bytes"][1], r["algorithms"], r["source"]) for r in rules] \
                == [s[:3] + (s[4],) for s in function(p)], (coll, p)
            assert rules[0]["bytes"][0] == 0 and rules[-1]["bytes"][1] is None, (coll, p)
            for a, b in zip(rules, rules[1:]):
                assert b["bytes"][0] == a["bytes"][1] + 1, (coll, p)
        assert not covering(table, coll, g.MAX_RANKS + 1)  # beyond: native


def chosen(table, algorithms, collective, ranks, nbytes, nodes=None, ppn=1):
    """What the layer runs for the benchmark's workload (commutative built-in op) on `nodes`
    nodes of `ppn` ranks (default one rank a node), ranks in blocks: the first algorithm of the
    covering rule's list that applies (docs/table.md)."""
    (rule,) = [r for r in covering(table, collective, ranks, nodes, ppn)
               if inside(r["bytes"], nbytes)]
    for name in rule["algorithms"]:
        requires = algorithms[(collective, name)]
        if "power-of-two" in requires and ranks & (ranks - 1):
            continue
        if name.startswith("hier_") and not ((nodes or ranks) >= 2 and ppn >= 2):
            continue
        return name
    return "native"


# (collective, ranks, bytes, expected, why: generic.json at v4.3.2)
SPOT = [
    ("allreduce", 16, 8, "recursive_doubling", "avg_msg_size<=8, l. 114-117"),
    ("allreduce", 16, 64, "recursive_doubling", "8 doubles < pof2 16: count<pow2, l. 126-129"),
    ("allreduce", 16, 128, "rabenseifner_recursive_doubling", "16 doubles = pof2, l. 130-133"),
    ("allreduce", 16, 65536, "rabenseifner_recursive_doubling", "reduce_scatter_allgather"),
    ("allreduce", 12, 56, "recursive_doubling", "7 doubles < pof2 8"),
    ("allreduce", 12, 64, "rabenseifner_recursive_doubling", "8 doubles = pof2 8"),
    ("bcast", 7, 1 << 20, "binomial_tree", "comm_size<8 (pruned: p < 8), l. 6-25"),
    ("bcast", 8, 65536, "scatter_recursive_doubling_allgather", "p = 8 is pow2, l. 54-57"),
    ("bcast", 16, 12288, "binomial_tree", "avg_msg_size<=12288, l. 50-53"),
    ("bcast", 16, 12289, "scatter_recursive_doubling_allgather", "<=524288, l. 54-57"),
    ("bcast", 16, 524289, "scatter_ring_allgather", "pow2, any, l. 58-61"),
    ("bcast", 12, 65536, "scatter_ring_allgather", "not pow2, >12288, l. 87-90"),
    ("reduce", 16, 2048, "binomial_tree", "avg_msg_size<=2048, l. 248-251"),
    ("reduce", 16, 2056, "rabenseifner", "257 doubles >= pof2: reduce_scatter_gather"),
    ("reduce", 512, 4095, "binomial_tree", "511 doubles < pof2 512: count<pow2, l. 256-259"),
    ("reduce", 512, 4096, "rabenseifner", "512 doubles = pof2, l. 260-263"),
    ("allgather", 16, 32767, "recursive_doubling", "32767 x 16 < 524288, l. 148-151"),
    ("allgather", 16, 32768, "ring", "32768 x 16 = 524288, l. 152-155"),
    ("allgather", 12, 6826, "bruck", "6826 x 12 = 81912 < 81920, l. 159-162"),
    ("allgather", 12, 6827, "ring", "6827 x 12 = 81924, l. 163-166"),
    ("allgatherv", 12, 81919, "bruck", "total < 81920, l. 191-194"),
    ("allgatherv", 16, 81920, "recursive_doubling", "pow2, total < 524288, l. 180-183"),
    ("alltoall", 8, 64, "simple", "comm_size<8 searched as p <= 8: scattered, l. 446-449"),
    ("alltoall", 8, 65536, "pair", "pairwise, XOR partners at p = 8, l. 450-453"),
    ("alltoall", 9, 64, "bruck", "avg_msg_size<=256, l. 457-460"),
    ("alltoall", 16, 1024, "simple", "avg_msg_size<=32768: scattered, l. 461-464"),
    ("alltoall", 16, 65536, "pair", "pairwise at a power of two, l. 465-468"),
    ("alltoall", 12, 65536, "ring", "pairwise at another count: r+i / r-i"),
    ("alltoallv", 12, 4096, "simple", "scattered, l. 485-488"),
    ("gather", 12, 4096, "binomial_tree", "l. 350-353"),
    ("scatter", 12, 4096, "binomial_tree", "l. 368-371"),
    ("barrier", 12, 0, "dissemination", "k_dissemination k=2, l. 422-427"),
    ("reduce_scatter", 16, 524287, "recursive_halving", "total < 524288, l. 283-286"),
    ("reduce_scatter", 16, 524288, "pairwise", "l. 287-290"),
    ("reduce_scatter_block", 12, 8, "recursive_halving", "l. 322-325"),
    ("neighbor_alltoall", 12, 4096, "isend_irecv", "allcomm_nb: sched_linear, l. 521-524"),
]


@pytest.mark.parametrize("collective,ranks,nbytes,expected,why", SPOT)
def test_mpichs_rule_at_a_point(table, algorithms, collective, ranks, nbytes, expected, why):
    assert chosen(table, algorithms, collective, ranks, nbytes) == expected, why


# The ch4 compositions (ch4/generic.json at v4.3.2, docs/baselines.md): (collective, ranks,
# nodes, ranks a node, bytes, expected, why)
COMPOSED = [
    ("allreduce", 64, 8, 8, 8, "hier_binomial_tree_recursive_doubling",
     "alpha; among 8 leaders avg_msg_size<=8: recursive doubling"),
    ("allreduce", 64, 8, 8, 56, "hier_binomial_tree_recursive_doubling",
     "alpha; 7 doubles < pof2 8 leaders"),
    ("allreduce", 64, 8, 8, 64, "hier_binomial_tree_rabenseifner_recursive_doubling",
     "alpha; 8 doubles = pof2 8 leaders: reduce_scatter_allgather"),
    ("allreduce", 64, 2, 32, 64, "hier_binomial_tree_rabenseifner_recursive_doubling",
     "alpha; 8 doubles >= pof2 2 leaders"),
    ("allreduce", 8, 1, 8, 65536, "rabenseifner_recursive_doubling",
     "one node: the shared-memory path, the flat rule stands in"),
    ("bcast", 64, 8, 8, 12288, "hier_binomial_tree_binomial_tree", "p >= 8, b <= 12288: alpha"),
    ("bcast", 64, 8, 8, 65536, "hier_binomial_tree_scatter_ring_allgather",
     "p pow2, b <= 524288: beta, 8 leaders: scatter + allgather"),
    ("bcast", 64, 4, 16, 65536, "hier_binomial_tree_binomial_tree",
     "p pow2, b <= 524288: beta, 4 leaders (< 8): binomial"),
    ("bcast", 64, 8, 8, 1 << 20, "scatter_ring_allgather", "p pow2, b > 524288: gamma, flat"),
    ("bcast", 48, 6, 8, 65536, "scatter_ring_allgather", "p not pow2, b > 12288: gamma, flat"),
    ("bcast", 6, 2, 3, 1 << 20, "hier_binomial_tree_binomial_tree", "p < 8: alpha"),
    ("reduce", 64, 8, 8, 2048, "hier_binomial_tree_binomial_tree", "b <= 2048: beta"),
    ("reduce", 64, 8, 8, 65536, "hier_binomial_tree_rabenseifner",
     "alpha; among 8 leaders count >= pof2: reduce_scatter_gather"),
    ("barrier", 16, 2, 8, 0, "hier_dissemination_dissemination", "alpha"),
    ("alltoall", 64, 8, 8, 64, "bruck", "no composition by default: flat"),
    ("gather", 64, 8, 8, 64, "binomial_tree", "no composition by default: flat"),
]


@pytest.mark.parametrize("collective,ranks,nodes,ppn,nbytes,expected,why", COMPOSED)
def test_mpichs_composition_at_a_point(table, algorithms, collective, ranks, nodes, ppn, nbytes,
                                       expected, why):
    assert chosen(table, algorithms, collective, ranks, nbytes, nodes, ppn) == expected, why


def test_every_layout_is_covered_once(table):
    """For each collective with a composition, every (ranks, nodes, ranks a node) is covered by
    one rule at each message size: 0 bytes up, no gap, no overlap."""
    g = generator()
    for coll in g.COMPOSED:
        for ranks in (2, 3, 7, 8, 9, 16, 48, 64, 256, 1000):
            for ppn in (1, 2, 3, 8, 32):
                nodes = -(-ranks // ppn)
                rules = covering(table, coll, ranks, nodes, min(ppn, ranks))
                assert rules[0]["bytes"][0] == 0 and rules[-1]["bytes"][1] is None, \
                    (coll, ranks, ppn)
                for a, b in zip(rules, rules[1:]):
                    assert b["bytes"][0] == a["bytes"][1] + 1, (coll, ranks, ppn)


@pytest.mark.parametrize("mpi,np", [("openmpi", 4), ("mpich", 3)])
def test_the_layer_runs_the_table(mpi, np, tmp_path):
    """table_calls (allreduce of 4 B (MPI_INT), 64 B, 1 KiB and 64 KiB, allgather of 512 B per
    rank, bcast of 1 KiB) under the table strategy: every context on its rule."""
    run = run_mpi(mpi, np, "tests/mpi/table_calls", tmp_path, args=["3"],
                  env={"AUTOCOLL_STRATEGY": "table", "AUTOCOLL_TABLE": str(TABLE),
                       "AUTOCOLL_MAX_SITES": "0"})
    assert "table_calls: 3 iterations, ok" in run.stdout, run.stdout + run.stderr
    assert "the table is ignored" not in run.stderr, run.stderr
    expected = {("allreduce", 4): "recursive_doubling",  # 1 MPI_INT: avg_msg_size<=8
                ("allreduce", 64): "rabenseifner_recursive_doubling",  # 8 doubles >= pof2
                ("allreduce", 1024): "rabenseifner_recursive_doubling",
                ("allreduce", 65536): "rabenseifner_recursive_doubling",
                ("allgather", 512): "recursive_doubling" if np == 4 else "bruck",
                ("bcast", 1024): "binomial_tree"}
    for (coll, nbytes), name in expected.items():
        (x,) = [c for c in run.collective("MPI_COMM_WORLD", coll)["contexts"]
                if c["bytes"] == nbytes]
        assert x["stage"] == "rule" and x["chosen"] == name, (coll, nbytes, x)


SIMULATED = [("allreduce", "8,64K", "16"), ("alltoall", "64", "8,9"),
             ("bcast", "64K", "12,16"), ("allgather", "4K,8K", "12")]


@pytest.mark.parametrize("collective,sizes,ranks", SIMULATED)
def test_the_table_layer_under_smpi(collective, sizes, ranks, tmp_path, table, algorithms):
    """`autocoll bench --simgrid --table tables/mpich4-defaults.json --layers table`: the table
    layer runs, on every call, the algorithm MPICH's rule gives (as chosen() reads the table,
    which the spot checks above hold to generic.json)."""
    if shutil.which("smpirun") is None or \
            not (ROOT / "build/simgrid/bench/autocoll_bench").exists():
        pytest.fail("SimGrid or build/simgrid is missing: run scripts/setup")
    done = cli("bench", "--simgrid", "fat-tree-ib", "--out", str(tmp_path), "--collectives",
               collective, "--sizes", sizes, "--ranks", ranks, "--iterations", "5",
               "--warmup", "1", "--layers", "table", "--selectors", "ompi", "--only", "native",
               "--table", str(TABLE), timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    cells = sorted(tmp_path.glob(f"{collective}-*-np*-ompi.json"))
    assert len(cells) == len(sizes.split(",")) * len(ranks.split(","))
    for path in cells:
        cell = json.loads(path.read_text())
        nbytes, np = cell["parameters"]["bytes"], cell["machine"]["ranks"]
        layer = next(c for c in cell["configurations"] if c["name"] == "layer:table")
        name = chosen(table, algorithms, collective, np, nbytes)
        assert layer["layer"]["algorithm_runs"] == [[name, 5]], (path.name, layer["layer"])

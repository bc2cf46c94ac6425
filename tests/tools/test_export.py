"""`autocoll export`: the files read back with the native libraries' own semantics (Open MPI
4.1's classic rules, MPICH 4.0's selection JSON), substitutions, the CVARs, and under MPI that
each native library runs the exported choice (tests/tools/allreduce_operand_order.c shows which
allreduce algorithm ran: no timing involved)."""

import json
import os
import shutil
import subprocess

import pytest

from autocoll.analysis import export
from autocoll.run.bench import mpirun_command

from conftest import ROOT, autocoll_cli as cli


def rule(coll, ranks, nbytes, algorithm):
    return {"collective": coll, "ranks": ranks, "bytes": nbytes, "algorithm": algorithm}


def table(rules, cells=(), mpi="openmpi"):
    return {"schema": "autocoll-table", "version": 1, "mpi": mpi, "mpi_library": "test",
            "registry_fingerprint": "0" * 16, "created": "2026-01-01T00:00:00Z",
            "rules": rules, "cells": list(cells)}


def cell(coll, ranks, nbytes, winner, times):
    return {"collective": coll, "ranks": ranks, "bytes": nbytes, "winner": winner, "times": times,
            "spread": {}, "noisy": False}


# ---- Open MPI 4.1's reading of a classic rules file -----------------------------------------

def read_ompi_rules(text):
    """{collective number: [(comm size, [(message size, algorithm, faninout, segsize)])]}, read
    as coll_tuned_dynamic_file.c reads it: numbers, '#' comments to the end of the line."""
    numbers = iter(int(w) for line in text.splitlines() for w in line.split("#")[0].split())
    rules = {}
    for _ in range(next(numbers)):
        coll, comms = next(numbers), []
        for _ in range(next(numbers)):
            size, msgs = next(numbers), []
            for _ in range(next(numbers)):
                msgs.append(tuple(next(numbers) for _ in range(4)))
            assert msgs[0][0] == 0, "the first message size must be 0"
            comms.append((size, msgs))
        rules[coll] = comms
    assert next(numbers, None) is None
    return rules


def ompi_lookup(rules, coll, comm_size, msg_size):
    """(algorithm, segsize) as Open MPI 4.1 picks it (coll_tuned_dynamic_rules.c): the
    communicator rule of the largest size <= comm_size (the first one below them all), then the
    message rule of the largest size <= msg_size."""
    comms = rules[coll]
    best = comms[0]
    for c in comms:
        if c[0] <= comm_size:
            best = c
    msg = [m for m in best[1] if m[0] <= msg_size][-1]
    return msg[1], msg[3]


TIMES = {"native": 3.0, "ring": 2.0, "recursive_doubling": 2.5, "rabenseifner_ring": 1.0}
MIXED = table(
    [rule("allreduce", [2, 3], [0, 1023], "recursive_doubling"),
     rule("allreduce", [2, 3], [1024, None], "ring"),
     rule("allreduce", [4, None], [0, None], "rabenseifner_ring"),
     rule("alltoall", [2, 3], [0, 255], "bruck"),
     rule("alltoall", [2, 3], [256, None], "ring"),
     rule("alltoall", [4, None], [0, None], "native"),
     rule("allgather", [2, 3], [0, None], "recursive_doubling"),
     rule("gather", [2, None], [0, None], "binomial_tree")],
    [cell("allreduce", 4, 8, "rabenseifner_ring", TIMES),
     cell("allreduce", 4, 1024, "rabenseifner_ring", dict(TIMES, native=1.5)),
     cell("allgather", 2, 8, "recursive_doubling",
          {"native": 2.0, "recursive_doubling": 1.0, "bruck": 1.5, "ring": 3.0})])


def test_ompi_rules_read_back_as_open_mpi_reads_them():
    notes = []
    rules = read_ompi_rules(export.ompi_rules(MIXED, "t.json", notes))
    allreduce, alltoall, allgather = 2, 3, 0
    assert set(rules) == {allreduce, alltoall, allgather}   # gather: no equivalents
    at = lambda *a: ompi_lookup(rules, *a)[0]
    assert at(allreduce, 1, 8) == 0                          # below the first band: Open MPI's
    assert [at(allreduce, p, m) for p in (2, 3) for m in (0, 1023, 1024)] == [3, 3, 4] * 2
    # rabenseifner_ring has no equivalent: ring did best of native and the mapped ones (mean
    # of time / best over the two cells: ring 2.0 and 2.0, recursive_doubling 2.5, native 2.25)
    assert at(allreduce, 4, 0) == 4 and at(allreduce, 64, 1 << 20) == 4
    # alltoall: Open MPI compares block x comm size, the table the block
    assert [at(alltoall, 2, m) for m in (510, 511, 512)] == [3, 3, 2]
    assert [at(alltoall, 3, m) for m in (765, 767, 768)] == [3, 3, 2]
    assert at(alltoall, 4, 0) == 0 and at(alltoall, 100, 10 ** 6) == 0
    # allgather recursive_doubling is Open MPI's only at power-of-two sizes: at 3 ranks the
    # cells' best mapped algorithm (bruck) instead
    assert (at(allgather, 2, 64), at(allgather, 3, 64), at(allgather, 4, 64)) == (3, 2, 0)
    assert any("rabenseifner_ring has no Open MPI equivalent" in n and "ring (4)" in n
               for n in notes)
    assert any("allgather ranks 2-3 bytes 0+ (at 3 ranks)" in n and "bruck (2)" in n
               for n in notes)
    assert any(n.startswith("gather: no Open MPI equivalents") for n in notes)


def test_ompi_segment_sizes_and_native_only_table():
    segmented = table([rule("bcast", [2, None], [0, 8191], "knomial_tree_k4"),
                       rule("bcast", [2, None], [8192, None], "chain_tree_segment_64k")])
    rules = read_ompi_rules(export.ompi_rules(segmented, "t.json", []))
    assert ompi_lookup(rules, 7, 5, 100) == (7, 0)
    assert ompi_lookup(rules, 7, 5, 8192) == (3, 65536)
    native = read_ompi_rules(export.ompi_rules(table([rule("allreduce", [2, None], [0, None],
                                                           "native")]), "t.json", []))
    assert native == {2: [(0, [(0, 0, 0, 0)])]}


# ---- MPICH 4.0's reading of a selection JSON ------------------------------------------------

DEFAULT_INTRA = {"is_op_built_in=yes": {"algorithm=MPIR_X_default": {}}}


def default_tree(colls=("allreduce", "alltoall", "allgather", "bcast")):
    return {f"collective={c}": {"comm_type=intra": DEFAULT_INTRA,
                                "comm_type=inter": {"algorithm=MPIR_X_inter": {}}}
            for c in colls}


def mpich_lookup(tree, coll, comm_size, avg, total):
    """The algorithm MPICH's csel reaches: keys in order, the first that holds is taken; a
    subtree of MPICH's own (not our keys) is "default"."""
    node = tree[f"collective={coll}"]["comm_type=intra"]
    while True:
        if node == DEFAULT_INTRA:
            return "default"
        for key, sub in node.items():
            if key.startswith("algorithm="):
                return key[len("algorithm="):]
            name, _, value = key.partition("<=") if "<=" in key else key.partition("=")
            x = {"comm_size": comm_size, "avg_msg_size": avg, "total_msg_size": total}[name]
            if value == "any" or x <= int(value):
                node = sub
                break
        else:
            raise AssertionError(f"no key holds in {node}")


def test_mpich_json_read_back_as_mpich_reads_it():
    notes = []
    tree = json.loads(export.mpich_json(MIXED, notes, default_tree()))
    at = lambda coll, p, block: mpich_lookup(tree, coll, p, block, block * p)
    assert tree["collective=allreduce"]["comm_type=inter"] == {"algorithm=MPIR_X_inter": {}}
    assert at("allreduce", 1, 8) == "default"
    assert [at("allreduce", p, m) for p in (2, 3) for m in (1023, 1024)] == [
        "MPIR_Allreduce_intra_recursive_doubling", "default"] * 2
    # rabenseifner_ring: the cells' best of native and recursive_doubling is native
    assert at("allreduce", 4, 8) == "default"
    # alltoall ring is MPICH's pairwise only at sizes that are not powers of two: at 2 ranks,
    # with no cells to choose a substitute by, MPICH's own choice
    assert [at("alltoall", 2, m) for m in (255, 256)] == ["MPIR_Alltoall_intra_brucks",
                                                          "default"]
    assert [at("alltoall", 3, m) for m in (255, 256)] == ["MPIR_Alltoall_intra_brucks",
                                                          "MPIR_Alltoall_intra_pairwise"]
    assert any("alltoall ranks 2-3 bytes 256+ (at 2 ranks)" in n for n in notes)
    assert at("allgather", 2, 64) == "MPIR_Allgather_intra_recursive_doubling"
    assert at("allgather", 3, 64) == "MPIR_Allgather_intra_brucks"
    assert "collective=gather" not in tree


def test_mpich_allgather_thresholds_are_total_sizes():
    t = table([rule("allgather", [2, 3], [0, 1023], "ring"),
               rule("allgather", [2, 3], [1024, None], "bruck")])
    tree = json.loads(export.mpich_json(t, [], default_tree()))
    assert list(tree["collective=allgather"]["comm_type=intra"]["comm_size<=3"]) == \
        ["total_msg_size<=3071", "total_msg_size=any"]
    for p in (2, 3):
        assert [mpich_lookup(tree, "allgather", p, None, b * p) for b in (1023, 1024)] == \
            ["MPIR_Allgather_intra_ring", "MPIR_Allgather_intra_brucks"]


def test_mpich_cvars_take_the_most_common_choice_per_collective():
    t = table([rule("allreduce", [2, None], [0, None], "recursive_doubling"),
               rule("alltoall", [2, None], [0, None], "native")],
              [cell("allreduce", 2, s, w, {"native": 2.0, "recursive_doubling": 1.0,
                                           "rabenseifner_ring": 0.5})
               for s, w in [(8, "recursive_doubling"), (64, "recursive_doubling"),
                            (1024, "native"), (2048, "rabenseifner_ring")]]
              + [cell("alltoall", 2, 8, "native", {"native": 1.0}),
                 cell("alltoall", 2, 64, "bruck", {"native": 2.0, "bruck": 1.0})])
    notes = []
    text = export.mpich_cvars(t, "t.json", notes)
    lines = [l for l in text.splitlines() if l.startswith("export ")]
    # allreduce: recursive_doubling in 3 of 4 cells (rabenseifner_ring -> recursive_doubling);
    # alltoall: a tie between MPICH's own choice and brucks goes to MPICH's own: no setting
    assert lines == ["export MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM=recursive_doubling"]
    assert "# allreduce: recursive_doubling in 3 of 4 cells" in text
    assert "# alltoall: MPICH's own choice in 1 of 2 cells" in text
    assert any("rabenseifner_ring has no MPICH equivalent" in n for n in notes)


def test_a_version_2_table_exports_each_rules_first_algorithm(tmp_path):
    """A version 2 rule lists algorithms in order of preference; the export takes the first the
    library holds, or native (the library's own choice), as the layer runs the first applicable
    one, and says on stderr which it passed over; a list with neither falls back to version 1's
    substitution of its first: lists of one give the same file as the version 1 table."""
    v1 = tmp_path / "v1.json"
    v1.write_text(json.dumps(MIXED))
    v2_table = dict(MIXED, version=2, rules=[
        {k: v for k, v in r.items() if k != "algorithm"} | {"algorithms": [r["algorithm"]]}
        for r in MIXED["rules"]])
    v2 = tmp_path / "v2.json"
    v2.write_text(json.dumps(v2_table))
    for fmt in ("ompi-rules", "mpich-cvars"):
        one, two = (cli("export", str(p), "--format", fmt) for p in (v1, v2))
        assert one.returncode == 0 and two.returncode == 0, one.stderr + two.stderr
        assert one.stdout.replace(str(v1), "T") == two.stdout.replace(str(v2), "T"), fmt
    allreduce = export.OMPI_COLLECTIVE_NUMBERS["allreduce"]
    for preference, number, note in [
            (["rabenseifner_ring", "orthogonal_2xn_native", "native"], 0,
             "rabenseifner_ring, orthogonal_2xn_native: no Open MPI equivalent at these sizes; "
             "exported the rule's next preference, Open MPI's own choice"),
            (["rabenseifner_ring", "ring", "native"],
             export.MAPPING["openmpi"]["allreduce"]["ring"].number,
             "rabenseifner_ring: no Open MPI equivalent at these sizes; exported the rule's "
             "next preference, ring")]:
        v2_table["rules"][2]["algorithms"] = preference
        v2.write_text(json.dumps(v2_table))
        run = cli("export", str(v2), "--format", "ompi-rules")
        assert run.returncode == 0, run.stderr
        assert ompi_lookup(read_ompi_rules(run.stdout), allreduce, 8, 64) == (number, 0)
        assert note in run.stderr
    v2_table["rules"][0]["algorithms"] = []
    v2.write_text(json.dumps(v2_table))
    run = cli("export", str(v2), "--format", "ompi-rules")
    assert run.returncode == 1 and "rule 0 is not a rule" in run.stderr


def test_bad_tables_are_refused_with_path_and_reason(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"schema": "autocoll-table", "version": 3, "rules": []}))
    run = cli("export", str(bad), "--format", "ompi-rules")
    assert run.returncode == 1 and str(bad) in run.stderr and "version 1 or 2" in run.stderr
    bad.write_text(json.dumps(table([rule("allreduce", [4, 2], [0, None], "ring")])))
    run = cli("export", str(bad), "--format", "mpich-cvars")
    assert run.returncode == 1 and "rule 0 is not a rule" in run.stderr


def test_layout_rules_need_ppn_and_export_the_counts_of_that_layout(tmp_path):
    """Rules keyed by node layout ("nodes", "ppn": docs/table.md) cannot be said in the native
    formats: without --ppn the export refuses, with it each rule covers the process counts whose
    block layout it names (at 8 a node: 1 rank on one node, 2-8 on one node, 9+ on several)."""
    rules = [dict(rule("allreduce", [1, None], [0, None], "ring"), ppn=[1, 1]),
             dict(rule("allreduce", [1, None], [0, None], "recursive_doubling"), nodes=[1, 1],
                  ppn=[2, None]),
             dict(rule("allreduce", [1, None], [0, None], "rabenseifner"), nodes=[2, None],
                  ppn=[2, None])]
    path = tmp_path / "layout.json"
    path.write_text(json.dumps(table(rules)))
    run = cli("export", str(path), "--format", "ompi-rules")
    assert run.returncode == 1 and "--ppn" in run.stderr
    run = cli("export", str(path), "--format", "ompi-rules", "--ppn", "0")
    assert run.returncode == 1 and "--ppn must be at least 1" in run.stderr
    flat = export.load_table(path, ppn=8)["rules"]
    assert [(r["algorithm"], r["ranks"]) for r in flat] == [
        ("ring", [1, 1]), ("recursive_doubling", [2, 8]), ("rabenseifner", [9, None])]
    assert all("nodes" not in r and "ppn" not in r for r in flat)
    # at one rank a node, every count of several ranks is on several nodes of one rank each
    flat = export.load_table(path, ppn=1)["rules"]
    assert [(r["algorithm"], r["ranks"]) for r in flat] == [("ring", [1, None])]
    run = cli("export", str(path), "--format", "ompi-rules", "--ppn", "8")
    assert run.returncode == 0, run.stderr
    allreduce = export.OMPI_COLLECTIVE_NUMBERS["allreduce"]
    got = read_ompi_rules(run.stdout)
    assert ompi_lookup(got, allreduce, 4, 64) == (
        export.MAPPING["openmpi"]["allreduce"]["recursive_doubling"].number, 0)
    assert ompi_lookup(got, allreduce, 1, 64)[0] == (
        export.MAPPING["openmpi"]["allreduce"]["ring"].number)
    # a simulated sweep's table: its own ranks per node by default
    swept = dict(table(rules), platform={"simgrid": {"platform": "fat-tree-ib", "ppn": 8,
                                                     "selector": "ompi"}})
    path.write_text(json.dumps(swept))
    assert [(r["algorithm"], r["ranks"]) for r in export.load_table(path)["rules"]] == [
        ("ring", [1, 1]), ("recursive_doubling", [2, 8]), ("rabenseifner", [9, None])]
    assert [(r["algorithm"], r["ranks"]) for r in export.load_table(path, ppn=1)["rules"]] == [
        ("ring", [1, None])]
    run = cli("export", str(path), "--format", "ompi-rules")
    assert run.returncode == 0, run.stderr
    # layouts that meet overlap
    rules[1]["ppn"] = [1, None]
    path.write_text(json.dumps(table(rules)))
    run = cli("export", str(path), "--format", "ompi-rules", "--ppn", "8")
    assert run.returncode == 1 and "rules 0 and 1 overlap" in run.stderr


# ---- the native libraries take the exported choice ------------------------------------------

def clean_env(**extra):
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("AUTOCOLL", "OMPI_MCA_", "MPIR_CVAR_"))}
    env.update(extra)
    return env


@pytest.fixture(scope="module")
def probe(tmp_path_factory):
    """tests/tools/allreduce_operand_order.c built for each MPI."""
    d = tmp_path_factory.mktemp("probe")
    built = {}
    for mpi, cc in (("openmpi", "mpicc.openmpi"), ("mpich", "mpicc.mpich")):
        if shutil.which(cc):
            built[mpi] = d / f"probe-{mpi}"
            subprocess.run([cc, "-O2", "-o", str(built[mpi]),
                            str(ROOT / "tests/tools/allreduce_operand_order.c")], check=True)
    return built


def run_probe(probe, mpi, ranks, mca=(), env=None):
    if mpi not in probe:
        pytest.skip(f"{mpi} is not installed")
    cmd = mpirun_command(mpi, ranks, probe[mpi], ["16"])
    at = cmd.index(str(probe[mpi]))
    cmd[at:at] = list(mca)
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120,
                          env=clean_env(**(env or {})))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc.stdout.strip()


def exported(tmp_path, algorithm, fmt, library="test"):
    source = tmp_path / f"table-{algorithm}.json"
    source.write_text(json.dumps({**table([rule("allreduce", [2, None], [0, None], algorithm)]),
                                  "mpi_library": library}))
    out = tmp_path / f"{algorithm}.{fmt}"
    run = cli("export", str(source), "--format", fmt, "--out", str(out))
    assert run.returncode == 0, run.stderr
    return out


def test_open_mpi_takes_the_exported_rules(probe, tmp_path):
    dynamic = ["--mca", "coll_tuned_use_dynamic_rules", "1"]
    forced = run_probe(probe, "openmpi", 4, dynamic + ["--mca", "coll_tuned_allreduce_algorithm",
                                                       "3"])
    ring = run_probe(probe, "openmpi", 4, dynamic + ["--mca", "coll_tuned_allreduce_algorithm",
                                                     "4"])
    assert forced != ring          # the probe tells recursive doubling (3) from the ring (4)
    as_file = lambda alg: run_probe(probe, "openmpi", 4, dynamic + [
        "--mca", "coll_tuned_dynamic_rules_filename", str(exported(tmp_path, alg, "ompi-rules"))])
    assert as_file("recursive_doubling") == forced
    assert as_file("ring") == ring


def test_mpich_takes_the_exported_json_and_cvars(probe, tmp_path):
    forced = run_probe(probe, "mpich", 2,
                       env={"MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM": "recursive_doubling"})
    own = run_probe(probe, "mpich", 2)   # MPICH's own choice here: reduce_scatter_allgather
    assert forced != own
    as_json = lambda alg: run_probe(probe, "mpich", 2, env={
        "MPIR_CVAR_DEVICE_COLLECTIVES": "none",
        "MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE": str(exported(tmp_path, alg, "mpich-json"))})
    assert as_json("recursive_doubling") == forced
    assert as_json("native") == own
    # the file as a user takes it: sourced by the shell (MPICH's version string, recorded in
    # the table, spans lines: each must stay a comment)
    cvars = exported(tmp_path, "recursive_doubling", "mpich-cvars",
                     library="MPICH Version:\t4.0.2\nMPICH Release date:\tThu Mar 10 2022\n")
    shell = subprocess.run(["bash", "-ec", f". {cvars}; env"], capture_output=True, text=True)
    assert shell.returncode == 0 and not shell.stderr, shell.stderr
    settings = dict(l.split("=", 1) for l in shell.stdout.splitlines()
                    if l.startswith("MPIR_CVAR_"))
    assert settings == {"MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM": "recursive_doubling"}
    assert run_probe(probe, "mpich", 2, env=settings) == forced


# ---- MPICH's ch4 compositions (node-aware) --------------------------------------------------

def test_mpich_ch4_json_says_the_layout_rules_as_compositions(tmp_path):
    """mpich-ch4-json: MPICH's built-in ch4 tree with each exported collective's branch for
    communicators over several nodes (comm_hierarchy=parent) replaced by the rules flattened at
    --ppn: a hierarchical instance with one leader a node as MPICH's node-aware composition
    (commutative ops only for allreduce and reduce: MPICH's takes no other), a flat algorithm
    as the composition that runs the MPIR-level selection, native as MPICH's own branch; a
    multi-leader instance has no composition (the rule's next preference is taken); a
    collective without a node-aware composition is left out, said on stderr."""
    layout = {"nodes": [2, None], "ppn": [2, None]}
    rules = [dict(rule("allreduce", [1, None], [0, 1023], "hier_native_native"), **layout),
             dict(rule("allreduce", [1, None], [1024, None], "recursive_doubling"), **layout),
             dict(rule("allreduce", [1, None], [0, None], "native"), nodes=[1, 1],
                  ppn=[2, None]),
             dict(rule("allreduce", [1, None], [0, None], "ring"), ppn=[1, 1]),
             dict(rule("bcast", [1, None], [0, None], "binomial_tree"), **layout),
             dict(rule("allgather", [1, None], [0, None], "ring"), **layout)]
    v2 = dict(table(rules), version=2, rules=[
        {k: v for k, v in r.items() if k != "algorithm"} | {"algorithms": [r["algorithm"]]}
        for r in rules])
    v2["rules"][4]["algorithms"] = ["hier_k2_native_native", "hier_binomial_tree_native",
                                    "native"]
    path = tmp_path / "layout.json"
    path.write_text(json.dumps(v2))
    run = cli("export", str(path), "--format", "mpich-ch4-json", "--ppn", "4")
    assert run.returncode == 0, run.stderr
    tree = json.loads(run.stdout)
    builtin = export.mpich_default_selection(level="ch4")
    alpha = {"is_commutative=yes": {"composition=MPIDI_Allreduce_intra_composition_alpha": {}},
             "is_commutative=no": {"composition=MPIDI_Allreduce_intra_composition_beta": {}}}
    beta = {"composition=MPIDI_Allreduce_intra_composition_beta": {}}
    own = builtin["collective=allreduce"]["comm_type=intra"]["comm_size=any"][
        "comm_hierarchy=parent"]
    allreduce = tree["collective=allreduce"]["comm_type=intra"]
    # one rank: ring (flat); 2-4 ranks, one node at 4 a node: native; 5 up: several nodes
    assert allreduce["comm_size=any"]["comm_hierarchy=parent"] == {
        "comm_size<=1": beta, "comm_size<=4": own,
        "comm_size=any": {"avg_msg_size<=1023": alpha, "avg_msg_size=any": beta}}
    # the rest of the tree is MPICH's
    assert allreduce["comm_size=node_comm_size"] == builtin["collective=allreduce"][
        "comm_type=intra"]["comm_size=node_comm_size"]
    assert tree["collective=barrier"] == builtin["collective=barrier"]
    assert tree["collective=allgather"] == builtin["collective=allgather"]
    # bcast: no rule up to 4 ranks (MPICH's own), the rule's second preference from 5
    assert tree["collective=bcast"]["comm_type=intra"]["comm_hierarchy=parent"] == {
        "comm_size<=4": builtin["collective=bcast"]["comm_type=intra"]["comm_hierarchy=parent"],
        "comm_size=any": {"composition=MPIDI_Bcast_intra_composition_alpha": {}}}
    assert "allgather: MPICH has no node-aware composition of it" in run.stderr
    assert ("hier_k2_native_native: no MPICH composition; exported the rule's next preference, "
            "hier_binomial_tree_native") in run.stderr


def test_mpich_takes_the_exported_ch4_json(probe, tmp_path):
    """MPICH 4.0 reads the ch4 file: on 4 ranks in 2 emulated nodes (MPIR_CVAR_NUM_CLIQUES), a
    hierarchical instance exported runs MPICH's node-aware composition (its own choice there),
    a flat algorithm the flat MPIR-level selection (what MPIR_CVAR_DEVICE_COLLECTIVES=none
    runs), and the probe tells the two apart; a composition MPICH lacks aborts MPI_Init."""
    cliques = {"MPIR_CVAR_NUM_CLIQUES": "2"}
    composed = run_probe(probe, "mpich", 4, env=cliques)
    flat = run_probe(probe, "mpich", 4, env=dict(cliques, MPIR_CVAR_DEVICE_COLLECTIVES="none"))
    assert composed != flat
    as_ch4 = lambda alg: run_probe(probe, "mpich", 4, env=dict(
        cliques, MPIR_CVAR_CH4_COLL_SELECTION_TUNING_JSON_FILE=str(
            exported(tmp_path, alg, "mpich-ch4-json"))))
    assert as_ch4("hier_native_native") == composed
    assert as_ch4("recursive_doubling") == flat
    assert as_ch4("native") == composed
    bad = tmp_path / "bad.json"
    bad.write_text(exported(tmp_path, "hier_native_native", "mpich-ch4-json").read_text()
                   .replace("composition_alpha", "composition_omega"))
    cmd = mpirun_command("mpich", 4, probe["mpich"], ["16"])
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120, env=clean_env(
        MPIR_CVAR_NUM_CLIQUES="2", MPIR_CVAR_CH4_COLL_SELECTION_TUNING_JSON_FILE=str(bad)))
    assert proc.returncode != 0, proc.stdout

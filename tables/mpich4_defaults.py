#!/usr/bin/env python3
"""tables/mpich4_defaults.py - MPICH 4's default collective decisions as an autocoll
configuration table (docs/table.md), the "MPICH 4 defaults" baseline (docs/baselines.md).

Source: MPICH's MPIR-level selection file maint/tuning/coll/mpir/generic.json, read at tag
v4.3.2 (commit 15f59ab2b740539472dfd130f7fe01b61c28bba4; the file's blob 02b1bf36155d, the same
in v4.1 through v5.0.1 and on main as of 2026-08-20). MPICH compiles it in
(maint/tuning/coll/json_gen.sh -> MPII_coll_generic_json) and its Csel engine
(src/mpi/coll/src/csel.c) walks it for every call whose MPIR_CVAR_<COLL>_INTRA_ALGORITHM is
`auto` (the default). Each rule below cites the lines of that file it transcribes.

How MPICH's conditions become autocoll's (process count p, message size b as autocoll defines it:
the vector for allreduce, reduce, bcast and the reduce-scatters, the per-rank block for
allgather, alltoall, gather and scatter, the total for allgatherv and alltoallv):
- avg_msg_size (csel.c get_avg_msgsize: count x type size of the vector for allreduce, reduce and
  bcast, of one block for alltoall) is b.
- total_msg_size (get_total_msgsize) is b x p for allgather (recvcount x type size x p), b for
  allgatherv and the reduce-scatters (sum of the counts x type size). `total < T` on a block b
  is `b <= (T - 1) // p`: those rules are per process count.
- comm_size=pow2, comm_size<N: per process count. Beware csel.c: a comm_size<N node met while
  a communicator's tree is pruned (prune_tree, at communicator creation) is p < N, but one met
  in the per-call search (MPIR_Csel_search, after a per-call condition such as
  is_sendbuf_inplace) is tested as p <= N. bcast's comm_size<8 is pruned (p < 8); alltoall's
  sits under is_sendbuf_inplace and is searched (p <= 8).
- count<pow2 (count < comm->coll.pof2, the largest power of two <= p): count = b / 8, MPI_DOUBLE
  elements (the benchmark's reductions; bench/autocoll_bench.c). A table cannot see the type:
  with 4-byte elements MPICH's boundary would be at half the bytes.
- is_commutative: the layer passes over an algorithm that requires a commutative op, so a
  preference list [commutative-only, fallback] expresses it.
- is_op_built_in: not expressible (a user-defined commutative op is treated as built-in); the
  built-in branch is taken (MPI_SUM).
- comm_hierarchy=parent (a communicator with node_comm/node_roots_comm: every one with more
  than one rank on some node): in generic.json it only chooses MPICH's node-aware smp
  algorithms at 0 bytes (and always for barrier); the flat algorithm of the other branch is
  used. The ch4 compositions that MPICH's device runs first on such communicators are rules
  keyed by node layout ("nodes", "ppn"), below table_rules' flat ones (docs/baselines.md).
- is_sendbuf_inplace: not expressible; the not-in-place branch is taken.

  python3 tables/mpich4_defaults.py           # (re)write tables/mpich4-defaults.json
  python3 tables/mpich4_defaults.py --check   # exit 1 if the committed file is not current

The registry fingerprint and autocoll version come from build/openmpi/autocoll-info --json
($AUTOCOLL_BUILD/openmpi if set; --info PATH overrides); the table has no mpi_library, so the
layer loads it under any MPI (Open MPI, MPICH, SimGrid's SMPI).
"""

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "tables" / "mpich4-defaults.json"
sys.path.insert(0, str(ROOT / "tools"))
from autocoll.formats.schemas import TABLE_SCHEMA, TABLE_VERSION  # noqa: E402

MPICH = {"library": "MPICH", "version": "4.3.2",
         "commit": "15f59ab2b740539472dfd130f7fe01b61c28bba4",
         "file": "maint/tuning/coll/mpir/generic.json",
         "blob": "02b1bf36155d92ebc50bd8ca248f91d945e594e1",
         "same_file_in": "v4.1, v4.2.x, v4.3.x, v5.0.0, v5.0.1 (v4.0 differs only in barrier: "
                         "MPIR_Barrier_intra_dissemination)"}
MAX_RANKS = 1 << 20      # rules cover communicators of 1 to 2^20 ranks; larger ones run native
ELEMENT = 8              # bytes per element for count<pow2 (MPI_DOUBLE)
G = "generic.json:"


def pof2(p):
    """comm->coll.pof2 (MPL_pof2): the largest power of two <= p."""
    return 1 << (p.bit_length() - 1)


def is_pow2(p):
    return p & (p - 1) == 0


def per_block(total_limit, p):
    """The largest block b with b * p < total_limit (MPICH's total_msg_size<T for allgather)."""
    return (total_limit - 1) // p


# Each collective: p -> [(lo, hi, [algorithms], MPICH function, generic.json lines, note)],
# byte intervals in increasing order covering 0 .. unbounded (hi None).

def allreduce(p):
    rd_hi = max(8, ELEMENT * pof2(p) - 1)  # count < pof2  <=>  b < 8 pof2
    rules = [(0, 8, ["recursive_doubling"], "MPIR_Allreduce_intra_recursive_doubling",
              G + "103-117", "avg_msg_size<=8 (0 B, commutative: MPIR_Allreduce_intra_smp, "
              "lines 105-108, node-aware: not in autocoll; a 0-byte call moves nothing)")]
    if rd_hi > 8:
        rules.append((9, rd_hi, ["recursive_doubling"], "MPIR_Allreduce_intra_recursive_doubling",
                      G + "126-129", "is_op_built_in=yes, count<pow2 (count = b/8)"))
    rules.append((rd_hi + 1, None, ["rabenseifner_recursive_doubling", "recursive_doubling"],
                  "MPIR_Allreduce_intra_reduce_scatter_allgather", G + "130-133",
                  "is_op_built_in=yes, count>=pof2; a non-commutative (user) op gets "
                  "recursive_doubling, as is_op_built_in=no does (lines 120-123)"))
    return rules


def bcast(p):
    if p < 8:  # pruned at communicator creation: p < 8 exactly
        return [(0, None, ["binomial_tree"], "MPIR_Bcast_intra_binomial", G + "6-25",
                 "comm_size<8 (0 B on a node-aware communicator: MPIR_Bcast_intra_smp, "
                 "lines 10-13)")]
    if is_pow2(p):
        return [(0, 12288, ["binomial_tree"], "MPIR_Bcast_intra_binomial", G + "35-38,50-53",
                 "comm_size=pow2, avg_msg_size<=12288 (0 B node-aware: smp, lines 31-34)"),
                (12289, 524288, ["scatter_recursive_doubling_allgather"],
                 "MPIR_Bcast_intra_scatter_recursive_doubling_allgather", G + "39-42,54-57",
                 "comm_size=pow2, avg_msg_size<=524288"),
                (524289, None, ["scatter_ring_allgather"], "MPIR_Bcast_intra_scatter_ring_allgather",
                 G + "43-46,58-61", "comm_size=pow2, avg_msg_size=any")]
    return [(0, 12288, ["binomial_tree"], "MPIR_Bcast_intra_binomial", G + "72-75,83-86",
             "comm_size=any, avg_msg_size<=12288 (0 B node-aware: smp, lines 68-71)"),
            (12289, None, ["scatter_ring_allgather"], "MPIR_Bcast_intra_scatter_ring_allgather",
             G + "76-79,87-90", "comm_size=any, avg_msg_size=any")]


def reduce(p):
    bin_hi = max(2048, ELEMENT * pof2(p) - 1)
    rules = [(0, 2048, ["binomial_tree"], "MPIR_Reduce_intra_binomial", G + "223-226,248-251",
              "avg_msg_size<=2048 (0 B, commutative, node-aware: MPIR_Reduce_intra_smp, "
              "lines 212-217)")]
    if bin_hi > 2048:
        rules.append((2049, bin_hi, ["binomial_tree"], "MPIR_Reduce_intra_binomial",
                      G + "231-234,256-259", "is_op_built_in=yes, count<pow2 (count = b/8)"))
    rules.append((bin_hi + 1, None, ["rabenseifner"], "MPIR_Reduce_intra_reduce_scatter_gather",
                  G + "235-238,260-263", "is_op_built_in=yes, count>=pof2 (a user op would "
                  "get MPIR_Reduce_intra_binomial, lines 240-243/265-268: not expressible)"))
    return rules


def allgather(p):
    if is_pow2(p):
        hi = per_block(524288, p)
        return [(0, hi, ["recursive_doubling"], "MPIR_Allgather_intra_recursive_doubling",
                 G + "148-151", "comm_size=pow2, total_msg_size<524288 (b*p)"),
                (hi + 1, None, ["ring"], "MPIR_Allgather_intra_ring", G + "152-155",
                 "comm_size=pow2, total_msg_size=any")]
    hi = per_block(81920, p)
    return [(0, hi, ["bruck"], "MPIR_Allgather_intra_brucks", G + "159-162",
             "comm_size=any, total_msg_size<81920 (b*p)"),
            (hi + 1, None, ["ring"], "MPIR_Allgather_intra_ring", G + "163-166",
             "comm_size=any, total_msg_size=any")]


def allgatherv(p):
    if is_pow2(p):
        return [(0, 524287, ["recursive_doubling"], "MPIR_Allgatherv_intra_recursive_doubling",
                 G + "180-183", "comm_size=pow2, total_msg_size<524288"),
                (524288, None, ["ring"], "MPIR_Allgatherv_intra_ring", G + "184-187",
                 "comm_size=pow2, total_msg_size=any")]
    return [(0, 81919, ["bruck"], "MPIR_Allgatherv_intra_brucks", G + "191-194",
             "comm_size=any, total_msg_size<81920"),
            (81920, None, ["ring"], "MPIR_Allgatherv_intra_ring", G + "195-198",
             "comm_size=any, total_msg_size=any")]


def alltoall(p):
    # MPIR_Alltoall_intra_pairwise: partner rank XOR i for powers of two, else send to r+i and
    # receive from r-i: autocoll's pair and ring.
    pairwise = ["pair"] if is_pow2(p) else ["ring"]
    if p <= 8:  # comm_size<8 under is_sendbuf_inplace: searched per call, tested as p <= 8
        return [(0, 32768, ["simple"], "MPIR_Alltoall_intra_scattered", G + "446-449",
                 "is_sendbuf_inplace=no, comm_size<8 (evaluated p <= 8), avg_msg_size<=32768"),
                (32769, None, pairwise, "MPIR_Alltoall_intra_pairwise", G + "450-453",
                 "comm_size<8 (p <= 8), avg_msg_size=any")]
    return [(0, 256, ["bruck"], "MPIR_Alltoall_intra_brucks", G + "457-460",
             "is_sendbuf_inplace=no, comm_size=any, avg_msg_size<=256"),
            (257, 32768, ["simple"], "MPIR_Alltoall_intra_scattered", G + "461-464",
             "avg_msg_size<=32768"),
            (32769, None, pairwise, "MPIR_Alltoall_intra_pairwise", G + "465-468",
             "avg_msg_size=any")]


def alltoallv(p):
    return [(0, None, ["simple"], "MPIR_Alltoallv_intra_scattered", G + "485-488",
             "is_sendbuf_inplace=no")]


def gather(p):
    return [(0, None, ["binomial_tree"], "MPIR_Gather_intra_binomial", G + "350-353",
             "comm_type=intra")]


def scatter(p):
    return [(0, None, ["binomial_tree"], "MPIR_Scatter_intra_binomial", G + "368-371",
             "comm_type=intra")]


def barrier(p):
    return [(0, None, ["dissemination"], "MPIR_Barrier_intra_k_dissemination (k=2)",
             G + "422-427", "comm_hierarchy=any (k=2 calls MPIR_Barrier_intra_dissemination); "
             "a node-aware communicator gets MPIR_Barrier_intra_smp, lines 418-421: not in "
             "autocoll")]


def reduce_scatter(p):
    return [(0, 524287, ["recursive_halving", "pairwise"],
             "MPIR_Reduce_scatter_intra_recursive_halving", G + "283-286",
             "is_commutative=yes, total_msg_size<524288; a non-commutative op gets pairwise "
             "(MPICH: noncommutative/recursive_doubling, lines 292-308, not in autocoll)"),
            (524288, None, ["pairwise"], "MPIR_Reduce_scatter_intra_pairwise", G + "287-290",
             "is_commutative=yes, total_msg_size=any")]


def reduce_scatter_block(p):
    return [(0, 524287, ["recursive_halving", "pairwise"],
             "MPIR_Reduce_scatter_block_intra_recursive_halving", G + "322-325",
             "is_commutative=yes, total_msg_size<524288; a non-commutative op gets pairwise "
             "(MPICH: noncommutative/recursive_doubling, lines 331-340, not in autocoll)"),
            (524288, None, ["pairwise"], "MPIR_Reduce_scatter_block_intra_pairwise",
             G + "326-329", "is_commutative=yes, total_msg_size=any")]


def neighbor(collective, first_line):
    """MPIR_Neighbor_<c>_allcomm_nb: MPIR_Ineighbor_<c> and a wait, whose Csel choice
    (generic.json lines 945-964) is MPIR_Ineighbor_<c>_allcomm_sched_linear: every send and
    receive of the rank in one schedule step, as autocoll's isend_irecv posts them."""
    name = "MPIR_Neighbor_" + collective.split("_", 1)[1] + "_allcomm_nb"
    return lambda p: [(0, None, ["isend_irecv"], name,
                       G + f"{first_line}-{first_line + 3}", "no condition")]


COLLECTIVES = {"allreduce": allreduce, "bcast": bcast, "reduce": reduce,
               "allgather": allgather, "allgatherv": allgatherv, "alltoall": alltoall,
               "alltoallv": alltoallv, "gather": gather, "scatter": scatter, "barrier": barrier,
               "reduce_scatter": reduce_scatter, "reduce_scatter_block": reduce_scatter_block,
               **{c: neighbor(c, line) for c, line in (
                   ("neighbor_allgather", 513), ("neighbor_allgatherv", 517),
                   ("neighbor_alltoall", 521), ("neighbor_alltoallv", 525),
                   ("neighbor_alltoallw", 529))}}


def breakpoints():
    """Every process count at which some collective's rules may change: 1 to 16, every power
    of two and the count after it (pow2, pof2), and every count where (81920 - 1) // p changes
    (non-power-of-two allgather; the power-of-two threshold only matters at powers of two)."""
    points = set(range(1, 17))
    k = 1
    while k <= MAX_RANKS:
        points.update((k, k + 1))
        k <<= 1
    points.update((81919 // (v + 1)) + 1 for v in range(81919 + 1))
    return sorted(x for x in points if 1 <= x <= MAX_RANKS)


def bands(function):
    """[(lo, hi, rules)]: maximal process-count ranges over which `function` gives the same
    rules (checked at each breakpoint; constant in between by construction)."""
    points = breakpoints()
    out = []
    for i, lo in enumerate(points):
        hi = points[i + 1] - 1 if i + 1 < len(points) else MAX_RANKS
        rules = function(lo)
        if out and out[-1][2] == rules:
            out[-1] = (out[-1][0], hi, rules)
        else:
            out.append((lo, hi, rules))
    return out


# ---- the ch4 compositions (node-aware) -----------------------------------------------------
#
# MPICH 4's ch4 device picks a composition before the flat selection above
# (src/mpid/ch4/src/ch4_coll_impl.h; the choice in maint/tuning/coll/ch4/generic.json, read at
# v4.3.2, docs/baselines.md). A communicator is node-aware (comm_hierarchy=parent) when some node
# holds more than one of its ranks. The table says it with layout keys (docs/table.md):
#   ppn [1, 1]                  every rank on its own node: not node-aware, the flat rules;
#   nodes [1, 1], ppn [2, null]  one node: the shared-memory path (release_gather), not in
#                               autocoll: the flat rules stand in;
#   nodes [2, null], ppn [2, null]  several nodes: the compositions below, as autocoll's
#                               hierarchical instances (src/coll/hierarchical.c): MPICH's
#                               shared-memory phases inside a node by the message-passing
#                               binomial tree (dissemination for barrier), the phase among the
#                               leaders by the flat rule above at the leaders' count.
# Each composition: [(ranks lo, hi, nodes lo, hi, bytes lo, hi, algorithms, MPICH, source,
# condition)]; a list's later names run where its first does not apply (a non-commutative op,
# nodes not in rank blocks).
C4 = "ch4/generic.json:"
MAX_NODES = MAX_RANKS


def pof2_bands(lo):
    """Node-count bands [lo, 3], [4, 7], [8, 15], ... over which pof2(nodes) is constant."""
    out, k = [], lo
    while k <= MAX_NODES:
        hi = min(MAX_NODES, (1 << k.bit_length()) - 1)
        out.append((k, hi))
        k = hi + 1
    return out


def allreduce_composed():
    alpha = ("MPIDI_Allreduce_intra_composition_alpha", C4 + "allreduce alpha",
             "node-aware, commutative: reduce on each node, allreduce among the leaders (the "
             "flat rules at the leaders' count), bcast on each node; a non-commutative op gets "
             "beta, the flat selection (recursive doubling for a user op)")
    out = []
    for nlo, nhi in pof2_bands(2):
        rd_hi = max(8, ELEMENT * pof2(nlo) - 1)
        out.append((1, None, nlo, nhi, 0, rd_hi,
                    ["hier_binomial_tree_recursive_doubling", "recursive_doubling"], *alpha))
        out.append((1, None, nlo, nhi, rd_hi + 1, None,
                    ["hier_binomial_tree_rabenseifner_recursive_doubling",
                     "hier_binomial_tree_recursive_doubling", "recursive_doubling"], *alpha))
    return out


def reduce_composed():
    how = ("MPIDI_Reduce_intra_composition_alpha / beta", C4 + "reduce alpha, beta",
           "node-aware, commutative: reduce on each node, reduce among the leaders (the flat "
           "rules at the leaders' count), to the root (beta, b <= 2048, leaves out the message "
           "from the root's leader when it is the root: the same instance); a non-commutative "
           "op gets gamma, the flat selection (binomial for a user op)")
    out = []
    for nlo, nhi in pof2_bands(2):
        bin_hi = max(2048, ELEMENT * pof2(nlo) - 1)
        out.append((1, None, nlo, nhi, 0, bin_hi,
                    ["hier_binomial_tree_binomial_tree", "binomial_tree"], *how))
        out.append((1, None, nlo, nhi, bin_hi + 1, None,
                    ["hier_binomial_tree_rabenseifner", "hier_binomial_tree_binomial_tree",
                     "binomial_tree"], *how))
    return out


def bcast_composed():
    alpha = ("MPIDI_Bcast_intra_composition_alpha", C4 + "bcast alpha",
             "node-aware, p < 8 or b <= 12288: the root to its node leader, bcast among the "
             "leaders (binomial at these sizes), bcast on each node")
    beta = ("MPIDI_Bcast_intra_composition_beta", C4 + "bcast beta",
            "node-aware, p a power of two >= 8, 12288 < b <= 524288: bcast among the leaders "
            "(binomial below 8 nodes, else scatter + recursive-doubling allgather: autocoll's "
            "phase is scatter + ring allgather), bcast on each node; autocoll's instance sends "
            "the root's data to its leader first, as alpha")
    gamma = ("MPIDI_Bcast_intra_composition_gamma", C4 + "bcast gamma",
             "node-aware, p >= 8, larger: the flat selection (scatter + ring allgather)")
    hier = ["hier_binomial_tree_binomial_tree", "binomial_tree"]
    out = [(1, 7, 2, None, 0, None, hier, *alpha)]
    lo = 8
    while lo <= MAX_RANKS:  # bands: each power of two, and the counts between two
        out.append((lo, lo, 2, None, 0, 12288, hier, *alpha))
        out.append((lo, lo, 2, 7, 12289, 524288, hier, *beta))
        out.append((lo, lo, 8, None, 12289, 524288,
                    ["hier_binomial_tree_scatter_ring_allgather", "scatter_ring_allgather"],
                    *beta))
        out.append((lo, lo, 2, None, 524289, None, ["scatter_ring_allgather"], *gamma))
        if lo + 1 <= min(2 * lo - 1, MAX_RANKS):
            hi = min(2 * lo - 1, MAX_RANKS)
            out.append((lo + 1, hi, 2, None, 0, 12288, hier, *alpha))
            out.append((lo + 1, hi, 2, None, 12289, None, ["scatter_ring_allgather"], *gamma))
        lo *= 2
    return out


def barrier_composed():
    return [(1, None, 2, None, 0, None, ["hier_dissemination_dissemination", "dissemination"],
             "MPIDI_Barrier_intra_composition_alpha", C4 + "barrier alpha",
             "node-aware: barrier on each node (shared memory), barrier among the leaders "
             "(dissemination), a 1-byte bcast on each node")]


COMPOSED = {"allreduce": allreduce_composed, "reduce": reduce_composed,
            "bcast": bcast_composed, "barrier": barrier_composed}
FLAT_LAYOUTS = ({"ppn": [1, 1]}, {"nodes": [1, 1], "ppn": [2, None]})
COMPOSED_LAYOUT = {"ppn": [2, None]}


def table_rules():
    """The rules (each citing its generic.json lines in "source") and the legend
    {collective: {source: {"mpich": function, "condition": what MPICH tests}}}. A collective
    with a composition has its flat rules twice, for the layouts where MPICH runs them
    (FLAT_LAYOUTS), and its composition's rules on several nodes."""
    rules, legend = [], {}

    def note(coll, lines, mpich, condition):
        seen = legend[coll].setdefault(lines, {"mpich": mpich, "condition": condition})
        assert seen == {"mpich": mpich, "condition": condition}, (coll, lines)

    for coll, function in COLLECTIVES.items():
        legend[coll] = {}
        layouts = FLAT_LAYOUTS if coll in COMPOSED else ({},)
        for layout in layouts:
            for lo, hi, segments in bands(function):
                for blo, bhi, algorithms, mpich, lines, condition in segments:
                    rules.append({"collective": coll, "ranks": [lo, hi], **layout,
                                  "bytes": [blo, bhi], "algorithms": algorithms,
                                  "source": lines})
                    note(coll, lines, mpich, condition)
        for (lo, hi, nlo, nhi, blo, bhi, algorithms, mpich, lines,
             condition) in COMPOSED.get(coll, lambda: [])():
            rules.append({"collective": coll, "ranks": [lo, MAX_RANKS if hi is None else hi],
                          "nodes": [nlo, nhi], **COMPOSED_LAYOUT, "bytes": [blo, bhi],
                          "algorithms": algorithms, "source": lines})
            note(coll, lines, mpich, condition)
    return rules, legend


def registry(info):
    # at 16 ranks the hierarchical instances are listed too (sizes >= 3)
    out = subprocess.run([str(info), "--json", "--size", "16"], check=True, capture_output=True,
                         text=True)
    return json.loads(out.stdout)


def default_info():
    build = Path(os.environ["AUTOCOLL_BUILD"]) if os.environ.get("AUTOCOLL_BUILD") \
        else ROOT / "build"
    return build / "openmpi" / "autocoll-info"


def check_names(rules, reg):
    names = {(a["collective"], a["name"]) for a in reg["algorithms"]}
    bad = sorted({(r["collective"], a) for r in rules for a in r["algorithms"]} - names)
    if bad:
        raise SystemExit(f"not in the registry: {bad}")


def table(reg):
    rules, legend = table_rules()
    check_names(rules, reg)
    return {"schema": TABLE_SCHEMA, "version": TABLE_VERSION,
            "autocoll_version": reg["autocoll_version"],
            "registry_fingerprint": reg["registry_fingerprint"],
            "description": "MPICH 4's default collective selection (MPIR Csel, generic.json, "
                           "and the ch4 compositions of ch4/generic.json) as autocoll "
                           "algorithms; written by tables/mpich4_defaults.py; "
                           "docs/baselines.md",
            "source": MPICH,
            "assumptions": {"element_bytes": ELEMENT, "op": "built-in (MPI_SUM)",
                            "send_buffer": "not MPI_IN_PLACE",
                            "node_aware": "ch4 compositions for allreduce, reduce, bcast and "
                                          "barrier on several nodes with a node of several "
                                          "ranks; flat elsewhere (one node: the flat rules "
                                          "stand in for the shared-memory path)",
                            "max_ranks": MAX_RANKS},
            "mpich_rules": legend, "cells": [], "rules": rules}


def text(t):
    """The JSON text: members indented, one rule per line (readable diffs)."""
    head = {k: v for k, v in t.items() if k != "rules"}
    lines = json.dumps(head, indent=2).rstrip("}").rstrip().rstrip(",")
    rules = ",\n".join("    " + json.dumps(r) for r in t["rules"])
    return f"{lines},\n  \"rules\": [\n{rules}\n  ]\n}}\n"


def main(argv=None, make=None, out=OUT, script="tables/mpich4_defaults.py", doc=__doc__):
    """The command line of a baseline table's script: `make(registry)` gives the table (this
    one's by default), written to `out` or, with --check, compared with it."""
    ap = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    ap.add_argument("--info", type=Path, default=None, help="autocoll-info to take the "
                    "registry fingerprint from (default build/openmpi/autocoll-info)")
    ap.add_argument("--out", type=Path, default=out)
    ap.add_argument("--check", action="store_true",
                    help="compare with --out instead of writing it; exit 1 if it differs")
    args = ap.parse_args(argv)
    new = text((make or table)(registry(args.info or default_info())))
    if args.check:
        current = args.out.read_text() if args.out.exists() else ""
        if current != new:
            print(f"{args.out} is not current: run python3 {script}", file=sys.stderr)
            return 1
        return 0
    args.out.write_text(new)
    print(f"{args.out}: {len(json.loads(new)['rules'])} rules")
    return 0


if __name__ == "__main__":
    sys.exit(main())

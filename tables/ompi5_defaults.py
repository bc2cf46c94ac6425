#!/usr/bin/env python3
"""tables/ompi5_defaults.py - Open MPI 5.0's default collective decisions on communicators that
span nodes (coll/han) as an autocoll configuration table (docs/table.md), for the "Open MPI 5.0
defaults" baseline (docs/baselines.md).

Open MPI 5.0 picks per communicator the collective component of highest priority: coll/han
(priority 35 in 5.0.0 to 5.0.10) on a communicator whose ranks are on several nodes, coll/tuned
(30) elsewhere and for what HAN does not take. HAN runs, for barrier, bcast, reduce, allreduce,
allgather, gather and scatter, an intra-node phase with tuned on each node's communicator
("low", han_*_low_module 0 = tuned), a phase among the node leaders ("up", libnbc's
nonblocking collectives, han_*_up_module 0), and the way back (ompi/mca/coll/han/
coll_han_component.c, coll_han_<collective>.c; docs/baselines.md).

As a table: on several nodes with a node of several ranks (rules keyed "nodes" [2, null], "ppn"
[2, null]) those seven collectives run autocoll's hierarchical instance with the library's own
collective in every phase (`hier_native_native`), except where HAN's pipeline itself,
`hier_segment_64k_native_native` (64 KiB segments, the leaders' phase the library's nonblocking
MPI_Ibcast or MPI_Ireduce overlapping the nodes' phases of other segments), is what HAN runs
under SimGrid: bcast on 2 to 4 nodes, where libnbc's MPI_Ibcast is linear (4 ranks or fewer) as
SMPI's is; reduce and allreduce on 2 nodes, where libnbc's MPI_Ireduce and MPI_Ibcast send one
message (a 64 KiB segment's reduction in 8 KiB fragments) as SMPI's do. Every other call has no
rule and runs the library's own selection, which under SimGrid with `--selectors ompi` is SMPI's
copy of tuned's fixed rules. So `--layers table --table tables/ompi5-defaults.json --selectors
ompi` is HAN over tuned's decisions. What it is not (docs/baselines.md): HAN pipelines bcast on
more than 4 nodes with libnbc's binomial or chain MPI_Ibcast among the leaders, and reduce and
allreduce on more than 2 with libnbc's reduce-scatter and gather MPI_Ireduce; SMPI 3.32's are
linear at every size (every rank sends to the root, the root to every rank), so there the
baseline runs one segment and tuned's blocking choice among the leaders: HAN's schedule up to
64 KiB (with tuned's allreduce among the leaders where HAN reduces and broadcasts), its
unpipelined schedule above. One rank a node (where HAN's low phase is empty and its up phase is
tuned's choice on every rank) is left to tuned.

  python3 tables/ompi5_defaults.py           # (re)write tables/ompi5-defaults.json
  python3 tables/ompi5_defaults.py --check   # exit 1 if the committed file is not current
"""

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "tables" / "ompi5-defaults.json"
sys.path.insert(0, str(ROOT / "tools"))
from autocoll.formats.schemas import TABLE_SCHEMA, TABLE_VERSION  # noqa: E402

_spec = importlib.util.spec_from_file_location("mpich4_defaults",
                                               ROOT / "tables" / "mpich4_defaults.py")
mpich4 = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(mpich4)

OPEN_MPI = {"library": "Open MPI", "versions": "5.0.0 to 5.0.10",
            "component": "ompi/mca/coll/han (priority 35), over coll/tuned (30)",
            "files": "coll_han_component.c (defaults: low module tuned, up module libnbc, "
                     "bcast/reduce/allreduce segments of 65536 B), coll_han_module.c (HAN "
                     "disqualifies itself on one node, on one rank and on intercommunicators)"}
HAN_COLLECTIVES = ("allreduce", "allgather", "barrier", "bcast", "gather", "reduce", "scatter")
HAN = ["hier_native_native", "native"]


# HAN's pipeline where the library's nonblocking collectives among the leaders are what libnbc's
# are (SMPI's are linear everywhere): MPI_Ibcast on 4 leaders or fewer (linear), MPI_Ireduce
# on 2 (one message: libnbc's binomial, or its chain in 8 KiB fragments for a 64 KiB segment)
HAN_PIPELINED = {"allreduce": (2, ["hier_segment_64k_native_native", "native"]),
                 "bcast": (4, ["hier_segment_64k_native_native", "native"]),
                 "reduce": (2, ["hier_segment_64k_native_native", "native"])}


def table_rules():
    rules = []
    for coll in HAN_COLLECTIVES:
        rule = {"collective": coll, "ranks": [1, None], "nodes": [2, None], "ppn": [2, None],
                "bytes": [0, None], "algorithms": HAN, "source": f"coll_han_{coll}.c"}
        if coll in HAN_PIPELINED:
            most, algorithms = HAN_PIPELINED[coll]
            rules.append(dict(rule, nodes=[2, most], algorithms=algorithms))
            rule["nodes"] = [most + 1, None]
        rules.append(rule)
    return rules


def table(reg):
    rules = table_rules()
    mpich4.check_names(rules, reg)
    return {"schema": TABLE_SCHEMA, "version": TABLE_VERSION,
            "autocoll_version": reg["autocoll_version"],
            "registry_fingerprint": reg["registry_fingerprint"],
            "description": "Open MPI 5.0's HAN on communicators over several nodes with a node "
                           "of several ranks, as autocoll's hierarchical instances with the "
                           "library's own phases (tuned); every other call runs the library's "
                           "own selection; written by tables/ompi5_defaults.py; "
                           "docs/baselines.md",
            "source": OPEN_MPI,
            "assumptions": {"segments": "bcast on 2 to 4 nodes, reduce and allreduce on 2: 65536 "
                                        "B, as HAN; elsewhere one (HAN: 65536 B segments for "
                                        "bcast, reduce and allreduce)",
                            "leaders_phase": "bcast on 2 to 4 nodes, reduce and allreduce on 2: "
                                             "the library's MPI_Ibcast and MPI_Ireduce (libnbc's "
                                             "there: linear, one message); elsewhere the "
                                             "library's blocking collective (HAN: libnbc)",
                            "one_rank_a_node": "tuned (no rule)"},
            "cells": [], "rules": rules}


def main(argv=None):
    return mpich4.main(argv, make=table, out=OUT, script="tables/ompi5_defaults.py", doc=__doc__)


if __name__ == "__main__":
    sys.exit(main())

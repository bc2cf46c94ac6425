"""`autocoll report` over cells run on an emulated cluster: the links' lower bound per
collective and topology, the platform label, and the best-algorithm map per platform."""

import pytest

from autocoll import benchreport

MBIT = 1e6


def cluster(topology, nodes, ranks, rate=100 * MBIT, per_switch=None, uplink=None):
    if topology == "one-switch":
        switches = [{"nodes": list(range(nodes)), "uplink_bits": None}]
    else:
        switches = [{"nodes": list(range(s * per_switch, (s + 1) * per_switch)),
                     "uplink_bits": uplink} for s in range(nodes // per_switch)]
    return {"name": "t", "topology": topology, "rate": "100mbit", "rate_bits": rate,
            "oversubscription": 4.0, "switches": switches,
            "rank_nodes": [r % nodes for r in range(ranks)]}


def data(coll, nbytes, ranks, block=None):
    d = {"parameters": {"collective": coll, "bytes": nbytes}, "machine": {"ranks": ranks}}
    if block:
        d["cluster"] = block
    return d


ONE8 = cluster("one-switch", 8, 8)
FOUR8 = cluster("four-switch", 8, 8, per_switch=2, uplink=50 * MBIT)
M = 65536


@pytest.mark.parametrize("coll,nbytes,block,want", [
    # every rank sends m to each of the 7 others through its own 100 Mbit/s link
    ("alltoall", M, ONE8, 7 * M * 8 / 100e6),
    # two ranks behind a 50 Mbit/s uplink send m to each of the 6 ranks beyond it
    ("alltoall", M, FOUR8, 2 * 6 * M * 8 / 50e6),
    ("allgather", M, ONE8, 7 * M * 8 / 100e6),
    ("allgather", M, FOUR8, 6 * M * 8 / 50e6),
    ("allreduce", M, ONE8, 2 * 7 / 8 * M * 8 / 100e6),
    ("allreduce", M, FOUR8, max(2 * 7 / 8 * M * 8 / 100e6, 2 * 3 / 4 * M * 8 / 50e6)),
    # bcast: every node but the root's receives m (and every switch but the root's)
    ("bcast", 1024, ONE8, 1024 * 8 / 100e6),
    ("bcast", 1024, FOUR8, 1024 * 8 / 50e6),
    # 16 ranks on 8 nodes: 2 ranks per node link, each sending m to 14 ranks off the node
    ("alltoall", M, cluster("one-switch", 8, 16), 2 * 14 * M * 8 / 100e6),
])
def test_link_bound(coll, nbytes, block, want):
    ranks = len(block["rank_nodes"])
    assert benchreport.link_bound_seconds(data(coll, nbytes, ranks, block)) == \
        pytest.approx(want, rel=1e-12)


def test_no_bound_on_one_host_or_for_other_collectives():
    assert benchreport.link_bound_seconds(data("alltoall", M, 8)) is None
    assert benchreport.link_bound_seconds(data("scatter", M, 8, ONE8)) is None


def test_platform_labels():
    assert benchreport.platform(data("alltoall", M, 8)) == "local"
    assert benchreport.platform(data("alltoall", M, 8, ONE8)) == "one-switch 100Mbit"
    assert benchreport.platform(data("alltoall", M, 8, FOUR8)) == "four-switch 100Mbit"


def fake_cell(coll, block, oracle, native_s, oracle_s, finals):
    d = data(coll, M, 8, block)
    rows = [{"layer": layer, "final": final} for layer, final in finals.items()]
    return {"data": d, "rows": rows, "oracle": {"name": oracle, "median": oracle_s},
            "native": {"name": "native", "median": native_s}}


def test_best_map_per_platform():
    cells = [fake_cell("alltoall", ONE8, "pair", 0.08, 0.05, {"race": "pair", "native": "native"}),
             fake_cell("alltoall", FOUR8, "ring", 0.30, 0.20,
                       {"race": "pair", "native": "native"})]
    text = benchreport.best_map(cells)
    lines = text.splitlines()
    one = lines.index("  alltoall on one-switch 100Mbit:")
    four = lines.index("  alltoall on four-switch 100Mbit:")
    assert "pair" in lines[one + 1] and "0.625 x native" in lines[one + 1]
    bound = 7 * M * 8 / 100e6
    assert f"{0.05 / bound:5.2f} x link bound" in lines[one + 1]
    assert "(race" not in lines[one + 1]             # race chose the oracle there
    assert "ring" in lines[four + 1] and "(race pair)" in lines[four + 1]
    # cells of one host only: no map
    assert benchreport.best_map([fake_cell("alltoall", None, "pair", 1, 1, {})]) == ""

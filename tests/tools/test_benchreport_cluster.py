"""`autocoll report` over cells run on an emulated cluster: the links' lower bound per
collective and topology, the platform label, and the best-algorithm map per platform."""

import pytest

from autocoll.analysis import benchreport
from autocoll.plot import benchplot

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
    assert benchreport.platform(dict(data("alltoall", M, 8, FOUR8), mpi="mpich")) == \
        "four-switch 100Mbit mpich"


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


def full_cell(block, native_s, fixed, rows, coll="alltoall", nbytes=M):
    """A cell with fixed medians `fixed` {name: seconds} (the oracle is the fastest, native
    included) and layer rows {layer: (final, decision, steady seconds)}."""
    d = data(coll, nbytes, len(block["rank_nodes"]), block)
    d["machine"]["cores_online"] = 2
    d["configurations"] = ([{"name": "native", "kind": "native", "median": native_s}] +
                           [{"name": n, "kind": "fixed", "median": t} for n, t in fixed.items()])
    oracle = min(d["configurations"], key=lambda x: x["median"])
    out = []
    for layer, (final, decision, steady) in rows.items():
        out.append({"layer": layer, "final": final, "decision": decision, "iterations": 200,
                    "steady_vs_native": steady / native_s, "steady_p10_us": 0.9e6 * steady,
                    "steady_p90_us": 1.2e6 * steady})
    return {"data": d, "rows": out, "native": {"name": "native", "median": native_s},
            "oracle": {"name": oracle["name"], "median": oracle["median"]}}


def test_loss_reasons_come_from_the_cell():
    c = full_cell(ONE8, 1.0, {"pair": 0.8, "ring": 1.3},
                  {"race": ("ring", 60, 1.3), "star_enhanced": ("pair", 70, 1.1),
                   "lottery": ("native", 20, 1.08), "late": ("pair", 150, 1.2),
                   "native": ("native", None, 1.02)})
    reason = {r["layer"]: benchreport.loss_reason(c, r) for r in c["rows"]}
    assert reason["race"].startswith("a wrong choice: ring is 1.300 x native run fixed")
    assert reason["star_enhanced"].startswith("chose pair (0.800 x native run fixed)")
    assert "1.020 x native in this run" in reason["star_enhanced"]
    assert reason["lottery"].startswith("settled on native")
    assert reason["late"].startswith("still deciding inside the steady window (decided "
                                     "after 150 of 200")


def test_emulated_summary_geomean_losses_and_following():
    one = full_cell(ONE8, 1.0, {"pair": 0.5, "ring": 0.9},
                    {"race": ("pair", 60, 0.5), "lottery": ("ring", 20, 1.2),
                     "native": ("native", None, 1.0)})
    four = full_cell(FOUR8, 2.0, {"pair": 2.1, "ring": 1.0},
                     {"race": ("ring", 60, 1.05), "lottery": ("ring", 20, 1.0),
                      "native": ("native", None, 2.0)})
    text = benchreport.emulated_summary([one, four])
    lines = text.splitlines()
    assert "    geomean race           0.512  median 0.512  range 0.500-0.525  (2 cells)" in lines
    assert "    geomean control        1.000  median 1.000  range 1.000-1.000  (2 cells)" in lines
    # one loss: lottery on one switch chose ring, 0.9 x native fixed but 1.2 settled
    assert any(l.startswith("    one-switch 100Mbit alltoall") and "lottery 1.200: chose ring"
               in l for l in lines)
    assert "(1), with the reason" in next(l for l in lines if l.startswith("  cells where"))
    assert "  alltoall 65536 B np 8 at 100Mbit: four-switch ring, one-switch pair" in lines
    assert "    race           four-switch ring 1.000 ok; one-switch pair 1.000 ok" in lines
    assert "    lottery        four-switch ring 1.000 ok; one-switch ring 1.800" in lines
    assert lines[-1].endswith("race 2 of 2, lottery 1 of 2")
    # cells of one host only: no section
    assert benchreport.emulated_summary([dict(one, data={**one["data"], "cluster": None})]) == ""


def test_best_map_plot(tmp_path):
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    cells = [full_cell(ONE8, 1.0, {"pair": 0.5}, {"race": ("pair", 60, 0.5)}),
             full_cell(FOUR8, 1.0, {"ring": 0.5}, {"race": ("pair", 60, 0.9)})]
    written = benchplot.plot_best_map(cells, tmp_path, plt)
    assert written == [tmp_path / "best-map-alltoall.png"]
    assert written[0].stat().st_size > 1000

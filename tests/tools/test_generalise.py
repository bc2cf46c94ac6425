"""Models that generalise across process counts (tools/autocoll/analysis/generalise.py, docs/table.md):
on synthetic cells whose right answer is known, the floor lookup, the learned models and the
leave-one-count-out cross-validation; the compiled rules (table version 2) cover every count
and size, each with an ordered list that ends in native; `autocoll tune --model` and
`--test-ranks` on a small real sweep. The compiled table applied by the layer at a count never
swept: tests/tools/test_simgrid.py and tests/tools/test_table.py."""

import json
import math

import pytest

from autocoll.analysis import generalise, tune

from conftest import autocoll_cli as cli, registry

SIZES = [8, 64, 1024, 8192]
MARGIN = 0.02
NO_COST = generalise.available(None)  # the models without the registry's cost formulas


def cell_of(coll, p, b, times):
    return {"collective": coll, "ranks": p, "bytes": b, "times": times,
            "spread": {n: 1.1 for n in times}, "winner": tune.winner_of(times, MARGIN),
            "noisy": False}


def synthetic(counts, sizes=SIZES):
    """Cells of one collective from a known cost: `small` wins below 1 KiB at every count, `big`
    wins from 1 KiB up, more clearly at more ranks; native is in between. Times depend smoothly
    on log2 ranks and log2 bytes; the winner changes with the size in a step."""
    cells = []
    for p in counts:
        for b in sizes:
            lp, lb = math.log2(p), math.log2(b)
            native = 1e-6 * (1 + lp) * (1 + lb / 4)
            times = {"native": native, "small": native * (0.6 if b < 1024 else 1.5),
                     "big": native * (1.4 if b < 1024 else 0.7 - 0.02 * lp)}
            cells.append(cell_of("allreduce", p, b, times))
    return cells


def meshes(counts, sizes=(1024,)):
    """Cells where every orthogonal layout of the count ran (as a sweep runs them) and the
    squarest 2D layout wins: log(time / native) = log 0.5 + 0.1 (log2 p1 - log2 n)^2 in 2D,
    0.5 more in 3D; `flat` (0.8 x native) is the best of the rest. At 36 ranks the winner is
    6 x 6, a layout no count of 16, 32 and 64 has."""
    cells = []
    for p in counts:
        for b in sizes:
            native = 1e-6 * math.log2(p)
            times = {"native": native, "flat": 0.8 * native}
            for p1, p2 in generalise.layouts(p):
                d = math.log2(p1) - math.log2(p / p1 / (p2 or 1))
                extra = 0.0 if p2 is None else 0.5
                times[generalise.mesh_name(p1, p2, "native")] = \
                    native * math.exp(math.log(0.5) + 0.1 * d * d + extra)
            cells.append(cell_of("bcast", p, b, times))
    return cells


def oracle(c):
    return min(c["times"], key=c["times"].get)


def test_features_and_ordered_lists():
    assert generalise.features(16, 0, 4) == [4.0, 0.0, 2.0, 4.0]
    assert generalise.features(12, 1024, 5) == [math.log2(12), 10.0, math.log2(3), 5.0]
    predicted = {"a": 0.5, "b": 0.99, "c": 0.7, "native": 1.0, "d": 1.3}
    # those beating native by the margin, native, then the rest (b: within the margin)
    assert generalise.ordered_list(predicted, MARGIN) == ["a", "c", "native", "b", "d"]
    many = {f"x{i}": 0.1 * (i + 1) for i in range(9)}
    listed = generalise.ordered_list(many, MARGIN)
    assert len(listed) == generalise.MAX_ALGORITHMS and listed[-1] == "native"
    assert listed[:3] == ["x0", "x1", "x2"]
    slower = {f"y{i}": 1.1 + i for i in range(9)}
    assert generalise.ordered_list({**slower, "a": 0.5}, MARGIN) == \
        ["a", "native"] + [f"y{i}" for i in range(6)]


def test_a_cells_ranking_and_two_lists_interleaved():
    """ranking: the cell's winner (tune.winner_of) first, then ordered_list's order of its
    times; interleave: alternately, the first list's first, each name once, at most
    MAX_ALGORITHMS."""
    times = {"native": 10.0, "a": 9.9, "b": 5.0, "c": 7.0, "d": 12.0}
    cell = {"times": times, "winner": tune.winner_of(times, MARGIN)}
    assert generalise.ranking(cell, MARGIN) == ["b", "c", "native", "a", "d"]
    near = {"native": 10.0, "a": 9.9, "d": 12.0}  # a beats native by less than the margin
    cell = {"times": near, "winner": tune.winner_of(near, MARGIN)}
    assert generalise.ranking(cell, MARGIN) == ["native", "a", "d"]
    assert generalise.interleave(["f", "g", "native", "h"], ["m", "f", "native", "n"]) == \
        ["f", "m", "g", "native", "h", "n"]
    long = generalise.interleave([f"f{i}" for i in range(8)], [f"m{i}" for i in range(8)])
    assert long == ["f0", "m0", "f1", "m1", "f2", "m2", "f3", "m3"]


def test_a_trial_settles_on_the_fastest_of_the_first_few():
    """trial_pick: the fastest of the list's first `tries` algorithms measured in the cell, and
    native (never measured algorithms are passed over, as the layer passes over those that
    cannot run); penalties with tries 1 is the first pick, even when native is faster."""
    cell = {"ranks": 8, "bytes": 8, "times": {"native": 4.0, "a": 5.0, "b": 3.0, "c": 1.0}}
    assert generalise.trial_pick(["a", "gone", "b", "c"], cell, 2) == "b"
    assert generalise.trial_pick(["a", "gone", "b", "c"], cell, 3) == "c"
    assert generalise.trial_pick(["a"], cell, 3) == "native"

    class Fixed:
        def lists(self, points):
            return [["a", "gone", "b", "c"] for _ in points]
    assert generalise.penalties(Fixed(), [cell]) == [(cell, "a", 5.0)]
    assert generalise.penalties(Fixed(), [cell], 3) == [(cell, "c", 1.0)]


def test_layouts_are_the_registrys():
    """The layouts of a count as src/coll/orthogonal.c makes them: every factorization with
    sizes >= 2, 2D by p1, then 3D by p1 and p2; names parsed back."""
    assert generalise.layouts(12) == [(2, None), (3, None), (4, None), (6, None), (2, 2),
                                      (2, 3), (3, 2)]
    assert generalise.layouts(7) == [] and generalise.layouts(4) == [(2, None)]
    assert generalise.layouts(8) == [(2, None), (4, None), (2, 2)]
    assert generalise.mesh_parts("orthogonal_4x2xn_binomial_tree") == (4, 2, "binomial_tree")
    assert generalise.mesh_parts("orthogonal_16xn_native") == (16, None, "native")
    assert generalise.mesh_parts("allgather_mesh_2d") is None
    assert generalise.mesh_name(3, 8, "native") == "orthogonal_3x8xn_native"


@pytest.mark.parametrize("ranks", [1, 4, 7, 12, 48, 64])
def test_layouts_match_the_builds_registry(ranks):
    """The layouts generalise.py names at a count are the instances the layer offers there
    (`autocoll-info --size`): one phase's orthogonal names, in the same order."""
    names = [a["name"] for a in registry("openmpi", ranks)["algorithms"]
             if a["collective"] == "bcast" and a["name"].endswith("xn_native")]
    assert names == [generalise.mesh_name(p1, p2, "native")
                     for p1, p2 in generalise.layouts(ranks)]


def test_floor_is_the_version_1_lookup():
    cells = synthetic([16, 64])
    floor = generalise.fit("floor", cells, 1, MARGIN)
    # below the smallest count: native; between counts: the lower count's cell; between
    # sizes: the lower size's; below the smallest size: the smallest. Each lists its cell's
    # ranking: the winner, native, the slower one
    got = floor.lists([(8, 1024), (48, 100), (48, 9000), (200, 1), (16, 8192)])
    assert got == [["native"], ["small", "native", "big"], ["big", "native", "small"],
                   ["small", "native", "big"], ["big", "native", "small"]]


def test_trees_find_the_known_winners_at_unswept_counts():
    """The winners change with the size in a step (at 1 KiB): trees place the step, and
    every pick at 24, 48 and 128 ranks is the best."""
    fitted = generalise.fit("trees", synthetic([16, 32, 64]), 1, MARGIN)
    for c, picked, penalty in generalise.penalties(fitted, synthetic([24, 48, 128])):
        assert picked == oracle(c) and penalty == 1.0, (c["ranks"], c["bytes"], picked)


def test_layouts_are_re_derived_at_every_count():
    """Fitted on the layouts of 16, 32 and 64 ranks, the curve ranks each count's own layouts:
    at 36 ranks 6 x 6 (never measured) first, at 100 ranks 10 x 10; every pick at 24, 36, 48,
    100 and 50 is the best. The floor lookup names the 32-rank winner at 36 (a 4 x n layout:
    it runs, as 4 x 9, but is not the best) and the 64-rank winner (8 x 8) at 100, where it
    cannot run: the next of the 64-rank cell's ranking that runs there, 4 x n (4 x 25), about
    twice the best."""
    train = meshes([16, 32, 64])
    curve = generalise.fit("curve", train, 1, MARGIN)
    (at36, at100) = curve.lists([(36, 1024), (100, 1024)])
    assert at36[0] == "orthogonal_6xn_native" and at100[0] == "orthogonal_10xn_native"
    assert all(generalise.mesh_parts(n) is None or 36 % generalise.mesh_parts(n)[0] == 0
               for n in at36)
    test = meshes([24, 36, 48, 50, 100])
    for c, picked, penalty in generalise.penalties(curve, test):
        assert penalty == pytest.approx(1.0), (c["ranks"], picked, oracle(c))
    floor = generalise.penalties(generalise.fit("floor", train, 1, MARGIN), test)
    picks = {c["ranks"]: (p, pen) for c, p, pen in floor}
    assert picks[100][0] == "orthogonal_4xn_native" and picks[100][1] > 1.9
    assert generalise.mesh_parts(picks[36][0])[0] in (4, 8) and picks[36][1] > 1.05


def test_cross_validation_prefers_the_model_that_generalises():
    """The floor lookup gives native below the smallest count and the lower count's winner
    above: held out at 16 it loses everywhere; the trees do not. On the layouts the curve is
    exact and the floor is not."""
    cells = synthetic([16, 32, 64])
    rows = generalise.cross_validate(cells, 1, MARGIN)
    by = {(r["model"], r["held_out"]): r for r in rows}
    assert {r["held_out"] for r in rows} == {16, 32, 64, "all"}
    assert all(by[(m, "all")]["cells"] == 12 for m in NO_COST)
    assert by[("floor", 16)]["geomean"] > 1.2                     # native everywhere at 16
    assert by[("floor", 32)]["geomean"] == pytest.approx(1.0)     # the winners do not change
    assert by[("trees", "all")]["geomean"] == pytest.approx(1.0)
    assert generalise.choose(rows) in ("trees", "curve")
    assert generalise.choose([]) == "floor"
    # on the layouts the curve is exact and the floor is not
    mesh = {r["model"]: r for r in generalise.cross_validate(meshes([16, 32, 64]), 1, MARGIN)
            if r["held_out"] == "all"}
    assert mesh["curve"]["geomean"] == pytest.approx(1.0) and mesh["floor"]["geomean"] > 1.05
    text = "\n".join(generalise.cv_text("allreduce", rows, "curve"))
    assert "held out" in text and "chosen: curve" in text


def test_cross_validation_scores_against_the_held_out_measurements():
    """A model whose picks are wrong is scored by the held-out cells' own times: a cell
    where the floor's pick is 1.5 x the best scores 1.5."""
    cells = synthetic([16, 32], sizes=[8])
    cells[1]["times"]["small"] = cells[1]["times"]["native"] * 1.5  # at 32: small now loses
    cells[1]["winner"] = tune.winner_of(cells[1]["times"], MARGIN)
    rows = generalise.cross_validate(cells, 1, MARGIN, models=("floor",))
    by = {r["held_out"]: r for r in rows}
    best32 = min(cells[1]["times"].values())
    assert by[32]["worst"] == pytest.approx(cells[1]["times"]["small"] / best32)
    assert by[16]["worst"] == pytest.approx(cells[0]["times"]["native"]
                                            / min(cells[0]["times"].values()))


def test_one_count_swept_means_no_cross_validation():
    assert generalise.cross_validate(synthetic([8]), 1, MARGIN) == []
    rules, models = tune.generalised_rules(synthetic([8]), "auto", 1, MARGIN)
    assert models["allreduce"]["model"] == "floor"
    assert rules[0]["ranks"] == [8, None] and all("native" in r["algorithms"] for r in rules)


def covered(rules, ranks, nbytes):
    hits = [r for r in rules if r["ranks"][0] <= ranks and (r["ranks"][1] is None
                                                            or ranks <= r["ranks"][1])
            and r["bytes"][0] <= nbytes and (r["bytes"][1] is None or nbytes <= r["bytes"][1])]
    assert len(hits) == 1, (ranks, nbytes, hits)
    return hits[0]


def test_compiled_rules_cover_every_count_and_size_without_overlap():
    cells = synthetic([16, 32, 64])
    fitted = generalise.fit("trees", cells, 1, MARGIN)
    rules = generalise.compile_rules("allreduce", fitted, cells)
    assert all(len(r["algorithms"]) <= generalise.MAX_ALGORITHMS
               and "native" in r["algorithms"] for r in rules)
    for ranks in [1, 2, 3, 12, 16, 47, 48, 64, 100, 255, 256, 257, 1000, 1 << 20]:
        for nbytes in [0, 1, 8, 100, 1023, 1024, 5000, 8192, 1 << 30]:
            rule = covered(rules, ranks, nbytes)
            # the rule is the model's answer at its lower ends
            (expected,) = fitted.lists([(rule["ranks"][0], max(rule["bytes"][0], 8))])
            assert rule["algorithms"] == expected, (ranks, nbytes)
    assert covered(rules, 48, 100)["algorithms"] == ["small", "native", "big"]
    assert covered(rules, 48, 8192)["algorithms"] == ["big", "native", "small"]
    # merged: far fewer rules than counts x sizes
    assert len(rules) < 40, len(rules)
    # layouts: each count's own, compiled count by count
    mesh = generalise.compile_rules("bcast", generalise.fit("curve", meshes([16, 32, 64]), 1,
                                                            MARGIN), meshes([16, 32, 64]))
    assert covered(mesh, 36, 1024)["algorithms"][0] == "orthogonal_6xn_native"
    assert covered(mesh, 37, 1024)["algorithms"] == ["flat", "native"]  # a prime: no layout
    assert generalise.byte_points([8, 1024]) == [8, 16, 32, 64, 128, 256, 512, 1024]


def test_tables_fitted_at_three_counts_beat_the_floor_at_unswept_ones():
    """What `--test-ranks` prints: each model fitted on the swept counts and scored at others."""
    test = synthetic([48, 50, 128, 256])
    rows = generalise.evaluate(NO_COST, synthetic([16, 32, 64]), test, 1, MARGIN)
    score = {m: generalise.geomean([r["penalty"] for r in rows if r["model"] == m])
             for m in NO_COST}
    assert score["trees"] == pytest.approx(1.0) and score["floor"] >= 1.0
    assert all(r["oracle"] == oracle(c) for r, c in zip(rows, test * 3))
    text = "\n".join(generalise.test_text("allreduce", rows))
    assert "floor    geomean" in text and "trees    geomean" in text


def trend(counts):
    """Cells where `flat` (its time over native's growing as 2^(0.25 log2 p)) wins at 16 to 64
    ranks and `tree` (0.75 x native everywhere) from 128 up: a winner that changes beyond the
    swept counts."""
    cells = []
    for p in counts:
        for b in SIZES:
            native = 1e-6 * (1 + math.log2(p))
            times = {"native": native, "tree": 0.75 * native,
                     "flat": native * 0.4 * math.exp(0.25 * (math.log2(p) - 4))}
            cells.append({"collective": "bcast", "ranks": p, "bytes": b, "times": times,
                          "winner": tune.winner_of(times, MARGIN)})
    return cells


def test_curve_extrapolates_a_trend_that_trees_and_the_floor_do_not():
    """Beyond the swept counts trees and the floor keep the last count's winner; the fitted
    curve follows the trend to the new winner. Cross-validation inside 16-64 cannot tell them
    apart (both are right there): --test-ranks at larger counts can."""
    rows = generalise.cross_validate(trend([16, 32, 64]), 1, MARGIN)
    overall = {r["model"]: r["geomean"] for r in rows if r["held_out"] == "all"}
    assert overall["trees"] == pytest.approx(1.0) and overall["curve"] == pytest.approx(1.0)
    test = generalise.evaluate(NO_COST, trend([16, 32, 64]), trend([128, 256]), 1,
                               MARGIN)
    worst = {m: max(r["penalty"] for r in test if r["model"] == m) for m in NO_COST}
    assert worst["curve"] == pytest.approx(1.0)
    assert worst["trees"] > 1.4 and worst["floor"] > 1.4


THETA = (1e-6, 1e-9)  # the platform: latency, time per byte


def latency_costs(collective, ranks, nbytes):
    """Cost formulas of a toy registry: `tree` takes log2 p steps, `flat` 0.3 (p - 1) (a root
    that posts cheaply), each step a latency and the message; `mystery` has no formula."""
    lp = math.log2(ranks)
    return {"tree": [lp, nbytes * lp, 0, 0, 0, 0],
            "flat": [0.3 * (ranks - 1), 0.3 * (ranks - 1) * nbytes, 0, 0, 0, 0],
            "mystery": None, "native": None}


def latency_cells(counts, sizes=(8, 1024)):
    """Times exactly as the formulas say with THETA; native 3 x the tree; `mystery` 0.9 x
    native. flat wins up to 8 ranks, tree from 16."""
    cells = []
    for p in counts:
        for b in sizes:
            f = latency_costs("bcast", p, b)
            t = {n: sum(x * y for x, y in zip(v, THETA)) for n, v in f.items() if v}
            t["native"] = 3 * t["tree"]
            t["mystery"] = 0.9 * t["native"]
            cells.append(cell_of("bcast", p, b, t))
    return cells


def test_cost_model_fits_the_platform_and_extrapolates_the_formulas():
    """Fitted at 2, 4 and 8 ranks, where flat wins, the cost model recovers the platform's
    parameters and picks tree at 16, 32 and 128 ranks, where the formulas say it wins; the
    trees and the floor keep flat. An algorithm without a formula is ranked by the
    curve. Without formulas the model is refused."""
    train, test = latency_cells([2, 4, 8]), latency_cells([16, 32, 128])
    cost = generalise.fit("cost", train, 1, MARGIN, latency_costs)
    assert cost.theta[0] == pytest.approx(THETA[0], rel=1e-6)
    assert cost.theta[1] == pytest.approx(THETA[1], rel=1e-6)
    assert all(c["winner"] == "flat" for c in train) and all(c["winner"] == "tree" for c in test)
    for c, picked, penalty in generalise.penalties(cost, test):
        assert picked == "tree" and penalty == 1.0, (c["ranks"], picked)
    (ordered,) = cost.lists([(64, 8)])
    assert ordered[:2] == ["tree", "flat"] and "mystery" in ordered
    rows = generalise.evaluate(generalise.MODELS, train, test, 1, MARGIN, latency_costs)
    worst = {m: max(r["penalty"] for r in rows if r["model"] == m) for m in generalise.MODELS}
    assert worst["cost"] == 1.0 and min(worst["floor"], worst["trees"]) > 1.5
    cv = generalise.cross_validate(train + test, 1, MARGIN, costs=latency_costs)
    assert {r["model"] for r in cv} == set(generalise.MODELS)
    overall = {r["model"]: r["geomean"] for r in cv if r["held_out"] == "all"}
    assert overall["cost"] == pytest.approx(1.0) and overall["trees"] > 1.0
    with pytest.raises(generalise.GeneraliseError, match="cost formulas"):
        generalise.fit("cost", train, 1, MARGIN)


def test_ensemble_ranks_by_the_geometric_mean_of_its_members():
    """The ensemble's list at a point is the ordered list of the geometric mean of the ratios
    trees, curve and cost predict (fitted alone on the same cells: they are deterministic; cost
    only for the algorithms with a formula, `mystery` having none); without the formulas, of
    trees and curve alone."""
    train = latency_cells([2, 4, 8])
    points = [(16, 8), (64, 1024), (6, 64)]
    for costs in (latency_costs, None):
        ensemble = generalise.fit("ensemble", train, 1, MARGIN, costs)
        members = [generalise.fit(m, train, 1, MARGIN, costs)
                   for m in (("trees", "curve", "cost") if costs else ("trees", "curve"))]
        assert len(ensemble.members) == len(members)
        for point, ordered in zip(points, ensemble.lists(points)):
            ratios = [(m.formula_ratios if m.name == "cost" else m.ratios)([point])[0]
                      for m in members]
            names = set().union(*ratios)
            mean = {n: math.exp(sum(math.log(r[n]) for r in ratios if n in r) /
                                sum(n in r for r in ratios)) for n in names}
            assert ordered == generalise.ordered_list(mean, MARGIN), (point, costs)
        # at 16 ranks the trees keep the fitted counts' flat, curve and cost extrapolate to tree:
        # the mean is a real combination, not a copy of one member that agrees with all
        assert {m.lists(points[:1])[0][0] for m in members} == {"flat", "tree"}


def test_floor_rules_in_version_2_form():
    """tune.floor_rules: version 1's bands and intervals, each rule listing the ranking of the
    cell that decided it (its winner first, native in it)."""
    cells = synthetic([16, 64])
    v1 = tune.collective_rules("allreduce", cells)
    v2 = tune.floor_rules("allreduce", cells, MARGIN)
    assert [(r["ranks"], r["bytes"]) for r in v2] == [(r["ranks"], r["bytes"]) for r in v1]
    for old, new in zip(v1, v2):
        cell = next(c for c in cells if c["ranks"] == new["ranks"][0]
                    and c["bytes"] == max(new["bytes"][0], min(SIZES)))
        assert "algorithm" not in new and new["algorithms"][0] == old["algorithm"]
        assert new["algorithms"] == generalise.ranking(cell, MARGIN) and \
            "native" in new["algorithms"]


def test_a_tables_lists_put_the_floor_first_and_the_model_second():
    """table_model: a learned model's rules alternate the floor lookup's list and the model's,
    the floor's first. At 100 ranks the floor names the 64-rank winner (8 x 8), which cannot
    run there, and the curve's 10 x 10 comes second: the layer runs it, the best. At 36 the
    floor's 32-rank winner runs (not the best), and a trial of TRIAL finds the curve's 6 x 6."""
    train = meshes([16, 32, 64])
    table = generalise.table_model("curve", train, 1, MARGIN)
    floor = generalise.fit("floor", train, 1, MARGIN)
    curve = generalise.fit("curve", train, 1, MARGIN)
    points = [(36, 1024), (100, 1024)]
    for got, f, m in zip(table.lists(points), floor.lists(points), curve.lists(points)):
        assert got == generalise.interleave(f, m)
        assert got[:2] == [f[0], m[0]] and got[1] != got[0]
    test = meshes([36, 100])
    first = {c["ranks"]: (p, pen) for c, p, pen in generalise.penalties(table, test)}
    assert first[100] == ("orthogonal_10xn_native", pytest.approx(1.0))
    assert first[36][1] > 1.05
    trial = {c["ranks"]: (p, pen)
             for c, p, pen in generalise.penalties(table, test, generalise.TRIAL)}
    assert trial[36] == ("orthogonal_6xn_native", pytest.approx(1.0))
    assert generalise.table_model("floor", train, 1, MARGIN).lists(points) == \
        floor.lists(points)


def test_tune_model_option_on_a_real_sweep(tmp_path):
    """Two counts under Open MPI (2 and 4 ranks), one collective, two sizes: --model curve
    writes version 2 rules from the curve model; auto prints the cross-validation and names
    the model it chose; --test-ranks sweeps 3 ranks and prints each model's penalties there."""
    sweep = ["--collectives", "allreduce", "--sizes", "8,1K", "--ranks", "2,4",
             "--iterations", "10", "--warmup", "1", "--factor", "0", "--repeats", "0"]
    out = tmp_path / "tune"
    run = cli("tune", "--out", str(out), *sweep, "--model", "curve")
    assert run.returncode == 0, run.stdout + run.stderr
    table = json.loads((out / "table.json").read_text())
    assert table["version"] == 2 and table["sweep"]["model"] == "curve"
    assert table["models"]["allreduce"]["model"] == "curve"
    assert covered(table["rules"], 1, 0) and covered(table["rules"], 1000, 1 << 20)
    auto = cli("tune", "--out", str(out), *sweep, "--test-ranks", "3",
               "--table", str(tmp_path / "auto.json"))
    assert auto.returncode == 0, auto.stdout + auto.stderr
    assert "leave-one-count-out cross-validation" in auto.stdout
    chosen = json.loads((tmp_path / "auto.json").read_text())["models"]["allreduce"]
    assert f"chosen: {chosen['model']}" in auto.stdout
    assert {r["held_out"] for r in chosen["cross_validation"]} == {2, 4, "all"}
    assert {(r["model"], r["ranks"]) for r in chosen["test"]} == {
        (m, 3) for m in generalise.MODELS + ("table",)}
    assert "applied at the test counts" in auto.stdout
    assert all(r["penalty"] >= 1.0 for r in chosen["test"])

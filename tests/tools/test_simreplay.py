"""`autocoll simgrid replay` (bench/strategy_replay.c): the strategies' own code replayed over a
cell's measured per-call times. Checked against strategies that ran in the simulation (the
committed 16- and 64-rank cells), on cells whose times are rewritten so the right answer is
known, and on the noise model's expected delay."""

import json

import pytest

from conftest import ROOT, autocoll_cli, build_dir, registry

# copies of cells of docs/results/simgrid-2026-11-23, model-eval-2026-11-24 and (from its
# cells.tar.xz) headline-2026-11-28 (tests read fixtures from tests/, never from docs/)
FIXTURES = ROOT / "tests/fixtures/simreplay"
CELLS = FIXTURES / "simgrid-2026-11-23"
CELL16 = CELLS / "cells16/fat-tree-ib/allreduce-8-np16-ompi.json"
CELL64 = CELLS / "cells64/fat-tree-ib/allreduce-8-np64-ompi.json"
# made after the driver recorded first calls: the replay charges the set-up costs too
VALIDATE64 = CELLS / "validate64/fat-tree-ib/allreduce-8-np64-ompi.json"
# the model layer simulated since AUTOCOLL_MODEL_HORIZON (model-eval's validate.sh)
MODEL64 = FIXTURES / "model-eval-2026-11-24/validate64"
# fat-tree-ib's node of several ranks (headline-2026-11-28): 64 ranks, 8 a node
PPN8 = FIXTURES / "headline-2026-11-28/fat-tree-ib-ppn8"


@pytest.fixture(autouse=True)
def replay_built():
    build_dir("openmpi")


def replay(tmp_path, *args):
    out = tmp_path / "replay.json"
    r = autocoll_cli("simgrid", "replay", *map(str, args), "--json", str(out))
    assert r.returncode == 0, r.stderr
    return json.loads(out.read_text())["cells"]


@pytest.mark.parametrize("cell", [CELL16, CELL64], ids=["16", "64"])
def test_replay_decides_as_the_simulation_did(tmp_path, cell):
    """Each strategy, replayed over the cell's fixed measurements, takes as many calls to decide
    and chooses what it chose in the simulation of the same cell; whole-run / oracle within 20 %
    (the replay leaves out the first calls' set-up: these cells did not record it)."""
    (row,) = replay(tmp_path, cell, "--layers", "star_enhanced,star_basic,lottery,race")
    assert row["ranks"] in (16, 64)
    assert len(row["replayed"]) == 4
    # steady / native of each selector: the mpich selector's native comes from the sibling cell
    mpich = json.loads(cell.with_name(cell.name.replace("-ompi", "-mpich")).read_text())
    native = [c for c in mpich["configurations"] if c["kind"] == "native"][0]["median"]
    rep = row["replayed"][0]
    assert rep["vs_native"]["mpich"] == pytest.approx(
        rep["steady_vs_oracle"] * row["oracle_median"] / native)
    for rep in row["replayed"]:
        sim = row["simulated"][rep["layer"]]
        assert rep["decision"] == sim["decision"], rep["layer"]
        assert rep["chosen"] == sim["chosen"], rep["layer"]
        assert rep["whole_vs_oracle"] == pytest.approx(sim["whole_vs_oracle"], rel=0.20)
        assert rep["whole_vs_oracle"] <= sim["whole_vs_oracle"] * 1.01, rep["layer"]


def test_replay_with_first_calls_matches_the_simulation(tmp_path):
    """On a cell with first calls recorded: the strategies that draw nothing (star, race, model)
    decide as in the simulation, and their whole run / oracle is within 5 % of the simulated
    one; the lottery, whose draws follow the last bits of every timing, takes as many calls to
    decide (one ticket draw per candidate) but may draw another winner. The cell was simulated
    before AUTOCOLL_MODEL_HORIZON, AUTOCOLL_MODEL_GROUPS and AUTOCOLL_MODEL_STAND_INS, so the
    model is replayed with the first off, the second `registry` and the third `mpich` (the code
    it ran then)."""
    (row,) = replay(tmp_path, VALIDATE64, "--set", "AUTOCOLL_MODEL_HORIZON=0",
                    "--set", "AUTOCOLL_MODEL_GROUPS=registry",
                    "--set", "AUTOCOLL_MODEL_STAND_INS=mpich")
    assert row["agreement_seconds"] > 0
    layers = {rep["layer"]: rep for rep in row["replayed"]}
    assert set(layers) == {"star_enhanced", "star_basic", "lottery", "race", "model"}
    for name, rep in layers.items():
        sim = row["simulated"][name]
        assert rep["decision"] == sim["decision"], name
        if name == "lottery":
            continue
        assert rep["chosen"] == sim["chosen"], name
        assert rep["whole_vs_oracle"] == pytest.approx(sim["whole_vs_oracle"], rel=0.05), name


@pytest.mark.parametrize("cell,agreement,settings,fires", [
    ("fat-tree-ib/allreduce-8-np64-ompi.json", None, (), False),
    ("one-switch-gbe-horizon30/bcast-8-np64-ompi.json",
     "oracle64/one-switch-gbe/allreduce-8-np64-ompi.json",
     ("--set", "AUTOCOLL_MODEL_HORIZON=30"), True)],
    ids=["fat-tree-ib-allreduce", "one-switch-gbe-bcast-horizon30"])
def test_replayed_model_decides_as_simulated(tmp_path, cell, agreement, settings, fires):
    """The model strategy simulated call by call and replayed with the same settings over the
    same cell's measurements: the same decision length and choice, whole run / oracle within
    10 % (the replay charges less than the simulation took: 1.063 against 1.137 in fat-tree-ib's
    allreduce, 1.127 against 1.209 in one-switch-gbe's bcast, whose agreements at 224 us are
    3.4 of its calls). fat-tree-ib's allreduce cell was simulated again on 2026-11-26, when the
    model began to price the library's phases of composed instances (stand-ins), on the
    platform as it is now. In one-switch-gbe's bcast, simulated with AUTOCOLL_MODEL_HORIZON=30, the
    set-up rule fires (the replay with the rule off decides otherwise); in fat-tree-ib's
    allreduce, with the defaults, it does not. Both were simulated before
    AUTOCOLL_MODEL_GROUPS and AUTOCOLL_MODEL_STAND_INS, whose `registry` and `mpich` are the code
    they ran (the replay's default for an ompi cell, `tuned`, decides otherwise in fat-tree-ib's
    allreduce: 20 calls, not 14)."""
    agree = ("--agreement", CELLS / agreement) if agreement else ()
    settings = (*settings, "--set", "AUTOCOLL_MODEL_GROUPS=registry",
                "--set", "AUTOCOLL_MODEL_STAND_INS=mpich")
    (row,) = replay(tmp_path, MODEL64 / cell, "--layers", "model", *agree, *settings)
    (rep,) = row["replayed"]
    sim = row["simulated"]["model"]
    assert rep["decision"] == sim["decision"] and rep["chosen"] == sim["chosen"], (rep, sim)
    assert rep["whole_vs_oracle"] == pytest.approx(sim["whole_vs_oracle"], rel=0.10)
    (off,) = replay(tmp_path, MODEL64 / cell, "--layers", "model", *agree, *settings,
                    "--set", "AUTOCOLL_MODEL_HORIZON=0")
    assert (off["replayed"][0]["decision"] != rep["decision"]) == fires, (off, rep)


def rewritten(tmp_path, source, times_of):
    """A copy of `source` whose native and fixed configurations take times_of(name, median)
    seconds on every call."""
    data = json.loads(source.read_text())
    for c in data["configurations"]:
        if c["kind"] in ("native", "fixed"):
            t = times_of(c["name"], c["median"])
            c["times"] = [t] * len(c["times"])
            c["median"] = t
    path = tmp_path / source.name
    path.write_text(json.dumps(data))
    return path


def test_replay_follows_the_measured_times(tmp_path):
    """Make `ring` 5 x faster than the fastest candidate: every strategy that measures every
    candidate must settle on it, and its steady state is then the oracle's. (`model` measures
    only what its cost model ranks near the best, so it never tries the ring here.)"""
    data = json.loads(CELL16.read_text())
    best = min(c["median"] for c in data["configurations"] if c["kind"] in ("native", "fixed"))
    path = rewritten(tmp_path, CELL16,
                     lambda name, median: best / 5 if name == "ring" else median)
    (row,) = replay(tmp_path, path, "--layers", "star_basic,lottery,race")
    assert row["oracle"] == "ring"
    for rep in row["replayed"]:
        assert rep["chosen"] == "ring", rep["layer"]
        assert rep["steady_vs_oracle"] == pytest.approx(1.0), rep["layer"]
        assert rep["whole_vs_oracle"] > 1.0, rep["layer"]


def test_candidates_restrict_the_choice(tmp_path):
    """--candidates (AUTOCOLL_TABLE_TRY's trial): the strategies choose among those and native
    only. With `ring` 5 x faster but left out, race never runs it and settles on the faster of
    the two named (one made 2 x slower than the other); the ratios stay against the whole
    cell's oracle (ring). Under noise the oracle is replayed apart, the same delays. A name
    the cell did not measure is refused. A cell that lacks an algorithm replays with the others
    as candidates, or by itself where it records the algorithm as excluded or was measured by a
    build of another registry."""
    data = json.loads(CELL16.read_text())
    best = min(c["median"] for c in data["configurations"] if c["kind"] in ("native", "fixed"))
    speeds = {"ring": best / 5, "recursive_doubling": best, "rabenseifner_ring": 2 * best}
    path = rewritten(tmp_path, CELL16, lambda name, median: speeds.get(name, median))
    out = tmp_path / "replay.json"
    r = autocoll_cli("simgrid", "replay", str(path), "--layers", "race,star_basic", "--json",
                     str(out), "--candidates", "recursive_doubling,rabenseifner_ring")
    assert r.returncode == 0, r.stderr
    (row,) = json.loads(out.read_text())["cells"]
    assert row["oracle"] == "ring" and row["candidates"] == 3
    assert row["candidate_subset"] == ["recursive_doubling", "rabenseifner_ring"]
    for rep in row["replayed"]:
        assert rep["chosen"] == "recursive_doubling", rep
        assert rep["steady_vs_oracle"] == pytest.approx(5.0), rep
    (noisy,) = replay(tmp_path, path, "--layers", "race", "--noise", "detour:0.01:2e-5",
                      "--candidates", "recursive_doubling,rabenseifner_ring")
    assert noisy["replayed"][0]["chosen"] == "recursive_doubling"
    assert noisy["replayed"][0]["steady_vs_oracle"] > 4.0
    bad = autocoll_cli("simgrid", "replay", str(path), "--candidates", "nonesuch")
    assert bad.returncode == 2 and "nonesuch: not measured there" in bad.stderr, bad.stderr
    # A cell without one of its algorithms (alltoall256_cell.py leaves out the two that take
    # SimGrid hours at 256 ranks) replays over the others, without and with noise.
    data = json.loads(path.read_text())
    data["configurations"] = [c for c in data["configurations"]
                              if c["name"] != "rabenseifner_simple"]
    # as measured by this build (a cell of another registry replays over what it measured)
    data["machine"]["registry_fingerprint"] = registry("openmpi")["registry_fingerprint"]
    path.write_text(json.dumps(data))
    rest = ",".join(c["name"] for c in data["configurations"] if c["kind"] == "fixed")
    for noise in ("none", "detour:0.01:2e-5"):
        (partial,) = replay(tmp_path, path, "--layers", "race", "--noise", noise,
                            "--candidates", rest)
        assert partial["replayed"][0]["chosen"] == "ring", (noise, partial)
    bad = autocoll_cli("simgrid", "replay", str(path), "--layers", "race")
    assert bad.returncode != 0, bad.stdout
    assert "rabenseifner_simple applies here but was not measured" in bad.stderr, bad.stderr
    # ... and one that records it as left out (`autocoll bench --exclude`) replays without
    # --candidates, over every algorithm it measured
    data["parameters"]["excluded"] = ["rabenseifner_simple"]
    path.write_text(json.dumps(data))
    (left_out,) = replay(tmp_path, path, "--layers", "race,model")
    assert left_out["excluded"] == ["rabenseifner_simple"]
    assert left_out["candidate_subset"] is None and left_out["oracle"] == "ring"
    assert left_out["candidates"] == len(rest.split(",")) + 1  # and native
    race = next(r for r in left_out["replayed"] if r["layer"] == "race")
    assert race["chosen"] == "ring" and race["steady_vs_oracle"] == pytest.approx(1.0), race
    assert not left_out["cell_registry_differs"]
    # ... and so does a cell of another registry (its fingerprint: a build before algorithms
    # were added lacks them), over the algorithms it measured
    del data["parameters"]["excluded"]
    data["machine"]["registry_fingerprint"] = "0123456789abcdef"
    path.write_text(json.dumps(data))
    (older,) = replay(tmp_path, path, "--layers", "race")
    assert older["cell_registry_differs"] and older["excluded"] == []
    assert older["replayed"][0]["chosen"] == "ring", older


def test_noise_adds_the_longest_of_the_ranks_delays(tmp_path):
    """Every candidate 10 us, every rank delayed on every call by an exponential of mean 5 us:
    a call waits for the longest of the 16 delays, whose expectation is 5 us x H(16). The
    ratios are then against the oracle replayed under the same delays: 1 here."""
    path = rewritten(tmp_path, CELL16, lambda name, median: 10e-6)
    (row,) = replay(tmp_path, path, "--layers", "race", "--agreement", "0", "--calls", "4000",
                    "--noise", "detour:1.0:5e-6")
    expected = 10e-6 + 5e-6 * sum(1.0 / k for k in range(1, 17))
    rep = row["replayed"][0]
    assert rep["mean_seconds"] == pytest.approx(expected, rel=0.03)
    assert rep["whole_vs_oracle"] == pytest.approx(1.0, abs=0.01)
    assert row["noisy_oracle_median"] > 10e-6
    quiet = replay(tmp_path, path, "--layers", "race", "--agreement", "0", "--calls", "4000")
    assert quiet[0]["replayed"][0]["mean_seconds"] == pytest.approx(10e-6)
    assert quiet[0]["noisy_oracle_median"] is None


def test_agreements_cost_what_they_are_given(tmp_path):
    """All candidates equal: the only extra time is the agreements', so doubling their price
    doubles the whole run's excess over the oracle."""
    path = rewritten(tmp_path, CELL16, lambda name, median: 10e-6)
    one = replay(tmp_path, path, "--layers", "race", "--agreement", "1e-6")[0]["replayed"][0]
    two = replay(tmp_path, path, "--layers", "race", "--agreement", "2e-6")[0]["replayed"][0]
    assert one["whole_vs_oracle"] > 1.0
    assert two["whole_vs_oracle"] - 1.0 == pytest.approx(2 * (one["whole_vs_oracle"] - 1.0))


def test_bad_input_is_one_line(tmp_path):
    data = json.loads(CELL16.read_text())
    data["configurations"] = [c for c in data["configurations"] if c["name"] != "ring"]
    data["machine"]["registry_fingerprint"] = registry("openmpi")["registry_fingerprint"]
    path = tmp_path / "missing.json"
    path.write_text(json.dumps(data))
    r = autocoll_cli("simgrid", "replay", str(path), "--agreement", "1e-6")
    assert r.returncode == 2
    assert "ring applies here but was not measured" in r.stderr
    assert "Traceback" not in r.stderr
    r = autocoll_cli("simgrid", "replay", str(CELL16), "--noise", "gauss:1")
    assert r.returncode == 2 and "--noise gauss:1" in r.stderr
    r = autocoll_cli("simgrid", "replay", str(CELL16), "--layers", "bogus")
    assert r.returncode == 2 and "bogus" in r.stderr


def test_warm_start_settles_at_once(tmp_path):
    """--warm gives every strategy knowledge of every candidate (as a history file would): each
    settles at its first call, on the oracle."""
    (row,) = replay(tmp_path, VALIDATE64, "--warm", "--layers", "star_basic,lottery,race,model")
    for rep in row["replayed"]:
        assert rep["decision"] == 0, rep["layer"]
        assert rep["chosen"] == row["oracle"], rep["layer"]


def test_model_measures_every_group_it_might_misjudge(tmp_path):
    """four-switch-gbe, bcast of 8 B on 64 ranks: the cost formulas rank the orthogonal flat-tree
    layouts first and the flat tree, truly 1.66 x faster, outside the margin. With the default
    AUTOCOLL_MODEL_GROUP_RANGE the first round measures each group's best predicted member, and
    the model settles on a flat tree; with 0 (`--set`: the predictions alone) it never measures
    one. Also checks that --set reaches the replayed strategies and nothing else does."""
    cell = CELLS / "oracle64/four-switch-gbe/bcast-8-np64-ompi.json"
    agree = CELLS / "cells64/four-switch-gbe/allreduce-8-np64-ompi.json"
    (groups,) = replay(tmp_path, cell, "--layers", "model", "--agreement", agree)
    (alone,) = replay(tmp_path, cell, "--layers", "model", "--agreement", agree,
                      "--set", "AUTOCOLL_MODEL_GROUP_RANGE=0")
    assert alone["settings"] == {"AUTOCOLL_MODEL_GROUP_RANGE": "0"}
    assert groups["oracle"] == "flat_tree"
    g, a = groups["replayed"][0], alone["replayed"][0]
    assert g["chosen"].startswith("flat_tree") and g["steady_vs_oracle"] <= 1.02, g
    assert g["decision"] <= 20
    assert not a["chosen"].startswith("flat_tree") and a["steady_vs_oracle"] > 1.5, a
    # round 2 too: fat-tree-ib's 256-rank bcast of 8 B (--sync clock), where round 1's groups
    # (native and three trees) fill its half of the budget and the flat tree is measured only
    # as round 2's representative of its group
    cell = CELLS / "cells256clock/fat-tree-ib/bcast-8-np256-ompi.json"
    (row,) = replay(tmp_path, cell, "--layers", "model")
    assert row["oracle"] == "flat_tree"
    assert row["replayed"][0]["chosen"].startswith("flat_tree"), row["replayed"][0]
    r = autocoll_cli("simgrid", "replay", str(CELL16), "--set", "MODEL_GROUP_RANGE=0")
    assert r.returncode == 2 and "--set MODEL_GROUP_RANGE=0" in r.stderr


def test_model_groups_split_by_mesh_dimensionality(tmp_path):
    """fat-tree-ib, 64 ranks at 8 a node, allreduce of 8 B: `allgather_mesh_3d` is the oracle,
    predicted behind `allgather_mesh_2d` of its registry group and outside the margin. With the
    default AUTOCOLL_MODEL_GROUPS (dims) round 1 measures the best predicted 3D mesh of the group
    too and the model settles on it; with `registry` the 2D mesh stands for the group and the
    model settles on native, 1.21 x the oracle (headline-2026-11-28's README). The candidates:
    those the cell measured (the registry may have grown since)."""
    cell = PPN8 / "allreduce-8-np64-ompi.json"
    data = json.loads(cell.read_text())
    names = ",".join(c["name"] for c in data["configurations"] if c["kind"] == "fixed")
    (dims,) = replay(tmp_path, cell, "--layers", "model", "--candidates", names)
    (registry,) = replay(tmp_path, cell, "--layers", "model", "--candidates", names,
                         "--set", "AUTOCOLL_MODEL_GROUPS=registry")
    assert dims["oracle"] == "allgather_mesh_3d"
    d, r = dims["replayed"][0], registry["replayed"][0]
    assert d["chosen"] == "allgather_mesh_3d" and d["steady_vs_oracle"] <= 1.02, d
    assert d["decision"] <= 20
    assert not r["chosen"].startswith("allgather_mesh_3d") and r["steady_vs_oracle"] > 1.15, r


def test_model_weighs_a_mesh_set_up(tmp_path):
    """dragonfly, bcast of 8 B on 256 ranks (--sync clock): a layout's first call makes its
    mesh's line communicators, about 110 to 170 calls of the oracle (a flat tree) here. Round 1
    measures two layouts and sees their set-up; with AUTOCOLL_MODEL_HORIZON's default (300
    calls) round 2 measures no further layout (none, at the optimistic end of the margin,
    would repay its set-up), and the run costs less; 0 (the set-up ignored) measures three
    more. Both settle on the flat tree."""
    cell = CELLS / "cells256clock/dragonfly/bcast-8-np256-ompi.json"
    (weighed,) = replay(tmp_path, cell, "--layers", "model")
    (ignored,) = replay(tmp_path, cell, "--layers", "model", "--set", "AUTOCOLL_MODEL_HORIZON=0")
    w, i = weighed["replayed"][0], ignored["replayed"][0]
    assert weighed["oracle"] == "flat_tree"
    for row in (w, i):
        assert row["chosen"] == "flat_tree" and row["steady_vs_oracle"] <= 1.02, row
        assert row["decision"] <= 20
    assert w["whole_vs_oracle"] < 0.85 * i["whole_vs_oracle"], (w, i)


def test_describe_says_what_each_strategy_measured(tmp_path):
    """--describe: each row lists the candidates in the order of their first call (native
    first: every strategy starts on it) with no repeats, and the model's own description: the
    fitted platform (six non-negative parameters), a prediction for every candidate with a cost
    formula, and the medians it measured, which are the cell's for each candidate it ran. The
    printed form names them too; without --describe none of it is there."""
    cell = PPN8 / "allreduce-8-np64-ompi.json"
    data = json.loads(cell.read_text())
    medians = {c["name"]: c["median"] for c in data["configurations"]
               if c["kind"] in ("native", "fixed")}
    names = ",".join(c["name"] for c in data["configurations"] if c["kind"] == "fixed")
    (row,) = replay(tmp_path, cell, "--layers", "model,race", "--candidates", names,
                    "--describe")
    model, race = row["replayed"]
    for rep in (model, race):
        assert rep["measured"][0] == "native" and len(set(rep["measured"])) == len(rep["measured"])
        assert rep["chosen"] in rep["measured"], rep["layer"]
    assert set(race["measured"]) <= set(medians)
    assert len(race["measured"]) > len(model["measured"])  # race samples far more of them
    state = model["state"]
    assert len(state["platform"]) == 6 and min(state["platform"].values()) >= 0
    assert "allgather_mesh_3d" in state["predicted"] and "native" not in state["predicted"]
    assert set(state["medians"]) == set(model["measured"])
    for name, m in state["medians"].items():
        assert m == pytest.approx(medians[name], rel=0.05), name
    r = autocoll_cli("simgrid", "replay", str(cell), "--layers", "model", "--candidates", names,
                     "--describe")
    assert r.returncode == 0, r.stderr
    assert "model measured, in order: native (" in r.stdout
    assert "model fitted platform: alpha_intra" in r.stdout
    (plain,) = replay(tmp_path, cell, "--layers", "model", "--candidates", names)
    assert "measured" not in plain["replayed"][0] and "medians" not in plain

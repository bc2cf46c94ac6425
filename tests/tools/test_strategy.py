"""Run-time strategies under MPI: every rank runs the same algorithm at every call, whatever the
call sites and local timings (invariant 1), and the strategy really tunes (it measures every
candidate, then settles)."""

import json
import re

import pytest

from conftest import MPIS, run_mpi


def per_rank_reports(tmp_path, np):
    return [json.loads((tmp_path / f"agree-{r}.json").read_text()) for r in range(np)]


def algorithm_counts(report):
    """{(communicator id, collective): {algorithm: calls}} of one rank's report."""
    out = {}
    for comm in report["communicators"]:
        for coll, s in comm["collectives"].items():
            out[(comm["id"], coll)] = {a: v["calls"] for a, v in s["algorithms"].items()}
    return out


def context_runs(report):
    """{(communicator id, collective, bytes, call site): {algorithm: calls}} of one rank."""
    out = {}
    for comm in report["communicators"]:
        for coll, s in comm["collectives"].items():
            for x in s["contexts"]:
                out[(comm["id"], coll, x["bytes"], x["site"])] = x["runs"]
    return out


def world(report, coll):
    return next(c for c in report["communicators"] if c["id"] == 0)["collectives"][coll]


def check_ranks_alike(reports, np):
    """Ranks in the same communicator must have run the same algorithms the same number of
    times, context by context. World: every rank. The halves: ranks of equal parity."""
    assert [r["rank"] for r in reports] == list(range(np))
    counts = [algorithm_counts(r) for r in reports]
    contexts = [context_runs(r) for r in reports]
    for r in range(1, np):
        for key, value in counts[r].items():
            comm_id = key[0]
            if comm_id == 0:
                assert value == counts[0][key], (r, key, value, counts[0][key])
            elif r >= 2:
                assert value == counts[r - 2][key], (r, key, value, counts[r - 2][key])
        for key, runs in contexts[r].items():
            comm_id = key[0]
            if comm_id == 0:
                assert runs == contexts[0].get(key), (r, key, runs, contexts[0].get(key))
            elif r >= 2:
                assert runs == contexts[r - 2].get(key), (r, key, runs)


# Each strategy's stage while it decides, and once it has chosen.
STAGES = {"star": ("measure_select", "monitor_adapt"), "race": ("racing", "settled")}


@pytest.mark.parametrize("strategy", ["star", "race"])
@pytest.mark.parametrize("mpi,np", [("openmpi", 4), ("mpich", 3)])
def test_strategy_keeps_every_rank_on_the_same_algorithm(mpi, np, strategy, tmp_path):
    env = {"AUTOCOLL_STRATEGY": strategy, "AUTOCOLL_REPORT": str(tmp_path / "agree-%r.json")}
    run = run_mpi(mpi, np, "tests/mpi/strategy_agree", tmp_path, env=env, report=False,
                  args=["400"])
    assert "strategy_agree: 400 iterations, ok" in run.stdout, run.stdout + run.stderr
    reports = per_rank_reports(tmp_path, np)
    check_ranks_alike(reports, np)
    s = world(reports[0], "allreduce")
    by_bytes = {}
    for x in s["contexts"]:
        by_bytes.setdefault(x["bytes"], []).append(x)
    buckets = {b["bytes"]: b for b in s["buckets"]}
    # 2048 bytes from two sites every rank shares (A every iteration, B every third): two
    # contexts, the site pattern learned (period 4: A B A A) and tuned apart.
    two = sorted(by_bytes[2048], key=lambda x: x["calls"])
    assert [x["calls"] for x in two] == [134, 400], two
    assert all(x["site"].startswith("strategy_agree+0x") for x in two), two
    assert two[0]["site"] != two[1]["site"]
    assert buckets[2048]["site_mode"] == "predict" and buckets[2048]["site_period"] == 4
    # The strategy tuned: it measured several candidates and settled on one.
    assert len(s["algorithms"]) > 1, s
    # (the 134-call context may still be deciding: 3 ranks have up to 18 candidates)
    deciding, settled = STAGES[strategy]
    for x in two:
        assert x["strategy"] == strategy and sum(x["runs"].values()) == x["calls"], x
        assert x["overhead"]["deciding_calls"] > 0
        if "decision_calls" not in x:  # still in its first decision
            assert x["stage"] == deciding, x
            assert x["calls"] == 134 and x["overhead"]["deciding_calls"] == 134, x
        else:  # decided once (race may be racing again after a degraded window)
            assert x["stage"] in (deciding, settled) and x["chosen"] in s["algorithms"], x
            assert 0 < x["decision_calls"] <= x["calls"], x
    assert "decision_calls" in two[1], two[1]
    # 1024 bytes from a site that depends on rank parity: site-less at once.
    (one,) = by_bytes[1024]
    assert one["site"] == "*" and one["calls"] == 400
    assert buckets[1024]["site_mode"] == "siteless"
    assert buckets[1024]["siteless_reason"] == "ranks called from different sites"
    assert buckets[1024]["site_agreements"] == 1
    # 512 bytes where the last rank wanders now and then: site-less in the end, every call
    # accounted for in its contexts.
    assert buckets[512]["site_mode"] == "siteless", buckets[512]
    assert sum(x["calls"] for x in by_bytes[512]) == 400
    assert any(x["site"] == "*" for x in by_bytes[512])


def test_call_sites_off(tmp_path):
    env = {"AUTOCOLL_STRATEGY": "star", "AUTOCOLL_MAX_SITES": "0",
           "AUTOCOLL_REPORT": str(tmp_path / "agree-%r.json")}
    run = run_mpi("openmpi", 2, "tests/mpi/strategy_agree", tmp_path, env=env, report=False,
                  args=["60"])
    assert "strategy_agree: 60 iterations, ok" in run.stdout, run.stdout + run.stderr
    s = world(per_rank_reports(tmp_path, 2)[0], "allreduce")
    assert all(x["site"] == "*" for x in s["contexts"])
    assert {x["bytes"] for x in s["contexts"]} == {4, 512, 1024, 2048}
    assert all(b["site_agreements"] == 0 and b["siteless_reason"].startswith("call sites off")
               for b in s["buckets"])


def test_unknown_strategy_warns_and_runs_native(tmp_path):
    run = run_mpi("openmpi", 2, "demo", tmp_path, env={"AUTOCOLL_STRATEGY": "nonsense"})
    assert run.stderr.count("AUTOCOLL_STRATEGY=nonsense is invalid (it takes native | star | "
                            "lottery | race | model | table); using the default native") == 1, run.stderr
    world = run.collective("MPI_COMM_WORLD", "allreduce")
    assert list(world["algorithms"]) == ["native"]


@pytest.mark.parametrize("mpi,np,draw", [("openmpi", 4, "seed"), ("openmpi", 4, "broadcast"),
                                         ("mpich", 3, "seed")])
def test_lottery_keeps_every_rank_on_the_same_algorithm(mpi, np, draw, tmp_path):
    env = {"AUTOCOLL_STRATEGY": "lottery", "AUTOCOLL_LOTTERY_DRAW": draw,
           "AUTOCOLL_LOTTERY_WINDOW": "16", "AUTOCOLL_REPORT": str(tmp_path / "agree-%r.json")}
    run = run_mpi(mpi, np, "tests/mpi/strategy_agree", tmp_path, env=env, report=False,
                  args=["400"])
    assert "strategy_agree: 400 iterations, ok" in run.stdout, run.stdout + run.stderr
    reports = per_rank_reports(tmp_path, np)
    check_ranks_alike(reports, np)
    s = world(reports[0], "allreduce")
    assert len(s["algorithms"]) > 1, s
    two = sorted((x for x in s["contexts"] if x["bytes"] == 2048), key=lambda x: x["calls"])
    assert [x["calls"] for x in two] == [134, 400], two
    for x in s["contexts"]:
        assert x["strategy"] == "lottery" and sum(x["runs"].values()) == x["calls"], x
        assert x["draw"] == draw and x["window"] == 16 and x["alpha"] == 0.8, x
        names = [c["name"] for c in x["lottery"]]
        assert names[0] == "native" and len(names) == x["candidates"], x
        assert sum(c["runs"] for c in x["lottery"]) == x["calls"], x
        if x["stage"] == "lottery" and x["calls"] >= 100:
            # every candidate measured once (the init round), then draws
            assert x["decision_calls"] == x["candidates"], x
            assert all(c["samples"] >= 1 for c in x["lottery"]), x
            assert abs(sum(c["tickets"] for c in x["lottery"]) - 1.0) < 1e-4, x
            assert x["chosen"] in names and x["draws"] > 0, x
            best = min(x["lottery"], key=lambda c: c["average_seconds"])
            assert x["chosen"] == best["name"], x
            assert x["agreements"] >= x["calls"] // 16 - 1, x
            if draw == "seed":
                assert x["broadcasts"] == 0, x
            else:
                assert x["broadcasts"] > 0, x
    # the broadcast draw costs agreements of its own, and nothing else differs in kind
    if draw == "broadcast":
        assert any(x["broadcasts"] > 0 for x in s["contexts"])


def test_lottery_invalid_settings_warn_and_fall_back(tmp_path):
    env = {"AUTOCOLL_STRATEGY": "lottery", "AUTOCOLL_LOTTERY_ALPHA": "1.5",
           "AUTOCOLL_LOTTERY_SPREAD": "sideways", "AUTOCOLL_LOTTERY_DRAW": "dice",
           "AUTOCOLL_LOTTERY_TTL": "0"}
    run = run_mpi("openmpi", 2, "demo", tmp_path, env=env)
    assert run.rc == 0, run.stderr
    for text in ["AUTOCOLL_LOTTERY_ALPHA=1.5 is invalid (it takes 0 < x < 1); using the default 0.8",
                 "AUTOCOLL_LOTTERY_SPREAD=sideways is invalid", "AUTOCOLL_LOTTERY_DRAW=dice is invalid",
                 "AUTOCOLL_LOTTERY_TTL=0 is invalid"]:
        assert run.stderr.count(text) == 1, run.stderr  # once, from rank 0
    world = run.collective("MPI_COMM_WORLD", "allreduce")
    x = world["contexts"][0]
    assert x["strategy"] == "lottery" and x["alpha"] == 0.8 and x["spread"] == "uniform"
    assert x["draw"] == "seed" and x["ttl"] == 20


def test_race_out_of_range_settings_warn_and_fall_back(tmp_path):
    """Out of range is reported like any invalid value (core/config.c), the default used."""
    env = {"AUTOCOLL_STRATEGY": "race", "AUTOCOLL_RACE_SAMPLES": "0",
           "AUTOCOLL_RACE_FINAL": "500", "AUTOCOLL_RACE_WINDOW_MAX": "3",
           "AUTOCOLL_STAR_ITER": "5000", "AUTOCOLL_MAX_SIZES": "0"}
    run = run_mpi("openmpi", 2, "demo", tmp_path, env=env)
    assert run.rc == 0, run.stderr
    for text in ["AUTOCOLL_RACE_SAMPLES=0 is invalid (it takes 1 <= n <= 50); using the default 3",
                 "AUTOCOLL_RACE_FINAL=500 is invalid (it takes 0 <= n <= 100); using the default 0",
                 "AUTOCOLL_RACE_WINDOW_MAX=3 is invalid (it takes 16 <= n <= 2147483647); "
                 "using the default 1024",
                 "AUTOCOLL_STAR_ITER=5000 is invalid (it takes 1 <= n <= 1000); "
                 "using the default 10",
                 "AUTOCOLL_MAX_SIZES=0 is invalid (it takes 1 <= n <= 2147483647); "
                 "using the default 8"]:
        assert run.stderr.count(text) == 1, run.stderr  # once, from rank 0
    assert "AUTOCOLL_RACE_ROUNDS" not in run.stderr
    world = run.collective("MPI_COMM_WORLD", "allreduce")
    assert world["contexts"][0]["strategy"] == "race"


@pytest.mark.parametrize("strategy", ["race", "model", "star"])
def test_verbose_2_says_each_decision(strategy, tmp_path):
    """AUTOCOLL_VERBOSE=2: rank 0 of the context's communicator says what each context chose
    and when (tests/mpi/call_sites.c: two allreduce sites), matching the report's choices;
    nothing at the default verbosity."""
    env = {"AUTOCOLL_STRATEGY": strategy, "AUTOCOLL_VERBOSE": "2"}
    run = run_mpi("openmpi", 3, "tests/mpi/call_sites", tmp_path, env=env)
    assert "call_sites: 200 iterations, ok" in run.stdout, run.stdout + run.stderr
    said = {}  # the last word of each site: its choice, or None while it decides again
    for line in run.stderr.splitlines():
        m = re.match(rf"autocoll\[0\]: MPI_COMM_WORLD allreduce \d+ B \(site (\S+)\): "
                     rf"{strategy} (chose (\S+) at call|decides again after) \d+( calls)?$", line)
        if m:
            said[m.group(1)] = m.group(3)
    contexts = run.collective("MPI_COMM_WORLD", "allreduce")["contexts"]
    assert set(said) == {x["site"] for x in contexts}, (said, run.stderr)
    for x in contexts:  # a context deciding again at the end (noise here) has no last choice
        assert said[x["site"]] in (x["chosen"], None), (x, said)
    quiet = run_mpi("openmpi", 3, "tests/mpi/call_sites", tmp_path,
                    env={"AUTOCOLL_STRATEGY": strategy})
    assert " chose " not in quiet.stderr, quiet.stderr

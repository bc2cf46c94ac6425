"""History warm start for ADCL requests (docs/adcl.md, "History"): `adcl_halo history` run twice
on one AUTOCOLL_HISTORY file. The first run selects cold and writes the request's knowledge; the
second starts warm on the same winner with 0 selection calls, every call still checked against
the reference exchange with every rank on the same function (tests/mpi/adcl_halo.c). Another
key (halo width, timer, process count) stays cold; a forced function wins over history; a
corrupt file gives one warning, a cold start, and is left as it was. Under SimGrid too."""

import json
import re

import pytest

from conftest import MPIS, run_mpi

CALLS = 60  # 21 functions x 2 samples at most, and calls after the decision
ENV = {"AUTOCOLL_ADCL_SAMPLES": "2", "AUTOCOLL_REPORT": "stderr",
       "AUTOCOLL_ADCL_SEARCH": "brute_force"}
REQUEST = re.compile(r"autocoll: ADCL request 0 \(neighborhood\): winner (\S+), (\S+) search, "
                     r"(\d+) selection calls of (\d+), (\d+) functions measured, "
                     r"(warm start \(history\)|cold start)\n")
FUNCTIONS = re.compile(r"adcl_halo: history first (\S+) last (\S+)")


def halo_run(mpi, np, tmp_path, history, hwidth=1, mode="", env=None):
    """One run of adcl_halo history; returns (outcome dict, stderr)."""
    e = {**ENV, "AUTOCOLL_HISTORY": str(history), **(env or {})}
    args = ["history", str(hwidth), str(CALLS)] + ([mode] if mode else [])
    run = run_mpi(mpi, np, "tests/mpi/adcl_halo", tmp_path, env=e, preload=False, report=False,
                  args=args)
    assert run.rc == 0 and "adcl_halo: ok" in run.stdout, run.stdout + run.stderr
    (winner, search, selection, calls, measured, start), = REQUEST.findall(run.stderr)
    (first, last), = FUNCTIONS.findall(run.stdout)
    assert int(calls) == CALLS and last == winner, run.stderr
    return {"winner": winner, "search": search, "warm": start.startswith("warm"),
            "selection_calls": int(selection), "measured": int(measured), "first": first}, \
        run.stderr


def adcl_lines(history):
    """{key: {function: (seconds, samples)}} of the file's adcl lines."""
    out = {}
    for line in history.read_text().splitlines():
        if not line.startswith("adcl "):
            continue
        t = line.split()
        key, n, cands = t[1], int(t[2]), t[3:]
        assert len(cands) == 4 * n, line
        out[key] = {cands[i]: (float(cands[i + 1]), int(cands[i + 3]))
                    for i in range(0, len(cands), 4)}
    return out


def cold_then_warm(mpi, np, tmp_path, hwidth=1, mode=""):
    history = tmp_path / "history"
    cold, _ = halo_run(mpi, np, tmp_path, history, hwidth, mode)
    assert not cold["warm"] and cold["selection_calls"] > 0 and cold["measured"] > 1, cold
    lines = adcl_lines(history)
    assert len(lines) == 1, lines
    (key, known), = lines.items()
    timer = "1" if "timed" in mode else "0"
    assert f"np={np};" in key and f";halo={hwidth};" in key and key.endswith(f";timer={timer}")
    assert len(known) == cold["measured"] and cold["winner"] in known
    # the file's best is the cold run's winner; its samples are the calls measured
    assert min(known, key=lambda f: known[f][0]) == cold["winner"]
    assert sum(s for _, s in known.values()) == cold["selection_calls"]
    before = history.read_text()
    warm, _ = halo_run(mpi, np, tmp_path, history, hwidth, mode)
    assert warm["warm"] and warm["selection_calls"] == 0 and warm["measured"] == 0, warm
    assert warm["winner"] == cold["winner"] and warm["first"] == cold["winner"]
    assert history.read_text() == before  # a warm request measured nothing: nothing added
    return history, cold


@pytest.mark.parametrize("mpi", MPIS)
def test_second_run_starts_warm_np4(mpi, tmp_path):
    history, cold = cold_then_warm(mpi, 4, tmp_path)
    # the JSON report of a warm run says so on every rank
    run = run_mpi(mpi, 4, "tests/mpi/adcl_halo", tmp_path, preload=False, report=False,
                  env={**ENV, "AUTOCOLL_HISTORY": str(history),
                       "AUTOCOLL_REPORT": str(tmp_path / "warm-%r.json")},
                  args=["history", "1", str(CALLS)])
    assert run.rc == 0, run.stderr
    for r in range(4):
        request, = json.loads((tmp_path / f"warm-{r}.json").read_text())["adcl_requests"]
        assert request["warm"] is True and request["selection_calls"] == 0
        assert request["function"] == cold["winner"]
    # another halo width is another exchange: cold, and a second line in the file
    other, _ = halo_run(mpi, 4, tmp_path, history, hwidth=2)
    assert not other["warm"] and other["selection_calls"] > 0
    assert len(adcl_lines(history)) == 2
    # another process count (another platform section, another key): cold
    fewer, _ = halo_run(mpi, 2, tmp_path, history)
    assert not fewer["warm"] and fewer["selection_calls"] > 0
    # a forced function wins over history
    forced_name = "SendIrecv_aao" if cold["winner"] != "SendIrecv_aao" else "IsendIrecv_aao"
    forced, _ = halo_run(mpi, 4, tmp_path, history,
                         env={"AUTOCOLL_ADCL_FUNCTION": forced_name})
    assert forced["search"] == "forced" and not forced["warm"]
    assert forced["first"] == forced["winner"] == forced_name


@pytest.mark.parametrize("np", [1, 3])
def test_second_run_starts_warm_other_sizes(np, tmp_path):
    cold_then_warm("openmpi", np, tmp_path)


@pytest.mark.parametrize("mpi", MPIS)
def test_timer_is_part_of_the_key(mpi, tmp_path):
    """A request judged by a timer has its own key; a request never freed is saved at
    ADCL_Finalize (keep)."""
    history, _ = cold_then_warm(mpi, 3 if mpi == "openmpi" else 2, tmp_path, mode="timed,keep")
    untimed, _ = halo_run(mpi, 3 if mpi == "openmpi" else 2, tmp_path, history)
    assert not untimed["warm"] and untimed["selection_calls"] > 0
    assert len(adcl_lines(history)) == 2


@pytest.mark.parametrize("mpi", MPIS)
def test_corrupt_file_cold_and_left_alone(mpi, tmp_path):
    history = tmp_path / "history"
    text = "autocoll-history 1\nplatform 00000000000000ff x\nadcl set=neighborhood 1 alpha\n"
    history.write_text(text)
    out, stderr = halo_run(mpi, 4, tmp_path, history)
    assert not out["warm"] and out["selection_calls"] > 0
    assert stderr.count("not an autocoll history file") == 1, stderr
    assert history.read_text() == text


def test_simgrid_second_run_starts_warm(tmp_path):
    """Under SMPI (build/simgrid, one-switch-gbe, 8 ranks): rank 0 reads and writes the file from
    inside the simulation, the section is the simulated platform's, and the checked Jacobi
    solver's second run starts warm."""
    history = tmp_path / "history"
    env = {**ENV, "AUTOCOLL_HISTORY": str(history)}
    outcomes = []
    for _ in range(2):
        run = run_mpi("simgrid", 8, "adcl_jacobi", tmp_path, env=env, preload=False,
                      report=False, args=("6", "5", "4", "60"))
        assert run.rc == 0 and "adcl_jacobi: ok" in run.stdout, run.stdout + run.stderr
        outcomes += REQUEST.findall(run.stderr)
        if len(outcomes) == 1:
            cold_file = history.read_text()
    (winner, _, selection, _, _, start), (warm_winner, _, warm_selection, _, _, warm_start) = \
        outcomes
    assert start == "cold start" and int(selection) > 0
    assert warm_start.startswith("warm") and int(warm_selection) == 0 and warm_winner == winner
    assert "np=8 nodes=8 ppn=1" in cold_file and "network=node-#" in cold_file
    key, = adcl_lines(history)
    assert key.startswith("set=neighborhood;np=8;topo=cart:2x2x2:ooo;") and "timer=1" in key
    assert history.read_text() == cold_file


def test_collective_sets_start_warm(tmp_path):
    """ADCL_FNCTSET_ALLREDUCE, _ALLTOALL and _ALLGATHERV (adcl_halo collectives: every call
    checked against closed forms): one key each, and the second run starts warm on the first
    run's winners."""
    history = tmp_path / "history"
    env = {**ENV, "AUTOCOLL_HISTORY": str(history)}
    line = re.compile(r"autocoll: ADCL request \d+ \((\w+)\): winner (\S+), \S+ search, "
                      r"(\d+) selection calls of \d+, \d+ functions measured, (warm|cold) start")
    runs = []
    for _ in range(2):
        run = run_mpi("openmpi", 3, "tests/mpi/adcl_halo", tmp_path, env=env, preload=False,
                      report=False, args=["collectives"])
        assert run.rc == 0 and "adcl_halo: ok" in run.stdout, run.stdout + run.stderr
        runs.append({s: (w, int(c), start) for s, w, c, start in line.findall(run.stderr)})
    cold, warm = runs
    assert sorted(cold) == ["allgatherv", "allreduce", "alltoall"], cold
    assert sorted(k.split(";")[0] for k in adcl_lines(history)) == \
        ["set=allgatherv", "set=allreduce", "set=alltoall"]
    for s, (winner, calls, start) in cold.items():
        assert start == "cold" and calls > 0
        assert warm[s] == (winner, 0, "warm"), (s, cold, warm)

"""Memory per freed communicator (issue 41, item 4): a code that makes a communicator per solve
runs for days, so what the layer keeps of a freed communicator must be bounded. Before the
freed communicators were folded into the report's summary (core/state.c), a dup/use/free cycle
kept 3.5 kB under the default strategy, about 20 kB under race and star and 30 kB under model
(Open MPI, 2 ranks); the bound is 1 kB per cycle over the same run without the layer."""

import re

import pytest

from conftest import MPIS, run_mpi

CYCLES, WARMUP = 2000, 300
BOUND = 1024  # bytes per cycle


def growth(run):
    m = re.search(r"comm_memory: (\d+) cycles, rss growth ([0-9.]+) bytes/cycle, ok", run.stdout)
    assert run.rc == 0 and m, run.stdout + run.stderr
    return float(m.group(2))


@pytest.mark.parametrize("mpi", MPIS)
def test_memory_per_freed_communicator_is_bounded(mpi, tmp_path):
    args = [str(CYCLES), str(WARMUP)]
    base = growth(run_mpi(mpi, 2, "tests/mpi/comm_memory", tmp_path, env={"AUTOCOLL": "off"},
                          report=False, args=args))
    for strategy in ["native", "race", "star", "lottery", "model"]:
        run = run_mpi(mpi, 2, "tests/mpi/comm_memory", tmp_path,
                      env={"AUTOCOLL_STRATEGY": strategy}, args=args)
        assert growth(run) - base < BOUND, (strategy, growth(run), base)
        # the report: the freed communicators beyond the kept ones summed into one entry
        freed = [c for c in run.report["communicators"] if c["freed"]]
        summary = [c for c in freed if "communicators" in c]
        assert len(summary) == 1 and summary[0]["name"] == f"({summary[0]['communicators']} freed)"
        assert len(freed) - 1 <= 16, [c["name"] for c in freed]
        assert sum(c.get("communicators", 1) for c in freed) == CYCLES + WARMUP
        calls = sum(c["collectives"]["allreduce"]["calls"] for c in freed)
        assert calls == 2 * (CYCLES + WARMUP), strategy
        algorithms = summary[0]["collectives"]["allreduce"]["algorithms"]
        assert sum(a["calls"] for a in algorithms.values()) == \
            summary[0]["collectives"]["allreduce"]["calls"]


@pytest.mark.parametrize("strategy", ["race", "model"])
def test_freed_communicators_knowledge_reaches_the_history(strategy, tmp_path):
    """What folded communicators learned is merged by key into the history file: one record per
    call site and size, carrying the samples of every communicator, not a line per one."""
    history = tmp_path / "history"
    run = run_mpi("openmpi", 2, "tests/mpi/comm_memory", tmp_path, args=["200", "20", "40"],
                  env={"AUTOCOLL_STRATEGY": strategy, "AUTOCOLL_HISTORY": str(history)})
    assert growth(run) >= 0
    contexts = [line.split() for line in history.read_text().splitlines()
                if line.startswith("context ")]
    keys = [tuple(c[1:8]) for c in contexts]
    assert len(keys) == len(set(keys)) >= 1, contexts  # one record per key
    busy = max(contexts, key=lambda c: sum(int(s) for s in c[12::4]))
    assert busy[1] == "allreduce", busy
    # 220 communicators x 40 calls at that site: far more samples than any one communicator has
    # (40). How many the record keeps depends on this machine's timings (model stops measuring
    # candidates its measured times rule out: 3400-4400 here, fewer when the machine is busy),
    # so the bound is that of 20 communicators' calls, not a count near what one run gave.
    assert sum(int(s) for s in busy[12::4]) > 40 * 20, busy

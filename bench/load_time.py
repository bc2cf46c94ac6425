#!/usr/bin/env python3
"""Measure how long the layer takes to load a large configuration table and large history
files at MPI_Init (docs/results/state-2026-11-25/loading.md).

It writes, into a temporary folder:
  - a valid table of --rules rules (allreduce, banded as `autocoll tune` writes them: one
    process count a band, 500 disjoint message-size intervals a band);
  - history files of the given sizes in MB, of this run's platform section (the platform line
    is taken from a short run that writes the file), filled with distinct context lines;
and times runs of a trivial program (tests/mpi/table_calls, 1 iteration: nothing new is
measured, so the history file is read but not written again) on --ranks ranks with each file,
and without any. Each time is the median of --repeat runs, in wall-clock seconds and in CPU
seconds (user + system of the launcher and the ranks); a load time is a run's time less the run
without. Then bench/load_parse (--load-parse; the build's by default) times the parsing steps
of each file without MPI in CPU time, which a loaded machine changes least.

    bench/load_time.py --build build/openmpi --ranks 2 --rules 250000 --history-mb 5,10,20,40
Standard library only; Open MPI's launcher through tests/mpirun.sh.
"""

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RULES_PER_BAND = 500
ALGORITHMS = ["ring", "recursive_doubling", "native"]


def fingerprint(build):
    out = subprocess.run([str(build / "autocoll-info"), "--json"], check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out)["registry_fingerprint"]


def write_table(path, nrules, registry_fingerprint):
    """A valid version-2 table of nrules allreduce rules: band p covers exactly p ranks, its
    rules 500 adjacent message-size intervals of 1000 bytes."""
    rules = []
    for i in range(nrules):
        band, k = divmod(i, RULES_PER_BAND)
        rules.append({"collective": "allreduce", "ranks": [band + 1, band + 1],
                      "bytes": [k * 1000, k * 1000 + 999],
                      "algorithms": [ALGORITHMS[i % 3], "native"]})
    path.write_text(json.dumps({"schema": "autocoll-table", "version": 2,
                                "registry_fingerprint": registry_fingerprint,
                                "platform": {"hostname": "load_time"}, "rules": rules}))


def run(build, np, tmp, env, iterations=1):
    """Wall-clock and CPU seconds of one run of tests/mpi/table_calls under the layer, and its
    stderr."""
    e = {k: v for k, v in os.environ.items() if not k.startswith("AUTOCOLL")}
    e.update({"AUTOCOLL_TEST_PRELOAD": str(build / "libautocoll.so"), **env})
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    proc = subprocess.run([str(ROOT / "tests/mpirun.sh"), "openmpi", str(np),
                           str(build / "tests/mpi/table_calls"), str(iterations)],
                          env=e, capture_output=True, text=True, cwd=tmp)
    seconds = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    if proc.returncode != 0 or "ok" not in proc.stdout:
        sys.exit(f"load_time: the run failed:\n{proc.stdout}{proc.stderr}")
    return seconds, cpu, proc.stderr


def platform_header(build, np, tmp):
    """The header and this platform's line of the history file a run on np ranks writes: 60
    iterations, so that the race measures native in some context (a history with nothing
    measured is not written; 20 were enough before allgather had `shm`, a candidate more)."""
    path = Path(tmp) / "seed-history"
    run(build, np, tmp, {"AUTOCOLL_STRATEGY": "race", "AUTOCOLL_HISTORY": str(path)}, 60)
    lines = path.read_text().splitlines()
    platform = [line for line in lines if line.startswith("platform ")]
    assert len(platform) == 1, lines[:4]
    return [lines[0], platform[0]]


def write_history(path, header, np, megabytes):
    """A history file of about `megabytes` MB: header and platform line, then distinct context
    lines (4 candidates each, keys differing by message size)."""
    target, size, i = megabytes * 1000 * 1000, 0, 0
    with open(path, "w") as f:
        for line in header:
            f.write(line + "\n")
        while size < target:
            line = (f"context allreduce {np} {8 * (i + 1)} {i + 1} 1 1 {i:016x} 4"
                    f" native {1e-5 + i * 1e-9:.17g} 1.0000000000000001e-12 16"
                    f" ring {2e-5 + i * 1e-9:.17g} 2.0000000000000001e-12 16"
                    f" recursive_doubling {3e-5 + i * 1e-9:.17g} 3.0000000000000001e-12 16"
                    f" rabenseifner {4e-5 + i * 1e-9:.17g} 4.0000000000000001e-12 16\n")
            f.write(line)
            size += len(line)
            i += 1
    return i


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default="build/openmpi", type=Path)
    ap.add_argument("--ranks", default=2, type=int)
    ap.add_argument("--rules", default=250000, type=int)
    ap.add_argument("--history-mb", default="5,10,20,40")
    ap.add_argument("--repeat", default=1, type=int)
    ap.add_argument("--load-parse", type=Path, help="default: the build's bench/load_parse")
    args = ap.parse_args()
    build = args.build.resolve()
    load_parse = args.load_parse or build / "bench/load_parse"

    def parse_steps(*what):
        if not load_parse.exists():
            return
        out = subprocess.run([str(load_parse), *map(str, what)], capture_output=True, text=True)
        print(f"  without MPI: {out.stdout.strip() or out.stderr.strip()}", flush=True)

    def median_run(env):
        runs = [run(build, args.ranks, tmp, env) for _ in range(args.repeat)]
        return ((statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs)),
                runs[0][2])

    def times(t):
        return (f"run {t[0]:.2f} s ({t[1]:.2f} s CPU), "
                f"load {t[0] - base[0]:.2f} s ({t[1] - base[1]:.2f} s CPU)")

    with tempfile.TemporaryDirectory(prefix="load_time-") as tmp:
        base, _ = median_run({})
        print(f"run without files: {base[0]:.2f} s ({base[1]:.2f} s CPU)", flush=True)
        if args.rules:
            table = Path(tmp) / "table.json"
            write_table(table, args.rules, fingerprint(build))
            t, err = median_run({"AUTOCOLL_STRATEGY": "table", "AUTOCOLL_TABLE": str(table)})
            if "AUTOCOLL_TABLE" in err:
                sys.exit(f"load_time: the table was refused:\n{err}")
            print(f"table of {args.rules} rules ({table.stat().st_size / 1e6:.1f} MB): "
                  f"{times(t)}", flush=True)
            parse_steps("table", table)
        header = platform_header(build, args.ranks, tmp) if args.history_mb else []
        for mb in [int(x) for x in args.history_mb.split(",") if x]:
            path = Path(tmp) / f"history-{mb}"
            lines = write_history(path, header, args.ranks, mb)
            t, err = median_run({"AUTOCOLL_STRATEGY": "race", "AUTOCOLL_HISTORY": str(path)})
            if "history" in err:
                sys.exit(f"load_time: the history was not loaded:\n{err}")
            print(f"history of {mb} MB ({lines} contexts): {times(t)}", flush=True)
            parse_steps("history", path, header[1].split()[1])


if __name__ == "__main__":
    main()

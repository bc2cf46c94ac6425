"""ADCL's Jacobi solver (examples/adcl_jacobi.c built for SMPI) on the simulated platforms: the
cells of `autocoll simgrid adcl`, each implementation forced and each search run (how a cell is
measured: analysis/simadcl.py's docstring; that module makes the tables)."""

import json
import re
import time
from pathlib import Path

from ..formats.schemas import ADCL_TABLES_SCHEMA, ADCL_TABLES_VERSION
from . import simgrid

SEARCHES = ("brute_force", "attribute", "factorial", "race", "model")
SHORT_ITERATIONS = 10
RESULT = re.compile(r"adcl_jacobi: (\d+) processes .* ([0-9.eE+-]+) s per iteration, "
                    r"function (\S+) ")
OUTCOME = re.compile(r"autocoll: ADCL request \d+ \(\S+\): (winner|undecided, running) (\S+), "
                     r"(\S+) search, (\d+) selection calls of (\d+), (\d+) functions measured")


class AdclTablesError(Exception):
    """Bad input or a failed simulation: one line for the user."""


def implementations(program):
    """The exchange's implementations in the registry's order (src/adcl/halo/registry.c), from
    `autocoll-info --json` of the SimGrid build beside `program` (run under SMPI, 1 rank)."""
    info = Path(program).parent / "autocoll-info"
    if not info.exists():
        raise AdclTablesError(f"{info}: not built")
    done = simgrid.run("one-switch-gbe", 1, info, ["--json"], capture=True)
    try:
        names = [i["name"] for i in json.loads(done.stdout)["adcl_implementations"]]
    except (ValueError, KeyError, TypeError):
        names = []
    if done.returncode != 0 or not names:
        raise AdclTablesError(f"{info} --json listed no ADCL implementation "
                              f"(exit {done.returncode})")
    return names


def parse_size(text):
    parts = text.lower().split("x")
    if len(parts) != 3 or not all(p.isdigit() and int(p) > 0 for p in parts):
        raise AdclTablesError(f"size {text!r}: want NXxNYxNZ, e.g. 64x32x32")
    return tuple(int(p) for p in parts)


def size_name(size):
    return "x".join(str(n) for n in size)


def label(cell):
    return f"{cell['platform']} {cell['ranks']} {size_name(cell['size'])}"


def cell_path(out, platform, ranks, size):
    return Path(out) / f"{platform}-np{ranks}-{size_name(size)}.json"


def run_solver(program, platform, ranks, size, iterations, env):
    """One simulated solve with the environment changes `env` (None: unset); (seconds per
    iteration, the final function, the layer's outcome line as a dict or None)."""
    done = simgrid.run(platform, ranks, program,
                       [*map(str, size), str(iterations), "--no-compute"], capture=True,
                       env_changes=env)
    m = RESULT.search(done.stdout)
    if done.returncode != 0 or not m:
        tail = (done.stderr or done.stdout).strip().splitlines()[-3:]
        raise AdclTablesError(f"{platform} np{ranks} {size_name(size)} {env}: the solver failed "
                              f"(exit {done.returncode}): {' | '.join(tail)}")
    if int(m.group(1)) != ranks:
        raise AdclTablesError(f"the solver ran on {m.group(1)} processes, not {ranks}")
    o = OUTCOME.search(done.stderr)
    outcome = None
    if o:
        outcome = {"decided": o.group(1) == "winner", "winner": o.group(2),
                   "search": o.group(3), "selection_calls": int(o.group(4)),
                   "calls": int(o.group(5)), "functions_measured": int(o.group(6))}
    return float(m.group(2)), m.group(3), outcome


def extrapolate(a, per_a, b, per_b, n):
    """The time per iteration of an n-iteration solve from solves of a and b iterations (their
    times per iteration per_a and per_b): the first iterations' extra cost, then a constant
    time per iteration."""
    if a == b:
        return per_b
    slope = (b * per_b - a * per_a) / (b - a)
    return (a * per_a + slope * (n - a)) / n


FINALIST_MARGIN = 0.05  # fixed functions estimated within 5 % of the best are run whole,
FINALISTS_MAX = 4       # at most this many


def finalists(estimated):
    """The fixed functions to run over the whole solve: those estimated within FINALIST_MARGIN
    of the best, the best first, at most FINALISTS_MAX."""
    order = sorted(estimated, key=lambda n: (estimated[n], n))
    best = estimated[order[0]]
    return [n for n in order if estimated[n] <= best * (1.0 + FINALIST_MARGIN)][:FINALISTS_MAX]


def run_cell(program, platform, ranks, size, iterations, fixed_iterations, searches, names,
             cell=None):
    """A cell's runs; with `cell` (read back from its file) only the searches it lacks."""
    started = time.monotonic()
    base = {"AUTOCOLL_ADCL_SEARCH": "brute_force", "AUTOCOLL_REPORT": "stderr",
            "AUTOCOLL_HISTORY": "off"}
    if cell is None:
        fixed, measured, not_run = {}, {}, []
        for name in names:
            forced = {**base, "AUTOCOLL_ADCL_FUNCTION": name}
            short, final, _ = run_solver(program, platform, ranks, size, SHORT_ITERATIONS,
                                         forced)
            if final != name:
                not_run.append(name)  # not applicable here: the layer warned and selected
                continue
            long, _, _ = run_solver(program, platform, ranks, size, fixed_iterations, forced)
            measured[name] = {str(SHORT_ITERATIONS): short, str(fixed_iterations): long}
            fixed[name] = extrapolate(SHORT_ITERATIONS, short, fixed_iterations, long,
                                      iterations)
        cell = {"schema": ADCL_TABLES_SCHEMA, "version": ADCL_TABLES_VERSION,
                "platform": platform, "ranks": ranks, "size": list(size),
                "iterations": iterations, "fixed_iterations": fixed_iterations,
                "short_iterations": SHORT_ITERATIONS, "fixed_measured": measured,
                "fixed": fixed, "not_applicable": not_run, "searches": {},
                "wall_seconds": 0.0}
    elif cell["iterations"] != iterations:
        raise AdclTablesError(f"{label(cell)}: its searches ran {cell['iterations']} "
                              f"iterations, not {iterations}: use another --out")
    if "fixed_full" not in cell:
        # the finalists again over the whole solve: the extrapolation is exact only without
        # contention (on four-switch-gbe at 64 ranks the uplinks' queues build up over the
        # iterations: 10, 100 and 700 iterations of IsendIrecv_aao took 1.0127, 1.0630 and
        # 1.0832 ms an iteration, and the extrapolation gave 1.0678)
        cell["fixed_estimated"] = dict(cell["fixed"])
        cell["fixed_full"] = {}
        for name in finalists(cell["fixed_estimated"]):
            seconds, _, _ = run_solver(program, platform, ranks, size, iterations,
                                       {**base, "AUTOCOLL_ADCL_FUNCTION": name})
            cell["fixed_full"][name] = seconds
        cell["fixed"] = {**cell["fixed_estimated"], **cell["fixed_full"]}
    for search in searches:
        if search in cell["searches"]:
            continue
        seconds, final, outcome = run_solver(program, platform, ranks, size, iterations,
                                             {**base, "AUTOCOLL_ADCL_SEARCH": search,
                                              "AUTOCOLL_ADCL_FUNCTION": None})
        cell["searches"][search] = {"seconds_per_iteration": seconds, "function": final,
                                    "outcome": outcome}
    cell["size"] = list(size)
    cell["wall_seconds"] = round(cell["wall_seconds"] + time.monotonic() - started, 1)
    return cell

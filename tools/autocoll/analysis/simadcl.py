"""`autocoll simgrid adcl`: ADCL's Tables 2 to 5 (../shared/seeds/004, section 4) on the
simulated platforms, with the Jacobi solver of examples/adcl_jacobi.c built for SMPI.

A cell is a platform, a process count and a problem size per process. In each cell:
  - every implementation of the neighbourhood exchange forced in turn (AUTOCOLL_ADCL_FUNCTION),
    twice: SHORT_ITERATIONS and `--fixed-iterations` iterations. Without contention a solve's
    simulated time is the first iteration's (which sets up datatypes, buffers and windows) plus
    a constant time per later iteration (the simulation has no noise), so the two runs estimate
    the time per iteration of a solve of `--iterations` at a fraction of the host time (on
    one-switch-gbe, 4 ranks, 8x8x4 points, 10 and 60 iterations extrapolated to 700 gave the
    700-iteration run's time within 0.001 % for IsendIrecv_aao and 0.055 % for
    SendIrecv_pair; tests/tools/test_simadcl.py checks it within 0.1 %);
  - the fixed implementations estimated within FINALIST_MARGIN of the best (at most
    FINALISTS_MAX) again over the whole solve of `--iterations`: with contention a solve's
    iterations do not all cost the same, and the tables use these times where they exist;
  - every search of `--searches` over `--iterations` iterations (ADCL's 700), the function
    selected at run time: its time per iteration, the winner, the calls selection took and the
    functions it measured (the layer's AUTOCOLL_REPORT=stderr line).
The solver runs with --no-compute: SMPI is run with simulated computation off, so the stencil
would cost host time and no simulated time. Times are therefore those of the exchange and its
timer alone, and an overhead is relative to communication time only: a solve whose computation
takes as long again halves it.

Each cell is written to OUT/PLATFORM-npN-NXxNYxNZ.json as soon as it is done; cells already
there are skipped, so an interrupted sweep resumes, and a cell that lacks a search of
`--searches` gets only that search run. The tables are printed from every cell in
OUT (also with --tables-only):
  Table 2  the fastest fixed implementation per cell, and how many implementations win anywhere;
  Table 3  per count and size every platform ran: each platform's penalty for another
           platform's winner of the same count and size;
  Table 4  per size, per platform and count: the penalty of the winner of another platform or
           count;
  Table 5  per cell and search: time per iteration against the best fixed implementation, the
           functions measured, the calls selection took, and whether it found the best.
"""

import json
import re
import time
from pathlib import Path

from ..formats.schemas import ADCL_TABLES_SCHEMA, ADCL_TABLES_VERSION
from ..run import simgrid

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


def read_cells(out):
    cells = []
    for path in sorted(Path(out).glob("*-np*-*x*x*.json")):
        data = json.loads(path.read_text())
        if data.get("schema") != ADCL_TABLES_SCHEMA:
            raise AdclTablesError(f"{path}: not an `autocoll simgrid adcl` cell")
        data["size"] = tuple(data["size"])
        cells.append(data)
    return cells


def best(cell):
    name = min(cell["fixed"], key=lambda n: (cell["fixed"][n], n))
    return name, cell["fixed"][name]


def penalty(cell, name):
    """The extra time of `name` in `cell` against its best fixed function; None if absent."""
    if name not in cell["fixed"]:
        return None
    return cell["fixed"][name] / best(cell)[1] - 1.0


def pct(x):
    return "-" if x is None else f"{100.0 * x:.2f} %"


def label(cell):
    return f"{cell['platform']} {cell['ranks']} {size_name(cell['size'])}"


TIE = 0.001  # implementations within 0.1 % of the fastest tie with it


def tied(cell):
    """The fixed implementations within TIE of the fastest, fastest first."""
    t = best(cell)[1]
    return sorted((n for n, x in cell["fixed"].items() if x <= t * (1.0 + TIE)),
                  key=lambda n: (cell["fixed"][n], n))


def table2(cells):
    lines = ["## Table 2: the fastest implementation per cell", "",
             f"Tied: the others within {100 * TIE:.1f} % of the fastest. Second: the fastest "
             "of the rest.", "",
             "| platform | processes | size per process | fastest | us/iteration | tied | "
             "second | its penalty | slowest's penalty |",
             "|---|---|---|---|---|---|---|---|---|"]
    for c in cells:
        ties = tied(c)
        rest = sorted((n for n in c["fixed"] if n not in ties),
                      key=lambda n: (c["fixed"][n], n))
        order = sorted(c["fixed"], key=lambda n: (c["fixed"][n], n))
        second = rest[0] if rest else None
        lines.append(f"| {c['platform']} | {c['ranks']} | {size_name(c['size'])} | {ties[0]} | "
                     f"{1e6 * c['fixed'][ties[0]]:.3f} | {', '.join(ties[1:]) or '-'} | "
                     f"{second or '-'} | {pct(penalty(c, second) if second else None)} | "
                     f"{pct(penalty(c, order[-1]))} |")
    winners = sorted({n for c in cells for n in tied(c)})
    names = sorted({n for c in cells for n in c["fixed"]})
    lines += ["", f"{len(winners)} of {len(names)} implementations are the fastest or tie with "
              f"it somewhere, in {len(cells)} cells: {', '.join(winners)}.", ""]
    return lines


def volume(rs):
    """A (count, size) pair's order: processes, then points per process."""
    return rs[0], rs[1][0] * rs[1][1] * rs[1][2]


def table3(cells):
    """For every (count, size) that every platform ran, largest first: each platform's penalty
    for the other platforms' winners of that count and size."""
    platforms = sorted({c["platform"] for c in cells})
    index = {(c["platform"], c["ranks"], c["size"]): c for c in cells}
    common = sorted((rs for rs in {(c["ranks"], c["size"]) for c in cells}
                     if all((p, *rs) in index for p in platforms)), key=volume, reverse=True)
    lines = ["## Table 3: another platform's winner (row: run here; column: whose winner)", "",
             "Every process count and size that every platform ran, largest first; a column's "
             "winner is that platform's for the row's count and size.", "",
             "| run here | " + " | ".join(platforms) + " |",
             "|---|" + "---|" * len(platforms)]
    for rs in common:
        for p in platforms:
            r = index[(p, *rs)]
            cols = [pct(penalty(r, best(index[(q, *rs)])[0])) for q in platforms]
            lines.append(f"| {label(r)} | " + " | ".join(cols) + " |")
    if not common:
        lines.append("| (no process count and size that every platform ran) |" +
                     " |" * len(platforms))
    return lines + [""]


def table4(cells, size):
    chosen = sorted((c for c in cells if c["size"] == size),
                    key=lambda c: (c["platform"], c["ranks"]))
    if not chosen:
        return []
    heads = [f"{c['platform']} {c['ranks']}" for c in chosen]
    lines = [f"## Table 4: another process count's or platform's winner, {size_name(size)} per "
             "process (row: run here; column: whose winner)", "",
             "| run here | " + " | ".join(heads) + " |", "|---|" + "---|" * len(heads)]
    for r in chosen:
        cols = [pct(penalty(r, best(c)[0])) for c in chosen]
        lines.append(f"| {r['platform']} {r['ranks']} | " + " | ".join(cols) + " |")
    return lines + [""]


def table5(cells, searches):
    lines = ["## Table 5: the searches against the best fixed implementation", "",
             "Overhead: the search's time per iteration over the whole solve against the fastest "
             "fixed implementation's; measured: functions measured, calls: the calls selection "
             "took; found: the function it ended on, `=` when it is the fastest, `tie:` when "
             "it ties with it, else with its penalty.", "",
             "| platform | processes | size | " +
             " | ".join(f"{s} overhead | measured | calls | found" for s in searches) + " |",
             "|---|---|---|" + "---|---|---|---|" * len(searches)]
    worst = {s: None for s in searches}
    for c in cells:
        name, t = best(c)
        cols = []
        for s in searches:
            r = c["searches"].get(s)
            if r is None:
                cols += ["-", "-", "-", "-"]
                continue
            over = r["seconds_per_iteration"] / t - 1.0
            worst[s] = over if worst[s] is None else max(worst[s], over)
            o = r.get("outcome") or {}
            found = ("=" if r["function"] == name else
                     f"tie: {r['function']}" if r["function"] in tied(c) else
                     f"{r['function']} ({pct(penalty(c, r['function']))})")
            if o and not o["decided"]:
                found += " (undecided)"
            cols += [pct(over), str(o.get("functions_measured", "-")),
                     str(o.get("selection_calls", "-")), found]
        lines.append(f"| {c['platform']} | {c['ranks']} | {size_name(c['size'])} | " +
                     " | ".join(cols) + " |")
    lines += ["", "Worst overhead per search: " +
              ", ".join(f"{s} {pct(worst[s])}" for s in searches) + ".", ""]
    return lines


def tables(cells, searches):
    if not cells:
        raise AdclTablesError("no cells to tabulate")
    cells = sorted(cells, key=lambda c: (c["platform"], c["ranks"], c["size"]))
    sizes = sorted({c["size"] for c in cells}, key=lambda z: z[0] * z[1] * z[2])
    present = [s for s in searches if any(s in c["searches"] for c in cells)]
    wall = sum(c.get("wall_seconds", 0.0) for c in cells)
    return "\n".join(table2(cells) + table3(cells) +
                     [line for z in sizes for line in table4(cells, z)] +
                     table5(cells, present) +
                     [f"{len(cells)} cells, {wall:.0f} s of wall time on this machine to "
                      f"simulate them."]) + "\n"

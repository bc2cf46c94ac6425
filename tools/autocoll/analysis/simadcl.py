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
from pathlib import Path

from ..formats.schemas import ADCL_TABLES_SCHEMA
from ..run.adcl import AdclTablesError, label, size_name


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

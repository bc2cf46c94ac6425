"""The results of `autocoll programs` (programs.json): reading and rendering them as a table."""

import statistics
from pathlib import Path

from ..formats import jsonfile
from ..formats.schemas import PROGRAMS_SCHEMA, PROGRAMS_VERSION
from ..run.programs import PROGRAMS, ProgramsError


def results_file(path):
    """`programs.json` in an `--out` folder, or the file itself."""
    p = Path(path)
    return p / "programs.json" if p.is_dir() else p


def is_programs(path):
    return jsonfile.schema_of(results_file(path))[0] == PROGRAMS_SCHEMA


def load(path):
    return jsonfile.load(results_file(path), PROGRAMS_SCHEMA, ProgramsError, PROGRAMS_VERSION)


def _spread(v):
    return f"{statistics.median(v):8.3f} ({min(v):.3f}-{max(v):.3f})"


def main_algorithms(runs):
    """Per collective, the algorithm that ran most calls over the runs, with its share."""
    total = {}
    for r in runs:
        for coll, per in r.get("algorithms", {}).items():
            t = total.setdefault(coll, {})
            for name, calls in per.items():
                t[name] = t.get(name, 0) + calls
    parts = []
    for coll, per in sorted(total.items()):
        n = sum(per.values())
        if n == 0:
            continue
        name, calls = max(per.items(), key=lambda kv: kv[1])
        parts.append(f"{coll} {name} {100 * calls / n:.0f}%")
    return ", ".join(parts)


def render(data):
    m = data["machine"]
    lines = [f"programs on {m['hostname']} ({m['cores_online']} cores), {m['mpi']}, "
             f"{data['ranks']} ranks, launcher {data['launcher']}, {data['repeat']} runs each "
             "(median, min-max)", "",
             f"{'program':15} {'layer':8} {'wall s':>22} {'wall/none':>9} {'coll s (rank 0)':>24}"
             f" {'calls':>7} {'results':>8}  algorithms (most calls)"]
    for program in data["programs"]:
        base = [r["wall_seconds"] for r in data["runs"]
                if r["program"] == program and r["layer"] == "none"]
        for layer in data["layers"]:
            rs = [r for r in data["runs"] if r["program"] == program and r["layer"] == layer]
            wall = [r["wall_seconds"] for r in rs]
            coll = [r["collective_seconds"] for r in rs if "collective_seconds" in r]
            calls = rs[0].get("collective_calls")
            ok = all(not r.get("check") for r in rs)
            lines.append(
                f"{program:15} {layer:8} {_spread(wall):>22} "
                f"{statistics.median(wall) / statistics.median(base):9.3f} "
                f"{_spread(coll) if coll else '-':>24} {calls if calls is not None else '-':>7} "
                f"{'equal' if ok else 'DIFFER':>8}  {main_algorithms(rs)}")
    lines += render_metrics(data)
    table = data.get("table")  # absent from files written before the `table` configuration
    if table:
        lines += ["", f"layer `table`: {table['path']} (registry fingerprint "
                      f"{table.get('registry_fingerprint') or '?'})"]
    if data.get("failures"):
        lines += ["", "result differences:"] + [f"  {f}" for f in data["failures"]]
    return "\n".join(lines)


def _spread_g(v):
    return f"{statistics.median(v):.4g} ({min(v):.4g}-{max(v):.4g})"


def render_metrics(data):
    """The programs' own performance figures (PROGRAMS' `shown`): per program, figure and
    configuration, median (min-max) and the ratio of medians to `none`'s. No lines when no run
    has them (files written before they were recorded)."""
    rows = []
    for program in data["programs"]:
        for key, label in PROGRAMS.get(program, {}).get("shown", []):
            def values(layer):
                return [r["metrics"][key] for r in data["runs"]
                        if r["program"] == program and r["layer"] == layer
                        and key in r.get("metrics", {})]
            base = values("none")
            for layer in data["layers"]:
                v = values(layer)
                if not v:
                    continue
                ratio = (f"{statistics.median(v) / statistics.median(base):9.3f}"
                         if base and statistics.median(base) else f"{'-':>9}")
                rows.append(f"{program:15} {layer:8} {label:22} {_spread_g(v):>32} {ratio}")
    if not rows:
        return []
    return ["", "the programs' own figures (median, min-max; x none: ratio of medians)",
            f"{'program':15} {'layer':8} {'figure':22} {'value':>32} {'x none':>9}"] + rows


# ----------------------------------------------------------------------------------------------
# Command line.

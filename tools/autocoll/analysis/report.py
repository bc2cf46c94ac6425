"""End-of-run reports (AUTOCOLL_REPORT=<path>): loading and rendering as a table."""

import json

from ..formats.schemas import REPORT_SCHEMA, REPORT_VERSION


class ReportError(ValueError):
    pass


def load(path):
    """The report at `path`; ReportError with the path and the reason if it is not one."""
    try:
        with open(path) as f:
            data = json.load(f)
    except (OSError, json.JSONDecodeError) as e:
        raise ReportError(f"{path}: cannot read report: {e}") from e
    if data.get("schema") != REPORT_SCHEMA:
        raise ReportError(f"{path}: not an autocoll report (schema {data.get('schema')!r})")
    if data.get("version") != REPORT_VERSION:
        raise ReportError(f"{path}: report version {data.get('version')!r}, "
                          f"this tool reads version {REPORT_VERSION}")
    return data


def rows(data):
    """One row per (communicator, collective): dicts with the table's columns."""
    out = []
    for comm in data["communicators"]:
        for coll, s in comm["collectives"].items():
            out.append({
                "communicator": comm["name"], "size": comm["size"], "collective": coll,
                "calls": s["calls"], "passthrough": s["passthrough"], "bytes": s["bytes"],
                "seconds": s["seconds"],
                "algorithms": ", ".join(f"{name} ({a['calls']})"
                                        for name, a in s["algorithms"].items()),
                "used": sum(1 for a in s["algorithms"].values() if a["calls"]),
            })
    return out


def render(data, verbose=False):
    """The report as text: within about 120 columns, as the layer's (the number of algorithms a
    collective ran, the contexts' main columns, a long call site on a line of its own), or with
    `verbose` every column (the algorithms and their calls, the overheads), as the layer's at
    AUTOCOLL_VERBOSE=2."""
    lines = [f"autocoll report: {data['world_size']} ranks, {data['mpi_library']}",
             f"{'communicator':16} {'size':>5} {'collective':21} {'calls':>9} {'passthru':>9} "
             f"{'bytes':>12} {'seconds':>11}  "
             f"{'algorithms (calls)' if verbose else 'algorithms'}"]
    for r in rows(data):
        used = r["algorithms"] if verbose else f"{r['used']:10d}"
        lines.append(f"{r['communicator']:16} {r['size']:5d} {r['collective']:21} "
                     f"{r['calls']:9d} {r['passthrough']:9d} {r['bytes']:12.0f} "
                     f"{r['seconds']:11.6f}  {used}")
    for coll, n in data.get("passthrough_invalid_arguments", {}).items():
        lines.append(f"{'(invalid args)':16} {'-':>5} {coll:21} {0:9d} {n:9d}")
    contexts = context_rows(data)
    if contexts:
        lines.append("tuning contexts (seconds are this rank's; saved: an estimate against "
                     "native's mean, - if never measured):")
        lines.extend(_context_table(contexts, verbose))
    profile = data.get("profile", [])
    if profile:
        lines.append("collective profile (this rank's communicators; calls and seconds per "
                     "message-size bin):")
        lines.append(f"  {'collective':21} {'ranks':>5} {'bytes':>23} {'calls':>9} "
                     f"{'seconds':>11}")
        for row in profile:
            for b in row["sizes"]:
                lo, hi = b["bytes"]
                span = f"{lo}-{'' if hi is None else hi}"
                lines.append(f"  {row['collective']:21} {row['comm_size']:5d} {span:>23} "
                             f"{b['calls']:9d} {b['seconds']:11.6f}")
    lines.extend(seen_lines(data))
    if "summary" in data:
        lines.extend(summary_lines(data["summary"]))
    return "\n".join(lines)


def seen_lines(data):
    """The collectives seen and passed on, and the nonblocking and persistent ones the layer ran
    (docs/nonblocking.md), as the layer's text report says them."""
    seen = data.get("seen", {})
    lines = []
    if seen:
        lines.append("seen, not run by the layer: " + ", ".join(
            f"{name} {x['calls']}" + ("" if x.get("bytes") is None else f" ({x['bytes']:.0f} B)")
            for name, x in seen.items()))
    for name, x in data.get("nonblocking_run", {}).items():
        unit = "start" if "_init" in name else "call"
        line = f"run by the layer: {name} {x['calls']} {unit}s ({x['bytes']:.0f} B) by"
        algorithms = list(x.get("algorithms", {}).items())
        for i, (a, n) in enumerate(algorithms):  # at most 120 columns, as the layer's own
            item = f" {a} {n}" + ("," if i < len(algorithms) - 1 else "")
            if len(line) + len(item) > 120:
                lines.append(line)
                line = "  "
            line += item
        lines.append(line)
        lines.append(f"  {1e6 * x['seconds'] / x['calls']:.2f} us a {unit} from start to "
                     f"completion, {1e6 * x['waited_seconds'] / x['calls']:.2f} us of it in MPI "
                     "calls on it")
    return lines


def summary_lines(s):
    """The run in a few lines, as the layer's text report ends (src/report/report.c)."""
    why = ", ".join(f"{n} {reason}" for reason, n in s.get("passthrough_reasons", {}).items()
                    if n)
    lines = [f"summary: {s['calls']} calls run by the layer, {s['seconds']:.6f} s (rank 0's), "
             f"{s['passthrough']} passed through" + (f" ({why})" if why else "")]
    if not s["tunes"]:
        return lines + [f"  strategy {s['strategy']}: nothing tuned, nothing to compare"]
    line = f"  {s['contexts']} tuning contexts"
    saved = s.get("saved_seconds")
    if saved is not None:
        line += (f": {'saved' if saved >= 0 else 'lost'} {abs(saved):.6f} s against native "
                 f"(an estimate, learning included)")
    return lines + [line,
                    f"  {s['contexts_without_native']} never measured native; "
                    f"{s.get('contexts_deciding', 0)} still deciding at the end "
                    f"({s.get('calls_deciding', 0)} calls: too few to decide); "
                    f"{s.get('contexts_of_one_call', 0)} of one call",
                    f"  untuned: {s['untuned']} calls beyond AUTOCOLL_MAX_SITES or _SIZES, "
                    f"{s.get('untuned_one_rank', 0)} on one-rank communicators"]


def _opt(v, spec):
    return "-" if v is None else format(v, spec)


# The tuning contexts' columns, in the order of the library's text report
# (src/report/report.c), with what each means (autocoll(7) lists them): title, row key, format
# of a number (None: a name, left-aligned), meaning.
CONTEXT_COLUMNS = [
    ("communicator", "communicator", None,
     "MPI_COMM_WORLD, MPI_COMM_SELF, the name the program set, or comm<k> by creation order"),
    ("collective", "collective", None, "the collective operation"),
    ("bytes", "bytes", "d", "the message size, from the type signature (equal on every rank)"),
    ("calls", "calls", "d", "calls of this context"),
    ("learning calls", "decided", "d",
     "calls the strategy took to make its first choice (STAR-MPI's Measure_Select, race's "
     "first race); - while it is still learning"),
    ("switches", "switches", "d", "changes of the choice after the first one"),
    ("learning overhead s", "o_ms_a", ".6f",
     "seconds of the layer's own work while learning: choosing, agreements, bookkeeping "
     "(STAR-MPI's O_MS^a)"),
    ("cost of trying slower s", "o_ms_c", ".6f",
     "seconds spent running slower algorithms while learning, relative to the chosen one "
     "(STAR-MPI's O_MS^c); - while learning"),
    ("overhead after s", "o_ma", ".6f",
     "seconds of the layer's own work after the choice (STAR-MPI's O_MA)"),
    ("saved vs native s", "saved", "+.6f",
     "an estimate of the seconds saved (+) or lost (-) against the MPI library's own "
     "algorithm: native's measured mean time per call x calls, minus the time in the "
     "algorithms and the overheads; - where the strategy never measured native"),
    ("chosen", "chosen", None, "the algorithm chosen, its registry name whole; - while learning"),
    ("call site", "site", None,
     "file:line (function) of the call where the program has debug information (read with "
     "elfutils' libdw), else module+0xoffset (function) or module+0xoffset; * for the calls "
     "tuned without a site"),
]


# The compact table's numbers (the others in the JSON and with --verbose), shorter titles.
COMPACT = {"bytes": "bytes", "calls": "calls", "decided": "decided at", "saved": "saved s"}


def _context_table(contexts, verbose=False):
    """The context rows as lines: names left-aligned to the longest, numbers right-aligned to
    their titles, the chosen algorithm whole, the call site last (compact: on a line of its own
    where the line would pass 120 columns)."""
    wide = {k: max(len(k), *(len(str(r[k])) for r in contexts))
            for k in ("communicator", "collective", "chosen")}
    numbers = [c for c in CONTEXT_COLUMNS if c[2]]
    if not verbose:
        numbers = [(COMPACT[c[1]],) + tuple(c[1:]) for c in numbers if c[1] in COMPACT]
    cells = [[_opt(r[key], spec) for _, key, spec, _ in numbers] for r in contexts]
    widths = [max(len(c[0]), *(len(row[i]) for row in cells)) for i, c in enumerate(numbers)]
    head = " ".join(f"{c[0]:>{w}}" for c, w in zip(numbers, widths))
    out = [f"  {'communicator':{wide['communicator']}} {'collective':{wide['collective']}} "
           f"{head}  {'chosen':{wide['chosen']}}  call site"]
    for r, row in zip(contexts, cells):
        values = " ".join(f"{v:>{w}}" for v, w in zip(row, widths))
        line = (f"  {r['communicator']:{wide['communicator']}} "
                f"{r['collective']:{wide['collective']}} {values}  "
                f"{r['chosen']:{wide['chosen']}}")
        if verbose or len(line) + 2 + len(r["site"]) <= 120:
            out.append(f"{line}  {r['site']}")
        else:
            out += [line, f"      at {r['site']}"]
    return out


def context_rows(data):
    """One row per tuning context (reports of a run-time strategy); "site" is the site's name
    (file:line (function) where the report could resolve it, else module+0xoffset)."""
    out = []
    for comm in data["communicators"]:
        for coll, s in comm["collectives"].items():
            for x in s.get("contexts", []):
                decided = x.get("decision_calls", x.get("measure_select_calls"))
                out.append({
                    "communicator": comm["name"], "collective": coll, "bytes": x["bytes"],
                    "site": x.get("site_name", x["site"]), "calls": x["calls"],
                    "chosen": x.get("chosen") or "-", "decided": decided,
                    "switches": x.get("switches"),
                    "o_ms_a": x["overhead"]["deciding_seconds"],
                    "o_ms_c": None if decided is None else x.get("o_ms_c_seconds"),
                    "o_ma": x["overhead"]["settled_seconds"], "saved": x.get("saved_seconds"),
                })
    return out

"""End-of-run reports (AUTOCOLL_REPORT=<path>): loading and rendering as a table."""

import json

SCHEMA = "autocoll-report"
VERSION = 1


class ReportError(ValueError):
    pass


def load(path):
    """The report at `path`; ReportError with the path and the reason if it is not one."""
    try:
        with open(path) as f:
            data = json.load(f)
    except (OSError, json.JSONDecodeError) as e:
        raise ReportError(f"{path}: cannot read report: {e}") from e
    if data.get("schema") != SCHEMA:
        raise ReportError(f"{path}: not an autocoll report (schema {data.get('schema')!r})")
    if data.get("version") != VERSION:
        raise ReportError(f"{path}: report version {data.get('version')!r}, "
                          f"this tool reads version {VERSION}")
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
            })
    return out


def render(data):
    """The report as text."""
    lines = [f"autocoll report: {data['world_size']} ranks, {data['mpi_library']}",
             f"{'communicator':16} {'size':>5} {'collective':21} {'calls':>9} {'passthru':>9} "
             f"{'bytes':>12} {'seconds':>11}  algorithms (calls)"]
    for r in rows(data):
        lines.append(f"{r['communicator']:16} {r['size']:5d} {r['collective']:21} "
                     f"{r['calls']:9d} {r['passthrough']:9d} {r['bytes']:12.0f} "
                     f"{r['seconds']:11.6f}  {r['algorithms']}")
    for coll, n in data.get("passthrough_invalid_arguments", {}).items():
        lines.append(f"{'(invalid args)':16} {'-':>5} {coll:21} {0:9d} {n:9d}")
    return "\n".join(lines)

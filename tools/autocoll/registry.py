"""The algorithm registry and settings, as printed by `autocoll-info --json`."""

import json
import os
import subprocess
from pathlib import Path

SCHEMA = "autocoll-info"
VERSION = 1


def find_info(mpi="openmpi"):
    """Path of autocoll-info for `mpi`: $AUTOCOLL_BUILD/<mpi>, else the source tree's build/."""
    roots = []
    if os.environ.get("AUTOCOLL_BUILD"):
        roots.append(Path(os.environ["AUTOCOLL_BUILD"]))
    roots.append(Path(__file__).resolve().parents[2] / "build")
    for root in roots:
        candidate = root / mpi / "autocoll-info"
        if candidate.exists():
            return candidate
    raise FileNotFoundError(f"autocoll-info for {mpi} not found under {', '.join(map(str, roots))}"
                            " (run scripts/build)")


def load(mpi="openmpi", info=None):
    """The registry as a dict; raises ValueError on an unknown schema or version."""
    out = subprocess.run([str(info or find_info(mpi)), "--json"], check=True,
                         capture_output=True, text=True).stdout
    data = json.loads(out)
    if data.get("schema") != SCHEMA or data.get("version") != VERSION:
        raise ValueError(f"unexpected registry schema {data.get('schema')!r} "
                         f"version {data.get('version')!r}")
    return data


def algorithms_by_collective(data):
    """{collective: [algorithm names]} in registry order."""
    out = {}
    for a in data["algorithms"]:
        out.setdefault(a["collective"], []).append(a["name"])
    return out

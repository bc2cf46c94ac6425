"""The algorithm registry and settings, as printed by `autocoll-info --json`."""

import json
import os
import shutil
import subprocess
from pathlib import Path

from .schemas import INFO_SCHEMA, INFO_VERSION


def find_info(mpi="openmpi"):
    """Path of autocoll-info for `mpi`: $AUTOCOLL_BUILD/<mpi>, else the source tree's build/
    (the package installed from a checkout, editable), else an installed one on PATH
    (autocoll-info-<mpi>, else autocoll-info)."""
    roots = []
    if os.environ.get("AUTOCOLL_BUILD"):
        roots.append(Path(os.environ["AUTOCOLL_BUILD"]))
    roots.append(Path(__file__).resolve().parents[2] / "build")
    for root in roots:
        candidate = root / mpi / "autocoll-info"
        if candidate.exists():
            return candidate
    installed = shutil.which(f"autocoll-info-{mpi}") or shutil.which("autocoll-info")
    if installed:
        return Path(installed)
    raise FileNotFoundError(f"autocoll-info for {mpi} not found under {', '.join(map(str, roots))}"
                            " nor on PATH (run scripts/build, or set AUTOCOLL_BUILD)")


def load(mpi="openmpi", info=None, size=None):
    """The registry as a dict; raises ValueError on an unknown schema or version. Its
    "algorithms" are the static entries, its "families" the parameterised families described
    once; with `size`, "algorithms" are every algorithm of a communicator of that many ranks
    (the families' instances that factor it included). The SimGrid build's autocoll-info (an
    smpicc program) runs only under smpirun: on one simulated rank."""
    cmd = [str(info or find_info(mpi)), "--json"] + (["--size", str(size)] if size else [])
    if mpi == "simgrid":
        from . import simgrid  # not at the top: simgrid imports the report, which imports us
        done = simgrid.run(simgrid.ONE_RANK_PLATFORM, 1, cmd[0], cmd[1:], capture=True)
        if done.returncode != 0:
            raise subprocess.CalledProcessError(done.returncode, cmd, done.stdout, done.stderr)
        out = done.stdout
    else:
        out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    data = json.loads(out)
    if data.get("schema") != INFO_SCHEMA or data.get("version") != INFO_VERSION:
        raise ValueError(f"unexpected registry schema {data.get('schema')!r} "
                         f"version {data.get('version')!r}")
    return data


def algorithms_by_collective(data):
    """{collective: [algorithm names]} in registry order."""
    out = {}
    for a in data["algorithms"]:
        out.setdefault(a["collective"], []).append(a["name"])
    return out


def cost_vectors(info, size, nbytes, nodes):
    """{collective: {algorithm: [its cost features, COST_KEYS order] or None}} of every algorithm
    of a communicator of `size` ranks on `nodes` nodes moving `nbytes` (`autocoll-info --json
    --size --bytes --nodes`: src/coll/cost.c's formulas; None: no formula). `info` must be a
    plain program (not the SimGrid build's)."""
    from .generalise import COST_KEYS
    cmd = [str(info), "--json", "--size", str(size), "--bytes", str(nbytes), "--nodes", str(nodes)]
    data = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)
    out = {}
    for a in data["algorithms"]:
        cost = a.get("cost")
        out.setdefault(a["collective"], {})[a["name"]] = (
            [float(cost[k]) for k in COST_KEYS] if isinstance(cost, dict) else None)
    return out

"""Running autocoll-info: the registry of a build (natively, or the SimGrid build's on one
simulated rank) and the cost formulas' features of its algorithms."""

import subprocess

from ..formats.paths import find_info
from ..formats.registry import cost_features, parse
from . import simgrid


def load(mpi="openmpi", info=None, size=None):
    """The registry as a dict; raises ValueError on an unknown schema or version. Its
    "algorithms" are the static entries, its "families" the parameterised families described
    once; with `size`, "algorithms" are every algorithm of a communicator of that many ranks
    (the families' instances that factor it included). The SimGrid build's autocoll-info (an
    smpicc program) runs only under smpirun: on one simulated rank."""
    cmd = [str(info or find_info(mpi)), "--json"] + (["--size", str(size)] if size else [])
    if mpi == "simgrid":
        done = simgrid.run(simgrid.ONE_RANK_PLATFORM, 1, cmd[0], cmd[1:], capture=True)
        if done.returncode != 0:
            raise subprocess.CalledProcessError(done.returncode, cmd, done.stdout, done.stderr)
        out = done.stdout
    else:
        out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return parse(out)


def cost_vectors(info, size, nbytes, nodes):
    """{collective: {algorithm: [its cost features, COST_KEYS order] or None}} of every algorithm
    of a communicator of `size` ranks on `nodes` nodes moving `nbytes` (`autocoll-info --json
    --size --bytes --nodes`: src/coll/cost.c's formulas; None: no formula). `info` must be a
    plain program (not the SimGrid build's)."""
    cmd = [str(info), "--json", "--size", str(size), "--bytes", str(nbytes), "--nodes", str(nodes)]
    return cost_features(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)

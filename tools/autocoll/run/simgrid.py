"""Running programs on simulated platforms with SimGrid's SMPI: the smpirun command line
(hostfile, privatized library, selector, the platform or its node-overheads loader), the
environment of one simulation, and one simulation run (`autocoll simgrid run`,
commands/simgrid.py, says what each setting is for)."""

import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from ..formats import paths
from ..formats.paths import platform_path
from ..formats.platforms import (NODE_OVERHEAD_PROPERTIES, SimgridError, platform_hosts,
                                 platform_overheads)

SELECTORS = ("ompi", "mpich", "impi", "mvapich2", "default")
DEFAULT_SELECTOR = "ompi"
ONE_RANK_PLATFORM = "one-switch-gbe"  # where a one-rank program (autocoll-info) runs
# SMPI's last words on a deadlock; smpirun 3.32 then exits 0, so a run that prints them is
# failed with DEADLOCK_EXIT.
DEADLOCK_MESSAGE = "Deadlock detected"
DEADLOCK_EXIT = 3
# SMPI's informational lines (every configuration change, every selector switch) drown the
# program's output; its warnings and errors stay.
LOG_SETTING = "--log=root.thresh:warning"


NODE_OVERHEADS_LOADER = "libnode_overheads.so"


def node_overheads_loader():
    """The platform loader that gives messages inside a node their own overheads
    (platforms/node_overheads.cpp, built by scripts/build as build/simgrid/libnode_overheads.so;
    $AUTOCOLL_BUILD/simgrid first)."""
    candidate = paths.built_file("simgrid", NODE_OVERHEADS_LOADER, Path.is_file)
    if candidate:
        return candidate.resolve()
    raise SimgridError(f"{NODE_OVERHEADS_LOADER} not found in build/simgrid: the platform's "
                       f"shared-memory overheads need it (run scripts/build)")


def uses_loader(path):
    """Whether the platform runs through the loader: its root zone declares node overheads
    (autocoll/shm-*)."""
    return any(k in platform_overheads(path) for k in NODE_OVERHEAD_PROPERTIES)


def platform_arguments(path, ppn=1, nodes=None):
    """What smpirun is given as the platform: the XML file itself, or, where its root zone
    declares node overheads (autocoll/shm-*), the loader with the file in
    AUTOCOLL_PLATFORM_FILE, the ranks a node in AUTOCOLL_PLATFORM_CORES_PER_NODE and the nodes that
    hold ranks in AUTOCOLL_PLATFORM_NODES_IN_USE (an `env` prefix, so the command line says it; with
    more than one rank a node, the loader builds each node in use out of one host a rank:
    platforms/README.md) and SMPI's warning that the loader's functions replace
    smpi/os, smpi/ois and smpi/or silenced (they read those settings: nothing is replaced)."""
    if not uses_loader(path):
        return [], ["-platform", str(path)], []
    env = ["env", f"AUTOCOLL_PLATFORM_FILE={path}", f"AUTOCOLL_PLATFORM_CORES_PER_NODE={ppn}"]
    if nodes is not None:
        env.append(f"AUTOCOLL_PLATFORM_NODES_IN_USE={nodes}")
    return (env,
            ["-platform", str(node_overheads_loader())], ["--log=smpi_host.thresh:error"])


PLACEMENTS = ("block", "cyclic")


def hostfile_lines(hosts, ranks, ppn, placement="block", cores=False):
    """One host name per rank: rank r on node r // ppn (block), or on node r mod nodes
    (cyclic), nodes = ceil(ranks / ppn). `cores`: the nodes are built out of one host a core
    (the loader, ppn > 1): a rank's host is its node's "NODE.coreI", I its place on the node."""
    if placement not in PLACEMENTS:
        raise SimgridError(f"unknown placement {placement!r} ({', '.join(PLACEMENTS)})")
    if ranks < 1 or ppn < 1:
        raise SimgridError(f"ranks ({ranks}) and processes per node ({ppn}) must be >= 1")
    nodes = -(-ranks // ppn)
    if nodes > len(hosts):
        raise SimgridError(f"{ranks} ranks at {ppn} per node need {nodes} hosts; the platform "
                           f"has {len(hosts)}")
    too_small = [name for name, cores in hosts[:nodes] if cores < ppn]
    if too_small:
        raise SimgridError(f"{ppn} processes per node, but host {too_small[0]} has "
                           f"{dict(hosts)[too_small[0]]} cores")
    if placement == "cyclic":
        place = [(r % nodes, r // nodes) for r in range(ranks)]
    else:
        place = [(r // ppn, r % ppn) for r in range(ranks)]
    if cores:
        return [f"{hosts[node][0]}.core{core}" for node, core in place]
    return [hosts[node][0] for node, _ in place]


def autocoll_library(program):
    """The libautocoll.so the program loads (its full path, as smpi/privatize-libs needs it),
    or None when it does not link autocoll."""
    try:
        out = subprocess.run(["ldd", str(program)], capture_output=True, text=True,
                             timeout=30).stdout
    except (OSError, subprocess.TimeoutExpired) as e:
        raise SimgridError(f"ldd {program}: {e}") from e
    for line in out.splitlines():
        m = re.match(r"\s*(libautocoll\S*)\s+=>\s+(\S+)", line)
        if m:
            if m.group(2) == "not":
                raise SimgridError(f"{program} needs {m.group(1)}, which is not found")
            if m.group(1) != "libautocoll.so":
                raise SimgridError(f"{program} loads {m.group(1)}: build it against "
                                   f"build/simgrid (no versioned SONAME there; docs/simgrid.md)")
            return str(Path(m.group(2)).resolve())
    return None


def smpirun_command(platform, ranks, program, args=(), ppn=1, selector=DEFAULT_SELECTOR,
                    workdir=None, shared_malloc=None, cfg=(), placement="block"):
    """The smpirun command line for `ranks` ranks of `program` on `platform` (a name or a
    path), writing the hostfile into `workdir`. `shared_malloc` (bytes): every allocation at
    least that large is shared by all ranks (SMPI's auto-shared-malloc: timings stay right,
    data does not; for timing-only runs at scale). `cfg`: more "key:value" SMPI settings."""
    if not shutil.which("smpirun"):
        raise SimgridError("smpirun not found: install SimGrid (scripts/setup does: "
                           "libsimgrid-dev)")
    if selector not in SELECTORS:
        raise SimgridError(f"unknown selector {selector!r} ({', '.join(SELECTORS)})")
    path = platform_path(platform)
    workdir = Path(workdir or tempfile.mkdtemp(prefix="autocoll-smpi-"))
    hostfile = workdir / "hostfile"
    loader = uses_loader(path)
    hostfile.write_text("\n".join(hostfile_lines(platform_hosts(path), ranks, ppn, placement,
                                                 cores=loader and ppn > 1)) + "\n")
    prefix, platform_args, logs = platform_arguments(path, ppn, -(-ranks // ppn))
    cmd = prefix + ["smpirun", "-np", str(ranks)] + platform_args + [
           "-hostfile", str(hostfile),
           "--cfg=smpi/simulate-computation:no", f"--cfg=smpi/coll-selector:{selector}",
           LOG_SETTING] + logs
    library = autocoll_library(program)
    if library:
        cmd.append(f"--cfg=smpi/privatize-libs:{library}")
    if shared_malloc:
        cmd += ["--cfg=smpi/shared-malloc:global",
                f"--cfg=smpi/auto-shared-malloc-thresh:{int(shared_malloc)}"]
    cmd += [f"--cfg={c}" for c in cfg]
    return cmd + [str(program)] + [str(a) for a in args]


def stand_ins_of(selector):
    """AUTOCOLL_MODEL_STAND_INS for SMPI's selector: `ompi` copies Open MPI's coll/tuned fixed
    rules (tuned); the others are priced by MPICH's (mpich). The library cannot read SMPI's
    selector itself (SimGrid's C API has no string getter)."""
    return "tuned" if selector == "ompi" else "mpich"


def run_environment(workdir, env_changes=None, selector=None):
    """The environment of one simulation: smpirun copies the privatized library per rank under
    fixed names into $TMPDIR, so simulations side by side need a folder each (smpirun 3.32's
    own -tmpdir option is broken). `env_changes`: variables to set (None: to unset).
    `selector`: SMPI's, whose rules price the library's phases in the model strategy
    (AUTOCOLL_MODEL_STAND_INS, unless the environment or env_changes set it)."""
    env = dict(os.environ)
    for k, v in (env_changes or {}).items():
        if v is None:
            env.pop(k, None)
        else:
            env[k] = v
    if selector is not None:
        env.setdefault("AUTOCOLL_MODEL_STAND_INS", stand_ins_of(selector))
    env["TMPDIR"] = str(workdir)
    return env


def deadlocked(stderr):
    """Whether SMPI ended the simulation on a deadlock (smpirun 3.32 still exits 0)."""
    return DEADLOCK_MESSAGE in stderr


def run(platform, ranks, program, args=(), ppn=1, selector=DEFAULT_SELECTOR,
        shared_malloc=None, cfg=(), capture=False, env_changes=None, placement="block"):
    """Runs one simulation in a temporary folder of its own; returns the CompletedProcess.
    Its stderr is passed through line by line and kept in the result's stderr (with `capture`
    stdout is captured too); a simulation SMPI ended on a deadlock gets the exit status
    DEADLOCK_EXIT. `env_changes`: as for run_environment."""
    with tempfile.TemporaryDirectory(prefix="autocoll-smpi-") as workdir:
        cmd = smpirun_command(platform, ranks, program, args, ppn=ppn, selector=selector,
                              workdir=workdir, shared_malloc=shared_malloc, cfg=cfg,
                              placement=placement)
        if capture:
            done = subprocess.run(cmd, env=run_environment(workdir, env_changes, selector),
                                  capture_output=True, text=True)
        else:
            with subprocess.Popen(cmd, env=run_environment(workdir, env_changes, selector),
                                  stderr=subprocess.PIPE, text=True) as proc:
                lines = []
                for line in proc.stderr:
                    sys.stderr.write(line)
                    lines.append(line)
            done = subprocess.CompletedProcess(cmd, proc.returncode, None, "".join(lines))
        if done.returncode == 0 and deadlocked(done.stderr):
            done.returncode = DEADLOCK_EXIT
        return done

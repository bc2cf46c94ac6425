"""`autocoll simgrid`: run an MPI program on a simulated cluster with SimGrid's SMPI.

The program is built with `smpicc` and linked with `build/simgrid/libautocoll.so`
(`scripts/build` builds the library, the tests, the benchmark driver and the demo there;
docs/simgrid.md says how to link a program of your own). This command writes the hostfile,
gives the run a temporary folder of its own and calls `smpirun` with the settings every run
of the project uses:

  --cfg=smpi/privatize-libs:<libautocoll.so>   each simulated rank gets its own copy of the
                                               layer's globals (found with ldd; a program
                                               without autocoll runs as SMPI alone)
  --cfg=smpi/simulate-computation:no           simulated time depends on messages only, not on
                                               this machine's load: runs are deterministic
  --cfg=smpi/coll-selector:<selector>          SMPI's copy of a library's decision logic for
                                               the native collectives (ompi, mpich, ...)

The platform's own network-model settings (bandwidth and latency factors, eager threshold,
per-message overheads) are in its XML file (platforms/README.md). A platform whose root zone
declares overheads for messages inside a node (autocoll/shm-os, -ois, -or) is given to smpirun
as build/simgrid/libnode_overheads.so (platforms/node_overheads.cpp) with the XML file in
AUTOCOLL_PLATFORM_FILE. Ranks fill the platform's hosts in the file's order,
`--ppn` ranks per host (processes per node), so rank r runs on host r // ppn (`--placement
block`, the default) or, with `--placement cyclic`, on host r mod nodes (nodes = ceil(ranks /
ppn): the ranks of a node are not neighbours in MPI_COMM_WORLD).

  autocoll simgrid platforms
  autocoll simgrid run --platform one-switch-gbe -n 16 [--ppn 1] [--placement block|cyclic]
                       [--selector ompi] PROGRAM ARGS
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PLATFORMS = REPO / "platforms"
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


class SimgridError(RuntimeError):
    pass


def platform_path(name):
    """The XML file of platform `name` (a file of platforms/, with or without .xml) or a path."""
    for candidate in (Path(name), PLATFORMS / name, PLATFORMS / f"{name}.xml"):
        if candidate.is_file():
            return candidate.resolve()
    known = ", ".join(sorted(p.stem for p in PLATFORMS.glob("*.xml"))) or "none"
    raise SimgridError(f"no platform {name!r} (a file, or one of platforms/: {known})")


def expand_radical(radical):
    """'0-3,8' -> [0, 1, 2, 3, 8] (SimGrid's cluster radical)."""
    numbers = []
    for part in radical.split(","):
        m = re.fullmatch(r"\s*(\d+)\s*(?:-\s*(\d+)\s*)?", part)
        if not m:
            raise SimgridError(f"cluster radical {radical!r}: cannot read {part!r}")
        first = int(m.group(1))
        last = int(m.group(2)) if m.group(2) else first
        numbers.extend(range(first, last + 1))
    return numbers


def platform_hosts(path):
    """The platform's hosts in document order, as (name, cores): each <cluster> expanded
    (prefix + number + suffix for every number of its radical), each <host> as itself."""
    try:
        root = ET.parse(path).getroot()
    except (OSError, ET.ParseError) as e:
        raise SimgridError(f"{path}: {e}") from e
    hosts = []
    for el in root.iter():
        cores = int(el.get("core", "1"))
        if el.tag == "cluster":
            hosts += [(f"{el.get('prefix', '')}{n}{el.get('suffix', '')}", cores)
                      for n in expand_radical(el.get("radical", ""))]
        elif el.tag == "host":
            hosts.append((el.get("id"), cores))
    if not hosts:
        raise SimgridError(f"{path}: no hosts")
    return hosts


# Per-message host overheads: SMPI's settings in the platform's <config> block (between nodes)
# and the root zone's properties that platforms/node_overheads.cpp reads (inside a node).
OVERHEAD_SETTINGS = ("smpi/os", "smpi/ois", "smpi/or")
NODE_OVERHEAD_PROPERTIES = ("autocoll/shm-os", "autocoll/shm-ois", "autocoll/shm-or")
NODE_OVERHEADS_LOADER = "libnode_overheads.so"


def platform_overheads(path):
    """{setting: value} of the platform file's per-message overheads: SMPI's smpi/os, smpi/ois
    and smpi/or (its <config> block) and the node's autocoll/shm-* (its root zone), as written
    ("size:seconds:seconds-per-byte;..."); a setting the file leaves out is absent."""
    try:
        root = ET.parse(path).getroot()
    except (OSError, ET.ParseError) as e:
        raise SimgridError(f"{path}: {e}") from e
    found = {}
    for config in root.findall("config"):
        for prop in config.findall("prop"):
            if prop.get("id") in OVERHEAD_SETTINGS:
                found[prop.get("id")] = prop.get("value")
    zone = root.find("zone")
    if zone is not None:
        for prop in zone.findall("prop"):
            if prop.get("id") in NODE_OVERHEAD_PROPERTIES:
                found[prop.get("id")] = prop.get("value")
    return found


def node_overheads_loader():
    """The platform loader that gives messages inside a node their own overheads
    (platforms/node_overheads.cpp, built by scripts/build as build/simgrid/libnode_overheads.so;
    $AUTOCOLL_BUILD/simgrid first)."""
    roots = [Path(os.environ["AUTOCOLL_BUILD"])] if os.environ.get("AUTOCOLL_BUILD") else []
    for root in roots + [REPO / "build"]:
        candidate = root / "simgrid" / NODE_OVERHEADS_LOADER
        if candidate.is_file():
            return candidate.resolve()
    raise SimgridError(f"{NODE_OVERHEADS_LOADER} not found in build/simgrid: the platform's "
                       f"shared-memory overheads need it (run scripts/build)")


def platform_arguments(path):
    """What smpirun is given as the platform: the XML file itself, or, where its root zone
    declares node overheads (autocoll/shm-*), the loader with the file in
    AUTOCOLL_PLATFORM_FILE (an `env` prefix, so the command line says it) and SMPI's warning
    that the loader's functions replace smpi/os, smpi/ois and smpi/or silenced (they read those
    settings: nothing is replaced)."""
    if not any(k in platform_overheads(path) for k in NODE_OVERHEAD_PROPERTIES):
        return [], ["-platform", str(path)], []
    return (["env", f"AUTOCOLL_PLATFORM_FILE={path}"],
            ["-platform", str(node_overheads_loader())], ["--log=smpi_host.thresh:error"])


def platform_summary(path):
    """The first line of the platform file's opening comment (what it models)."""
    text = Path(path).read_text()
    m = re.search(r"<!--\s*(.*?)\s*(?:\n|-->)", text)
    return m.group(1) if m else ""


PLACEMENTS = ("block", "cyclic")


def hostfile_lines(hosts, ranks, ppn, placement="block"):
    """One host name per rank: rank r on host r // ppn (block), or on host r mod nodes
    (cyclic), nodes = ceil(ranks / ppn)."""
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
        return [hosts[r % nodes][0] for r in range(ranks)]
    return [hosts[r // ppn][0] for r in range(ranks)]


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
    hostfile.write_text("\n".join(hostfile_lines(platform_hosts(path), ranks, ppn, placement))
                        + "\n")
    prefix, platform_args, logs = platform_arguments(path)
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


def run_environment(workdir, env_changes=None):
    """The environment of one simulation: smpirun copies the privatized library per rank under
    fixed names into $TMPDIR, so simulations side by side need a folder each (smpirun 3.32's
    own -tmpdir option is broken). `env_changes`: variables to set (None: to unset)."""
    env = dict(os.environ)
    for k, v in (env_changes or {}).items():
        if v is None:
            env.pop(k, None)
        else:
            env[k] = v
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
            done = subprocess.run(cmd, env=run_environment(workdir, env_changes),
                                  capture_output=True, text=True)
        else:
            with subprocess.Popen(cmd, env=run_environment(workdir, env_changes),
                                  stderr=subprocess.PIPE, text=True) as proc:
                lines = []
                for line in proc.stderr:
                    sys.stderr.write(line)
                    lines.append(line)
            done = subprocess.CompletedProcess(cmd, proc.returncode, None, "".join(lines))
        if done.returncode == 0 and deadlocked(done.stderr):
            done.returncode = DEADLOCK_EXIT
        return done


def main(args):
    if args.simgrid_command == "report":
        from . import simreport  # here: simreport reads cells through bench, which imports us

        return simreport.main(args)
    if args.simgrid_command == "adcl":
        from . import simadcl

        return simadcl.main(args)
    if args.simgrid_command == "replay":
        from . import simreplay

        try:
            return simreplay.main(args)
        except simreplay.ReplayError as e:
            print(f"autocoll simgrid replay: {e}", file=sys.stderr)
            return 2
    try:
        if args.simgrid_command == "platforms":
            for path in sorted(PLATFORMS.glob("*.xml")):
                hosts = platform_hosts(path)
                print(f"{path.stem:20} {len(hosts):5d} hosts x {hosts[0][1]:2d} cores  "
                      f"{platform_summary(path)}")
            return 0
        if not Path(args.program).exists():
            raise SimgridError(f"{args.program}: no such program")
        done = run(args.platform, args.n, args.program, args.args, ppn=args.ppn,
                   selector=args.selector, shared_malloc=args.shared_malloc, cfg=args.cfg,
                   placement=args.placement)
        if deadlocked(done.stderr):
            print(f"autocoll simgrid: the simulation deadlocked (exit status {DEADLOCK_EXIT})",
                  file=sys.stderr)
        return done.returncode
    except SimgridError as e:
        print(f"autocoll simgrid: {e}", file=sys.stderr)
        return 2


def add_platform_arguments(p):
    """--simgrid, --ppn and --placement, for the commands that run cells on a simulated
    platform (bench, tune)."""
    p.add_argument("--simgrid", metavar="PLATFORM",
                   help="run the cells on this simulated platform (SimGrid's SMPI: platforms/ "
                        "name or a file; build/simgrid; docs/simgrid.md)")
    p.add_argument("--ppn", type=int, default=1,
                   help="--simgrid: processes per node (default 1)")
    p.add_argument("--placement", choices=PLACEMENTS, default="block",
                   help="--simgrid: rank r on node r // ppn (block, the default) or on node "
                        "r mod nodes (cyclic)")


def add_arguments(p):
    sub = p.add_subparsers(dest="simgrid_command", required=True)
    sub.add_parser("platforms", help="the platforms of platforms/: hosts, cores, what they model")
    r = sub.add_parser("run", help="run a program built with smpicc on a simulated platform")
    r.add_argument("--platform", required=True, help="a file of platforms/ (name) or a path")
    r.add_argument("-n", type=int, required=True, help="ranks")
    r.add_argument("--ppn", type=int, default=1, help="processes per node (default 1)")
    r.add_argument("--placement", choices=PLACEMENTS, default="block",
                   help="rank r on node r // ppn (block, the default) or on node r mod nodes "
                        "(cyclic)")
    r.add_argument("--selector", default=DEFAULT_SELECTOR, choices=SELECTORS,
                   help="SMPI's native collective selector (default ompi)")
    r.add_argument("--shared-malloc", type=int, metavar="BYTES",
                   help="share every allocation of at least BYTES between the ranks "
                        "(timing-only runs: the data is wrong)")
    r.add_argument("--cfg", action="append", default=[], metavar="KEY:VALUE",
                   help="another SMPI setting (repeatable)")
    r.add_argument("program")
    r.add_argument("args", nargs=argparse.REMAINDER, help="the program's arguments")
    rep = sub.add_parser("report", help="a Markdown report over `autocoll bench --simgrid` "
                                        "cells: best algorithm per platform, strategies against "
                                        "the oracle and each selector's native, cross-platform "
                                        "penalty, wall time")
    from . import simreport

    simreport.add_arguments(rep)
    rp = sub.add_parser("replay", help="the run-time strategies replayed over a cell's measured "
                                       "per-call times (learning at 256 or 1024 ranks in "
                                       "seconds; --compare checks it against simulated runs)")
    from . import simreplay

    simreplay.add_arguments(rp)
    ad = sub.add_parser("adcl", help="ADCL's Tables 2 to 5 on the simulated platforms: the "
                                     "Jacobi solver with every exchange implementation forced "
                                     "and under every search (docs/adcl.md)")
    from . import simadcl

    simadcl.add_arguments(ad)

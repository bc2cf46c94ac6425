"""Running the benchmark driver (bench/autocoll_bench.c) over a matrix of collectives x
message sizes x rank counts: one job per cell (local ranks, an emulated cluster or a simulated
platform), each cell's JSON in one folder, resumable (run_matrix; `autocoll bench`,
commands/bench.py, says more)."""

import concurrent.futures
import functools
import json
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from ..formats.cells import cell_name, size_label, valid_result
from ..formats.paths import build_folder, platform_path
from ..formats.platforms import SimgridError, platform_overheads
from ..formats.registry import algorithms_by_collective
from ..formats.schemas import TABLE_SCHEMA
from . import simgrid as smpi
from .cluster import (ClusterError, kill_namespace_processes, launch_command, load_state,
                      rank_nodes)
from .info import load as load_registry
from .progress import Progress

CLUSTER_TIMEOUT_MARGIN = 30   # s: the launcher's own timeout (and its SIGKILL 10 s later) first
# s: once a cell's JSON is written, its job has this long to exit. MPICH's MPI_Finalize over
# UCX TCP sometimes hangs across the emulated cluster's nodes (openucx/ucx#8738, docs/cluster.md);
# the driver writes its results before MPI_Finalize, so the cell is kept and the job stopped.
FINALIZE_GRACE = 60
# A real (not simulated) cell's job is hung when no configuration has finished for STALL_FACTOR
# x its slowest so far and at least STALL_FLOOR s: the driver says `progress: i/n name` after
# each (a 64 KiB cell of 4 s under MPICH once hung until the 30-minute timeout). Simulations
# keep the timeout alone: their configurations' wall times differ by more than any factor.
STALL_FLOOR = 300
STALL_FACTOR = 50
PROGRESS = b"progress: "
NOT_SELECTED = "not selected by --only"  # the driver's reason for an algorithm --only left out

DEFAULTS = {
    "collectives": "alltoall,allgather,allreduce",
    "sizes": "1K,8K,64K,1M",
    "ranks": "2,4,8",
    "layers": "race,star_enhanced,star_basic,native",
}


class BenchError(RuntimeError):
    pass


def parse_list(text, what, convert):
    """The comma-separated items of `text`, each converted; BenchError for an empty list, an item
    `convert` refuses (ValueError or BenchError) or an item named twice."""
    items = [t.strip() for t in text.split(",") if t.strip()]
    if not items:
        raise BenchError(f"no {what} given")
    try:
        values = [convert(t) for t in items]
    except (ValueError, BenchError) as e:
        raise BenchError(f"bad {what} {text!r}: {e}") from e
    if len(set(values)) != len(values):
        raise BenchError(f"{what} {text!r} name one twice")
    return values


def parse_ranks(text):
    """'4' -> 4; ValueError unless a positive integer."""
    if not text.isdigit() or int(text) < 1:
        raise ValueError(f"{text!r} is not a positive integer")
    return int(text)


@functools.lru_cache(maxsize=None)
def registry_algorithms(mpi, build, size=None):
    """{collective: [algorithm names, registry order]} of the registry of `build` (its
    autocoll-info; once per process and size: under SimGrid it is a simulated run); with `size`,
    those of a communicator of that many ranks (the mesh layouts that factor it included)."""
    try:
        return algorithms_by_collective(load_registry(mpi, info=build / "autocoll-info",
                                                      size=size))
    except (OSError, ValueError, subprocess.CalledProcessError) as e:
        raise BenchError(f"registry of {build}: {e}") from e


def known_collectives(mpi, build):
    """The collectives of the registry of `build`."""
    return list(registry_algorithms(mpi, build))


def split_algorithms(names, only, jobs):
    """A cell's fixed algorithms (`names` in registry order, less native; those of `only`, a
    comma-separated list, when given) dealt in turn into at most `jobs` lists, so that each
    list mixes the families; empty lists are left out."""
    chosen = set(only.split(",")) if only else None
    fixed = [n for n in names if n != "native" and (chosen is None or n in chosen)]
    return [part for part in (fixed[k::jobs] for k in range(jobs)) if part]


NOISY_WARNING = "configuration(s) with p90 > 2 x p10 (noisy)"


def noisy_warning(configurations):
    """The driver's warning on noisy configurations (bench/autocoll_bench.c, noise_warnings),
    for a merged cell; None when no configuration is noisy."""
    noisy = [c["name"] for c in configurations if c["p90"] > 2 * c["p10"]]
    if not noisy:
        return None
    return (f"{len(noisy)} {NOISY_WARNING}: {', '.join(noisy[:4])}"
            f"{', ...' if len(noisy) > 4 else ''}")


def merge_parts(parts, names, only):
    """One cell's result from the results of its parts (each a driver JSON of the same cell with
    --only a share of the fixed algorithms; the first part also ran the layers): what one
    simulation of every configuration writes. Native, measured by every part, must be the same
    in each, to the bit, as must the calibration (simulated time is deterministic); BenchError
    otherwise. Configurations come in the driver's order (native, the fixed algorithms in
    registry order `names`, the layers); an algorithm is skipped when no part ran it, with the
    reason a part gave other than its share of --only; the oracle is the fastest of the parts'
    oracles."""
    first = parts[0]
    native = first["configurations"][0]
    for k, part in enumerate(parts[1:], 2):
        if part["configurations"][0] != native or part["calibration"] != first["calibration"]:
            raise BenchError(f"part {k} measured native or the calibration differently from part "
                             f"1: the parts are not one deterministic simulation")
    fixed = {c["name"]: c for part in parts for c in part["configurations"]
             if c["kind"] == "fixed"}
    order = {name: i for i, name in enumerate(names)}
    configurations = ([native] + sorted(fixed.values(), key=lambda c: order[c["name"]]) +
                      [c for c in first["configurations"] if c["kind"] == "layer"])
    reasons = {}
    for part in parts:
        for s in part["skipped"]:
            if s["name"] not in fixed and (s["name"] not in reasons or
                                           reasons[s["name"]]["reason"] == NOT_SELECTED):
                reasons[s["name"]] = s
    skipped = sorted(reasons.values(), key=lambda s: order[s["name"]])
    # Each part's oracle was picked on unrounded medians; of those, the fastest. Equal in the
    # JSON's 9 digits, an algorithm beat native in its part (native wins ties), so it goes first.
    oracle = min((part["oracle"] for part in parts),
                 key=lambda o: (o["median"], o["name"] == "native", order.get(o["name"], 0)))
    merged = dict(first)
    merged["parameters"] = dict(first["parameters"], only=only)
    merged["configurations"] = configurations
    merged["skipped"] = skipped
    merged["oracle"] = oracle
    warnings = [w for w in first["warnings"] if NOISY_WARNING not in w]
    noisy = noisy_warning(configurations)
    merged["warnings"] = warnings + ([noisy] if noisy else [])
    return merged


def parse_size(text):
    """'1K' -> 1024, '1M' -> 1048576, '8' -> 8."""
    t = text.strip().upper()
    mult = {"K": 1024, "M": 1024 * 1024}.get(t[-1:], 1)
    digits = t[:-1] if mult > 1 else t
    if not digits.isdigit():
        raise BenchError(f"bad message size {text!r} (an integer, optionally K or M)")
    return int(digits) * mult


def mpirun_command(mpi, ranks, program, args):
    """The launcher command for `ranks` local ranks (as tests/mpirun.sh does)."""
    cores = os.cpu_count() or 1
    if mpi == "openmpi":
        cmd = ["mpirun.openmpi", "-n", str(ranks)]
        if os.geteuid() == 0:
            cmd.insert(1, "--allow-run-as-root")
        if ranks > cores:
            cmd.insert(1, "--oversubscribe")
    elif mpi == "mpich":
        cmd = ["mpiexec.mpich", "-n", str(ranks)]
    else:
        raise BenchError(f"unknown MPI {mpi!r} (openmpi or mpich)")
    if not shutil.which(cmd[0]):
        raise BenchError(f"{cmd[0]} not found: install {mpi} (scripts/setup does)")
    return cmd + [str(program)] + [str(a) for a in args]


def cluster_launch_command(name, mpi, ranks, program, args, timeout):
    """The launcher command for `ranks` ranks on emulated cluster `name`; the launcher itself
    stops the job after `timeout` s (a killed launcher would leave ranks on the nodes)."""
    try:
        return launch_command(name, mpi, ranks, program, args, timeout=timeout)
    except ClusterError as e:
        raise BenchError(f"cluster {name}: {e}") from e


def cluster_state(name):
    try:
        return load_state(name)
    except ClusterError as e:
        raise BenchError(f"cluster {name}: {e}") from e


def cluster_block(state, ranks):
    """What a cell records of the emulated cluster it ran on (for `autocoll report`: the
    platform, and the least time its links allow): topology, rates, the switches' nodes and
    uplink rates, and the node of every rank."""
    return {"name": state["name"], "topology": state["topology"], "rate": state["rate"],
            "rate_bits": state["rate_bits"], "oversubscription": state["oversubscription"],
            "switches": [{"nodes": s["nodes"],
                          "uplink_bits": s["uplink"]["rate_bits"] if s.get("uplink") else None}
                         for s in state["switches"]],
            "rank_nodes": rank_nodes(state, ranks)}


def table_block(path):
    """What a cell records of the configuration table its layers ran with: the table's full
    path, and the simulated platform or emulated cluster it was tuned on (None when on local
    ranks); raises BenchError when the file is not a configuration table."""
    path = Path(path).resolve()
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError) as e:
        raise BenchError(f"--table {path}: {e}") from e
    if not isinstance(data, dict) or data.get("schema") != TABLE_SCHEMA:
        raise BenchError(f"--table {path}: not a configuration table (schema {TABLE_SCHEMA})")
    where = data.get("platform") or {}
    simulated = where.get("simgrid") or {}
    cluster = where.get("cluster") or {}
    return {"path": str(path), "platform": simulated.get("platform"),
            "cluster": cluster.get("name"), "created": data.get("created")}


class Stall:
    """The progress of a job's driver, read from its output: the time of its last `progress:`
    line and the longest interval between two (the first from the start)."""

    def __init__(self, start, floor, factor):
        self.floor, self.factor = floor, factor
        self.last, self.longest, self.read, self.seen = start, 0.0, 0, 0

    def update(self, out, now):
        data = os.pread(out.fileno(), 1 << 20, self.read)
        self.read += len(data)
        lines = data.count(PROGRESS)
        if lines:
            self.longest = max(self.longest, now - self.last)
            self.last, self.seen = now, self.seen + lines

    def hung(self, now):
        """The message when the job is hung, else None."""
        limit = max(self.floor, self.factor * self.longest)
        if self.seen and now - self.last > limit:
            return (f"no configuration finished for {now - self.last:.0f} s (its slowest so far "
                    f"took {self.longest:.1f} s; the limit is the larger of {self.floor} s and "
                    f"{self.factor} x that): stopped as hung")
        return None


def remove_temporaries(path):
    """The driver's partial outputs of `path` (`<name>.tmp<pid>`), which a killed job leaves."""
    for leftover in path.parent.glob(path.name + ".tmp*"):
        leftover.unlink(missing_ok=True)


def run_job(cmd, path, timeout, env, state=None, stall=None):
    """Runs one cell's job. Returns (exit status, output, stopped): status None when it ran past
    `timeout` s, or with `stall` (floor s, factor) when its driver stopped making progress
    (Stall; the output then ends with why), and then it is killed; `stopped` is the seconds the
    job was given after its result at `path` became valid, when it did not exit within
    FINALIZE_GRACE and was stopped (0 otherwise). On a cluster (`state`), whatever a stopped job
    leaves on the nodes is killed. The driver's partial output files go in every case."""
    try:
        return _run_job(cmd, path, timeout, env, state, stall)
    finally:
        remove_temporaries(path)


def _run_job(cmd, path, timeout, env, state, stall):
    start = time.time()
    written = None
    watch = Stall(start, *stall) if stall else None
    hung = None
    with tempfile.TemporaryFile("w+") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, text=True, env=env)
        status, stopped = None, 0
        while True:
            try:
                status = proc.wait(timeout=1)
                break
            except subprocess.TimeoutExpired:
                pass
            now = time.time()
            if written is None and valid_result(path):
                written = now
            if watch:
                watch.update(out, now)
                hung = None if written is not None else watch.hung(now)
            if written is not None and now - written > FINALIZE_GRACE:
                stopped = now - written
            elif now - start <= timeout and not hung:
                continue
            proc.terminate()
            try:
                status = proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                status = proc.wait()
            if state:
                for node in state["nodes"]:
                    kill_namespace_processes(node["namespace"])
            if not stopped:
                status = None
            break
        out.seek(0)
        return status, out.read() + (f"\n{hung}\n" if hung and status is None else ""), stopped


def run_parts(path, parts, names, only, layers, timeout, simulation):
    """Runs one simulated cell as simulations side by side, part k with --only the names of
    `parts[k]` (the first with the `layers`, the others with none), each in `path`'s folder
    `<cell>.parts/`, and writes their merge (merge_parts) at `path`. `simulation(out, layers,
    only)` gives one simulation's (command, environment, folder). A part whose result is there
    (and valid) is kept, so that an interrupted cell resumes. Returns run_job's (status, output,
    stopped) of the first part that failed (its result missing), otherwise (0, every output,
    0); the parts' folder goes once the cell is written."""
    folder = path.with_suffix(".parts")
    folder.mkdir(exist_ok=True)
    results = [folder / f"part{k}of{len(parts)}.json" for k in range(1, len(parts) + 1)]

    def run_part(k):
        if valid_result(results[k]):
            return 0, f"part {k + 1}: done earlier, kept\n", 0
        cmd, env, workdir = simulation(results[k], layers if k == 0 else "", ",".join(parts[k]))
        try:
            return run_job(cmd, results[k], timeout, env)
        finally:
            shutil.rmtree(workdir, ignore_errors=True)

    with concurrent.futures.ThreadPoolExecutor(len(parts)) as pool:
        done = list(pool.map(run_part, range(len(parts))))
    for k, (status, output, stopped) in enumerate(done):
        if status != 0 or smpi.deadlocked(output) or not valid_result(results[k]):
            return status, f"part {k + 1} of {len(parts)}:\n{output}", stopped
    merged = merge_parts([json.loads(r.read_text()) for r in results], names, only)
    path.write_text(json.dumps(merged, indent=1) + "\n")
    shutil.rmtree(folder)
    return 0, "".join(output for _, output, _ in done), 0


def run_matrix(out, mpi="openmpi", build=None, collectives=DEFAULTS["collectives"],
               sizes=DEFAULTS["sizes"], ranks=DEFAULTS["ranks"], layers=DEFAULTS["layers"],
               iterations=500, fixed_iterations=100, warmup=10, factor=5.0, timeout=1800,
               history=None, only=None, cluster=None, simgrid=None, ppn=1, placement="block",
               selectors="ompi,mpich", noise="none", noise_seed=1, shared_malloc=1 << 20,
               sync="none", table=None, jobs=1, cfg=(), exclude=None, log=print):
    """Runs every missing cell; returns the list of cell JSON paths (in matrix order).
    With `cluster` (a cluster name) each cell runs on that emulated cluster; with `simgrid`
    (a platform) on that simulated platform, once per selector of `selectors`. With `table`
    (a configuration table's path) the jobs run with AUTOCOLL_TABLE set to it, for the
    `table` layer, and each cell records the table (table_block). With `simgrid` and `jobs` > 1
    a cell's fixed algorithms are shared among up to `jobs` simulations side by side, merged
    into the cell (merge_parts). `cfg`: more SMPI settings ("key:value", with `simgrid`), recorded
    in each cell. `exclude` (a comma-separated list): fixed algorithms left out of every cell
    (the driver records them as not selected), for cells whose simulation one algorithm makes
    too slow; a name no cell's registry has is refused."""
    if jobs < 1:
        raise BenchError(f"--jobs {jobs}: at least 1")
    if jobs > 1 and not simgrid:
        raise BenchError("--jobs runs simulations side by side: only with --simgrid (jobs of "
                         "real ranks side by side would time each other)")
    if jobs > 1 and noise != "none":
        raise BenchError("--jobs with --noise: the noise is one random sequence over a whole "
                         "simulation, so each part would draw other delays than one simulation")
    if cfg and not simgrid:
        raise BenchError("--cfg is an SMPI setting: only with --simgrid")
    if any(":" not in c for c in cfg):
        raise BenchError(f"--cfg {next(c for c in cfg if ':' not in c)}: KEY:VALUE expected")
    if simgrid:
        mpi = "simgrid"
        try:
            platform = platform_path(simgrid)
        except SimgridError as e:
            raise BenchError(str(e)) from e
    # Every argument is checked before any cell runs.
    if sync == "clock" and not simgrid:
        raise BenchError("--sync clock needs one clock shared by every rank: only with "
                         "--simgrid (use --sync barrier on real MPI)")
    colls = parse_list(collectives, "collectives", str)
    byte_counts = parse_list(sizes, "sizes", parse_size)
    rank_counts = parse_list(ranks, "rank counts", parse_ranks)
    sels = parse_list(selectors, "selectors", str) if simgrid else [None]
    build = build_folder(mpi, build)
    program = build / "bench" / "autocoll_bench"
    if not program.exists():
        raise BenchError(f"{program} is missing: build autocoll first (scripts/build)")
    known = known_collectives(mpi, build)
    unknown = [c for c in colls if c not in known]
    if unknown:
        raise BenchError(f"unknown collective(s) {', '.join(unknown)} (one of "
                         f"{', '.join(known)})")
    state = cluster_state(cluster) if cluster else None  # not up: fail before any cell
    tabled = table_block(table) if table else None  # unreadable: fail before any cell
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    cells = [(c, s, r, sel) for r in rank_counts for c in colls for s in byte_counts
             for sel in sels]
    excluded = set(parse_list(exclude, "excluded algorithms", str)) if exclude else set()
    if excluded:
        known_names = {n for r in rank_counts for c in colls
                       for n in registry_algorithms(mpi, build, r)[c]}
        if "native" in excluded or excluded - known_names:
            raise BenchError(f"--exclude {','.join(sorted(excluded - known_names) or ['native'])}:"
                             f" not a fixed algorithm of {', '.join(colls)} at these sizes")

    def cell_only(coll, np):
        """--only of a cell: `only` less the excluded algorithms."""
        if not excluded:
            return only
        chosen = set(only.split(",")) if only else None
        return ",".join(n for n in registry_algorithms(mpi, build, np)[coll]
                        if n not in excluded and (chosen is None or n in chosen)) or "native"
    paths = []
    env = dict(os.environ)
    if table:
        env["AUTOCOLL_TABLE"] = tabled["path"]
    with Progress(len(cells), log) as progress:
        for i, (coll, nbytes, np, selector) in enumerate(cells, 1):
            path = out / cell_name(coll, nbytes, np, selector)
            paths.append(path)
            only_here = cell_only(coll, np)
            remove_temporaries(path)  # of a job killed in an earlier run
            if valid_result(path):
                progress.skip(i, f"{path.name}: done earlier, kept")
                continue
            def driver_args(out, layer_list, only_list):
                args = ["--collective", coll, "--bytes", nbytes, "--iterations", iterations,
                        "--fixed-iterations", fixed_iterations, "--warmup", warmup,
                        "--factor", factor, f"--layers={layer_list}",  # one argument if empty
                        "--out", out]
                if history:
                    args += ["--history", Path(history).resolve()]
                if only_list:
                    args += ["--only", only_list]
                if noise != "none":
                    args += ["--noise", noise, "--noise-seed", noise_seed]
                if sync != "none":
                    args += ["--sync", sync]
                if simgrid:
                    args += ["--compute", "sleep"]
                return args

            def simulation(out, layer_list, only_list):
                """(command, environment, its folder) of one simulation of the cell."""
                folder = tempfile.mkdtemp(prefix="autocoll-smpi-")
                try:
                    cmd = smpi.smpirun_command(platform, np, program,
                                               driver_args(out, layer_list, only_list),
                                               ppn=ppn, placement=placement,
                                               selector=selector, workdir=folder,
                                               shared_malloc=shared_malloc, cfg=cfg)
                except SimgridError as e:
                    shutil.rmtree(folder, ignore_errors=True)
                    raise BenchError(str(e)) from e
                env = smpi.run_environment(folder, selector=selector)
                if table:
                    env["AUTOCOLL_TABLE"] = tabled["path"]
                return cmd, env, folder

            workdir = None
            names = registry_algorithms(mpi, build, np)[coll] if simgrid and jobs > 1 else []
            parts = split_algorithms(names, only_here, jobs)
            if simgrid:
                if len(parts) <= 1:  # otherwise run_parts makes each share's simulation
                    cmd, env, workdir = simulation(path, layers, only_here)
            elif cluster:
                cmd = cluster_launch_command(cluster, mpi, np, program,
                                             driver_args(path, layers, only_here), timeout)
            else:
                cmd = mpirun_command(mpi, np, program, driver_args(path, layers, only_here))
            start = time.time()
            progress.say(f"[{i}/{len(cells)}] {coll} {size_label(nbytes)} on {np} ranks"
                         f"{f' ({selector} selector)' if selector else ''} ...")
            try:
                if len(parts) > 1:
                    returncode, output, stopped = run_parts(
                        path, parts, names, only_here, layers, timeout, simulation)
                else:
                    returncode, output, stopped = run_job(
                        cmd, path, timeout + (CLUSTER_TIMEOUT_MARGIN if cluster else 0), env,
                        state, stall=None if simgrid else (STALL_FLOOR, STALL_FACTOR))
            finally:
                if workdir:
                    shutil.rmtree(workdir, ignore_errors=True)
            wall = time.time() - start
            if returncode is None and "stopped as hung" in output:
                raise BenchError(f"{path.name}: {output.strip().splitlines()[-1]}")
            if returncode is None or (cluster and returncode in (124, 137) and not stopped):
                raise BenchError(f"{path.name}: no result within {timeout} s")
            if simgrid and smpi.deadlocked(output):
                raise BenchError(f"{path.name}: the simulation deadlocked:\n{output[-4000:]}")
            if not valid_result(path) or (returncode != 0 and not stopped):
                raise BenchError(f"{path.name}: the driver failed (exit {returncode}):\n"
                                 f"{output[-4000:]}")
            if cluster or stopped or simgrid or table or excluded:
                data = json.loads(path.read_text())
                left_out = excluded & set(registry_algorithms(mpi, build, np)[coll])
                if left_out:  # those of this collective
                    data["parameters"]["excluded"] = sorted(left_out)
                if table:
                    data["table"] = tabled
                if cluster:
                    data["cluster"] = cluster_block(state, np)
                if simgrid:
                    data["simgrid"] = {"platform": platform.stem, "file": str(platform),
                                       "overheads": platform_overheads(platform),
                                       "ppn": ppn, "placement": placement,
                                       "selector": selector,
                                       "shared_malloc": shared_malloc,
                                       "cfg": list(cfg),
                                       "wall_seconds": round(wall, 3),
                                       "simulations": max(len(parts), 1)}
                if stopped:
                    data["finalize"] = (f"the job was stopped {stopped:.0f} s after the results "
                                        f"were written (MPI_Finalize did not return)")
                    progress.say(f"[{i}/{len(cells)}] {path.name}: results written, but the job "
                                 f"did not exit within {FINALIZE_GRACE} s (MPI_Finalize); stopped, "
                                 f"cell kept")
                path.write_text(json.dumps(data, indent=1) + "\n")
            progress.step(i, f"{path.name}: {time.time() - start:.0f} s")
    return paths

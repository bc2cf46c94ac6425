"""Real programs (hpcc, LAMMPS) run natively and under autocoll, their results checked equal
(run_programs; `autocoll programs`, commands/programs.py, says more; analysis/programsreport.py
renders the results)."""

import json
import math
import os
import re
import shutil
import subprocess
import time
from pathlib import Path

from ..formats.paths import build_folder
from ..formats.schemas import PROGRAMS_SCHEMA, PROGRAMS_VERSION
from . import bench, cluster
from .progress import Progress
LIBRARY_MPI = "openmpi"  # Debian's hpcc and lammps are linked against Open MPI only

LAYERS = {
    "none": None,
    "native": {"AUTOCOLL_STRATEGY": "native"},
    "race": {"AUTOCOLL_STRATEGY": "race"},
    "star": {"AUTOCOLL_STRATEGY": "star"},
    "lottery": {"AUTOCOLL_STRATEGY": "lottery"},
    "table": {"AUTOCOLL_STRATEGY": "table"},  # and AUTOCOLL_TABLE, the --table (layer_env)
}
DEFAULT_LAYERS = "none,native,race,star,lottery"

HPCC_INPUT = Path("/usr/share/doc/hpcc/examples/_hpccinf.txt")
LAMMPS_EXAMPLES = Path("/usr/share/lammps/examples")


class ProgramsError(RuntimeError):
    pass


# ----------------------------------------------------------------------------------------------
# The programs: how to prepare a run folder, the command, and how to read its results.


def grid(ranks):
    """The most square P x Q = ranks with P <= Q."""
    p = int(math.isqrt(ranks))
    while ranks % p:
        p -= 1
    return p, ranks // p


def prepare_hpcc(folder, ranks):
    if not HPCC_INPUT.exists():
        raise ProgramsError(f"{HPCC_INPUT} is missing: install Debian's hpcc (scripts/setup)")
    lines = HPCC_INPUT.read_text().splitlines()
    p, q = grid(ranks)
    # Lines 11 and 12 of HPL's input are the process grid's Ps and Qs.
    if not (lines[10].rstrip().endswith("Ps") and lines[11].rstrip().endswith("Qs")):
        raise ProgramsError(f"{HPCC_INPUT}: lines 11-12 are not Ps and Qs; the layout changed")
    lines[10] = f"{p}            Ps"
    lines[11] = f"{q}            Qs"
    (folder / "hpccinf.txt").write_text("\n".join(lines) + "\n")
    return ["hpcc"]


def results_hpcc(folder):
    """hpcc's own checks, from hpccoutf.txt: failed residual checks (HPL and PTRANS), the
    summary's Success flag, RandomAccess errors, the FFT and HPL residuals."""
    path = folder / "hpccoutf.txt"
    if not path.exists():
        raise ProgramsError(f"{path} is missing: hpcc did not finish")
    text = path.read_text(errors="replace")
    summary = dict(re.findall(r"^(\w+)=(\S+)$", text, re.M))
    failed = [int(n) for n in re.findall(r"(\d+) tests completed and failed residual checks",
                                         text)]
    if len(failed) < 2:
        raise ProgramsError(f"{path}: the PTRANS and HPL residual checks are not both there")
    values = {"failed_residual_checks": sum(failed)}
    keys = {"Success": int, "MPIRandomAccess_Errors": int, "MPIRandomAccess_LCG_Errors": int,
            "MPIFFT_N": int, "MPIFFT_maxErr": float, "PTRANS_residual": float}
    for key, kind in keys.items():
        if key not in summary:
            raise ProgramsError(f"{path}: no {key} in the summary")
        values[key] = kind(summary[key])
    eps, n = float(summary["HPL_eps"]), float(summary["HPL_N"])
    # HPL's scaled residual ||Ax-b||_oo / (eps (||A||_oo ||x||_oo + ||b||_oo) N).
    values["HPL_scaled_residual"] = float(summary["HPL_RnormI"]) / (
        eps * (float(summary["HPL_AnormI"]) * float(summary["HPL_XnormI"]) +
               float(summary["HPL_BnormI"])) * n)
    return values


def metrics_hpcc(folder):
    """hpcc's own performance figures from its summary: MPIFFT_Gflops, MPIFFT_time (seconds:
    the sum of MPIFFT_time0, time1, ..., which hpcc prints as the differences of successive
    timestamps of the forward transform, so they add up to its span; there is no
    MPIFFT_time line), MPIRandomAccess_GUPs and MPIRandomAccess_time (seconds). Figures hpcc did
    not print are left out."""
    path = folder / "hpccoutf.txt"
    if not path.exists():
        raise ProgramsError(f"{path} is missing: hpcc did not finish")
    summary = dict(re.findall(r"^(\w+)=(\S+)$", path.read_text(errors="replace"), re.M))
    metrics = {}
    for key in ("MPIFFT_Gflops", "MPIRandomAccess_GUPs", "MPIRandomAccess_time"):
        try:
            metrics[key] = float(summary[key])
        except (KeyError, ValueError):
            pass
    stages = [v for k, v in summary.items() if re.fullmatch(r"MPIFFT_time\d+", k)]
    try:
        if stages:
            metrics["MPIFFT_time"] = sum(float(v) for v in stages)
    except ValueError:
        pass
    return metrics


def checks_hpcc(values):
    eps = 2.220446e-16
    fft_bound = 16 * eps * math.log2(max(2, values["MPIFFT_N"]))
    return {"failed_residual_checks": "exact", "Success": "exact", "MPIFFT_N": "exact",
            "MPIRandomAccess_Errors": "exact", "MPIRandomAccess_LCG_Errors": "exact",
            "MPIFFT_maxErr": f"max:{fft_bound:.3g}", "PTRANS_residual": "max:16",
            "HPL_scaled_residual": "max:16"}


def prepare_lammps(example, script):
    def prepare(folder, ranks):
        src = LAMMPS_EXAMPLES / example
        if not (src / script).exists():
            raise ProgramsError(f"{src / script} is missing: install Debian's lammps-examples "
                                "(scripts/setup)")
        for f in src.iterdir():
            if f.is_file():
                shutil.copy(f, folder / f.name)
        return ["lmp", "-in", script, "-log", "log.lammps", "-screen", "none"]
    return prepare


_NUMBER = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"


def results_lammps(folder):
    """Every thermo value of the log, named `<step>:<column>`: the one-line style (a header
    starting with Step, numeric rows until `Loop time`) and the multi style (`---- Step N ----`
    blocks of `Name = value`)."""
    path = folder / "log.lammps"
    if not path.exists():
        raise ProgramsError(f"{path} is missing: LAMMPS did not finish")
    values, header = {}, None
    step = None
    for line in path.read_text(errors="replace").splitlines():
        words = line.split()
        m = re.match(r"^-+ Step\s+(\d+) -+", line)
        if m:
            step, header = int(m.group(1)), None
            continue
        if words and words[0] == "Step":
            header, step = words, None
            continue
        if line.startswith("Loop time"):
            header = step = None
            continue
        if header and len(words) == len(header) and all(re.fullmatch(_NUMBER, w)
                                                         for w in words):
            for name, w in zip(header[1:], words[1:]):
                values[f"{words[0]}:{name}"] = float(w)
        elif step is not None:
            for name, w in re.findall(rf"(\w+)\s*=\s*({_NUMBER})", line):
                if name != "CPU":
                    values[f"{step}:{name}"] = float(w)
    if not values:
        raise ProgramsError(f"{path}: no thermo output")
    return values


def metrics_lammps(folder):
    """LAMMPS's own timing: `loop_s`, the seconds of its "Loop time of X on N procs" lines (one
    per run command of the input, summed)."""
    path = folder / "log.lammps"
    if not path.exists():
        raise ProgramsError(f"{path} is missing: LAMMPS did not finish")
    loops = re.findall(rf"^Loop time of ({_NUMBER}) on", path.read_text(errors="replace"), re.M)
    return {"loop_s": sum(float(x) for x in loops)} if loops else {}


def checks_exact(values):
    return {k: "exact" for k in values}


def checks_relative(tolerance):
    return lambda values: {k: f"rel:{tolerance}" for k in values}


# metrics: the run's performance figures (measured, never checked); shown: those the report
# tabulates, with their labels.
HPCC_SHOWN = [("MPIFFT_Gflops", "MPIFFT Gflop/s"),
              ("MPIRandomAccess_GUPs", "MPIRandomAccess GUP/s")]
LAMMPS_SHOWN = [("loop_s", "loop time s")]
PROGRAMS = {
    "hpcc": {"prepare": prepare_hpcc, "results": results_hpcc, "checks": checks_hpcc,
             "metrics": metrics_hpcc, "shown": HPCC_SHOWN},
    "lammps-melt": {"prepare": prepare_lammps("melt", "in.melt"), "results": results_lammps,
                    "checks": checks_exact, "metrics": metrics_lammps, "shown": LAMMPS_SHOWN},
    "lammps-peptide": {"prepare": prepare_lammps("peptide", "in.peptide"),
                       "results": results_lammps, "checks": checks_relative(1e-5),
                       "metrics": metrics_lammps, "shown": LAMMPS_SHOWN},
}
DEFAULT_PROGRAMS = ",".join(PROGRAMS)


def compare(values, reference, rules):
    """The names of the values that fail their rule against the reference, with why."""
    bad = []
    for name, rule in rules.items():
        if name not in values or name not in reference:
            bad.append(f"{name}: missing")
            continue
        a, b = values[name], reference[name]
        kind, _, arg = rule.partition(":")
        if kind == "exact":
            ok = a == b
        elif kind == "rel":
            ok = abs(a - b) <= float(arg) * abs(b)
        elif kind == "max":
            ok = a <= float(arg) and b <= float(arg)
        else:
            raise ProgramsError(f"unknown check rule {rule!r}")
        if not ok:
            bad.append(f"{name}: {a!r} against {b!r} ({rule})")
    for name in set(values) - set(rules):
        bad.append(f"{name}: no rule")
    return bad


# ----------------------------------------------------------------------------------------------
# Runs.


def layer_env(layer, build, report_path, table=None):
    """The environment a configuration adds to the ranks (empty for `none`); `table` is the
    absolute path of the `table` configuration's table."""
    settings = LAYERS[layer]
    if settings is None:
        return {}
    lib = Path(build) / "libautocoll.so"
    if not lib.exists():
        raise ProgramsError(f"{lib} is missing: build autocoll first (scripts/build)")
    env = {"LD_PRELOAD": str(lib), "AUTOCOLL_REPORT": str(report_path),
           "AUTOCOLL_HISTORY": "off"}
    env.update(settings)
    if settings.get("AUTOCOLL_STRATEGY") == "table":
        if table is None:
            raise ProgramsError(f"the `{layer}` configuration needs a table (--table PATH)")
        env["AUTOCOLL_TABLE"] = str(table)
        # The refusal of the table is known from the layer's warning only (table_refusal):
        # warnings must not be silenced by an AUTOCOLL_VERBOSE=0 the ranks would inherit.
        if os.environ.get("AUTOCOLL_VERBOSE") not in ("1", "2"):
            env["AUTOCOLL_VERBOSE"] = "1"
    return env


# What rank 0 of the layer prints on stderr when AUTOCOLL_TABLE gives no usable table
# (src/select/table.c, ac_table_load: "AUTOCOLL_TABLE=<path>: <reason>; the table is ignored" or
# "...; no table for this run"; src/core/state.c: "AUTOCOLL_STRATEGY=table without a usable
# AUTOCOLL_TABLE: every call runs native"), through src/core/log.c as "autocoll[0]: warning: ".
TABLE_REFUSED = re.compile(r"autocoll(?:\[\d+\])?: warning: (AUTOCOLL_TABLE=[^\n]*|"
                           r"AUTOCOLL_STRATEGY=table without a usable AUTOCOLL_TABLE[^\n]*)")


def table_refusal(stderr):
    """The layer's warnings that it loaded no table (none: it did), from a run's stderr. The
    layer's JSON report has no member saying whether a table was loaded (with none, every
    context of the `table` strategy just reports stage `no_rule`, as where no rule covers it),
    so its warning is what tells a refused table from a table without a rule for the calls."""
    return [m.group(1) for m in TABLE_REFUSED.finditer(stderr)]


def table_info(table):
    """programs.json's `table`: the table's absolute path and registry fingerprint (null when
    the file holds none; the layer judges the table, this only records it)."""
    if table is None:
        return None
    try:
        data = json.loads(Path(table).read_text())
    except (OSError, ValueError):
        data = None
    fingerprint = data.get("registry_fingerprint") if isinstance(data, dict) else None
    return {"path": str(table),
            "registry_fingerprint": fingerprint if isinstance(fingerprint, str) else None}


def local_launch(ranks, argv, env):
    """mpirun on this host, the ranks' environment passed with -x."""
    cmd = bench.mpirun_command(LIBRARY_MPI, ranks, argv[0], argv[1:])
    extra = []
    for k, v in env.items():
        extra += ["-x", f"{k}={v}"]
    return cmd[:1] + extra + cmd[1:]


def cluster_launch(name, timeout):
    """Launching on emulated cluster `name` (docs/cluster.md): rank r on node r mod nodes."""
    def launch(ranks, argv, env):
        try:
            return cluster.launch_command(name, LIBRARY_MPI, ranks, argv[0], argv[1:], env,
                                          timeout=timeout)
        except cluster.ClusterError as e:
            raise ProgramsError(f"cluster {name}: {e}") from e
    return launch


def layer_summary(report):
    """From the layer's JSON report (rank 0): time inside collectives, calls, and per
    collective the algorithms that ran with their calls."""
    seconds, calls, algorithms = 0.0, 0, {}
    for comm in report.get("communicators", []):
        for coll, c in comm.get("collectives", {}).items():
            seconds += c.get("seconds", 0.0)
            calls += c.get("calls", 0)
            per = algorithms.setdefault(coll, {})
            for name, a in c.get("algorithms", {}).items():
                per[name] = per.get(name, 0) + a.get("calls", 0)
    return {"collective_seconds": seconds, "collective_calls": calls, "algorithms": algorithms}


def run_once(program, layer, rep, ranks, out, build, launch, timeout, table=None):
    folder = Path(out) / program / f"{layer}-{rep}"
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    spec = PROGRAMS[program]
    argv = spec["prepare"](folder, ranks)
    report_path = folder / "autocoll.json"
    env = layer_env(layer, build, report_path, table)
    cmd = launch(ranks, argv, env)
    start = time.perf_counter()
    try:
        run = subprocess.run(cmd, cwd=folder, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired as e:
        raise ProgramsError(f"{program} under {layer}: no end within {timeout} s") from e
    wall = time.perf_counter() - start
    (folder / "stdout.txt").write_text(run.stdout)
    (folder / "stderr.txt").write_text(run.stderr)
    if run.returncode != 0:
        raise ProgramsError(f"{program} under {layer} failed (exit {run.returncode}); see "
                            f"{folder}/stderr.txt:\n{run.stderr[-1500:]}")
    if "AUTOCOLL_TABLE" in env:
        refused = table_refusal(run.stderr)
        if refused:
            raise ProgramsError(f"{program} under {layer}: the layer did not load the table, so "
                                "every call ran native: " + "; ".join(refused) +
                                f" (see {folder}/stderr.txt)")
    result = {"program": program, "layer": layer, "repetition": rep, "wall_seconds": wall,
              "command": cmd, "values": spec["results"](folder),
              "metrics": spec["metrics"](folder)}
    if "AUTOCOLL_REPORT" in env:
        try:
            result.update(layer_summary(json.loads(report_path.read_text())))
        except (OSError, ValueError) as e:
            raise ProgramsError(f"{program} under {layer}: no layer report ({e})") from e
    return result


def machine():
    mpi = subprocess.run(["mpirun.openmpi", "--version"], capture_output=True, text=True)
    return {"hostname": os.uname().nodename, "cores_online": os.cpu_count(),
            "mpi": (mpi.stdout.splitlines() or ["?"])[0]}


def run_programs(out, programs=DEFAULT_PROGRAMS, layers=DEFAULT_LAYERS, ranks=4, repeat=3,
                 build=None, launch=None, launcher="local", timeout=600, log=print, table=None):
    """Runs every program under every configuration `repeat` times; checks the results; writes
    <out>/programs.json. `table`: the configuration table of the `table` configuration (a path;
    required with it, refused without it). Raises ProgramsError at the first failed run or
    check, and before any run for a bad argument."""
    programs = [p.strip() for p in programs.split(",") if p.strip()]
    layers = [x.strip() for x in layers.split(",") if x.strip()]
    for p in programs:
        if p not in PROGRAMS:
            raise ProgramsError(f"unknown program {p!r} (known: {', '.join(PROGRAMS)})")
    for x in layers:
        if x not in LAYERS:
            raise ProgramsError(f"unknown layer configuration {x!r} (known: {', '.join(LAYERS)})")
    if "none" not in layers:
        raise ProgramsError("the layer configurations must include `none`, the reference")
    if ranks < 1 or repeat < 1:
        raise ProgramsError("--ranks and --repeat must be at least 1")
    if "table" in layers and table is None:
        raise ProgramsError("the `table` layer configuration needs its configuration table: "
                            "--table PATH (an autocoll-table file, docs/table.md)")
    if table is not None:
        if "table" not in layers:
            raise ProgramsError("--table is the table of the `table` layer configuration, which "
                                "--layers does not include")
        # absolute: the ranks run in each run's folder
        table = Path(table).expanduser().resolve()
        if not table.is_file():
            raise ProgramsError(f"--table {table}: no such file")
    build = build_folder(LIBRARY_MPI, build)
    launch = launch or local_launch
    out = Path(out).resolve()  # the ranks run in each run's folder: the report path is absolute
    out.mkdir(parents=True, exist_ok=True)
    runs, failures = [], []
    total = len(programs) * len(layers) * repeat
    k = 0
    with Progress(total, log, unit="run") as progress:
        for rep in range(1, repeat + 1):
            for program in programs:
                for layer in layers:
                    k += 1
                    r = run_once(program, layer, rep, ranks, out, build, launch, timeout, table)
                    runs.append(r)
                    progress.step(k, f"{program} {layer} #{rep}: {r['wall_seconds']:.2f} s")
    for program in programs:
        ref = next(r for r in runs if r["program"] == program and r["layer"] == "none")
        rules = PROGRAMS[program]["checks"](ref["values"])
        for r in runs:
            if r["program"] != program:
                continue
            r["check"] = compare(r["values"], ref["values"], rules)
            r["check_rules"] = rules
            if r["check"]:
                failures.append(f"{program} under {r['layer']} #{r['repetition']}: "
                                + "; ".join(r["check"][:5]))
    data = {"schema": PROGRAMS_SCHEMA, "version": PROGRAMS_VERSION, "machine": machine(),
            "launcher": launcher, "ranks": ranks, "repeat": repeat, "programs": programs, "layers": layers,
            "table": table_info(table), "runs": runs, "failures": failures}
    (out / "programs.json").write_text(json.dumps(data, indent=1) + "\n")
    if failures:
        raise ProgramsError("results differ from the program's own (no autocoll):\n  " +
                            "\n  ".join(failures))
    return data

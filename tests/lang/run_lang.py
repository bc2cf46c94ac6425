#!/usr/bin/env python3
"""Run one language test program under the layer (LD_PRELOAD) and check the layer's JSON report.

    run_lang.py --mpi openmpi --np 3 --library build/libautocoll.so --info build/autocoll-info
                --report /tmp/r.json --mode native --expect allreduce=3 bcast=2 ...
                -- PROGRAM [ARGS...]

The program checks its own results and prints "all results correct"; this script checks that the
layer saw every call exactly once: for each collective of --expect, `calls` summed over the
communicators equals the count given and nothing passed through; every other collective has no
calls. An interposition that misses a language binding gives 0, one that catches a call twice
(e.g. both a Fortran symbol and the C symbol it calls) gives twice the count.

Names of --expect that start with MPI_ (MPI_Iallreduce=4, MPI_Gatherv=1) are the calls the
report lists by their MPI names (core/seen_list.h): the nonblocking and persistent collectives,
gatherv, scatterv, alltoallw, scan and exscan. The report counts each such call once, in one of
two objects: "nonblocking_run" (the layer ran it, with a schedule or the library's own) or
"seen" (passed to the library); a call the layer ran is not also in "seen" (core/seen.h:
ac_seen_run is "not among ac_seen_calls"; checked with tests/mpi/seen under MPICH and
AUTOCOLL_STRATEGY=race: its 5 MPI_Iallreduce were nonblocking_run 5, seen none). So
nonblocking_run[name].calls + seen[name].calls must equal the count, and no other MPI_ kind may
have calls in either. No call may have passed for want of its communicator's state (seen's why
"communicator"): every constructor the programs call (C or Fortran) must make it, so that a
nonblocking collective on a new communicator runs by the layer (intercept/comm_create.c). A persistent collective (a name ending in _init) is given as INITS/STARTS
(MPI_Allreduce_init=1/3: one request started 3 times; every request of a kind started equally
often): "seen" counts the inits passed to the library, "nonblocking_run" the starts of the
requests the layer runs, so seen x STARTS/INITS + nonblocking_run must equal STARTS (with seen at
most INITS).

Modes:
  native  every collective forced to `native` (AUTOCOLL_<COLL>=native): the report must name it
          (the nonblocking calls the layer runs must then show only "native" in nonblocking_run)
  auto    the layer's own selection: only the counts are checked
  race    AUTOCOLL_STRATEGY=race (the layer races its schedules for the nonblocking calls): only
          the counts are checked
  sweep   one run per algorithm index k, forcing the k-th algorithm of every collective (cycling
          through shorter lists) so that each algorithm runs the program once; the report must
          name the forced algorithm, or native where it does not apply (it has requirements);
          the nonblocking calls (forced alike): only their counts

A Python program (PROGRAM ending in .py) runs with the interpreter of --venv; when that
interpreter or its mpi4py is missing the test fails (exit 1) with a message.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import time

CANNOT_RUN = 1  # a test that cannot run fails: it never passes unrun
HERE = os.path.dirname(os.path.abspath(__file__))
MPIRUN = os.path.join(os.path.dirname(HERE), "mpirun.sh")
SEEN_LIST = os.path.join(os.path.dirname(os.path.dirname(HERE)), "src", "core", "seen_list.h")
KEEP_ENV = ("AUTOCOLL_TEST_YIELD",)


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mpi", required=True, choices=["openmpi", "mpich"])
    ap.add_argument("--np", type=int, default=3)
    ap.add_argument("--library", required=True, help="libautocoll.so to preload")
    ap.add_argument("--info", required=True, help="autocoll-info of the same build")
    ap.add_argument("--report", required=True, help="where the layer writes its JSON report")
    ap.add_argument("--mode", choices=["native", "auto", "race", "sweep"], default="native")
    ap.add_argument("--expect", nargs="+", default=[], metavar="COLL=N",
                    help="calls per rank the program makes, per collective (MPI_Xxx=N for the "
                    "report's nonblocking_run and seen, MPI_Xxx_init=INITS/STARTS)")
    ap.add_argument("--venv", help="virtual environment with mpi4py (Python programs)")
    ap.add_argument("--timeout", type=int, default=120, help="seconds per run")
    ap.add_argument("command", nargs=argparse.REMAINDER)
    args = ap.parse_args()
    if args.command and args.command[0] == "--":
        args.command = args.command[1:]
    if not args.command:
        ap.error("no program given (after --)")
    return args


def registry(info):
    out = subprocess.run([info, "--json"], check=True, capture_output=True, text=True).stdout
    algorithms = {}
    for a in json.loads(out)["algorithms"]:
        algorithms.setdefault(a["collective"], []).append(a)
    return algorithms


def seen_names():
    """The MPI names the report's "seen" and "nonblocking_run" use (core/seen_list.h)."""
    with open(SEEN_LIST) as f:
        return set(re.findall(r'X\(\w+, "(MPI_\w+)"\)', f.read()))


def python_command(args, env):
    """The interpreter of the venv in place of the .py program, or None to skip."""
    if not args.venv:
        print("CANNOT RUN: no --venv given for a Python program")
        return None
    python = os.path.join(args.venv, "bin", "python")
    if not os.access(python, os.X_OK):
        print(f"CANNOT RUN: {python} does not exist: run scripts/mpi4py_setup.sh to create the venv "
              "with mpi4py")
        return None
    if args.mpi == "mpich":
        env["MPI4PY_MPIABI"] = "mpich"
        abi = os.path.join(args.venv, "mpich-abi")
        env["LD_LIBRARY_PATH"] = abi + (":" + env["LD_LIBRARY_PATH"]
                                        if env.get("LD_LIBRARY_PATH") else "")
    probe = subprocess.run([python, "-c", "import mpi4py"], env=env, capture_output=True)
    if probe.returncode != 0:
        print(f"CANNOT RUN: mpi4py is not installed in {args.venv}: run scripts/mpi4py_setup.sh")
        return None
    return [python] + args.command


def preload(library):
    """The LD_PRELOAD list for the library: a sanitizer build needs its ASan runtime first."""
    library = os.path.abspath(library)
    ldd = subprocess.run(["ldd", library], capture_output=True, text=True).stdout
    for line in ldd.splitlines():
        parts = line.split()
        if parts and parts[0].startswith("libasan.so") and len(parts) > 2:
            return parts[2] + ":" + library
    return library


def base_env(args):
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("AUTOCOLL_") or k in KEEP_ENV}
    env["AUTOCOLL_TEST_PRELOAD"] = preload(args.library)
    if ":" in env["AUTOCOLL_TEST_PRELOAD"]:
        env.setdefault("ASAN_OPTIONS", "detect_leaks=0")  # MPI libraries leak by design
    env["AUTOCOLL_TEST_TIMEOUT"] = str(args.timeout)
    env["AUTOCOLL_REPORT"] = os.path.abspath(args.report)
    return env


def totals(report):
    """{collective: (calls, passthrough, {algorithm: calls})} summed over communicators."""
    out = {}
    for comm in report["communicators"]:
        for name, s in comm["collectives"].items():
            calls, passthrough, algs = out.get(name, (0, 0, {}))
            for alg, a in s["algorithms"].items():
                algs[alg] = algs.get(alg, 0) + a["calls"]
            out[name] = (calls + s["calls"], passthrough + s["passthrough"], algs)
    for name, n in report.get("passthrough_invalid_arguments", {}).items():
        calls, passthrough, algs = out.get(name, (0, 0, {}))
        out[name] = (calls, passthrough + n, algs)
    return out


def check_mpi_names(report, expect, native):
    """Problems with the calls the report lists by MPI name: `expect` maps a name to its calls,
    or for a persistent collective to (inits, starts); see the module's docstring. With
    `native`, the calls the layer ran must have run the library's own algorithm."""
    ran, passed = report.get("nonblocking_run", {}), report.get("seen", {})
    problems = []
    for name in sorted(set(ran) | set(passed) | set(expect)):
        r = ran.get(name, {}).get("calls", 0)
        s = passed.get(name, {}).get("calls", 0)
        want = expect.get(name, 0)
        if isinstance(want, tuple):
            inits, starts = want
            ok = s <= inits and s * (starts // inits) + r == starts
            wanted = f"{inits} inits started {starts} times"
        else:
            ok = r + s == want
            wanted = f"{want} calls"
        if not ok:
            problems.append(f"{name}: {r} run by the layer (nonblocking_run), {s} passed to the "
                            f"library (seen), expected {wanted}")
        elif native and r and set(ran[name].get("algorithms", {})) - {"native"}:
            problems.append(f"{name}: forced native, nonblocking_run shows "
                            f"{ran[name]['algorithms']}")
        unmade = passed.get(name, {}).get("why", {}).get("communicator", 0)
        if unmade:
            problems.append(f"{name}: {unmade} passed to the library for want of the "
                            "communicator's state (why: communicator): a constructor the layer "
                            "missed")
    return problems


def check_report(path, expect, forced, algorithms, mpi_expect=None, native=False):
    """Problems found in the report (empty list: all good)."""
    try:
        with open(path) as f:
            report = json.load(f)
    except (OSError, ValueError) as e:
        return [f"no readable report at {path}: {e} (was the layer initialised and finalised?)"]
    if report.get("schema") != "autocoll-report":
        return [f"{path}: not an autocoll-report"]
    seen = totals(report)
    problems = check_mpi_names(report, mpi_expect or {}, native)
    for name in sorted(set(seen) | set(expect)):
        calls, passthrough, algs = seen.get(name, (0, 0, {}))
        want = expect.get(name, 0)
        if calls != want or passthrough != 0:
            problems.append(f"{name}: {calls} calls and {passthrough} passed through, "
                            f"expected {want} calls")
            continue
        if name not in forced or want == 0:
            continue
        alg = forced[name]
        spec = next(a for a in algorithms[name] if a["name"] == alg)
        allowed = {alg} if not spec["requires"] else {alg, "native"}
        if set(algs) - allowed or (not spec["requires"] and algs.get(alg, 0) != want):
            problems.append(f"{name}: forced {alg}, the report shows {algs}")
    return problems


def run_once(args, command, env, expect, forced, algorithms, label, mpi_expect):
    env = dict(env)
    for name, alg in forced.items():
        env["AUTOCOLL_" + name.upper()] = alg
    try:
        os.unlink(args.report)
    except FileNotFoundError:
        pass
    cmd = [MPIRUN, args.mpi, str(args.np)] + command
    start = time.monotonic()
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True,
                          timeout=args.timeout + 30)
    seconds = time.monotonic() - start
    problems = []
    if proc.returncode != 0:
        problems.append(f"exit status {proc.returncode}")
    if "all results correct" not in proc.stdout:
        problems.append("the program did not print 'all results correct'")
    if not problems:
        problems = check_report(args.report, expect, forced, algorithms, mpi_expect,
                                native=args.mode == "native")
    status = "FAILED" if problems else "ok"
    print(f"{label}: {status} in {seconds:.1f} s")
    if problems:
        print("  command: " + " ".join(cmd))
        if forced:
            print("  forced: " + " ".join(f"{k}={v}" for k, v in sorted(forced.items())))
        for p in problems:
            print("  " + p)
        sys.stdout.write(proc.stdout)
        sys.stdout.write(proc.stderr)
    return not problems


def main():
    args = parse_args()
    expect, mpi_expect = {}, {}
    for item in args.expect:
        name, _, n = item.partition("=")
        if not name.startswith("MPI_"):
            expect[name] = int(n)
        elif name.endswith("_init"):
            inits, _, starts = n.partition("/")
            if not starts or int(starts) % int(inits):
                print(f"run_lang.py: {item}: a persistent collective is NAME=INITS/STARTS, "
                      "every request started equally often")
                return 2
            mpi_expect[name] = (int(inits), int(starts))
        else:
            mpi_expect[name] = int(n)
    algorithms = registry(args.info)
    unknown = (set(expect) - set(algorithms)) | (set(mpi_expect) - seen_names())
    if unknown:
        print(f"run_lang.py: unknown collectives in --expect: {sorted(unknown)}")
        return 2
    env = base_env(args)
    if args.mode == "race":
        env["AUTOCOLL_STRATEGY"] = "race"
    command = list(args.command)
    if command[0].endswith(".py"):
        command = python_command(args, env)
        if command is None:
            return CANNOT_RUN
    name = os.path.basename(args.command[0])
    if args.mode in ("auto", "race"):
        runs = [({}, f"{name} {args.mode}")]
    elif args.mode == "native":
        runs = [({c: "native" for c in algorithms}, f"{name} native")]
    else:
        longest = max(len(v) for v in algorithms.values())
        runs = [({c: v[k % len(v)]["name"] for c, v in algorithms.items()},
                 f"{name} sweep {k + 1}/{longest}") for k in range(longest)]
    failed = 0
    for forced, label in runs:
        if not run_once(args, command, env, expect, forced, algorithms, label, mpi_expect):
            failed += 1
    print(f"{len(runs) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

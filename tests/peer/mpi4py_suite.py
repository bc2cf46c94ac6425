#!/usr/bin/env python3
"""Run mpi4py's own collective tests natively and under the layer, and compare.

    tests/peer/mpi4py_suite.py --mpi openmpi --build build/openmpi [--np 4] [--long]

Downloads the mpi4py source release (pip download --no-binary, into --cache), runs
`test/main.py -i test_cco` at --np ranks natively, then with LD_PRELOAD=libautocoll.so and a JSON
report, and fails if the layer fails any test that passes natively, or if its report shows no
intercepted call. mpi4py under MPICH calls only the MPI-4 large-count symbols (MPI_Allreduce_c,
...), so this also checks the layer's _c wrappers.

--long (or AUTOCOLL_TEST_LONG=1) adds one layered run per algorithm index k, forcing the k-th
algorithm of every collective (AUTOCOLL_<COLL>=name, cycling through shorter lists, names from
`autocoll-info --json`), so that every algorithm runs the whole suite once.

Needs the venv of scripts/mpi4py_setup.sh; without it (or without network for the download) the
run fails (exit 1). Each rank writes its outcomes to a JSON file (the --rank mode of
this script wraps mpi4py's test runner), so results are compared per rank and per test.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tarfile
import time
import unittest

CANNOT_RUN = 1  # a test that cannot run fails: it never passes unrun
MPI4PY_VERSION = "4.1.2"
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
MPIRUN = os.path.join(ROOT, "tests", "mpirun.sh")
BAD = ("FAIL", "ERROR", "xpass")
# Collectives that test_cco must reach through the layer.
MUST_SEE = ("allgather", "allreduce", "alltoall", "barrier", "bcast", "gather", "reduce",
            "scatter")


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mpi", choices=["openmpi", "mpich"])
    ap.add_argument("--build", help="build directory (libautocoll.so, autocoll-info)")
    ap.add_argument("--np", type=int, help="ranks (default: 4 for openmpi, 2 for mpich)")
    ap.add_argument("--venv", default=os.environ.get("AUTOCOLL_VENV", os.path.join(ROOT, ".venv")))
    ap.add_argument("--cache", default=os.path.join(HERE, "cache"),
                    help="where the mpi4py sources are downloaded and unpacked")
    ap.add_argument("--include", default="test_cco", help="test module regex (main.py -i)")
    ap.add_argument("--long", action="store_true",
                    default=os.environ.get("AUTOCOLL_TEST_LONG", "") not in ("", "0"),
                    help="also force every algorithm in turn")
    ap.add_argument("--timeout", type=int, default=600, help="seconds per run")
    ap.add_argument("--rank", nargs=argparse.REMAINDER,
                    help="internal: OUTDIR TESTDIR ARGS...: run mpi4py's tests in this rank")
    args = ap.parse_args()
    if args.rank is None and (not args.mpi or not args.build):
        ap.error("--mpi and --build are required")
    return args


# ---------------------------------------------------------------------------------------------
# Inside one rank: mpi4py's TestProgram with a result class that records every outcome.

class RecordingResult(unittest.TextTestResult):
    outcomes = {}

    def _set(self, test, outcome):
        self.outcomes[test.id()] = outcome

    def addSuccess(self, test):
        super().addSuccess(test)
        self.outcomes.setdefault(test.id(), "ok")

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self._set(test, "FAIL")

    def addError(self, test, err):
        super().addError(test, err)
        self._set(test, "ERROR")

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        self._set(test, "skip")

    def addExpectedFailure(self, test, err):
        super().addExpectedFailure(test, err)
        self._set(test, "xfail")

    def addUnexpectedSuccess(self, test):
        super().addUnexpectedSuccess(test)
        self._set(test, "xpass")

    def addSubTest(self, test, subtest, err):
        super().addSubTest(test, subtest, err)
        if err is not None:
            failed = issubclass(err[0], test.failureException)
            self._set(test, "FAIL" if failed else "ERROR")


def rank_main(outdir, testdir, argv):
    rank = os.environ.get("OMPI_COMM_WORLD_RANK", os.environ.get("PMI_RANK", "0"))
    log = open(os.path.join(outdir, f"rank{rank}.log"), "w")
    os.dup2(log.fileno(), 1)
    os.dup2(log.fileno(), 2)
    sys.path.insert(0, testdir)
    os.chdir(testdir)
    import main as mpi4py_main  # mpi4py's test/main.py

    runner = unittest.TextTestRunner(stream=sys.stderr, verbosity=1,
                                     resultclass=RecordingResult)
    try:
        mpi4py_main.TestProgram(module=None, argv=["main.py"] + argv, testRunner=runner)
    except SystemExit:
        pass
    with open(os.path.join(outdir, f"rank{rank}.json"), "w") as f:
        json.dump(RecordingResult.outcomes, f, indent=0, sort_keys=True)
    return 0


# ---------------------------------------------------------------------------------------------
# The driver.

def venv_python(args):
    python = os.path.join(args.venv, "bin", "python")
    if not os.access(python, os.X_OK):
        print(f"CANNOT RUN: {python} does not exist: run scripts/mpi4py_setup.sh")
        return None
    return python


def fetch_tests(args, python):
    """The unpacked test directory of the mpi4py release, downloaded once into the cache."""
    testdir = os.path.join(args.cache, f"mpi4py-{MPI4PY_VERSION}", "test")
    if os.path.isfile(os.path.join(testdir, "main.py")):
        return testdir
    os.makedirs(args.cache, exist_ok=True)
    tarball = os.path.join(args.cache, f"mpi4py-{MPI4PY_VERSION}.tar.gz")
    if not os.path.isfile(tarball):
        proc = subprocess.run([python, "-m", "pip", "download", "--quiet", "--no-deps",
                               "--no-binary", "mpi4py", f"mpi4py=={MPI4PY_VERSION}",
                               "-d", args.cache], capture_output=True, text=True)
        if proc.returncode != 0 or not os.path.isfile(tarball):
            print(f"CANNOT RUN: cannot download the mpi4py {MPI4PY_VERSION} sources:\n"
                  f"{proc.stdout}{proc.stderr}")
            return None
    unpack = tarball + ".partial"
    shutil.rmtree(unpack, ignore_errors=True)
    with tarfile.open(tarball) as tar:
        if hasattr(tarfile, "data_filter"):
            tar.extractall(unpack, filter="data")
        else:
            tar.extractall(unpack)
    os.replace(os.path.join(unpack, f"mpi4py-{MPI4PY_VERSION}"),
               os.path.join(args.cache, f"mpi4py-{MPI4PY_VERSION}"))
    shutil.rmtree(unpack, ignore_errors=True)
    return testdir


def registry(build):
    out = subprocess.run([os.path.join(build, "autocoll-info"), "--json"], check=True,
                         capture_output=True, text=True).stdout
    algorithms = {}
    for a in json.loads(out)["algorithms"]:
        algorithms.setdefault(a["collective"], []).append(a["name"])
    return algorithms


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
    # Not AUTOCOLL_TEST_YIELD either: its preload finds ucp_worker_progress with RTLD_NEXT, which
    # fails (a call through NULL) when libmpich is dlopen()ed by mpi4py in the native run.
    env = {k: v for k, v in os.environ.items() if not k.startswith("AUTOCOLL_")}
    env["AUTOCOLL_TEST_TIMEOUT"] = str(args.timeout)
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    if args.mpi == "mpich":
        env["MPI4PY_MPIABI"] = "mpich"
        abi = os.path.join(args.venv, "mpich-abi")
        env["LD_LIBRARY_PATH"] = abi + (":" + env["LD_LIBRARY_PATH"]
                                        if env.get("LD_LIBRARY_PATH") else "")
    return env


def run_suite(args, python, testdir, workdir, label, layer, forced):
    """{rank: {test id: outcome}}, problems, seconds."""
    outdir = os.path.join(workdir, label)
    shutil.rmtree(outdir, ignore_errors=True)
    os.makedirs(outdir)
    env = base_env(args)
    report = os.path.join(outdir, "report.json")
    if layer:
        env["AUTOCOLL_TEST_PRELOAD"] = preload(os.path.join(args.build, "libautocoll.so"))
        if ":" in env["AUTOCOLL_TEST_PRELOAD"]:
            env.setdefault("ASAN_OPTIONS", "detect_leaks=0")  # MPI libraries leak by design
        env["AUTOCOLL_REPORT"] = report
        for name, alg in forced.items():
            env["AUTOCOLL_" + name.upper()] = alg
    cmd = [MPIRUN, args.mpi, str(args.np), python, os.path.abspath(__file__), "--rank",
           outdir, testdir, "-i", args.include, "-q"]
    start = time.monotonic()
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=args.timeout + 60)
    seconds = time.monotonic() - start
    problems = []
    if proc.returncode != 0:
        problems.append(f"exit status {proc.returncode}")
    results = {}
    for r in range(args.np):
        try:
            with open(os.path.join(outdir, f"rank{r}.json")) as f:
                results[r] = json.load(f)
        except (OSError, ValueError):
            problems.append(f"rank {r} wrote no results (see {outdir}/rank{r}.log)")
    if layer:
        problems += check_report(report)
    if problems:
        sys.stdout.write(proc.stdout + proc.stderr)
    return results, problems, seconds


def check_report(path):
    try:
        with open(path) as f:
            report = json.load(f)
    except (OSError, ValueError) as e:
        return [f"no readable report at {path}: {e}"]
    calls = {}
    for comm in report["communicators"]:
        for name, s in comm["collectives"].items():
            calls[name] = calls.get(name, 0) + s["calls"]
    missing = [c for c in MUST_SEE if calls.get(c, 0) == 0]
    if missing:
        return [f"the report shows no intercepted calls of {', '.join(missing)}: {calls}"]
    return []


def summary(results):
    counts = {}
    for outcomes in results.values():
        for outcome in outcomes.values():
            counts[outcome] = counts.get(outcome, 0) + 1
    return ", ".join(f"{n} {k}" for k, n in sorted(counts.items()))


def compare(native, layered):
    """Tests that pass (or are skipped) natively and not under the layer."""
    regressions = []
    for rank, outcomes in native.items():
        mine = layered.get(rank, {})
        for test, outcome in sorted(outcomes.items()):
            if outcome in BAD:
                continue
            got = mine.get(test, "missing")
            if got in BAD or got == "missing":
                regressions.append(f"rank {rank}: {test}: {outcome} natively, {got} with the layer")
    return regressions


def main():
    args = parse_args()
    if args.rank is not None:
        return rank_main(args.rank[0], args.rank[1], args.rank[2:])
    if args.np is None:
        args.np = 4 if args.mpi == "openmpi" else 2
    python = venv_python(args)
    if python is None:
        return CANNOT_RUN
    testdir = fetch_tests(args, python)
    if testdir is None:
        return CANNOT_RUN
    workdir = os.path.join(args.build, "tests", "peer", "mpi4py")
    runs = [("layer", True, {})]
    if args.long:
        algorithms = registry(args.build)
        longest = max(len(v) for v in algorithms.values())
        for k in range(longest):
            forced = {c: v[k % len(v)] for c, v in algorithms.items()}
            runs.append((f"forced{k + 1}", True, forced))

    native, problems, seconds = run_suite(args, python, testdir, workdir, "native", False, {})
    print(f"mpi4py {args.include} native, {args.mpi} at {args.np} ranks: {summary(native)} "
          f"in {seconds:.0f} s")
    known_bad = sum(1 for o in native.values() for x in o.values() if x in BAD)
    if known_bad:
        print(f"  {known_bad} outcomes fail natively (not held against the layer)")
    if problems or not native or all(not o for o in native.values()):
        print("the native run did not complete:\n  " + "\n  ".join(problems))
        print("0 passed, 1 failed")
        return 1
    failed = 0
    for label, layer, forced in runs:
        layered, problems, seconds = run_suite(args, python, testdir, workdir, label, layer,
                                               forced)
        problems += compare(native, layered)
        status = "FAILED" if problems else "ok"
        print(f"mpi4py {args.include} {label}: {status}: {summary(layered)} in {seconds:.0f} s")
        if forced:
            print("  forced: " + " ".join(f"{c}={a}" for c, a in sorted(forced.items())))
        for p in problems[:50]:
            print("  " + p)
        if len(problems) > 50:
            print(f"  ... and {len(problems) - 50} more")
        failed += bool(problems)
    print(f"{len(runs) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Run MPICH's own collective tests (test/mpi/coll) natively and under the layer, and compare.

    tests/peer/mpich_coll_suite.py --mpi openmpi --build build/openmpi [--suite DIR]
                                   [--match REGEX] [--strategy race] [--set AUTOCOLL_X=V ...]
                                   [--persistent]

The suite is built per MPI by scripts/mpich_suite_setup.sh (default --suite:
build/mpich-testsuite/<mpi>/test/mpi). Each line of coll/testlist (name, ranks, arg=..., env=...,
timeLimit=...) runs through tests/mpirun.sh, natively and then with LD_PRELOAD=libautocoll.so and
AUTOCOLL_STRATEGY (default race: it runs every applicable algorithm of the layer while it learns,
not only the library's own). A test passes when it exits 0 and prints "No Errors", as MPICH's
runtests counts it. The run fails when a test that passes natively fails under the layer, or
when the layer intercepted nothing; tests that fail natively are listed (with their reason when
KNOWN_NATIVE has it) and do not count. A missing suite fails: it never passes unrun.

Lines the suite's own runner skips are skipped here too, and said: those marked xfail= (MPICH's
expected failures), strict=false (MPICH extensions and persistent collectives, which the suite
built with --enable-strictmpi does not run; --persistent runs the persistent p_* ones where they
are built: for MPICH 4.0.2, not for Open MPI 4.1, which lacks MPI_Allreduce_init and its kin)
and those whose mpiversion= is above the library's. Prints one closing line
"N passed, N failed" (N failed: the tests that pass natively and fail under the layer).
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
MPIRUN = os.path.join(ROOT, "tests", "mpirun.sh")
CANNOT_RUN = 1
DEFAULT_LIMIT = 180  # seconds per run when the line gives no timeLimit
# Tests that fail without the layer, per MPI, with the reason (../shared/FACTS.md and
# docs/native-libraries.md): they are reported, not counted.
KNOWN_NATIVE = {
    ("openmpi", "allred -count=100"): "Open MPI 4.1.4's AVX reduction: INT8/UINT8/CHAR MPI_SUM "
                                      "wrong (FACTS.md)",
    ("openmpi", "nonblocking2"): "Open MPI 4.1.4's own MPI_Ialltoallw crashes (FACTS.md)",
    ("openmpi", "nonblocking3"): "Open MPI 4.1.4's own MPI_Ialltoallw crashes (FACTS.md)",
}
# Tests that cannot be built with an MPI, with the reason; any other test not built fails.
KNOWN_UNBUILT = {
    ("openmpi", "coll_large"): "calls MPI-4 large-count functions (MPI_Bcast_c, ...), which "
                               "Open MPI 4.1 does not have",
}
MPI_VERSIONS = {"openmpi": (3, 1), "mpich": (4, 0)}


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mpi", required=True, choices=["openmpi", "mpich"])
    ap.add_argument("--build", required=True, help="build directory (libautocoll.so)")
    ap.add_argument("--suite", help="the built test/mpi tree (default: "
                                    "build/mpich-testsuite/<mpi>/test/mpi)")
    ap.add_argument("--match", default="", help="only the tests whose line matches this regex")
    ap.add_argument("--strategy", default="race", help="AUTOCOLL_STRATEGY under the layer")
    ap.add_argument("--max-ranks", type=int, default=16, help="skip lines asking for more")
    ap.add_argument("--persistent", action="store_true",
                    help="also the p_* persistent collective tests (strict=false in the testlist)"
                         " where they are built (the suite for MPICH 4)")
    ap.add_argument("--set", action="append", default=[], metavar="AUTOCOLL_X=VALUE",
                    help="another setting under the layer (repeatable), e.g. "
                         "AUTOCOLL_ALLREDUCE=ring to run the nonblocking allreduces by the "
                         "layer's ring (docs/nonblocking.md)")
    a = ap.parse_args()
    for kv in a.set:
        if not kv.startswith("AUTOCOLL_") or "=" not in kv:
            ap.error(f"--set {kv}: not AUTOCOLL_X=VALUE")
    return a


def read_testlist(path, mpi, persistent=False):
    """[(label, name, ranks, args, env, limit)] and [(label, why skipped)]; with `persistent`
    the p_* lines too, strict=false as they are."""
    tests, skipped = [], []
    for raw in open(path):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        words = line.split()
        if len(words) < 2 or not words[1].isdigit():
            skipped.append((line, "not a test line"))
            continue
        name, ranks, args, env, limit = words[0], int(words[1]), [], {}, DEFAULT_LIMIT
        why = None
        for w in words[2:]:
            key, _, value = w.partition("=")
            if key == "arg":
                args.append(value)
            elif key == "env":
                k, _, v = value.partition("=")
                env[k] = v
            elif key == "timeLimit":
                limit = int(value)
            elif key == "xfail":
                why = f"expected to fail by MPICH's testlist ({value})"
            elif key == "strict" and value == "false" and not (persistent and
                                                               name.startswith("p_")):
                why = "beyond strict MPI (MPICH's runtests skips it under --enable-strictmpi)"
            elif key == "mpiversion":
                want = tuple(int(x) for x in value.split("."))
                if want > MPI_VERSIONS[mpi]:
                    why = f"needs MPI {value}"
        label = " ".join([name] + args)
        if why:
            skipped.append((label, why))
        else:
            tests.append((label, name, ranks, args, env, limit))
    return tests, skipped


def run(mpi, build, ranks, program, args, env, limit, preload):
    e = {k: v for k, v in os.environ.items() if not k.startswith("AUTOCOLL")}
    e.update(env)
    e["AUTOCOLL_TEST_TIMEOUT"] = str(limit)
    if preload:
        e.update(preload)
    if mpi == "mpich":
        yield_lib = os.path.join(build, "tests/mpi/libyield_progress.so")
        if os.path.exists(yield_lib):
            e["AUTOCOLL_TEST_YIELD"] = yield_lib
    start = time.time()
    try:
        p = subprocess.run([MPIRUN, mpi, str(ranks), program, *args], env=e, capture_output=True,
                           text=True, timeout=limit + 60)
        out, rc = p.stdout + p.stderr, p.returncode
    except subprocess.TimeoutExpired as x:
        out, rc = (x.stdout or "") if isinstance(x.stdout, str) else "", 124
    ok = rc == 0 and "No Errors" in out
    return ok, rc, out, time.time() - start


def layer_calls(report):
    """Calls the layer ran (not passed through) in a run's report (AUTOCOLL_REPORT JSON, rank
    0's); 0 when the run wrote none. The report is removed."""
    try:
        with open(report) as f:
            data = json.load(f)
    except (OSError, ValueError):
        return 0
    os.unlink(report)
    return sum(s.get("calls", 0) for c in data.get("communicators", [])
               for s in c.get("collectives", {}).values())


def main():
    a = parse_args()
    build = os.path.abspath(a.build)
    suite = a.suite or os.path.join(ROOT, "build", "mpich-testsuite", a.mpi, "test", "mpi")
    testlist = os.path.join(suite, "coll", "testlist")
    library = os.path.join(build, "libautocoll.so")
    for path, what in ((testlist, "the suite (scripts/mpich_suite_setup.sh builds it)"),
                       (library, "libautocoll.so (scripts/build)")):
        if not os.path.exists(path):
            print(f"mpich_coll_suite: {path} missing: {what}", file=sys.stderr)
            return CANNOT_RUN
    tests, skipped = read_testlist(testlist, a.mpi, a.persistent)
    pattern = re.compile(a.match) if a.match else None
    tests = [t for t in tests if not pattern or pattern.search(t[0])]
    over = [t for t in tests if t[2] > a.max_ranks]
    tests = [t for t in tests if t[2] <= a.max_ranks]
    skipped += [(t[0], f"{t[2]} ranks, above --max-ranks {a.max_ranks}") for t in over]
    report_dir = tempfile.mkdtemp(prefix="mpich-suite-")
    passed = failed = intercepted = ran = 0
    native_failures, new_failures = [], []
    for label, name, ranks, args, env, limit in tests:
        program = os.path.join(suite, "coll", name)
        if not os.path.exists(program):
            why = KNOWN_UNBUILT.get((a.mpi, name))
            if a.persistent and name.startswith("p_"):
                why = "the library has no persistent collectives (MPI 3)"
            if why:
                skipped.append((label, f"not built: {why}"))
            else:
                new_failures.append((label, "not built (see coll/../make-coll.log)"))
                failed += 1
            print(f"{label:40} {ranks:3d}  not built", flush=True)
            continue
        ran += 1
        ok_native, rc_n, out_n, t_n = run(a.mpi, build, ranks, program, args, env, limit, None)
        if not ok_native:
            native_failures.append((label, rc_n, out_n))
            print(f"{label:40} {ranks:3d}  native FAILS (exit {rc_n}, {t_n:.1f} s): not counted",
                  flush=True)
            continue
        report = os.path.join(report_dir, f"{name}.json")
        preload = {"AUTOCOLL_TEST_PRELOAD": library, "AUTOCOLL_STRATEGY": a.strategy,
                   "AUTOCOLL_REPORT": report, **dict(kv.split("=", 1) for kv in a.set)}
        ok_layer, rc_l, out_l, t_l = run(a.mpi, build, ranks, program, args, env, limit, preload)
        intercepted += layer_calls(report)
        status = "ok" if ok_layer else f"LAYER FAILS (exit {rc_l})"
        print(f"{label:40} {ranks:3d}  native {t_n:5.1f} s, layer {t_l:5.1f} s  {status}",
              flush=True)
        if ok_layer:
            passed += 1
        else:
            failed += 1
            new_failures.append((label, out_l[-3000:]))
    print(f"\nMPICH 4.0.2 test/mpi/coll under {a.mpi}, AUTOCOLL_STRATEGY={a.strategy}"
          f"{''.join(' ' + kv for kv in a.set)}: "
          f"{ran} tests run natively, {len(native_failures)} fail natively, "
          f"{len(skipped)} lines skipped")
    for label, why in skipped:
        print(f"  skipped: {label}: {why}")
    for label, rc, out in native_failures:
        reason = KNOWN_NATIVE.get((a.mpi, label), "not in the known list")
        print(f"  fails natively: {label} (exit {rc}): {reason}")
    for label, out in new_failures:
        print(f"  FAILS UNDER THE LAYER: {label}\n{out}")
    if intercepted == 0 and passed:
        print("mpich_coll_suite: the layer's reports show no intercepted call", file=sys.stderr)
        failed += 1
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())

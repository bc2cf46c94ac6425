"""`autocoll` command line: info, report, bench, tune, plot, export, programs, cluster,
simgrid."""

import argparse
import os
import subprocess
import sys
from pathlib import Path

from . import (__version__, bench, benchplot, benchreport, cluster, export, plot, programs,
               registry, report, simgrid, tune)


class ArgumentParser(argparse.ArgumentParser):
    """argparse's parser with its errors on one line (its subcommands' parsers are of this class
    too): `autocoll bench: argument --iterations: invalid int value: 'x' (autocoll bench
    --help)`."""

    def error(self, message):
        self.exit(2, f"{self.prog}: {message} ({self.prog} --help)\n")


def positive_int(text):
    """An argument that counts something: 1, 2, ..."""
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a positive integer")
    return int(text)


def cmd_info(args):
    data = registry.load(args.mpi, size=args.size)
    by = registry.algorithms_by_collective(data)
    families = {f["collective"]: f for f in data.get("families", [])}
    print(f"autocoll {data['autocoll_version']} for {data['mpi']}, "
          f"registry {data['registry_fingerprint']}"
          + (f", {args.size} ranks" if args.size else ""))
    for coll, names in by.items():
        print(f"{coll:22} {len(names):3d}  {' '.join(names)}")
        if coll in families and not args.size:
            f = families[coll]
            print(f"{'':26}family {f['family']}: {f['names']} ({', '.join(f['phases'])})")
    return 0


def cmd_report(args):
    """End-of-run reports one by one; benchmark results (files or folders) as one matrix."""
    status = 0
    program_paths = [p for p in args.reports if programs.is_programs(p)]
    bench_paths = [p for p in args.reports if p not in program_paths and
                   (Path(p).is_dir() or benchreport.is_bench(p))]
    for path in program_paths:
        try:
            print(programs.render(programs.load(path)))
        except (OSError, ValueError, programs.ProgramsError) as e:
            print(f"autocoll report: {e}", file=sys.stderr)
            status = 1
    for path in args.reports:
        if path in bench_paths or path in program_paths:
            continue
        try:
            print(report.render(report.load(path)))
        except report.ReportError as e:
            print(f"autocoll report: {e}", file=sys.stderr)
            status = 1
    if bench_paths:
        try:
            text, cells = benchreport.render(bench_paths)
            print(text)
            if args.plots:
                for name in benchplot.plot(cells, args.plots):
                    print(f"plot: {name}")
        except benchreport.BenchReportError as e:
            print(f"autocoll report: {e}", file=sys.stderr)
            status = 1
    return status


# The commands whose module brings its own arguments (add_arguments) and entry point (main).
TOOL_COMMANDS = [
    ("bench", bench, "run the benchmark driver over a matrix (resumable)"),
    ("tune", tune, "sweep native and every fixed algorithm, write a configuration table "
                   "(resumable)"),
    ("plot", plot, "figures of a tune sweep folder: candidates, best map, mesh throughput"),
    ("export", export, "a configuration table in the native libraries' formats (Open MPI "
                       "rules, MPICH JSON and CVARs)"),
    ("programs", programs, "hpcc and LAMMPS natively and under autocoll, results checked equal"),
    ("cluster", cluster, "an emulated cluster: network namespaces, bridges, tc (root)"),
    ("simgrid", simgrid, "run a program built with smpicc on a simulated platform (SMPI)"),
]


def parser_of_commands():
    parser = ArgumentParser(prog="autocoll", description=__doc__)
    parser.add_argument("--version", action="version", version=f"autocoll {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("info", help="algorithms per collective (from autocoll-info --json)")
    p.add_argument("--mpi", default="openmpi", choices=["openmpi", "mpich"])
    p.add_argument("--size", type=positive_int, help="every algorithm for a communicator of SIZE ranks, "
                   "the orthogonal mesh instances that factor it included")
    p.set_defaults(func=cmd_info)
    p = sub.add_parser("report", help="render end-of-run reports and benchmark results")
    p.add_argument("reports", nargs="+",
                   help="AUTOCOLL_REPORT=<path> files, autocoll_bench JSON files, or folders "
                        "of them (`autocoll bench --out`), `autocoll programs --out` folders")
    p.add_argument("--plots", help="benchmark results: write the plots (PNG) to this folder")
    p.set_defaults(func=cmd_report)
    for name, module, text in TOOL_COMMANDS:
        extra = {} if module is bench else {"formatter_class":
                                             argparse.RawDescriptionHelpFormatter}
        p = sub.add_parser(name, help=text, description=module.__doc__, **extra)
        module.add_arguments(p)
        p.set_defaults(func=module.main)
    return parser


def main(argv=None):
    """Runs one command; its exit status. What a command cannot do with the input it was given
    (a missing file, a failed program, a value it cannot use) ends in one line on stderr and
    status 1, not a traceback; a reader that leaves a pipe early (`autocoll info | head -1`)
    ends the output quietly."""
    args = parser_of_commands().parse_args(argv)
    try:
        status = args.func(args)
        sys.stdout.flush()  # here, where a closed pipe can still be handled
        return status
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # nothing more to say
        return 1
    except (OSError, ValueError, subprocess.CalledProcessError) as e:
        print(f"autocoll {args.command}: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"autocoll {args.command}: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())

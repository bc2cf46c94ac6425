"""`autocoll` command line: info, report, bench, tune, plot, export, programs, cluster,
simgrid."""

import argparse
import os
import subprocess
import sys

from . import __version__
from .commands import bench, cluster, export, info, plot, programs, report, simgrid, tune


class ArgumentParser(argparse.ArgumentParser):
    """argparse's parser with its errors on one line (its subcommands' parsers are of this class
    too): `autocoll bench: argument --iterations: invalid int value: 'x' (autocoll bench
    --help)`."""

    def error(self, message):
        self.exit(2, f"{self.prog}: {message} ({self.prog} --help)\n")


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
    info.add_arguments(p)
    p.set_defaults(func=info.main)
    p = sub.add_parser("report", help="render end-of-run reports and benchmark results")
    report.add_arguments(p)
    p.set_defaults(func=report.main)
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

"""`autocoll` command line: info, report."""

import argparse
import sys

from . import registry, report


def cmd_info(args):
    data = registry.load(args.mpi)
    by = registry.algorithms_by_collective(data)
    print(f"autocoll {data['autocoll_version']} for {data['mpi']}, "
          f"registry {data['registry_fingerprint']}")
    for coll, names in by.items():
        print(f"{coll:22} {len(names):3d}  {' '.join(names)}")
    return 0


def cmd_report(args):
    status = 0
    for path in args.reports:
        try:
            print(report.render(report.load(path)))
        except report.ReportError as e:
            print(f"autocoll report: {e}", file=sys.stderr)
            status = 1
    return status


def main(argv=None):
    parser = argparse.ArgumentParser(prog="autocoll", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("info", help="algorithms per collective (from autocoll-info --json)")
    p.add_argument("--mpi", default="openmpi", choices=["openmpi", "mpich"])
    p.set_defaults(func=cmd_info)
    p = sub.add_parser("report", help="render end-of-run JSON reports as tables")
    p.add_argument("reports", nargs="+", help="AUTOCOLL_REPORT=<path> files")
    p.set_defaults(func=cmd_report)
    args = parser.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())

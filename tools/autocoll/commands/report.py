"""`autocoll report`: end-of-run reports one by one; benchmark results (files or folders) as one
matrix, with its plots; `autocoll programs` results."""

import sys
from pathlib import Path

from ..analysis import benchreport, programsreport, report
from ..plot import benchplot
from ..run.programs import ProgramsError


def main(args):
    """End-of-run reports one by one; benchmark results (files or folders) as one matrix."""
    status = 0
    program_paths = [p for p in args.reports if programsreport.is_programs(p)]
    bench_paths = [p for p in args.reports if p not in program_paths and
                   (Path(p).is_dir() or benchreport.is_bench(p))]
    for path in program_paths:
        try:
            print(programsreport.render(programsreport.load(path)))
        except (OSError, ValueError, ProgramsError) as e:
            print(f"autocoll report: {e}", file=sys.stderr)
            status = 1
    for path in args.reports:
        if path in bench_paths or path in program_paths:
            continue
        try:
            print(report.render(report.load(path), verbose=args.verbose))
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


def add_arguments(p):
    p.add_argument("reports", nargs="+",
                   help="AUTOCOLL_REPORT=<path> files, autocoll_bench JSON files, or folders "
                        "of them (`autocoll bench --out`), `autocoll programs --out` folders")
    p.add_argument("--plots", help="benchmark results: write the plots (PNG) to this folder")
    p.add_argument("--verbose", action="store_true",
                   help="a layer's report: every column (each algorithm's calls, the "
                        "contexts' overheads), as AUTOCOLL_VERBOSE=2 prints it")

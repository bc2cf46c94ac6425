"""The manual pages, generated from what the programs declare: autocoll(7) from the settings'
declaration (`autocoll-info --json`) and the report's columns (analysis/report.py), autocoll-info(1) from its option table (`autocoll-info
--help`), autocoll(1) from the command line's parsers (cli.py). The build runs it (CMake, with
the standard library only) and installs the pages:

    python3 -m autocoll.manpages --info build/openmpi/autocoll-info --out build/openmpi/man
"""

import argparse
import json
import re
import subprocess
from pathlib import Path

from . import __version__, cli
from .analysis import report

SEE_ALSO = {"autocoll.7": ["autocoll-info(1)", "autocoll(1)", "mpirun(1)"],
            "autocoll-info.1": ["autocoll(7)", "autocoll(1)", "ompi_info(1)"],
            "autocoll.1": ["autocoll(7)", "autocoll-info(1)"]}


def text(s):
    """Running text for troff: backslashes, hyphens of names and options, and a leading dot or
    quote (a request) escaped."""
    s = s.replace("\\", "\\e").replace("-", "\\-")
    return re.sub(r"^([.'])", r"\\&\1", s, flags=re.M)


def page(name, section, summary, body):
    title = name.upper()
    see = ", ".join(f"\\fB{text(ref.split('(')[0])}\\fR({ref.split('(')[1]}"
                    for ref in SEE_ALSO[f"{name}.{section}"])
    return (f'.TH {title} {section} "" "autocoll {__version__}" "autocoll"\n'
            f".SH NAME\n{text(name)} \\- {text(summary)}\n{body}"
            f".SH SEE ALSO\n{see}\n")


def setting_entry(s):
    return (f".TP\n.B {text(s['name'])}\n"
            f"{text(s['type'])}: {text(s['values'])}; default "
            f"{text(s['default']) if s['default'] else '(none)'}.\n"
            f"{text(s['summary'])}.\n")


def autocoll_7(info):
    settings = "".join(setting_entry(s) for s in info["settings"])
    report_columns = "".join(f".TP\n.B {text(title)}\n{text(meaning)}.\n"
                             for title, _, _, meaning in report.CONTEXT_COLUMNS)
    tooling = ", ".join(f"\\fB{text(t)}\\fR" + ("*" if t.endswith("_") else "")
                        for t in info["tooling"])
    return page("autocoll", 7, "adaptive MPI collectives through the profiling interface", (
        ".SH SYNOPSIS\n"
        ".nf\n"
        "mpirun \\-x LD_PRELOAD=\\fIprefix\\fR/lib/autocoll/openmpi/libautocoll.so "
        "\\-x AUTOCOLL_STRATEGY=race ./app\n"
        "mpiexec \\-genv LD_PRELOAD \\fIprefix\\fR/lib/autocoll/mpich/libautocoll.so ./app\n"
        "cc app.c $(pkg\\-config \\-\\-cflags \\-\\-libs autocoll\\-openmpi)\n"
        ".fi\n"
        ".SH DESCRIPTION\n"
        "autocoll sits between an unmodified MPI program and the MPI library (Open MPI or "
        "MPICH) through the standard profiling interface, and runs each collective call with "
        "one algorithm from a repository of point\\-to\\-point implementations, or with the "
        "library's own. Preload the library built for the MPI the program runs on, or link it "
        "before the MPI library. Algorithms are forced, chosen by a strategy that learns at "
        "run time, or looked up in a configuration table; \\fBautocoll\\-info\\fR(1) lists "
        "them and shows the settings in effect.\n"
        ".SH SETTINGS\n"
        "Environment variables, which every rank must see alike (checked at \\fBMPI_Init\\fR; "
        "ranks configured differently disable the layer for the run). At \\fBMPI_Init\\fR rank "
        "0 reports, one line each, a value that is not one a setting takes (the default is "
        "used; nothing is clamped) and an \\fBAUTOCOLL_*\\fR variable that no setting "
        "declares, with the closest declared name.\n"
        f"{settings}"
        ".SH REPORT\n"
        "With \\fBAUTOCOLL_REPORT=stderr\\fR rank 0 prints at \\fBMPI_Finalize\\fR, per "
        "communicator and collective, the calls, bytes, seconds and the algorithms that ran; "
        "with a run\\-time strategy, one line per tuning context (communicator, collective, "
        "message size, call site), in these columns:\n"
        f"{report_columns}"
        ".PP\n"
        "With \\fBAUTOCOLL_REPORT=\\fR\\fIpath\\fR the same is JSON (schema "
        "autocoll\\-report); each context has \\fBsite\\fR (module+0xoffset), "
        "\\fBsite_name\\fR (the column's text) and \\fBcall_site\\fR (file, line, function, "
        "module, offset); \\fBautocoll report\\fR \\fIpath\\fR prints it as a table.\n"
        ".SH ENVIRONMENT\n"
        f"The project's test tooling uses {tooling}; they are not settings and pass without "
        "a word.\n"))


def help_options(help_text):
    """The description and the (option, help) pairs of `autocoll-info --help`."""
    description, options = [], []
    for line in help_text.splitlines()[1:]:
        m = re.match(r"^  (\S+(?: [A-Z]+)?)\s{2,}(.*)$", line)
        if m:
            options.append(m.groups())
        elif line.strip() and not options:
            description.append(line.strip())
    return " ".join(description), options


def autocoll_info_1(help_text):
    description, options = help_options(help_text)
    items = "".join(f".TP\n.B {text(o)}\n{text(h)}\n" for o, h in options)
    return page("autocoll-info", 1, "what autocoll offers and how the environment sets it", (
        ".SH SYNOPSIS\n.B autocoll\\-info\n[\\fIOPTION\\fR]...\n"
        f".SH DESCRIPTION\n{text(description)}\n"
        f".SH OPTIONS\n{items}"
        ".SH EXIT STATUS\n0, or 2 for an unknown option or filter (one line on stderr, with "
        "the closest name).\n"))


def autocoll_1():
    parser = cli.parser_of_commands()
    # argparse keeps its subcommands in its _SubParsersAction: no public access to them.
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    helps = {a.dest: a.help for a in commands._choices_actions}
    sections = "".join(
        f".SS {text('autocoll ' + name)}\n{text(helps[name])}.\n"
        f".PP\n.nf\n{text(sub.format_help().rstrip())}\n.fi\n"
        for name, sub in commands.choices.items())
    return page("autocoll", 1, "the autocoll tools: info, report, bench, tune and more", (
        ".SH SYNOPSIS\n.B autocoll\n\\fICOMMAND\\fR [\\fIOPTION\\fR]...\n"
        ".br\n.B autocoll \\-\\-version\n"
        f".SH DESCRIPTION\n{text(cli.__doc__.strip())}\nInput a command cannot use ends in "
        "one line on stderr and a non\\-zero exit status; on a terminal, long matrices show "
        "a progress bar with the time left.\n"
        f".SH COMMANDS\n{sections}"))


def write(info_program, out):
    """Writes the three pages into `out`; their paths."""
    info_program = str(info_program)
    info = json.loads(subprocess.run([info_program, "--json"], check=True, capture_output=True,
                                     text=True).stdout)
    help_text = subprocess.run([info_program, "--help"], check=True, capture_output=True,
                               text=True).stdout
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    pages = {"autocoll.7": autocoll_7(info), "autocoll-info.1": autocoll_info_1(help_text),
             "autocoll.1": autocoll_1()}
    for name, content in pages.items():
        (out / name).write_text(content)
    return [out / name for name in pages]


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python3 -m autocoll.manpages", description=__doc__)
    ap.add_argument("--info", required=True, help="the autocoll-info program of a build")
    ap.add_argument("--out", required=True, help="folder for the pages")
    args = ap.parse_args(argv)
    write(args.info, args.out)


if __name__ == "__main__":
    main()

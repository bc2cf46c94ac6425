"""The report as a profile (issue 23 item 4): call sites named `file:line (function)` where the
program has debug information (tests/mpi/call_sites.c, two MPI_Allreduce lines marked
`/* call site: ... */`), module+0xoffset without it; tuning-context columns in plain words with
algorithm names whole. The text report (AUTOCOLL_REPORT=stderr), the JSON and `autocoll report`
over the JSON, under both MPIs."""

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from autocoll.analysis import report
from conftest import ROOT, autocoll_cli, build_dir, registry, run_mpi

SOURCE = ROOT / "tests/mpi/call_sites.c"
ITERATIONS = "200"
RACE = {"AUTOCOLL_STRATEGY": "race"}
TITLES = [column[0] for column in report.CONTEXT_COLUMNS]  # the C report's, in its order


def marked_lines():
    """The line numbers of the calls the report must name, from the markers in the source."""
    lines = [n for n, text in enumerate(SOURCE.read_text().splitlines(), 1)
             if "MPI_Allreduce(" in text and "/* call site: " in text]
    assert len(lines) == 2, lines
    return lines


def run_program(mpi, np, program, tmp_path, env, text):
    """The program's run with its JSON report, or with the text report on stderr, every column
    (AUTOCOLL_VERBOSE=2: the compact one is test_the_text_report_keeps_within_120_columns)."""
    env = dict(env, AUTOCOLL_REPORT="stderr", AUTOCOLL_VERBOSE="2") if text else env
    run = run_mpi(mpi, np, f"tests/mpi/{program}", tmp_path, env=env, report=not text,
                  args=[ITERATIONS])
    assert f"call_sites: {ITERATIONS} iterations, ok" in run.stdout, run.stdout + run.stderr
    return run


def allreduce_contexts(run):
    return run.collective("MPI_COMM_WORLD", "allreduce")["contexts"]


def context_lines(text):
    """The rows of the tuning-context table of a text report, and its title line."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("tuning contexts ("))
    rows = []
    for line in lines[start + 2:]:
        if not line.startswith("  "):
            break
        rows.append(line)
    return lines[start + 1], rows


def check_titles(title):
    assert len(TITLES) == 12, TITLES
    positions = [title.find(t) for t in TITLES]
    assert -1 not in positions and positions == sorted(positions), title
    assert "O_MS" not in title and "O_MA" not in title and " sw " not in title, title


def check_names_in_text(text, names):
    """Every allreduce row of the table ends with one of `names`, and every name has a row."""
    title, rows = context_lines(text)
    check_titles(title)
    ends = [next((n for n in names if row.endswith("  " + n)), None)
            for row in rows if " allreduce " in row]
    assert None not in ends and sorted(set(ends)) == sorted(names), (names, rows)


@pytest.mark.parametrize("mpi,np", [("openmpi", 2), ("openmpi", 3), ("openmpi", 4),
                                    ("mpich", 2)])
def test_call_sites_by_source_line(mpi, np, tmp_path):
    lines = marked_lines()
    names = [f"call_sites.c:{n} (exchange)" for n in lines]
    run = run_program(mpi, np, "call_sites", tmp_path, RACE, text=False)
    assert run.report["site_lines"].startswith("libdw "), run.report["site_lines"]
    contexts = allreduce_contexts(run)
    assert sorted(x["site_name"] for x in contexts) == sorted(names), contexts
    module = build_dir(mpi) / "tests/mpi/call_sites"
    for x in contexts:
        site = x["call_site"]
        assert Path(site["file"]).resolve() == SOURCE.resolve(), site
        assert site["line"] in lines and site["function"] == "exchange", site
        assert Path(site["module"]).resolve() == module.resolve(), site
        assert x["site"] == f"call_sites+{site['offset']:#x}", (x["site"], site)
    shown = autocoll_cli("report", "--verbose", str(tmp_path / f"report-{mpi}-{np}.json"))
    assert shown.returncode == 0, shown.stderr
    check_names_in_text(shown.stdout, names)
    text = run_program(mpi, np, "call_sites", tmp_path, RACE, text=True)
    check_names_in_text(text.stderr, names)


@pytest.mark.parametrize("mpi,np", [("openmpi", 3), ("mpich", 2)])
def test_call_sites_without_debug_information(mpi, np, tmp_path):
    """Without -g: module+0xoffset and the function from the symbol table; stripped: the
    module and offset alone."""
    for program, function in [("call_sites_nodebug", "exchange"), ("call_sites_stripped", None)]:
        run = run_program(mpi, np, program, tmp_path, RACE, text=False)
        contexts = allreduce_contexts(run)
        assert len(contexts) == 2, contexts
        names = []
        for x in contexts:
            site = x["call_site"]
            assert re.fullmatch(rf"{program}\+0x[0-9a-f]+", x["site"]), x["site"]
            assert site["file"] is None and site["line"] is None, site
            assert site["function"] == function, site
            suffix = f" ({function})" if function else ""
            assert x["site_name"] == x["site"] + suffix, x
            names.append(x["site_name"])
        text = run_program(mpi, np, program, tmp_path, RACE, text=True)
        check_names_in_text(text.stderr, names)


@pytest.mark.parametrize("mpi", ["openmpi", "mpich"])
def test_cxx_call_site_is_named_as_its_source_names_it(mpi, tmp_path):
    """A C++ member function without debug information: the symbol table's mangled name
    (_ZN6solver4Halo8exchangeEi) is shown demangled, in the JSON and the text report."""
    run = run_mpi(mpi, 2, "tests/lang/call_sites_cxx", tmp_path, env=RACE, args=[ITERATIONS])
    assert f"call_sites_cxx: {ITERATIONS} iterations, ok" in run.stdout, run.stdout + run.stderr
    (x,) = allreduce_contexts(run)
    assert x["call_site"]["function"] == "solver::Halo::exchange(int)", x["call_site"]
    assert x["site_name"] == x["site"] + " (solver::Halo::exchange(int))", x
    shown = autocoll_cli("report", "--verbose", str(tmp_path / f"report-{mpi}-2.json"))
    assert "(solver::Halo::exchange(int))" in shown.stdout, shown.stdout


@pytest.mark.parametrize("mpi", ["openmpi", "mpich"])
def test_autocoll_info_says_how_sites_are_named(mpi):
    info = registry(mpi)
    assert info["site_lines"].startswith("libdw 0."), info["site_lines"]
    run = subprocess.run([str(build_dir(mpi) / "autocoll-info")], capture_output=True, text=True)
    assert (f"\nreport: call sites as file:line (function), read with {info['site_lines']}\n"
            in run.stdout), run.stdout
    run = subprocess.run([str(build_dir(mpi) / "autocoll-info"), "--parsable"],
                         capture_output=True, text=True)
    assert f"autocoll:site_lines:{info['site_lines']}\n" in run.stdout


def longest_allreduce(mpi, np):
    """The longest name of an allreduce algorithm for np ranks that requires nothing."""
    names = [a["name"] for a in registry(mpi, np)["algorithms"]
             if a["collective"] == "allreduce" and not a["requires"]]
    name = max(names, key=len)
    assert len(name) > 28, name  # longer than the column the report once cut names to
    return name


@pytest.mark.parametrize("mpi,np", [("openmpi", 4), ("mpich", 3)])
def test_long_algorithm_names_are_whole(mpi, np, tmp_path):
    """A table rule makes the longest allreduce name the chosen one of the 256-byte context:
    the text report, the JSON and `autocoll report` show it whole."""
    name = longest_allreduce(mpi, np)
    table = tmp_path / "table.json"
    table.write_text(json_table(mpi, name))
    env = {"AUTOCOLL_STRATEGY": "table", "AUTOCOLL_TABLE": str(table)}
    run = run_program(mpi, np, "call_sites", tmp_path, env, text=False)
    chosen = {x["bytes"]: x["chosen"] for x in allreduce_contexts(run)}
    assert chosen[256] == name, chosen
    shown = autocoll_cli("report", "--verbose", str(tmp_path / f"report-{mpi}-{np}.json"))
    text = run_program(mpi, np, "call_sites", tmp_path, env, text=True)
    for out in (shown.stdout, text.stderr):
        title, rows = context_lines(out)
        check_titles(title)
        row = next(r for r in rows if re.search(r" allreduce +256 ", r))
        assert f"  {name}  " in row, row


def json_table(mpi, name):
    return json.dumps({
        "schema": "autocoll-table", "version": 1,
        "registry_fingerprint": registry(mpi)["registry_fingerprint"],
        "platform": {"hostname": "test"}, "cells": [],
        "rules": [{"collective": "allreduce", "ranks": [1, None], "bytes": [256, 256],
                   "algorithm": name}]})


def test_call_sites_under_simgrid(tmp_path):
    """Under SMPI every simulated rank runs its own copy of the program (smpirun's
    privatization names them <program>_<pid>_<rank>.so), so ranks' call sites differ: the
    contexts are site-less ("*", and the reason in the buckets) and the report is whole."""
    program = ROOT / "build/simgrid/tests/simgrid/call_sites"
    if shutil.which("smpirun") is None or not program.exists():
        pytest.fail("SimGrid or build/simgrid is missing: run scripts/setup")
    env = {k: v for k, v in os.environ.items() if not k.startswith("AUTOCOLL")}
    path = tmp_path / "report.json"
    for where in (str(path), "stderr"):
        env.update(RACE, AUTOCOLL_REPORT=where, AUTOCOLL_VERBOSE="2")  # every column
        run = subprocess.run([str(ROOT / "tests/mpirun.sh"), "simgrid", "2", str(program),
                              ITERATIONS], env=env, capture_output=True, text=True, timeout=300)
        assert f"call_sites: {ITERATIONS} iterations, ok" in run.stdout, run.stdout + run.stderr
    report = json.loads(path.read_text())
    assert report["site_lines"].startswith("libdw "), report["site_lines"]
    allreduce = next(c for c in report["communicators"]
                     if c["name"] == "MPI_COMM_WORLD")["collectives"]["allreduce"]
    assert sum(x["calls"] for x in allreduce["contexts"]) == 2 * int(ITERATIONS)
    for x in allreduce["contexts"]:
        assert x["site"] == x["site_name"] == "*" and x["call_site"] is None, x
    assert {b["siteless_reason"] for b in allreduce["buckets"]} == \
        {"ranks called from different sites"}, allreduce["buckets"]
    check_names_in_text(run.stderr, ["*"])


@pytest.mark.parametrize("mpi", ["openmpi", "mpich"])
def test_report_summary_says_whether_it_helped(mpi, tmp_path):
    """The report ends with the run in a few lines: the calls the layer ran, what tuning saved
    or lost against native (the contexts' estimates summed), the calls left untuned. With
    AUTOCOLL_MAX_SITES=1 the second allreduce site and the reduce run untuned (201 calls)."""
    env = {**RACE, "AUTOCOLL_MAX_SITES": "1"}
    run = run_mpi(mpi, 3, "tests/mpi/call_sites", tmp_path, env=env, args=[ITERATIONS])
    s = run.report["summary"]
    comms = run.report["communicators"]
    assert s["calls"] == sum(c["calls"] for m in comms for c in m["collectives"].values())
    assert s["untuned"] == int(ITERATIONS) + 1, s
    (x,) = allreduce_contexts(run)
    assert s["contexts"] == 1 and s["contexts_without_native"] == 0, s
    assert s["saved_seconds"] == pytest.approx(x["saved_seconds"]), (s, x)
    assert s["strategy"] == "race" and s["tunes"] is True
    shown = autocoll_cli("report", str(tmp_path / f"report-{mpi}-3.json"))
    text = run_mpi(mpi, 3, "tests/mpi/call_sites", tmp_path, args=[ITERATIONS],
                   env={**env, "AUTOCOLL_REPORT": "stderr"}, report=False).stderr
    for out in (shown.stdout, text):
        summary = out[out.index("summary: "):].splitlines()
        assert summary[0].startswith(f"summary: {s['calls']} calls run by the layer"), out
        assert re.fullmatch(r"  1 tuning contexts: (saved|lost) \d+\.\d{6} s against native "
                            r"\(an estimate, learning included\)", summary[1]), summary
        # whether race is deciding again at the end depends on this machine's timings
        assert re.fullmatch(r"  0 never measured native; [01] still deciding at the end "
                            r"\(\d+ calls: too few to decide\); 0 of one call", summary[2]), summary
        assert summary[3] == (f"  untuned: {int(ITERATIONS) + 1} calls beyond AUTOCOLL_MAX_SITES "
                              "or _SIZES, 0 on one-rank communicators"), summary
        assert all(len(line) <= 120 for line in summary)
    native = run_mpi(mpi, 3, "tests/mpi/call_sites", tmp_path, args=[ITERATIONS])
    assert native.report["summary"]["tunes"] is False


@pytest.mark.parametrize("mpi", ["openmpi", "mpich"])
def test_untuned_and_passed_through_calls_say_why(mpi, tmp_path):
    """A communicator of one rank is not tuned (every algorithm moves nothing there: the demo
    under MPICH once raced 10 on one): its calls run native and are counted as untuned there;
    the contexts still deciding at the end and those of one call are counted; calls passed
    through are counted by reason (the demo passes none)."""
    run = run_mpi(mpi, 1, "demo", tmp_path, env=RACE)
    s = run.report["summary"]
    assert s["contexts"] == 0 and s["untuned_one_rank"] == s["calls"] > 0, s
    assert all(list(c["algorithms"]) == ["native"]
               for m in run.report["communicators"] for c in m["collectives"].values())
    assert s["passthrough_reasons"] == {"arguments": 0, "large_count": 0, "no_topology": 0,
                                        "intercommunicator": 0, "no_state": 0, "not_run": 0}, s
    told = run_mpi(mpi, 1, "demo", tmp_path, env={**RACE, "AUTOCOLL_TUNE_ONE_RANK": "on"})
    t = told.report["summary"]  # what scripts/call_cost measures a settled path with
    assert t["contexts"] > 0 and t["untuned_one_rank"] == 0, t
    # 3 ranks, too few calls for race to decide on every context: counted as deciding
    few = run_mpi(mpi, 3, "tests/mpi/call_sites", tmp_path, env=RACE, args=["2"])
    f = few.report["summary"]
    assert f["contexts_deciding"] > 0 and f["calls_deciding"] >= f["contexts_deciding"], f
    assert f["contexts_of_one_call"] <= f["contexts"], f


@pytest.mark.parametrize("mpi", ["openmpi", "mpich"])
def test_the_text_report_keeps_within_120_columns(mpi, tmp_path):
    """Without AUTOCOLL_VERBOSE=2 (or `autocoll report --verbose`) the text report's lines
    keep within 120 columns: the number of algorithms a collective ran, the contexts' main
    columns, a long call site on a line of its own; the verbose form has every column."""
    text = run_mpi(mpi, 4, "demo", tmp_path, report=False,
                   env={**RACE, "AUTOCOLL_REPORT": "stderr"}).stderr
    report = text[text.index("autocoll report: "):]
    long = [line for line in report.splitlines() if len(line) > 120]
    assert not long, long
    assert "algorithms (calls)" not in report and "learning overhead s" not in report
    title, rows = context_lines(report)
    assert all(t in title for t in ("communicator", "decided at", "saved s", "chosen")), title
    run = run_mpi(mpi, 4, "demo", tmp_path, env=RACE)
    shown = autocoll_cli("report", str(tmp_path / f"report-{mpi}-4.json"))
    assert all(len(line) <= 120 for line in shown.stdout.splitlines()), shown.stdout
    full = autocoll_cli("report", "--verbose", str(tmp_path / f"report-{mpi}-4.json")).stdout
    assert "algorithms (calls)" in full and "learning overhead s" in full
    assert run.report["communicators"]

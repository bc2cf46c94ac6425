"""The `autocoll` command as a user meets it: installed with pip from the repository it runs
from any folder, --version, bad input ends in one line and a non-zero status (no traceback),
a reader leaving a pipe early ends it quietly, and long sweeps show a bar with the time left
on a terminal (the `[i/N]` lines elsewhere)."""

import io
import json
import os
import shutil
import subprocess
import sys

import pytest

from autocoll import __version__
from autocoll.run import progress

from conftest import ROOT, autocoll_cli as cli, registry


def test_version_is_the_library_version():
    out = cli("--version")
    assert out.returncode == 0 and out.stdout == f"autocoll {__version__}\n"
    assert registry("openmpi")["autocoll_version"] == __version__  # CMake's project version


@pytest.mark.parametrize("args, message", [
    (["bench", "--ranks", "x"], "autocoll bench: bad rank counts 'x': 'x' is not a positive "
                                "integer"),
    (["bench", "--ranks", "2,0"], "autocoll bench: bad rank counts '2,0': '0' is not a "
                                  "positive integer"),
    (["bench", "--collectives", "allreduce,bogus"], "autocoll bench: unknown collective(s) "
                                                    "bogus (one of allgather, "),
    (["bench", "--sizes", "1Q"], "autocoll bench: bad sizes '1Q': bad message size '1Q'"),
    (["bench", "--iterations", "x"], "autocoll bench: argument --iterations: invalid int value: "
                                     "'x' (autocoll bench --help)"),
    (["tune", "--ranks", "-1"], "autocoll tune: bad rank counts '-1'"),
    (["info", "--size", "x"], "autocoll info: argument --size: 'x' is not a positive integer"),
    (["info", "--size", "0"], "autocoll info: argument --size: '0' is not a positive integer"),
    (["frobnicate"], "autocoll: argument command: invalid choice: 'frobnicate'"),
    ([], "autocoll: the following arguments are required: command"),
])
def test_bad_input_is_one_line_and_a_failure(args, message, tmp_path):
    if args and args[0] in ("bench", "tune"):
        args = [args[0], "--out", str(tmp_path / "out"), *args[1:]]
    run = cli(*args, timeout=120)
    assert run.returncode != 0
    assert run.stderr.startswith(message) and run.stderr.count("\n") == 1, run.stderr
    assert run.stdout == ""
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


@pytest.mark.parametrize("script, message", [
    ("exit 3", "autocoll info: Command '['"),
    ("echo '{not json'", "autocoll info: Expecting property name"),
])
def test_a_failing_program_is_one_line(tmp_path, script, message):
    """What the commands meet that is not argparse's to check (here a broken autocoll-info
    found through AUTOCOLL_BUILD) still ends in one line and status 1."""
    info = tmp_path / "openmpi" / "autocoll-info"
    info.parent.mkdir()
    info.write_text(f"#!/bin/sh\n{script}\n")
    info.chmod(0o755)
    env = dict(os.environ, AUTOCOLL_BUILD=str(tmp_path))
    done = subprocess.run([sys.executable, "-m", "autocoll", "info"], capture_output=True,
                          text=True, env=env, timeout=60)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.startswith(message) and done.stderr.count("\n") == 1, done.stderr


def test_a_closed_pipe_ends_quietly():
    """`autocoll info | head -1`, and a reader that leaves before the first line."""
    shell = subprocess.run(f"{sys.executable} -m autocoll info | head -1", shell=True,
                           capture_output=True, text=True, timeout=60)
    assert shell.stdout.startswith("autocoll ") and shell.stdout.count("\n") == 1
    assert shell.stderr == ""
    proc = subprocess.Popen([sys.executable, "-m", "autocoll", "info"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    proc.stdout.close()  # before the interpreter has started: the first write meets EPIPE
    err = proc.stderr.read()
    assert proc.wait(timeout=60) == 1
    assert err == ""


def test_pip_install_gives_the_command_anywhere(tmp_path):
    """`pip install ./tools` (a copy: the build leaves files beside the sources) into a folder
    of its own; its `autocoll` runs from another folder, finding the build by AUTOCOLL_BUILD."""
    shutil.copytree(ROOT / "tools", tmp_path / "src", ignore=shutil.ignore_patterns(
        "__pycache__", "*.egg-info", "build"))
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-build-isolation",
                    "--no-deps", "--target", str(tmp_path / "site"), str(tmp_path / "src")],
                   check=True, capture_output=True, text=True, timeout=300)
    command = tmp_path / "site" / "bin" / "autocoll"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env.update(PYTHONPATH=str(tmp_path / "site"), AUTOCOLL_BUILD=str(ROOT / "build"))
    version = subprocess.run([str(command), "--version"], cwd="/", env=env, capture_output=True,
                             text=True, timeout=60)
    assert version.stdout == f"autocoll {__version__}\n", version.stderr
    info = subprocess.run([str(command), "info"], cwd="/", env=env, capture_output=True,
                          text=True, timeout=60)
    assert info.returncode == 0 and info.stdout.startswith(f"autocoll {__version__} for openmpi")
    where = subprocess.run([str(command.parent.parent / "bin" / "autocoll"), "report", "/none"],
                           cwd="/", env=env, capture_output=True, text=True, timeout=60)
    assert where.returncode == 1 and "Traceback" not in where.stderr
    # the platforms come with the package (not from the checkout) ...
    site = tmp_path / "site" / "autocoll" / "platforms"
    assert sorted(p.name for p in site.glob("*.xml")) == sorted(
        p.name for p in (ROOT / "platforms").glob("*.xml"))
    listed = subprocess.run([str(command), "simgrid", "platforms"], cwd="/", env=env,
                            capture_output=True, text=True, timeout=60)
    assert listed.returncode == 0 and "fat-tree-ib" in listed.stdout, listed.stderr
    # ... and a simulated benchmark runs from elsewhere with the builds of AUTOCOLL_BUILD
    out = tmp_path / "cells"
    bench = subprocess.run([str(command), "bench", "--simgrid", "fat-tree-ib", "--ranks", "2",
                            "--collectives", "allreduce", "--sizes", "8", "--iterations", "3",
                            "--layers", "", "--only", "native", "--out", str(out)],
                           cwd="/", env=env, capture_output=True, text=True, timeout=600)
    assert bench.returncode == 0, bench.stdout + bench.stderr
    (cell,) = out.glob("allreduce-8-np2-ompi.json")
    assert str(site) in cell.read_text()  # the platform file it ran is the package's


class Terminal(io.StringIO):
    def isatty(self):
        return True


def test_progress_shows_the_time_left_on_a_terminal(monkeypatch):
    said = []
    monkeypatch.setattr(sys, "stderr", Terminal())
    with progress.Progress(4, log=said.append) as p:
        p.skip(1, "a: done earlier, kept")
        p.step(2, "b: 3 s")
        assert p.bar.total == 3 and p.bar.n == 1
    bar = sys.stderr.getvalue()
    assert "1/3" in bar and "<" in bar  # tqdm's "elapsed<left"
    assert said == ["[1/4] a: done earlier, kept", "[2/4] b: 3 s"]


def test_progress_elsewhere_is_the_lines(monkeypatch):
    said = []
    monkeypatch.setattr(sys, "stderr", io.StringIO())
    with progress.Progress(2, log=said.append) as p:
        p.step(1, "a")
        p.say("something")
        assert p.bar is None
    assert said == ["[1/2] a", "something"] and sys.stderr.getvalue() == ""

"""The files the layer writes and reads where the user points it (the history file, the table,
the JSON report), against a hostile or shared folder (issue 41, items 1 to 3 and 9):
temporary files are created exclusively (a link planted at a predictable name is never written
through), a symbolic link's target is updated and the link kept, the file's mode survives a
rewrite, a read-only file is left alone with one warning, a FIFO never blocks MPI_Init, and
temporary files of dead jobs are removed."""

import os
import stat
import subprocess

import pytest

from conftest import run_mpi
from test_history import demo_with, reported, sections

HOST = os.uname().nodename.replace("/", "_").replace(".", "_")


def test_symlinked_history_updates_its_target(tmp_path):
    target = tmp_path / "shared" / "history"
    target.parent.mkdir()
    link = tmp_path / "history"
    link.symlink_to(target)
    demo_with(link, tmp_path)
    assert link.is_symlink(), "the link was replaced by a regular file"
    assert sections(target), "the target was not written"
    before = target.stat().st_ino
    run = demo_with(link, tmp_path, np=3)  # a new platform section: written again
    assert link.is_symlink() and target.stat().st_ino != before, run.stderr
    assert not [f for f in target.parent.iterdir() if ".tmp." in f.name]


def test_planted_link_at_the_old_temporary_name_is_not_followed(tmp_path):
    """Before, the writer opened <history>.tmp.<host>.<pid> with fopen("w"): anyone able to write
    to the folder could plant a link there to any file of the user (the JSON report likewise at
    <report>.tmp.<pid>). The job runs in a PID namespace of its own (unshare), where its pids
    are small and known: both names are planted for every pid it can have, so the old writer
    would follow one. The victim must stay untouched."""
    victim = tmp_path / "victim"
    victim.write_text("precious\n")
    history = tmp_path / "history"
    report = tmp_path / "report.json"
    for p in range(1, 1000):
        (tmp_path / f"history.tmp.{HOST}.{p}").symlink_to(victim)
        (tmp_path / f"report.json.tmp.{p}").symlink_to(victim)
    run = run_mpi("openmpi", 2, "bench/call_cost", tmp_path, args=["2000"], report=False,
                  env={"AUTOCOLL_STRATEGY": "star", "AUTOCOLL_HISTORY": str(history),
                       "AUTOCOLL_REPORT": str(report)},
                  wrapper=["unshare", "--pid", "--fork", "--mount-proc"])
    assert run.rc == 0, run.stdout + run.stderr
    assert victim.read_text() == "precious\n"
    assert sections(history)
    assert report.is_file() and not report.is_symlink()


def test_mode_of_a_group_shared_history_is_kept(tmp_path):
    history = tmp_path / "history"
    demo_with(history, tmp_path)
    os.chmod(history, 0o660)
    before = history.stat().st_ino
    demo_with(history, tmp_path, np=3)  # a new platform section: the file is rewritten
    assert history.stat().st_ino != before and len(sections(history)) == 2
    assert stat.S_IMODE(history.stat().st_mode) == 0o660


def test_read_only_history_is_read_and_left_alone(tmp_path):
    """Mode 0444: the run starts warm from it, says once that it will not update it, and leaves
    its content and mode as they were (root too: the mode bits decide, not access(2))."""
    history = tmp_path / "history"
    demo_with(history, tmp_path)
    os.chmod(history, 0o444)
    text = history.read_text()
    run = demo_with(history, tmp_path)
    lines = [line for line in reported(run.stderr) if "cannot be updated" in line]
    assert len(lines) == 1 and "0444" in lines[0], run.stderr
    assert history.read_text() == text
    assert stat.S_IMODE(history.stat().st_mode) == 0o444


@pytest.mark.parametrize("setting", ["AUTOCOLL_HISTORY", "AUTOCOLL_TABLE"])
def test_fifo_does_not_block_mpi_init(setting, tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    env = {"AUTOCOLL_STRATEGY": "star" if setting == "AUTOCOLL_HISTORY" else "table",
           setting: str(fifo)}
    try:
        run = run_mpi("openmpi", 2, "bench/call_cost", tmp_path, env=env, args=["200"],
                      timeout=120)
    except subprocess.TimeoutExpired:
        pytest.fail(f"{setting} naming a FIFO blocked the run")
    assert run.rc == 0, run.stdout + run.stderr
    assert "not a regular file" in run.stderr, run.stderr
    assert stat.S_ISFIFO(fifo.stat().st_mode)


def test_temporaries_of_dead_jobs_are_removed(tmp_path):
    """A job killed while writing leaves <history>.tmp.<host>.<pid>...; the next write removes
    those of this host's dead processes and no other file."""
    history = tmp_path / "history"
    dead = subprocess.Popen(["true"])
    dead.wait()
    stale = tmp_path / f"history.tmp.{HOST}.{dead.pid}.abc123"
    stale.write_text("half")
    legacy = tmp_path / f"history.tmp.{HOST}.{dead.pid}"
    legacy.write_text("half")
    alive = tmp_path / f"history.tmp.{HOST}.{os.getpid()}.abc123"
    alive.write_text("in progress")
    other = tmp_path / f"history.tmp.otherhost.{dead.pid}.abc123"
    other.write_text("not ours to judge")
    demo_with(history, tmp_path)
    assert not stale.exists() and not legacy.exists()
    assert alive.exists() and other.exists()
    assert sections(history)

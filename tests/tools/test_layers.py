"""scripts/check_layers: the include graph of src/ follows the layering of its folders
(coll < core < select < report < intercept, info on top), and the checker catches what it
must catch."""

import subprocess
import sys

from conftest import ROOT

CHECKER = ROOT / "scripts/check_layers"


def check_layers(root):
    return subprocess.run([sys.executable, str(CHECKER), str(root)], capture_output=True,
                          text=True, timeout=60)


def tree(root, files):
    """A synthetic checkout: {path under root: content}."""
    for path, text in files.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text)
    return root


def test_tree_follows_the_layers():
    run = check_layers(ROOT)
    assert run.returncode == 0, run.stdout + run.stderr


def test_accepts_downward_includes(tmp_path):
    run = check_layers(tree(tmp_path, {
        "include/autocoll.h": "",
        "src/coll/coll.h": "",
        "src/core/state.h": '#include "coll/coll.h"\n',
        "src/select/select.c": '#include "core/state.h"\n#include "select/select.h"\n',
        "src/select/select.h": '#include "autocoll.h"\n',
        "src/intercept/init.c": '#include "select/select.h"\n',
        "src/info/autocoll_info.c": '#include "intercept/intercept.h"\n',
        "src/intercept/intercept.h": "",
    }))
    assert run.returncode == 0, run.stdout + run.stderr
    assert "no violations" in run.stdout


def test_catches_an_upward_include(tmp_path):
    run = check_layers(tree(tmp_path, {
        "src/coll/coll.h": "",
        "src/select/history.h": '#include "coll/coll.h"\n',
        "src/core/state.c": '#include "coll/coll.h"\n#include "select/history.h"\n',
    }))
    assert run.returncode == 1
    assert ("upward: core/state.c includes select/history.h (core may not include select)"
            in run.stdout.splitlines()), run.stdout
    assert "cycle" not in run.stdout


def test_catches_a_cycle(tmp_path):
    run = check_layers(tree(tmp_path, {
        "src/core/state.h": "",
        "src/core/state.c": '#include "select/select.h"\n',
        "src/select/select.h": "",
        "src/select/select.c": '#include "core/state.h"\n',
    }))
    assert run.returncode == 1
    assert ("cycle: core -> select -> core (core/state.c includes select/select.h; "
            "select/select.c includes core/state.h)") in run.stdout.splitlines(), run.stdout


def test_catches_includes_of_the_tool_and_unknown_folders(tmp_path):
    run = check_layers(tree(tmp_path, {
        "src/info/info.h": "",
        "src/intercept/init.c": '#include "info/info.h"\n#include "core/missing.h"\n',
        "src/extra/extra.c": "",
    }))
    assert run.returncode == 1
    lines = run.stdout.splitlines()
    assert "upward: intercept/init.c includes info/info.h (intercept may not include info)" in lines
    assert 'unresolved: intercept/init.c includes "core/missing.h", which names no file' in lines
    assert "unplaced: src/extra is in no layer (scripts/check_layers: LAYERS)" in lines

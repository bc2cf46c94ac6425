"""The settings table of docs/guide.md (the user guide, where the README points for every
setting) against the one declaration of the settings (src/core/config.c), as `autocoll-info
--json` prints it: every setting has a row with the same default, and every row names a
setting. One row per setting; `AUTOCOLL_<COLLECTIVE>` stands for the settings that force an
algorithm (type "algorithm"). A default cell is `value`, or (none) for an empty one."""

import re

from conftest import ROOT, registry

GUIDE = ROOT / "docs" / "guide.md"

ROW = re.compile(r"^\| `(AUTOCOLL[A-Z0-9_<>]*)` \| (`[^`]*`|\(none\)) \|")
FORCED_ROW = "AUTOCOLL_<COLLECTIVE>"


def guide_table(text):
    """{setting: default} of the rows of the guide's "### Settings" section."""
    section = text.split("\n### Settings\n", 1)[1].split("\n### ", 1)[0]
    rows = {}
    for line in section.splitlines():
        if not line.startswith("| `AUTOCOLL"):
            continue
        m = ROW.match(line)
        assert m, f"a settings row not of the form | `NAME` | `default` or (none) | ...: {line}"
        name, cell = m.groups()
        assert name not in rows, f"{name} has two rows"
        rows[name] = "" if cell == "(none)" else cell.strip("`")
    return rows


def disagreements(rows, settings):
    """What the guide's rows and the declared settings disagree on, as sentences."""
    declared = {s["name"]: s for s in settings}
    forced = {n for n, s in declared.items() if s["type"] == "algorithm"}
    out = []
    for name, s in declared.items():
        row = FORCED_ROW if name in forced else name
        if row not in rows:
            out.append(f"{name} is not in the guide's table")
        elif rows[row] != s["default"]:
            out.append(f"{name}: the guide says default {rows[row]!r}, the declaration "
                       f"{s['default']!r}")
    for name in rows:
        if name != FORCED_ROW and name not in declared:
            out.append(f"the guide names {name}, which is not a setting")
    if FORCED_ROW in rows and not forced:
        out.append(f"the guide names {FORCED_ROW}, but no setting forces an algorithm")
    return out


def test_guide_table_matches_the_declaration():
    settings = registry("openmpi")["settings"]
    rows = guide_table(GUIDE.read_text())
    assert disagreements(rows, settings) == []


def test_the_check_finds_each_kind_of_disagreement():
    settings = registry("openmpi")["settings"]
    rows = guide_table(GUIDE.read_text())
    missing = dict(rows)
    del missing["AUTOCOLL_STAR_ITER"]
    assert disagreements(missing, settings) == ["AUTOCOLL_STAR_ITER is not in the guide's table"]
    other_default = dict(rows, AUTOCOLL_RACE_FINAL="8")
    assert disagreements(other_default, settings) == [
        "AUTOCOLL_RACE_FINAL: the guide says default '8', the declaration '0'"]
    invented = dict(rows, AUTOCOLL_STAR_FASTER="on")
    assert disagreements(invented, settings) == [
        "the guide names AUTOCOLL_STAR_FASTER, which is not a setting"]
    no_forced_row = {k: v for k, v in rows.items() if k != FORCED_ROW}
    assert "AUTOCOLL_ALLREDUCE is not in the guide's table" in disagreements(no_forced_row,
                                                                           settings)


def test_info_describes_every_setting():
    """autocoll-info's settings come from the declaration: a type and the values it takes."""
    types = {"switch", "integer", "real", "keyword", "path", "algorithm", "name"}
    for s in registry("openmpi")["settings"]:
        assert s["type"] in types and s["values"] and s["summary"], s

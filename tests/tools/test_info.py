"""autocoll-info in the manner of ompi_info: --help, the overview that fits on a screen, the
filters (collective, algorithm/group/family, setting, --settings, --all), every setting's current
value and source, --parsable and --json, and one-line errors for bad options."""

import json
import os
import re
import subprocess

import pytest

from conftest import build_dir, registry

COLLECTIVES = ["allgather", "allgatherv", "allreduce", "alltoall", "alltoallv", "barrier",
               "bcast", "gather", "reduce", "reduce_scatter", "reduce_scatter_block", "scatter"]


def info(*args, env=None, check=True):
    """autocoll-info ARGS with no AUTOCOLL_* variable but those of `env`."""
    e = {k: v for k, v in os.environ.items() if not k.startswith("AUTOCOLL")}
    e.update(env or {})
    run = subprocess.run([str(build_dir("openmpi") / "autocoll-info"), *args], env=e,
                         capture_output=True, text=True)
    if check:
        assert run.returncode == 0 and run.stderr == "", run.stderr
    return run


def info_json(*args, env=None):
    return json.loads(info("--json", *args, env=env).stdout)


def test_help_lists_every_option():
    out = info("--help").stdout
    assert out.startswith("usage: autocoll-info")
    for option in ["--collective C", "--algorithm NAME", "--setting NAME", "--settings", "--all",
                   "--size N", "--parsable", "--json", "--help"]:
        assert f"\n  {option} " in out, option
    assert info("-h").stdout == out


def test_overview_fits_on_a_screen():
    out = info().stdout
    lines = out.splitlines()
    assert len(lines) <= 40, len(lines)
    assert max(map(len, lines)) <= 100
    assert lines[0].startswith("autocoll 0.1.0 built for openmpi (registry ")
    for coll in COLLECTIVES:
        assert re.search(rf"^{coll} +\d+ +\d+  ", out, re.M), coll
    assert "strategy native (AUTOCOLL_STRATEGY, default)" in out
    assert f"{len(registry('openmpi')['settings'])} settings, 0 set in this environment\n" in out
    assert "more: autocoll-info --collective C" in out


def test_overview_shows_what_the_environment_sets():
    out = info(env={"AUTOCOLL_STRATEGY": "race", "AUTOCOLL_STAR_ITER": "-3",
                    "AUTOCOLL_ALLREDUCE": "rign", "AUTOCOLL_STRATGY": "star",
                    "AUTOCOLL_TEST_LONG": "1"}).stdout
    assert "strategy race (AUTOCOLL_STRATEGY, environment)" in out
    assert f"{len(registry('openmpi')['settings'])} settings, 3 set in this environment:" in out
    assert "  AUTOCOLL_STRATEGY = race  (environment; default native)\n" in out
    assert "  AUTOCOLL_STAR_ITER = 10  (AUTOCOLL_STAR_ITER=-3 is invalid: 10 is used)\n" in out
    assert "  AUTOCOLL_ALLREDUCE = native  (AUTOCOLL_ALLREDUCE=rign is invalid: native is used)" \
        in out
    assert "  AUTOCOLL_STRATGY=star  (did you mean AUTOCOLL_STRATEGY?)\n" in out
    assert "AUTOCOLL_TEST_LONG" not in out  # the test tooling's


def test_collective_filter_lists_its_algorithms_by_group():
    out = info("--collective", "allreduce").stdout
    names = [a["name"] for a in registry("openmpi")["algorithms"]
             if a["collective"] == "allreduce"]
    shown = re.findall(r"^    ([a-z0-9_]+) ", out, re.M)
    assert sorted(shown) == sorted(names)
    groups = re.findall(r"^  group (\S+)$", out, re.M)
    assert len(groups) == len(set(groups)) >= 5  # each group once, its algorithms under it
    assert re.findall(r"^(\w+) \(", out, re.M) == ["allreduce"]
    assert "family orthogonal" in out and "\nsettings" not in out
    assert info("--collective", "MPI_Allreduce").stdout == out


def test_algorithm_filter_takes_a_name_a_group_or_a_family():
    full = registry("openmpi")
    ring = info_json("--algorithm", "ring")
    assert {(a["collective"], a["name"]) for a in ring["algorithms"]} == {
        (a["collective"], a["name"]) for a in full["algorithms"]
        if "ring" in (a["name"], a["group"])}
    assert ring["families"] == [] and ring["settings"] == []
    family = info_json("--algorithm", "orthogonal")
    assert family["algorithms"] == [] and len(family["families"]) == len(full["families"])
    at8 = info_json("--algorithm", "orthogonal", "--size", "8")
    assert at8["algorithms"] and all(a["name"].startswith("orthogonal_")
                                     for a in at8["algorithms"])
    text = info("--algorithm", "recursive_doubling").stdout
    assert "    recursive_doubling " in text and "    ring " not in text


def test_setting_filter_takes_a_name_or_a_prefix():
    star = [s["name"] for s in info_json("--setting", "star")["settings"]]
    assert star and all(n.startswith("AUTOCOLL_STAR_") for n in star)
    assert [s["name"] for s in info_json("--setting", "AUTOCOLL_STAR_ITER")["settings"]] == \
        ["AUTOCOLL_STAR_ITER"]
    assert info("--setting", "star_iter").stdout == info("--setting", "AUTOCOLL_STAR_ITER").stdout
    out = info("--setting", "star_iter", env={"AUTOCOLL_STAR_ITER": "12"}).stdout
    assert "  AUTOCOLL_STAR_ITER = 12  (environment; default 10)\n" in out
    assert "      integer: 1 <= n <= 1000\n" in out
    everything = info("--settings").stdout
    assert everything.count("\n  AUTOCOLL") == len(registry("openmpi")["settings"])


def test_all_shows_every_algorithm_and_setting():
    out = info("--all").stdout
    full = registry("openmpi")
    assert len(re.findall(r"^    [a-z0-9_]+ ", out, re.M)) == len(full["algorithms"])
    assert out.count("\n  AUTOCOLL") == len(full["settings"])


PARSABLE = re.compile(r"^(autocoll|collective:[a-z_]+|algorithm:[a-z_]+:[a-z0-9_]+|"
                      r"family:[a-z_]+:[a-z]+|setting:AUTOCOLL[A-Z0-9_]*|unknown:AUTOCOLL_\w+)"
                      r":([a-z_]+):(.*)$")


def test_parsable_is_one_key_value_line_per_fact():
    out = info("--parsable", env={"AUTOCOLL_STAR_ITER": "12", "AUTOCOLL_RACE_ROUNDS": "99",
                                  "AUTOCOLL_STRATGY": "race"}).stdout
    facts = {}
    for line in out.splitlines():
        m = PARSABLE.match(line)
        assert m, line
        facts[(m[1], m[2])] = m[3]
    assert facts[("autocoll", "version")] == "0.1.0"
    assert facts[("setting:AUTOCOLL_STAR_ITER", "value")] == "12"
    assert facts[("setting:AUTOCOLL_STAR_ITER", "source")] == "environment"
    assert facts[("setting:AUTOCOLL_RACE_ROUNDS", "value")] == "4"
    assert facts[("setting:AUTOCOLL_RACE_ROUNDS", "source")] == "invalid"
    assert facts[("setting:AUTOCOLL_RACE_ROUNDS", "given")] == "99"
    assert facts[("setting:AUTOCOLL_STRATEGY", "source")] == "default"
    assert facts[("unknown:AUTOCOLL_STRATGY", "closest")] == "AUTOCOLL_STRATEGY"
    assert facts[("algorithm:allreduce:ring", "group")] == "ring"
    family = next(f for f in registry("openmpi")["families"] if f["collective"] == "allreduce")
    assert facts[("family:allreduce:orthogonal", "phases")].split() == family["phases"]
    full = registry("openmpi")
    assert sum(k[1] == "summary" and k[0].startswith("algorithm:") for k in facts) == \
        len(full["algorithms"])
    assert sum(k[1] == "type" for k in facts) == len(full["settings"])
    only = info("--parsable", "--collective", "barrier").stdout.splitlines()
    assert {line.split(":")[0] for line in only} == {"autocoll", "collective", "algorithm"}


def test_json_carries_the_current_values():
    data = info_json(env={"AUTOCOLL_LOTTERY_ALPHA": "0.5", "AUTOCOLL_HUH": "1"})
    settings = {s["name"]: s for s in data["settings"]}
    assert settings["AUTOCOLL_LOTTERY_ALPHA"]["value"] == "0.5"
    assert settings["AUTOCOLL_LOTTERY_ALPHA"]["source"] == "environment"
    assert settings["AUTOCOLL_STAR_ITER"] == dict(settings["AUTOCOLL_STAR_ITER"], value="10",
                                                  source="default")
    assert "given" not in settings["AUTOCOLL_STAR_ITER"]
    assert data["unknown"] == [{"name": "AUTOCOLL_HUH", "value": "1"}]
    assert "AUTOCOLL_TEST_" in data["tooling"]
    filtered = info_json("--collective", "bcast", "--setting", "race")
    assert {a["collective"] for a in filtered["algorithms"]} == {"bcast"}
    assert {s["name"][:14] for s in filtered["settings"]} == {"AUTOCOLL_RACE_"}


@pytest.mark.parametrize("args, message", [
    (["--nonsense"], "unknown option --nonsense (autocoll-info --help lists them)"),
    (["--collective", "allreduc"], "--collective allreduc: no such collective (allgather, "),
    (["--algorithm", "rign"], "--algorithm rign: no algorithm, group or family of that name; "
                              "did you mean ring?"),
    (["--algorithm", "zzz"], "--algorithm zzz: no algorithm, group or family of that name "
                             "(autocoll-info --all lists them)"),
    (["--setting", "STRATGY"], "--setting STRATGY: no such setting; did you mean "
                               "AUTOCOLL_STRATEGY?"),
    (["--setting"], "--setting needs NAME"),
    (["--size", "0"], "--size 0: a communicator size"),
    (["--size", "x"], "--size x: a communicator size"),
    (["--json", "--parsable"], "--parsable: one output format only"),
])
def test_bad_options_give_one_line_and_exit_2(args, message):
    run = info(*args, check=False)
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr.startswith(f"autocoll-info: {message}") and run.stderr.count("\n") == 1, \
        run.stderr


def test_json_lists_the_adcl_implementations():
    """ADCL's 20 implementations of Table 1 and MPI_Neighbor_alltoallw, in the registry's order,
    each with one value of each of the four attributes the attribute-based search prunes by."""
    impls = info_json()["adcl_implementations"]
    names = [i["name"] for i in impls]
    assert len(names) == 21 == len(set(names))
    assert names[0] == "IsendIrecv_aao" and names[-1] == "Neighbor_alltoallw"
    values = {"partners": {"aao", "pair"}, "data": {"ddt", "pack"},
              "sync": {"none", "fence", "post_start"}}
    for i in impls:
        assert set(i["attributes"]) == {"partners", "primitive", "data", "sync"}, i
        for attr, allowed in values.items():
            assert i["attributes"][attr] in allowed, i
        assert i["summary"]
    # the _pack siblings differ from their ddt sibling in the data attribute only
    by_name = {i["name"]: i["attributes"] for i in impls}
    for name, attrs in by_name.items():
        if name.endswith("_pack"):
            ddt = dict(by_name[name[:-len("_pack")]])
            assert dict(attrs, data="ddt") == ddt, name
    assert info_json("--collective", "bcast")["adcl_implementations"] == []

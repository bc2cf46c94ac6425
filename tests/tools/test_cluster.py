"""The emulated cluster (tools/autocoll/run/cluster.py, docs/cluster.md): namespaces, bridges and tbf
built and removed without leftovers (also after a failed `up`), both topologies, the shaping
measured with iperf3 in each direction, Open MPI and MPICH across the nodes, an MPI transfer
slowed as the rate says, bad input refused. Needs root, iproute2 and iperf3 (scripts/setup);
every cluster here has a name of its own and is removed by a fixture, pass or fail."""

import itertools
import json
import os
import shutil
import string
import subprocess
import time

import pytest

from autocoll.run import bench, cluster

from conftest import ROOT, autocoll_cli

TOOLS = ["ip", "tc", "ss", "iperf3", "unshare", "timeout", "mpicc.openmpi", "mpirun.openmpi",
         "mpicc.mpich", "mpiexec.mpich"]
_letters = itertools.cycle(string.ascii_lowercase)


@pytest.fixture(scope="module", autouse=True)
def requirements():
    if os.geteuid() != 0:
        pytest.fail("the emulated cluster needs root (network namespaces, bridges, tc)")
    missing = [t for t in TOOLS if not shutil.which(t)]
    if missing:
        pytest.fail(f"missing {', '.join(missing)}: scripts/setup installs them")


@pytest.fixture
def names():
    """Makes cluster names of this test (8 characters, unique to this process); removes every
    one of them afterwards and checks that nothing of them is left."""
    made = []

    def make():
        made.append(f"ac{os.getpid() % 100000:05d}{next(_letters)}")
        return made[-1]
    yield make
    for name in made:
        cluster.down(name)
        assert not any(cluster.leftovers(name).values()), cluster.leftovers(name)


def cli(*args, timeout=300):
    return autocoll_cli("cluster", *args, timeout=timeout)


def ok(*args, timeout=300):
    run = cli(*args, timeout=timeout)
    assert run.returncode == 0, run.stdout + run.stderr
    return run.stdout


def qdisc(device, namespace=None):
    where = ["-n", namespace] if namespace else []
    return subprocess.run(["tc", *where, "-s", "qdisc", "show", "dev", device], check=True,
                          capture_output=True, text=True).stdout


@pytest.fixture(scope="module")
def probes(tmp_path_factory):
    """tests/tools/cluster_probe.c built for each MPI."""
    d = tmp_path_factory.mktemp("probe")
    built = {}
    for mpi in ("openmpi", "mpich"):
        built[mpi] = d / f"probe-{mpi}"
        subprocess.run([f"mpicc.{mpi}", "-O2", "-o", str(built[mpi]),
                        str(ROOT / "tests/tools/cluster_probe.c")], check=True)
    return built


def probe(name, mpi, ranks, program, nbytes, iterations=5, env=(), timeout=120):
    env_args = [a for item in env for a in ("--env", item)]
    run = cli("mpirun", "--name", name, "--mpi", mpi, "-n", str(ranks), "--timeout",
              str(timeout), *env_args, "--", str(program), str(nbytes), str(iterations),
              timeout=timeout + 30)
    assert run.returncode == 0, run.stdout + run.stderr
    lines = [line for line in run.stdout.splitlines() if line.startswith("{")]
    assert len(lines) == 1, run.stdout + run.stderr
    result = json.loads(lines[0])
    assert result["errors"] == 0 and result["ranks"] == ranks
    return result


# ---------------------------------------------------------------- input

@pytest.mark.parametrize("args, message", [
    (["--topology", "ring", "--nodes", "4"], "invalid choice: 'ring'"),
    (["--topology", "one-switch", "--nodes", "1"], "bad node count 1"),
    (["--topology", "one-switch", "--nodes", "300"], "bad node count 300"),
    (["--topology", "four-switch", "--nodes", "3"], "four-switch needs at least 4 nodes"),
    (["--topology", "one-switch", "--nodes", "2", "--rate", "fast"], "bad rate 'fast'"),
    (["--topology", "one-switch", "--nodes", "2", "--rate", "100"], "bad rate '100'"),
    (["--topology", "one-switch", "--nodes", "2", "--rate", "1bit"], "below 8kbit"),
    (["--topology", "four-switch", "--nodes", "4", "--oversubscription", "0.5"],
     "bad oversubscription"),
    (["--topology", "one-switch", "--nodes", "2", "--subnet", "10.77.0.1/16"],
     "bad subnet '10.77.0.1/16'"),
    (["--topology", "one-switch", "--nodes", "4", "--subnet", "10.77.0.0/30"],
     "room for 2 nodes, not 4"),
    (["--topology", "one-switch", "--nodes", "2", "--name", "Bad-Name"], "bad cluster name"),
    (["--topology", "one-switch", "--nodes", "2", "--name", "waytoolong"], "bad cluster name"),
])
def test_bad_input_is_refused_and_builds_nothing(names, args, message):
    name = names()
    if "--name" not in args:
        args = args + ["--name", name]
    run = cli("up", *args)
    assert run.returncode != 0 and message in run.stderr, run.stderr
    assert "Traceback" not in run.stderr
    assert not any(cluster.leftovers(name).values())


def test_commands_on_a_cluster_that_is_not_up(names):
    name = names()
    for args in (["status"], ["check"], ["mpirun", "-n", "2", "--", "true"]):
        run = cli(*args, "--name", name)
        assert run.returncode == 1, run.stdout + run.stderr
        assert run.stderr.startswith("autocoll cluster: ") and "is not up" in run.stderr
    assert "nothing to remove" in ok("down", "--name", name)


def test_plan_spreads_four_switch_unevenly_and_sizes_uplinks():
    state = cluster.plan("x", "four-switch", 6, "100mbit", 4, "10.9.0.0/24")
    assert [len(s["nodes"]) for s in state["switches"]] == [2, 2, 1, 1]
    assert [s["uplink"]["rate_bits"] for s in state["switches"]] == [50e6, 50e6, 25e6, 25e6]
    assert [n["switch"] for n in state["nodes"]] == [0, 0, 1, 1, 2, 3]
    assert [n["ip"] for n in state["nodes"]][:2] == ["10.9.0.1", "10.9.0.2"]
    names = [s["bridge"] for s in state["switches"]] + [state["core"]] + \
        [n["peer"] for n in state["nodes"]] + \
        [s["uplink"][end] for s in state["switches"] for end in ("leaf", "core")]
    assert len(set(names)) == len(names)
    longest = cluster.plan("abcdefgh", "four-switch", cluster.MAX_NODES)
    assert max(len(n["peer"]) for n in longest["nodes"]) <= 15
    assert cluster.parse_rate("1.5gbit") == 1_500_000_000
    assert cluster.parse_rate("12.5MBps") == 100_000_000
    assert cluster.parse_rate("100Mibit") == 100 * 2**20


# ---------------------------------------------------------------- up and down

def test_up_is_idempotent_and_down_leaves_nothing(names):
    name = names()
    ok("up", "--name", name, "--topology", "one-switch", "--nodes", "3", "--rate", "30mbit")
    state = json.loads(ok("status", "--name", name, "--json"))
    assert [n["hostname"] for n in state["nodes"]] == [f"{name}-n{i}" for i in range(3)]
    assert (cluster.STATE_DIR / f"{name}.openmpi.hosts").read_text().split("\n")[:3] == \
        [f"{name}-n{i} slots=1" for i in range(3)]
    for node in state["nodes"]:
        assert "tbf" in qdisc("eth0", node["namespace"]) and "rate 30Mbit" in \
            qdisc("eth0", node["namespace"])
        assert "rate 30Mbit" in qdisc(node["peer"])
        routes = subprocess.run(["ip", "-n", node["namespace"], "route"], check=True,
                                capture_output=True, text=True).stdout
        assert "default" not in routes
    made = os.stat(f"/run/netns/{name}-n0").st_ino
    again = ok("up", "--name", name, "--topology", "one-switch", "--nodes", "3", "--rate",
               "30mbit")
    assert "already up" in again and os.stat(f"/run/netns/{name}-n0").st_ino == made
    ok("up", "--name", name, "--topology", "one-switch", "--nodes", "2", "--rate", "40mbit")
    left = cluster.leftovers(name)
    assert sorted(left["namespaces"]) == [f"{name}-n0", f"{name}-n1"]
    assert "rate 40Mbit" in qdisc(f"{name}-v1")
    assert "removed 2 namespaces" in ok("down", "--name", name)
    assert not any(cluster.leftovers(name).values())
    ip_show = subprocess.run(["ip", "link", "show"], capture_output=True, text=True).stdout
    assert f"{name}-" not in ip_show
    assert "nothing to remove" in ok("down", "--name", name)


def test_down_clears_what_a_failed_up_left(names, monkeypatch):
    name = names()
    real_add_node = cluster.add_node

    def add_node_failing_on_the_third(node, bridge, rate_bits):
        if node["index"] == 2:
            raise cluster.ClusterError("injected failure")
        real_add_node(node, bridge, rate_bits)
    monkeypatch.setattr(cluster, "add_node", add_node_failing_on_the_third)
    with pytest.raises(cluster.ClusterError, match="injected failure"):
        cluster.up(name, "four-switch", 4, log=lambda *_: None)
    assert not any(cluster.leftovers(name).values())
    # leftovers of a killed `up` (no state file): found by their prefix
    subprocess.run(["ip", "netns", "add", f"{name}-n5"], check=True)
    subprocess.run(["ip", "link", "add", f"{name}-sw2", "type", "bridge"], check=True)
    subprocess.run(["ip", "link", "add", f"{name}-v7", "type", "veth", "peer", "name",
                    f"{name}-x"], check=True)
    cluster.STATE_DIR.mkdir(exist_ok=True)
    (cluster.STATE_DIR / f"{name}.openmpi.hosts").write_text("stale\n")
    assert all(cluster.leftovers(name).values())
    out = ok("down", "--name", name)
    assert "removed 1 namespaces" in out and "1 files" in out
    assert not any(cluster.leftovers(name).values())


# ---------------------------------------------------------------- shaping, measured

def test_four_switch_check_measures_node_links_and_uplinks(names):
    name = names()
    ok("up", "--name", name, "--topology", "four-switch", "--nodes", "8", "--rate", "100mbit",
       "--oversubscription", "4", "--subnet", "10.78.0.0/24")
    state = cluster.load_state(name)
    assert [s["nodes"] for s in state["switches"]] == [[0, 1], [2, 3], [4, 5], [6, 7]]
    for switch in state["switches"]:
        up = switch["uplink"]
        assert up["rate"] == "50mbit"
        assert "rate 50Mbit" in qdisc(up["leaf"]) and "rate 50Mbit" in qdisc(up["core"])
    run = cli("check", "--name", name, "--seconds", "2", "--json", timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    measured = {m["name"]: m for m in json.loads(run.stdout)["measurements"]}
    assert set(measured) == {"node link (same switch)", "uplink, switch 0 to 1",
                             "downlink, switches 1-3 to 0"}
    for m in measured.values():
        assert m["ok"] and 0.8 * m["limit_bits"] <= m["measured_bits"] <= 1.05 * m["limit_bits"]
    assert measured["node link (same switch)"]["limit_bits"] == 100e6
    # two senders at 100 Mbit/s share one 50 Mbit/s uplink; three switches send into one
    assert measured["uplink, switch 0 to 1"]["limit_bits"] == 50e6
    assert len(measured["downlink, switches 1-3 to 0"]["flows"]) == 3
    assert measured["downlink, switches 1-3 to 0"]["limit_bits"] == 50e6


def test_a_low_rate_is_measured_and_each_direction_is_shaped(names):
    """20 Mbit/s is measured near 20; with the sender's own qdisc opened to 1 Gbit/s the
    receiver's (bridge side) still holds the flow to 20, and the other way round."""
    name = names()
    ok("up", "--name", name, "--topology", "one-switch", "--nodes", "2", "--rate", "20mbit")
    run = cli("check", "--name", name, "--seconds", "2", "--json", timeout=60)
    assert run.returncode == 0, run.stdout + run.stderr
    (link,) = json.loads(run.stdout)["measurements"]
    assert 17e6 <= link["measured_bits"] <= 21e6, link
    state = cluster.load_state(name)
    sender, receiver = state["nodes"]
    cluster.shape("eth0", 10**9, namespace=sender["namespace"])
    (inbound,) = cluster.run_flows(state, [(0, 1)], 2)
    cluster.shape("eth0", 20 * 10**6, namespace=sender["namespace"])
    cluster.shape(receiver["peer"], 10**9)
    (outbound,) = cluster.run_flows(state, [(0, 1)], 2)
    assert 17e6 <= inbound <= 21e6 and 17e6 <= outbound <= 21e6, (inbound, outbound)
    cluster.shape("eth0", 10**9, namespace=sender["namespace"])
    (open_path,) = cluster.run_flows(state, [(0, 1)], 2)
    assert open_path > 200e6, "with both qdiscs open the flow should be far faster"


# ---------------------------------------------------------------- MPI across the nodes

def test_openmpi_runs_across_the_nodes_and_is_slowed_by_the_rate(names, probes):
    """4 ranks on 4 nodes: 4 host names, correct data, idle ranks yield (a small allreduce in
    under 20 ms: busy-polling ranks take tens of ms); 8 ranks go round-robin. The 1 MiB
    alltoall sends 3 x 256 KiB out of each node: at 20 Mbit/s it cannot take under 0.31 s, and
    takes about 5 x as long as at 100 Mbit/s (on one host with shared memory: about 1 ms)."""
    name = names()
    volume_bits = 3 * 256 * 1024 * 8
    times = {}
    for rate in (100, 20):
        ok("up", "--name", name, "--topology", "one-switch", "--nodes", "4", "--rate",
           f"{rate}mbit")
        result = probe(name, "openmpi", 4, probes["openmpi"], 1 << 20)
        assert result["hosts"] == [f"{name}-n{i}" for i in range(4)]
        assert result["allreduce_seconds"] < 0.02, result
        times[rate] = result["alltoall_seconds"]
        assert times[rate] >= 0.9 * volume_bits / (rate * 1e6), (rate, result)
    assert times[20] >= 2.5 * times[100], times
    result = probe(name, "openmpi", 8, probes["openmpi"], 1 << 16, iterations=2)
    assert result["hosts"] == [f"{name}-n{i % 4}" for i in range(8)]


def test_environment_and_timeout_of_cluster_mpirun(names):
    name = names()
    ok("up", "--name", name, "--topology", "one-switch", "--nodes", "2")
    out = ok("mpirun", "--name", name, "-n", "2", "--env", "AC_PROBE=hello", "--", "sh", "-c",
             'echo "$AC_PROBE on $(hostname)"', timeout=60)
    assert sorted(line for line in out.splitlines() if line.startswith("hello")) == \
        [f"hello on {name}-n0", f"hello on {name}-n1"]
    start = time.monotonic()
    run = cli("mpirun", "--name", name, "-n", "2", "--timeout", "2", "--", "sleep", "100",
              timeout=60)
    assert run.returncode == 124 and "ran past 2 s" in run.stderr, run.stderr
    assert time.monotonic() - start < 30
    for node in cluster.load_state(name)["nodes"]:
        pids = subprocess.run(["ip", "netns", "pids", node["namespace"]], capture_output=True,
                              text=True).stdout
        assert not pids.split(), f"processes left in {node['namespace']}: {pids}"
    run = cli("mpirun", "--name", name, "-n", "2", "--env", "NO-EQUALS", "--", "true")
    assert run.returncode == 1 and "bad --env 'NO-EQUALS'" in run.stderr


def test_mpich_runs_across_the_nodes(names, probes):
    """2 ranks (MPICH's MPI_Finalize over UCX TCP hangs now and then from 3 ranks on:
    docs/cluster.md); the 1 MiB alltoall sends 512 KiB out of each node, >= 42 ms at 100 Mbit/s."""
    name = names()
    ok("up", "--name", name, "--topology", "one-switch", "--nodes", "2")
    result = probe(name, "mpich", 2, probes["mpich"], 1 << 20, timeout=60)
    assert result["hosts"] == [f"{name}-n0", f"{name}-n1"]
    assert result["alltoall_seconds"] >= 0.9 * 512 * 1024 * 8 / 100e6, result


def test_launch_command_runs_through_node_zero_and_the_agent(names):
    name = names()
    ok("up", "--name", name, "--topology", "one-switch", "--nodes", "2")
    cmd = cluster.launch_command(name, "openmpi", 4, "/bin/prog", ["a b"], {"X": "1"},
                                 timeout=99)
    assert cmd[:4] == ["timeout", "-k", "10", "99"]
    assert cmd[4:8] == ["ip", "netns", "exec", f"{name}-n0"]
    assert str(cluster.AGENT) in cmd and "mpi_yield_when_idle" in cmd
    assert cmd[-2:] == ["/bin/prog", "a b"] and "X=1" in cmd
    with pytest.raises(cluster.ClusterError, match="unknown MPI"):
        cluster.launch_command(name, "lam", 2, "/bin/prog")
    # `autocoll bench --cluster` launches through the same command
    assert bench.cluster_launch_command(name, "openmpi", 4, "/bin/prog", ["a b"], 99)[4:] == \
        cluster.launch_command(name, "openmpi", 4, "/bin/prog", ["a b"], timeout=99)[4:]
    with pytest.raises(bench.BenchError, match="is not up"):
        bench.cluster_launch_command(names(), "openmpi", 2, "/bin/prog", [], 99)

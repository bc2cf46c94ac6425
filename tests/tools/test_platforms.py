"""The simulated platforms' per-message overheads (platforms/README.md): the sender pays, and a
message inside a node pays a shared-memory transport's overheads, not the network's.

- Every file of platforms/ charges send-side (smpi/os, smpi/ois) and receive-side (smpi/or)
  overheads above zero, and declares the node's (autocoll/shm-*) below the network's.
- bench/msgrate measures them back: rank 0's time per message in a fan-out is the platform's
  smpi/ois between nodes and autocoll/shm-ois inside one (--ppn), and the receivers' time
  holds the rest.
- Through `autocoll simgrid run` (the platform loader, platforms/node_overheads.cpp) an 8-byte
  ping-pong inside a node costs the loopback plus the shared-memory overheads; with the XML file
  alone SMPI charges the network's, so the loader is what makes the difference.
- The loader builds a node of several ranks out of one host a rank: a pair inside a node moves
  1 MiB no faster as 16 messages side by side than as one (its cores' copy rate bounds it), 16
  pairs on one node share its memory, and between nodes the network's rate holds
  (tests/tools/node_streams.c).
"""

import os
import shutil
import subprocess
import tempfile
import xml.etree.ElementTree as ET

import pytest

from conftest import ROOT, autocoll_cli as cli

from autocoll.formats import paths, platforms
from autocoll.run import simgrid

PLATFORMS = sorted((ROOT / "platforms").glob("*.xml"))
OVERHEADS = ("smpi/os", "smpi/ois", "smpi/or")
NODE = ("autocoll/shm-os", "autocoll/shm-ois", "autocoll/shm-or")


def seconds(value):
    """The seconds of a one-section overhead setting "0:SECONDS:0" (all the files use one)."""
    size, fixed, per_byte = value.split(":")
    assert size == "0" and float(per_byte) == 0, value
    return float(fixed)


def build():
    program = ROOT / "build/simgrid/bench/msgrate"
    if shutil.which("smpirun") is None or not program.exists() or \
            not (ROOT / "build/simgrid/libnode_overheads.so").exists():
        pytest.fail("SimGrid or build/simgrid is missing: run scripts/setup")
    return program


@pytest.mark.parametrize("path", PLATFORMS, ids=lambda p: p.stem)
def test_every_platform_charges_both_sides(path):
    found = platforms.platform_overheads(path)
    assert set(found) == set(OVERHEADS + NODE), found
    for name in OVERHEADS + NODE:
        assert seconds(found[name]) > 0, (name, found[name])
    for network, node in zip(OVERHEADS, NODE):
        assert seconds(found[node]) < seconds(found[network]), (network, node, found)


def fan_out(platform, ranks, ppn):
    """{receivers: (per-message sender us, last receiver us)} of bench/msgrate."""
    done = cli("simgrid", "run", "--platform", platform, "-n", str(ranks), "--ppn", str(ppn),
               str(build()), "--iterations", "3", "1", str(ranks - 1), timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    rows = [line.split() for line in done.stdout.splitlines() if not line.startswith("#")]
    return {int(r[0]): (float(r[2]), float(r[4])) for r in rows if r}


@pytest.mark.parametrize("platform", ["fat-tree-ib", "one-switch-gbe"])
@pytest.mark.parametrize("ppn", [1, 8])
def test_the_sender_pays_each_message(platform, ppn):
    """Rank 0 sends to 7 others: its time per message is the isend overhead (the node's
    inside one node, the network's between nodes), within 5 % (the first message also waits
    for the clock agreement's last bytes)."""
    found = platforms.platform_overheads(paths.platform_path(platform))
    isend = seconds(found["autocoll/shm-ois" if ppn > 1 else "smpi/ois"])
    rows = fan_out(platform, 8, ppn)
    per_message, last = rows[7]
    assert per_message == pytest.approx(1e6 * isend, rel=0.05), (rows, isend)
    # the last receiver gets its message after the sender's 7 sends
    assert last > 7 * 1e6 * isend, (rows, isend)


def pingpong_8b(cmd, env):
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=120, env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    (latency,) = [float(line.split()[1]) for line in done.stdout.splitlines()
                  if line.split()[:1] == ["8"]]
    return latency


def test_inside_a_node_the_loader_charges_shared_memory():
    pingpong = ROOT / "build/simgrid/bench/pingpong"
    build()
    path = paths.platform_path("fat-tree-ib")
    found = platforms.platform_overheads(path)
    loopback = 0.2  # us, the <cluster>'s loopback_lat
    with tempfile.TemporaryDirectory() as work:
        env = simgrid.run_environment(work)
        with_loader = simgrid.smpirun_command("fat-tree-ib", 2, pingpong, ["8"], ppn=2,
                                              workdir=work)
        assert with_loader[0] == "env" and "-platform" in with_loader
        assert with_loader[with_loader.index("-platform") + 1].endswith("libnode_overheads.so")
        node = pingpong_8b(with_loader, env)
        # the XML file alone has one host a node, with two cores
        hosts = os.path.join(work, "xml-hostfile")
        with open(hosts, "w") as f:
            f.write("ib-0\nib-0\n")
        xml_only = ["smpirun", "-np", "2", "-platform", str(path), "-hostfile",
                    hosts, "--cfg=smpi/simulate-computation:no",
                    "--log=root.thresh:warning", str(pingpong), "8"]
        network = pingpong_8b(xml_only, env)
    expected_node = loopback + 1e6 * (seconds(found["autocoll/shm-os"]) +
                                      seconds(found["autocoll/shm-or"]))
    expected_network = loopback + 1e6 * (seconds(found["smpi/os"]) + seconds(found["smpi/or"]))
    assert node == pytest.approx(expected_node, abs=0.01), (node, expected_node)
    assert network == pytest.approx(expected_network, abs=0.01), (network, expected_network)


def test_cyclic_placement_puts_neighbours_on_different_nodes():
    hosts = [(f"n{i}", 4) for i in range(4)]
    assert simgrid.hostfile_lines(hosts, 6, 2) == ["n0", "n0", "n1", "n1", "n2", "n2"]
    assert simgrid.hostfile_lines(hosts, 6, 2, "cyclic") == ["n0", "n1", "n2", "n0", "n1", "n2"]
    with pytest.raises(platforms.SimgridError, match="placement"):
        simgrid.hostfile_lines(hosts, 6, 2, "scatter")
    # nodes the loader builds out of one host a rank: a rank's host is its node's NODE.coreI
    assert simgrid.hostfile_lines(hosts, 6, 2, cores=True) == \
        ["n0.core0", "n0.core1", "n1.core0", "n1.core1", "n2.core0", "n2.core1"]
    assert simgrid.hostfile_lines(hosts, 6, 2, "cyclic", cores=True) == \
        ["n0.core0", "n1.core0", "n2.core0", "n0.core1", "n1.core1", "n2.core1"]
    # rank 0's one message to rank 1: inside its node by block, across the network cyclic
    found = platforms.platform_overheads(paths.platform_path("fat-tree-ib"))
    for placement, setting in (("block", "autocoll/shm-ois"), ("cyclic", "smpi/ois")):
        done = cli("simgrid", "run", "--platform", "fat-tree-ib", "-n", "4", "--ppn", "2",
                   "--placement", placement, str(build()), "--iterations", "3", "1",
                   timeout=300)
        assert done.returncode == 0, done.stdout + done.stderr
        (row,) = [line.split() for line in done.stdout.splitlines()
                  if line.split()[:1] == ["1"]]
        assert float(row[2]) == pytest.approx(1e6 * seconds(found[setting]), rel=0.1), \
            (placement, row)


@pytest.mark.parametrize("collective", ["allreduce", "bcast", "alltoall", "allgather"])
def test_osu_collective_times_each_size(collective):
    """bench/osu_collective (the collectives of the validation): a line per size, the average
    between the smallest and largest rank's, growing with the size; a bad name is refused."""
    program = ROOT / "build/simgrid/bench/osu_collective"
    build()
    done = cli("simgrid", "run", "--platform", "fat-tree-ib", "-n", "4", "--ppn", "2",
               str(program), "--iterations", "3", "--warmup", "1", collective, "8", "64K",
               timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    rows = [[float(x) for x in line.split()] for line in done.stdout.splitlines()
            if line.strip() and not line.startswith("#")]
    assert [r[0] for r in rows] == [8, 65536], rows
    for size, avg, least, most in rows:
        assert 0 < least <= avg <= most, rows
    assert rows[1][1] > rows[0][1], rows
    bad = cli("simgrid", "run", "--platform", "fat-tree-ib", "-n", "2", str(program),
              "scan", "8", timeout=120)
    assert bad.returncode == 2 and "usage: osu_collective" in bad.stderr, bad.stderr


def test_the_loader_variable_is_no_warning_to_the_layer():
    """The loader's AUTOCOLL_PLATFORM_FILE reaches every simulated rank's environment: the layer
    counts it as tooling, not as a misspelt setting (src/core/config.c, tooling_names)."""
    build()
    done = cli("simgrid", "run", "--platform", "fat-tree-ib", "-n", "4", "--ppn", "2",
               str(ROOT / "build/simgrid/demo"), "2", timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "results correct (0 wrong values)" in done.stdout, done.stdout
    assert "not an autocoll setting" not in done.stderr, done.stderr


def test_the_loader_fails_loudly_on_a_bad_platform(tmp_path):
    """No AUTOCOLL_PLATFORM_FILE, or a node overhead it cannot read: the loader says which and
    the run stops (exit status 2), before any rank starts."""
    pingpong = ROOT / "build/simgrid/bench/pingpong"
    build()
    text = (ROOT / "platforms/fat-tree-ib.xml").read_text()
    assert 'id="autocoll/shm-or" value="0:0.1e-6:0"' in text
    bad = tmp_path / "bad.xml"
    bad.write_text(text.replace('id="autocoll/shm-or" value="0:0.1e-6:0"',
                                'id="autocoll/shm-or" value="0.1us"'))
    cmd = simgrid.smpirun_command(bad, 2, pingpong, ["8"], ppn=2, workdir=tmp_path)
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=120,
                          env=simgrid.run_environment(tmp_path))
    assert done.returncode != 0
    assert 'autocoll/shm-or: "0.1us" is not SIZE:SECONDS:PER_BYTE' in done.stderr, done.stderr
    unset = cmd[cmd.index("smpirun"):]  # without the `env AUTOCOLL_PLATFORM_FILE=...` prefix
    env = {k: v for k, v in simgrid.run_environment(tmp_path).items()
           if not k.startswith("AUTOCOLL_PLATFORM_")}
    done = subprocess.run(unset, capture_output=True, text=True, timeout=120, env=env)
    assert done.returncode != 0
    assert "AUTOCOLL_PLATFORM_FILE names no platform file" in done.stderr, done.stderr


def node_streams(tmp_path):
    """tests/tools/node_streams.c built with smpicc."""
    build()
    program = tmp_path / "node_streams"
    subprocess.run(["smpicc", "-O2", "-o", str(program),
                    str(ROOT / "tests/tools/node_streams.c")], check=True, capture_output=True)
    return program


def streams_us(program, ranks, ppn, segment):
    done = cli("simgrid", "run", "--platform", "fat-tree-ib", "-n", str(ranks), "--ppn",
               str(ppn), str(program), str(segment), timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    (line,) = [l for l in done.stdout.splitlines() if l.startswith("pairs")]
    return float(line.split(":")[1].split()[0])


def test_a_pair_inside_a_node_is_bound_by_its_cores_and_a_node_by_its_memory(tmp_path):
    """Before the loader built nodes out of one host a rank, SimGrid's FATPIPE loopback gave
    every message inside a node the loopback's whole bandwidth: 1 MiB as 16 messages of 64 KiB
    took 8.97 us against 108.81 us as one (docs/results/loopback-2026-11-28)."""
    program = node_streams(tmp_path)
    root = ET.parse(paths.platform_path("fat-tree-ib")).getroot()
    (cluster,) = root.iter("cluster")
    assert cluster.get("loopback_bw") == "10GBps"
    core = 10e9 * 0.97  # the loopback_bw, times the platform's smpi/bw-factor
    memory = float(dict((p.get("id"), p.get("value")) for p in root.find("zone").findall("prop"))
                   ["autocoll/node-memory-bw"]) * 0.97
    mib = 1 << 20
    one = streams_us(program, 2, 2, mib)
    sixteen_messages = streams_us(program, 2, 2, mib // 16)
    assert one == pytest.approx(1e6 * mib / core, rel=0.02), one
    assert sixteen_messages == pytest.approx(one, rel=0.02), (sixteen_messages, one)
    sixteen_pairs = streams_us(program, 32, 32, mib)
    assert sixteen_pairs == pytest.approx(1e6 * 16 * mib / memory, rel=0.02), sixteen_pairs
    assert sixteen_pairs > 1.5 * one
    # between two nodes the pair's messages cross the network: its rate, not the cores'
    apart = streams_us(program, 2, 1, mib // 16)
    assert apart < 0.9 * one, (apart, one)

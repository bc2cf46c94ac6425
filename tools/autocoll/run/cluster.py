"""The emulated cluster (`autocoll cluster`, commands/cluster.py, says what it is): network
namespaces, bridges and tc on one Linux machine; building, checking and removing it, and
launching MPI jobs on it."""

import ipaddress
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

from ..formats import jsonfile
from ..formats.paths import REPO
from ..formats.schemas import CLUSTER_SCHEMA, CLUSTER_VERSION

AGENT = REPO / "bench" / "cluster" / "netns-ssh"
STATE_DIR = Path("/run/autocoll-cluster")

TOPOLOGY_SWITCHES = {"one-switch": 1, "four-switch": 4}
NAME_PATTERN = re.compile(r"[a-z][a-z0-9]{0,7}")
MAX_NODES = 256
NODE_INTERFACE = "eth0"
DEFAULTS = {"name": "ac", "rate": "100mbit", "oversubscription": 4.0,
            "subnet": "10.77.0.0/16"}

# tc's rate units (iproute2 get_rate: case-insensitive), in bits per second.
RATE_UNITS = {
    "bit": 1, "kbit": 1e3, "mbit": 1e6, "gbit": 1e9, "tbit": 1e12,
    "kibit": 2**10, "mibit": 2**20, "gibit": 2**30, "tibit": 2**40,
    "bps": 8, "kbps": 8e3, "mbps": 8e6, "gbps": 8e9, "tbps": 8e12,
    "kibps": 8 * 2**10, "mibps": 8 * 2**20, "gibps": 8 * 2**30, "tibps": 8 * 2**40,
}
TBF_MIN_BURST_BYTES = 32 * 1024   # at least two 16 KiB GSO segments pass unsplit
TBF_BURST_SECONDS = 0.001         # and 1 ms at the rate, for fast links
TBF_LATENCY = "50ms"              # the queue: 50 ms at the rate, then drops

CHECK_LOW, CHECK_HIGH = 0.5, 1.1  # a measured rate must lie in [LOW, HIGH] x its limit
IPERF_PORT = 5201

LAUNCH_TIMEOUT_GRACE = 10         # seconds between SIGTERM and SIGKILL on timeout


class ClusterError(RuntimeError):
    pass


# ---------------------------------------------------------------- input

def parse_rate(text):
    """A tc rate string ('100mbit', '1gbit', '12.5MBps') -> bits per second (int)."""
    match = re.fullmatch(r"\s*([0-9]+(?:\.[0-9]+)?)\s*([a-zA-Z]+)\s*", str(text))
    unit = match and RATE_UNITS.get(match.group(2).lower())
    if not unit:
        raise ClusterError(f"bad rate {text!r}: a number and a tc unit, e.g. 100mbit, 1gbit, "
                           f"500kbit (units: {', '.join(RATE_UNITS)}; bps is bytes per second)")
    bits = int(float(match.group(1)) * unit)
    if bits < 8000:
        raise ClusterError(f"bad rate {text!r}: below 8kbit")
    return bits


def format_rate(bits):
    """Bits per second -> a short text ('100mbit', '25mbit', '1.5gbit', '64000bit')."""
    for unit, div in (("gbit", 10**9), ("mbit", 10**6), ("kbit", 10**3)):
        if bits >= div:
            return f"{bits / div:g}{unit}"
    return f"{bits}bit"


def check_name(name):
    if not NAME_PATTERN.fullmatch(name or ""):
        raise ClusterError(f"bad cluster name {name!r}: a lowercase letter, then up to 7 "
                           f"lowercase letters or digits (it prefixes interface names, which "
                           f"Linux limits to 15 characters)")
    return name


def switch_sizes(topology, nodes):
    """How many nodes each switch holds: blocks, the first switches one more when uneven."""
    if topology not in TOPOLOGY_SWITCHES:
        raise ClusterError(f"unknown topology {topology!r} "
                           f"({' or '.join(TOPOLOGY_SWITCHES)})")
    switches = TOPOLOGY_SWITCHES[topology]
    if not 2 <= nodes <= MAX_NODES:
        raise ClusterError(f"bad node count {nodes}: 2 to {MAX_NODES}")
    if nodes < switches:
        raise ClusterError(f"{topology} needs at least {switches} nodes (one per switch), "
                           f"not {nodes}")
    return [nodes // switches + (k < nodes % switches) for k in range(switches)]


def node_addresses(subnet, nodes):
    """The first `nodes` host addresses of `subnet` (text), with the prefix length."""
    try:
        network = ipaddress.IPv4Network(subnet, strict=True)
    except ValueError as e:
        raise ClusterError(f"bad subnet {subnet!r}: {e} (an IPv4 network, e.g. "
                           f"{DEFAULTS['subnet']})") from e
    if network.num_addresses - 2 < nodes:
        raise ClusterError(f"subnet {subnet} has room for {max(network.num_addresses - 2, 0)} "
                           f"nodes, not {nodes}")
    hosts = network.hosts()
    return [f"{next(hosts)}" for _ in range(nodes)], network.prefixlen


def plan(name, topology, nodes, rate=DEFAULTS["rate"],
         oversubscription=DEFAULTS["oversubscription"], subnet=DEFAULTS["subnet"]):
    """The cluster to build, as the state file holds it (no system call)."""
    check_name(name)
    sizes = switch_sizes(topology, nodes)
    rate_bits = parse_rate(rate)
    if not oversubscription >= 1:
        raise ClusterError(f"bad oversubscription {oversubscription}: 1 or more (4 means 4:1)")
    addresses, prefixlen = node_addresses(subnet, nodes)
    four = topology == "four-switch"
    switches, node_list = [], []
    for k, size in enumerate(sizes):
        first = len(node_list)
        for i in range(first, first + size):
            node_list.append({"index": i, "namespace": f"{name}-n{i}", "hostname": f"{name}-n{i}",
                              "ip": addresses[i], "prefixlen": prefixlen,
                              "interface": NODE_INTERFACE, "peer": f"{name}-v{i}", "switch": k})
        switch = {"index": k, "bridge": f"{name}-sw{k}", "nodes": list(range(first, first + size))}
        if four:
            uplink_bits = int(size * rate_bits / oversubscription)
            switch["uplink"] = {"leaf": f"{name}-u{k}", "core": f"{name}-c{k}",
                                "rate_bits": uplink_bits, "rate": format_rate(uplink_bits)}
        switches.append(switch)
    return {
        "schema": CLUSTER_SCHEMA, "version": CLUSTER_VERSION, "name": name,
        "parameters": {"topology": topology, "nodes": nodes, "rate": rate,
                       "oversubscription": oversubscription if four else None,
                       "subnet": subnet},
        "topology": topology, "rate": rate, "rate_bits": rate_bits,
        "oversubscription": oversubscription if four else None, "subnet": subnet,
        "core": f"{name}-core" if four else None,
        "switches": switches, "nodes": node_list,
        "state_file": str(state_path(name)),
        "hostfile": str(hostfile_path(name, "openmpi")),
        "mpich_hostfile": str(hostfile_path(name, "mpich")),
    }


# ---------------------------------------------------------------- system calls

def sh(*cmd, check=True, timeout=60):
    """Runs a command; returns its stdout. A failure raises ClusterError with its stderr."""
    try:
        proc = subprocess.run([str(c) for c in cmd], capture_output=True, text=True,
                              timeout=timeout)
    except FileNotFoundError as e:
        raise ClusterError(f"{cmd[0]} not found: install it (scripts/setup does)") from e
    except subprocess.TimeoutExpired as e:
        raise ClusterError(f"`{' '.join(map(str, cmd))}` took over {timeout} s") from e
    if check and proc.returncode != 0:
        raise ClusterError(f"`{' '.join(map(str, cmd))}` failed (exit {proc.returncode}): "
                           f"{proc.stderr.strip() or proc.stdout.strip()}")
    return proc.stdout


def require_tools(*tools):
    missing = [t for t in tools if not shutil.which(t)]
    if missing:
        raise ClusterError(f"{', '.join(missing)} not found: install iproute2 and iperf3 "
                           f"(scripts/setup does)")


def require_root():
    if os.geteuid() != 0:
        raise ClusterError("needs root (network namespaces, bridges, tc)")


def disable_ipv6(device):
    """No IPv6 on a host-side device: no link-local address through which the host could
    reach the nodes."""
    Path(f"/proc/sys/net/ipv6/conf/{device}/disable_ipv6").write_text("1")


def disable_ipv6_in_namespace(namespace):
    """No IPv6 in a namespace (its interfaces made later inherit `default`)."""
    sh("ip", "netns", "exec", namespace, "sh", "-c",
       "echo 1 > /proc/sys/net/ipv6/conf/all/disable_ipv6 && "
       "echo 1 > /proc/sys/net/ipv6/conf/default/disable_ipv6")


def shape(device, bits, namespace=None):
    """tbf on the egress of `device` (in `namespace`, or on the host) at `bits` per second."""
    burst = max(TBF_MIN_BURST_BYTES, int(bits / 8 * TBF_BURST_SECONDS))
    where = ("-n", namespace) if namespace else ()
    sh("tc", *where, "qdisc", "replace", "dev", device, "root", "tbf", "rate", f"{bits}bit",
       "burst", burst, "latency", TBF_LATENCY)


def namespaces_with_prefix(name):
    """Network namespaces named `<name>-...`."""
    out = sh("ip", "netns", "list")
    return [line.split()[0] for line in out.splitlines()
            if line.strip() and line.split()[0].startswith(f"{name}-")]


def links_with_prefix(name):
    """Host links named `<name>-...` (veth names come as `name@peer`)."""
    out = sh("ip", "-o", "link", "show")
    names = [line.split(":")[1].strip().split("@")[0] for line in out.splitlines()]
    return [n for n in names if n.startswith(f"{name}-")]


# ---------------------------------------------------------------- state

def state_path(name):
    return STATE_DIR / f"{name}.json"


def hostfile_path(name, mpi):
    return STATE_DIR / f"{name}.{mpi}.hosts"


def load_state(name):
    """The state of cluster `name`; ClusterError when it is not up."""
    check_name(name)
    path = state_path(name)
    if not path.exists():
        raise ClusterError(f"cluster {name!r} is not up (no {path}): "
                           f"`autocoll cluster up --name {name} ...` first")
    return jsonfile.load(path, CLUSTER_SCHEMA, ClusterError, CLUSTER_VERSION)


def write_state(state):
    STATE_DIR.mkdir(parents=True, exist_ok=True)
    hosts = [n["hostname"] for n in state["nodes"]]
    Path(state["hostfile"]).write_text("".join(f"{h} slots=1\n" for h in hosts))
    Path(state["mpich_hostfile"]).write_text("".join(f"{h}:1\n" for h in hosts))
    Path(state["state_file"]).write_text(json.dumps(state, indent=1) + "\n")


def remove_state_dir_if_empty():
    try:
        STATE_DIR.rmdir()
    except OSError:   # absent, or another cluster's files are there
        pass


def leftovers(name):
    """What of cluster `name` exists: namespaces, host links, files (empty lists when none)."""
    check_name(name)
    files = sorted(str(p) for p in STATE_DIR.glob(f"{name}.*")) if STATE_DIR.exists() else []
    return {"namespaces": namespaces_with_prefix(name), "links": links_with_prefix(name),
            "files": files}


def is_complete(state):
    """Whether every namespace and host link of `state` exists."""
    have = leftovers(state["name"])
    want_links = [n["peer"] for n in state["nodes"]] + [s["bridge"] for s in state["switches"]]
    for s in state["switches"]:
        if "uplink" in s:
            want_links += [s["uplink"]["leaf"], s["uplink"]["core"]]
    if state["core"]:
        want_links.append(state["core"])
    return (set(n["namespace"] for n in state["nodes"]) <= set(have["namespaces"])
            and set(want_links) <= set(have["links"]))


# ---------------------------------------------------------------- build and tear down

def add_bridge(bridge):
    """A switch: a bridge without addresses."""
    sh("ip", "link", "add", bridge, "type", "bridge")
    disable_ipv6(bridge)
    sh("ip", "link", "set", bridge, "up")


def add_uplink(switch, core):
    """The veth pair between a leaf bridge and the core, shaped both ways."""
    up = switch["uplink"]
    sh("ip", "link", "add", up["leaf"], "type", "veth", "peer", "name", up["core"])
    for device, bridge in ((up["leaf"], switch["bridge"]), (up["core"], core)):
        disable_ipv6(device)
        sh("ip", "link", "set", device, "master", bridge, "up")
        shape(device, up["rate_bits"])


def add_node(node, bridge, rate_bits):
    """The namespace, its veth into `bridge`, its address, both directions shaped."""
    ns = node["namespace"]
    sh("ip", "netns", "add", ns)
    disable_ipv6_in_namespace(ns)
    sh("ip", "link", "add", node["peer"], "type", "veth", "peer", "name", node["interface"],
       "netns", ns)
    disable_ipv6(node["peer"])
    sh("ip", "link", "set", node["peer"], "master", bridge, "up")
    sh("ip", "-n", ns, "link", "set", "lo", "up")
    sh("ip", "-n", ns, "addr", "add", f"{node['ip']}/{node['prefixlen']}",
       "dev", node["interface"])
    sh("ip", "-n", ns, "link", "set", node["interface"], "up")
    shape(node["interface"], rate_bits, namespace=ns)
    shape(node["peer"], rate_bits)


def build(state):
    """Bridges, uplinks, nodes: everything `plan` describes."""
    if state["core"]:
        add_bridge(state["core"])
    for switch in state["switches"]:
        add_bridge(switch["bridge"])
        if "uplink" in switch:
            add_uplink(switch, state["core"])
    for node in state["nodes"]:
        add_node(node, state["switches"][node["switch"]]["bridge"], state["rate_bits"])


def kill_namespace_processes(namespace):
    """SIGKILL whatever still runs in one of our namespaces (a job's leftovers)."""
    for pid in sh("ip", "netns", "pids", namespace, check=False).split():
        try:
            os.kill(int(pid), signal.SIGKILL)
        except ProcessLookupError:
            pass


def down(name):
    """Removes everything named `<name>-...` and the state files; fine when nothing exists."""
    require_root()
    require_tools("ip", "tc")
    found = leftovers(name)
    for ns in found["namespaces"]:
        kill_namespace_processes(ns)
    for ns in found["namespaces"]:
        sh("ip", "netns", "delete", ns)
    # a veth end takes its peer with it, so some deletions find nothing: what is left is
    # checked below
    for link in found["links"]:
        sh("ip", "link", "delete", link, check=False)
    for path in found["files"]:
        Path(path).unlink(missing_ok=True)
    remove_state_dir_if_empty()
    left = leftovers(name)
    if any(left.values()):
        raise ClusterError(f"cluster {name!r} could not be removed entirely: {left}")
    return found


def up(name, topology, nodes, rate=DEFAULTS["rate"], oversubscription=DEFAULTS["oversubscription"],
       subnet=DEFAULTS["subnet"], log=print):
    """Builds the cluster (or keeps it when it is up with these parameters); returns its state.
    A failure tears down what was built before it raises."""
    state = plan(name, topology, nodes, rate, oversubscription, subnet)
    require_root()
    require_tools("ip", "tc")
    try:
        current = load_state(name)
    except ClusterError:
        current = None
    if current and current["parameters"] == state["parameters"] and is_complete(current):
        log(f"cluster {name}: already up with these parameters, kept")
        return current
    if current or any(leftovers(name).values()):
        log(f"cluster {name}: removing the previous one")
        down(name)
    try:
        build(state)
        write_state(state)
    except BaseException:
        down(name)
        raise
    log(f"cluster {name}: {describe(state)}")
    return state


def describe(state):
    text = (f"{state['topology']}, {len(state['nodes'])} nodes at {state['rate']} "
            f"on {state['subnet']}")
    if state["core"]:
        ups = ", ".join(s["uplink"]["rate"] for s in state["switches"])
        text += f", uplinks {ups} (oversubscription {state['oversubscription']:g}:1)"
    return text


def status_text(state):
    lines = [f"cluster {state['name']}: {describe(state)}",
             f"  state {state['state_file']}, hostfiles {state['hostfile']}, "
             f"{state['mpich_hostfile']}"]
    if not is_complete(state):
        lines.append("  INCOMPLETE: namespaces or links are missing; "
                     "`autocoll cluster up` rebuilds it")
    for switch in state["switches"]:
        head = f"  switch {switch['index']} ({switch['bridge']})"
        if "uplink" in switch:
            up = switch["uplink"]
            head += f", uplink {up['leaf']}<->{up['core']} at {up['rate']}"
        lines.append(head)
        for i in switch["nodes"]:
            n = state["nodes"][i]
            lines.append(f"    {n['hostname']:14} {n['ip']:15} {n['interface']} <-> {n['peer']}")
    return "\n".join(lines)


# ---------------------------------------------------------------- check (iperf3)

def measurements(state):
    """The iperf3 measurements of `check`: name, flows (src, dst node indices), limit (bits/s).
    A flow between two nodes of one switch is limited by the node rate; concurrent flows from
    the nodes of switch 0 to those of switch 1 by the node links and the two uplinks; one flow
    from each other switch into switch 0 by the receivers' links, the senders' uplinks and
    switch 0's uplink (its core-to-leaf direction). Four-switch with one node per switch has
    no same-switch pair: there the uplink measurement is also the node-link one."""
    rate = state["rate_bits"]
    groups = [s["nodes"] for s in state["switches"]]
    result = []
    same = next((g for g in groups if len(g) >= 2), None)
    if same:
        result.append({"name": "node link (same switch)", "flows": [(same[0], same[1])],
                       "limit_bits": rate})
    if state["core"]:
        ups = [s["uplink"]["rate_bits"] for s in state["switches"]]
        pairs = list(zip(groups[0], groups[1]))
        result.append({"name": "uplink, switch 0 to 1", "flows": pairs,
                       "limit_bits": min(len(pairs) * rate, ups[0], ups[1])})
        senders = [g[0] for g in groups[1:]]
        receivers = [groups[0][i % len(groups[0])] for i in range(len(senders))]
        result.append({"name": "downlink, switches 1-3 to 0",
                       "flows": list(zip(senders, receivers)),
                       "limit_bits": min(len(set(receivers)) * rate,
                                         sum(min(rate, ups[k]) for k in (1, 2, 3)), ups[0])})
    return result


def wait_listening(namespace, port, timeout=10.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if sh("ip", "netns", "exec", namespace, "ss", "-Hltn", f"sport = :{port}").strip():
            return
        time.sleep(0.05)
    raise ClusterError(f"iperf3 server in {namespace} not listening on port {port} "
                       f"after {timeout:g} s")


def received_bits(output, flow):
    """Receiver-side bits per second from an iperf3 client's JSON."""
    try:
        data = json.loads(output)
        return data["end"]["sum_received"]["bits_per_second"]
    except (ValueError, KeyError, TypeError) as e:
        raise ClusterError(f"iperf3 {flow}: no result: {output[-500:]}") from e


def run_flows(state, flows, seconds):
    """Concurrent iperf3 flows (one server each); the receiver-side bits/s of each flow."""
    nodes = state["nodes"]
    servers, clients = [], []
    try:
        for port, (_, dst) in enumerate(flows, IPERF_PORT):
            d = nodes[dst]
            servers.append(subprocess.Popen(
                ["ip", "netns", "exec", d["namespace"], "iperf3", "-s", "-1", "-B", d["ip"],
                 "-p", str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        for port, (_, dst) in enumerate(flows, IPERF_PORT):
            wait_listening(nodes[dst]["namespace"], port)
        for port, (src, dst) in enumerate(flows, IPERF_PORT):
            clients.append(subprocess.Popen(
                ["ip", "netns", "exec", nodes[src]["namespace"], "iperf3", "-J", "-c",
                 nodes[dst]["ip"], "-p", str(port), "-t", str(seconds + 1), "-O", "1"],
                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True))
        outputs = [c.communicate(timeout=seconds + 30)[0] for c in clients]
    finally:
        for p in servers + clients:
            if p.poll() is None:
                p.kill()
            p.wait()
    return [received_bits(out, f"{nodes[s]['hostname']} -> {nodes[d]['hostname']}")
            for out, (s, d) in zip(outputs, flows)]


def check(name, seconds=3, log=print):
    """Measures each of `measurements(state)`; returns them with the measured bits/s and ok."""
    if seconds < 1:
        raise ClusterError(f"bad measurement time {seconds} s: 1 or more")
    require_root()
    require_tools("ip", "tc", "iperf3", "ss")
    state = load_state(name)
    if not is_complete(state):
        raise ClusterError(f"cluster {name!r} is incomplete: `autocoll cluster up` rebuilds it")
    results = []
    for m in measurements(state):
        per_flow = run_flows(state, m["flows"], seconds)
        measured = sum(per_flow)
        ok = CHECK_LOW * m["limit_bits"] <= measured <= CHECK_HIGH * m["limit_bits"]
        result = dict(m, measured_bits=measured, per_flow_bits=per_flow, ok=ok,
                      flows=[[state["nodes"][s]["hostname"], state["nodes"][d]["hostname"]]
                             for s, d in m["flows"]])
        results.append(result)
        log(f"  {m['name']:28} {len(m['flows'])} flow{'s' if len(m['flows']) > 1 else ' '} "
            f"{measured / 1e6:8.1f} Mbit/s  limit {m['limit_bits'] / 1e6:8.1f}  "
            f"{'ok' if ok else 'OUT OF RANGE'}")
    return results


# ---------------------------------------------------------------- MPI launch

def in_node(node, command):
    """`command` (argv) run in `node`'s namespace under its own host name (a UTS namespace)."""
    return ["ip", "netns", "exec", node["namespace"], "unshare", "--uts", "sh", "-c",
            'hostname "$0" && exec "$@"', node["hostname"], *command]


def rank_nodes(state, ranks):
    """The node of every rank as the launchers place them: round-robin, rank r on node
    r mod nodes (Open MPI's `--map-by node`; hydra's hosts file of one slot per node)."""
    return [r % len(state["nodes"]) for r in range(ranks)]


def openmpi_command(state, ranks, env):
    cmd = ["mpirun.openmpi", "--allow-run-as-root", "--hostfile", state["hostfile"],
           "-n", str(ranks), "--map-by", "node", "--oversubscribe",
           "--mca", "plm_rsh_agent", str(AGENT),
           "--mca", "oob_tcp_if_include", NODE_INTERFACE,
           "--mca", "btl", "vader,tcp,self", "--mca", "btl_tcp_if_include", NODE_INTERFACE,
           "--mca", "mpi_yield_when_idle", "1"]
    for var, value in env.items():
        cmd += ["-x", f"{var}={value}"]
    return cmd


def mpich_command(state, ranks, env):
    cmd = ["mpiexec.mpich", "-launcher", "ssh", "-launcher-exec", str(AGENT),
           "-f", state["mpich_hostfile"], "-iface", NODE_INTERFACE, "-n", str(ranks),
           "-genv", "UCX_TLS", "tcp,self", "-genv", "UCX_NET_DEVICES", NODE_INTERFACE]
    for var, value in env.items():
        cmd += ["-genv", var, value]
    return cmd


LAUNCHERS = {"openmpi": openmpi_command, "mpich": mpich_command}


def launch_command(name, mpi, ranks, program, args=(), env=None, timeout=None):
    """The command (argv) that runs `program args` on `ranks` ranks of cluster `name`, rank r
    on node r mod nodes, the launcher in node 0. `env` (dict) is set in every rank (the
    caller's environment reaches the ranks anyway: the agent is no real ssh). With `timeout`
    (seconds) the launcher is sent SIGTERM then, SIGKILL 10 s later (exit 124 or 137)."""
    if mpi not in LAUNCHERS:
        raise ClusterError(f"unknown MPI {mpi!r} ({' or '.join(LAUNCHERS)})")
    if ranks < 1:
        raise ClusterError(f"bad rank count {ranks}")
    state = load_state(name)
    cmd = LAUNCHERS[mpi](state, ranks, dict(env or {}))
    if not shutil.which(cmd[0]):
        raise ClusterError(f"{cmd[0]} not found: install {mpi} (scripts/setup does)")
    if not os.access(AGENT, os.X_OK):
        raise ClusterError(f"{AGENT} is missing or not executable")
    cmd = in_node(state["nodes"][0], cmd + [str(program)] + [str(a) for a in args])
    if timeout:
        cmd = ["timeout", "-k", str(LAUNCH_TIMEOUT_GRACE), str(int(timeout))] + cmd
    return cmd


def parse_env(items):
    env = {}
    for item in items or ():
        var, sep, value = item.partition("=")
        if not sep or not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", var):
            raise ClusterError(f"bad --env {item!r} (VAR=VALUE)")
        env[var] = value
    return env


def mpirun(name, mpi, ranks, command, env=None, timeout=1800):
    """Runs an MPI program on the cluster; returns its exit status. After a timeout whatever
    still runs in the cluster's namespaces is killed."""
    if not command:
        raise ClusterError("no program to run (`... mpirun -n 4 -- ./program args`)")
    cmd = launch_command(name, mpi, ranks, command[0], command[1:], env, timeout=timeout)
    rc = subprocess.run(cmd).returncode
    if rc in (124, 137):
        print(f"autocoll cluster: {command[0]} ran past {timeout} s and was stopped",
              file=sys.stderr)
        for node in load_state(name)["nodes"]:
            kill_namespace_processes(node["namespace"])
    return rc

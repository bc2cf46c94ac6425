"""`autocoll cluster`: an emulated cluster on one Linux machine (needs root).

Each node is a network namespace with one interface, `eth0`, the inside end of a veth pair
whose outside end is a port of a Linux bridge (a "switch"). Two topologies, after Figure 3 of
the STAR-MPI paper:

    one-switch    every node on one bridge
    four-switch   the nodes spread over 4 leaf bridges, each joined to a core bridge by an
                  uplink (a veth pair between the two bridges)

Every link is shaped with tbf (token bucket) in both directions: the node's `eth0` (what the
node sends) and the bridge side of its veth (what it receives) at the node rate; the two ends
of an uplink (leaf to core and core to leaf) at the uplink rate,

    uplink rate = nodes on the switch x node rate / oversubscription.

The kernel has no netem: bandwidth is emulated, latency is not.

Everything the tool creates is named after the cluster name (the prefix, `ac` by default) and a
dash: namespaces `<name>-n<i>` (also the node's host name), node veths `<name>-v<i>`, bridges
`<name>-sw<k>` and `<name>-core`, uplinks `<name>-u<k>` (leaf side) and `<name>-c<k>` (core
side). `down` finds everything by that prefix, so it also clears what a failed `up` left.
The host has no address on the bridges (no IPv4, IPv6 off): the nodes reach one another and
nothing else. The state (JSON) and the hostfiles live in /run/autocoll-cluster/.

MPI jobs start in node 0's namespace (`mpirun`/`mpiexec` there, under a host name of its own)
and reach the other nodes through bench/cluster/netns-ssh, an ssh stand-in that runs the remote
command in the node's namespace and UTS namespace. docs/cluster.md says why each launch
setting is there.
"""

import argparse
import json
import sys

from ..formats.schemas import CLUSTER_CHECK_SCHEMA, CLUSTER_CHECK_VERSION
from ..run.cluster import (CHECK_HIGH, CHECK_LOW, DEFAULTS, LAUNCHERS, TOPOLOGY_SWITCHES,
                           ClusterError, check, describe, down, load_state, mpirun, parse_env,
                           status_text, up)


def cmd_up(args):
    up(args.name, args.topology, args.nodes, args.rate, args.oversubscription, args.subnet)
    return 0


def cmd_down(args):
    found = down(args.name)
    count = sum(len(v) for v in found.values())
    print(f"cluster {args.name}: " + (f"removed {len(found['namespaces'])} namespaces, "
                                      f"{len(found['links'])} links, {len(found['files'])} files"
                                      if count else "nothing to remove"))
    return 0


def cmd_status(args):
    state = load_state(args.name)
    print(json.dumps(state, indent=1) if args.json else status_text(state))
    return 0


def cmd_check(args):
    state = load_state(args.name)
    log = (lambda *_: None) if args.json else print
    log(f"cluster {args.name}: {describe(state)}; iperf3, {args.seconds} s per measurement")
    results = check(args.name, args.seconds, log=log)
    bad = [r for r in results if not r["ok"]]
    if args.json:
        print(json.dumps({"schema": CLUSTER_CHECK_SCHEMA, "version": CLUSTER_CHECK_VERSION,
                          "name": args.name, "state": state, "low": CHECK_LOW, "high": CHECK_HIGH,
                          "measurements": results}, indent=1))
    elif bad:
        print(f"check: {len(bad)} measured rate(s) outside {CHECK_LOW}-{CHECK_HIGH} x the limit")
    else:
        print(f"check: every measured rate within {CHECK_LOW}-{CHECK_HIGH} x its limit")
    return 1 if bad else 0


def cmd_mpirun(args):
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    return mpirun(args.name, args.mpi, args.n, command, parse_env(args.env), args.timeout)


def add_arguments(p):
    sub = p.add_subparsers(dest="cluster_command", required=True)
    q = sub.add_parser("up", help="build the cluster (a no-op when it is up as asked)")
    q.add_argument("--topology", required=True, choices=list(TOPOLOGY_SWITCHES))
    q.add_argument("--nodes", required=True, type=int,
                   help="nodes (namespaces); four-switch: first switches get one more if uneven")
    q.add_argument("--rate", default=DEFAULTS["rate"],
                   help="node link rate, a tc rate (default %(default)s)")
    q.add_argument("--oversubscription", type=float, default=DEFAULTS["oversubscription"],
                   help="four-switch: uplink = nodes on the switch x rate / this "
                        "(default %(default)g)")
    q.add_argument("--subnet", default=DEFAULTS["subnet"], help="default %(default)s")
    q.set_defaults(cluster_func=cmd_up)
    q = sub.add_parser("down", help="remove everything of the cluster (also a failed up's)")
    q.set_defaults(cluster_func=cmd_down)
    q = sub.add_parser("status", help="print the state")
    q.add_argument("--json", action="store_true", help="the state file as it is")
    q.set_defaults(cluster_func=cmd_status)
    q = sub.add_parser("check", help="iperf3: measured rates against the configured limits")
    q.add_argument("--seconds", type=int, default=3, help="per measurement (default 3)")
    q.add_argument("--json", action="store_true")
    q.set_defaults(cluster_func=cmd_check)
    q = sub.add_parser("mpirun", help="run an MPI program on the cluster: -- PROGRAM ARGS")
    q.add_argument("--mpi", default="openmpi", choices=list(LAUNCHERS))
    q.add_argument("-n", type=int, required=True, help="ranks (rank r on node r mod nodes)")
    q.add_argument("--env", action="append", metavar="VAR=VALUE",
                   help="set in every rank (repeatable)")
    q.add_argument("--timeout", type=int, default=1800, help="seconds (default %(default)s)")
    q.add_argument("command", nargs=argparse.REMAINDER, help="-- PROGRAM ARGS...")
    q.set_defaults(cluster_func=cmd_mpirun)
    for q in sub.choices.values():
        q.add_argument("--name", default=DEFAULTS["name"], help="cluster name (default ac)")


def main(args):
    """`autocoll cluster SUBCOMMAND`: runs it; a ClusterError is one line on stderr, exit 1."""
    try:
        return args.cluster_func(args)
    except ClusterError as e:
        print(f"autocoll cluster: {e}", file=sys.stderr)
        return 1

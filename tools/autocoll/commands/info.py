"""`autocoll info`: the algorithms per collective of a build's registry (autocoll-info --json)."""

import argparse

from ..formats.registry import algorithms_by_collective
from ..run.info import load


def positive_int(text):
    """An argument that counts something: 1, 2, ..."""
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a positive integer")
    return int(text)


def main(args):
    data = load(args.mpi, size=args.size)
    by = algorithms_by_collective(data)
    families = {f["collective"]: f for f in data.get("families", [])}
    print(f"autocoll {data['autocoll_version']} for {data['mpi']}, "
          f"registry {data['registry_fingerprint']}"
          + (f", {args.size} ranks" if args.size else ""))
    for coll, names in by.items():
        print(f"{coll:22} {len(names):3d}  {' '.join(names)}")
        if coll in families and not args.size:
            f = families[coll]
            print(f"{'':26}family {f['family']}: {f['names']} ({', '.join(f['phases'])})")
    return 0


def add_arguments(p):
    p.add_argument("--mpi", default="openmpi", choices=["openmpi", "mpich"])
    p.add_argument("--size", type=positive_int, help="every algorithm for a communicator of SIZE ranks, "
                   "the orthogonal mesh instances that factor it included")

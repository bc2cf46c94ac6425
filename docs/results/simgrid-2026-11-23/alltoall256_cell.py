#!/usr/bin/env python3
"""alltoall256_cell.py PLATFORM [SHARE] [--bytes N] - the 256-rank alltoall cell of N bytes
(default 8; as run.sh's cells256 for alltoall256) without `simple` and `node_aware` (README.md,
"The alltoall of 8 B at 256 ranks"): each keeps p x (p - 1) flows in flight, which SMPI's
network model takes hours of wall time to share out at 256 ranks (the shares holding them
never finished in sessions 20 and 21), both were 8 x the oracle or slower wherever they were
simulated (64 and 128 ranks, fat-tree-ib at 256), and on four-switch-gbe `simple` aborts
SimGrid 3.32's solver.

The cell's fixed algorithms are dealt into 8 shares as `autocoll bench --jobs 8` deals them;
each share less those two runs as its own simulation (share 1 with the native layer, as
run.sh's first share) with run.sh's cells256 options, into
cells256/PLATFORM/alltoall-SIZE-np256-ompi.parts/part<k>of8.json, part<k>of8-without.json for
the two shares that lose one (resumable: a share whose result is there is kept; with SHARE,
that share alone). Then the shares are merged into cells256/PLATFORM/alltoall-SIZE-np256-ompi.json
(autocoll.run.bench.merge_parts: native and the calibration must agree to the bit between shares)
with the two algorithms listed as skipped, "not simulated" and why, and the mpich selector's
native alone (run.sh's second command) is simulated when its cell is missing. The shares stay
committed. A share of the 8-byte cell takes 2 to 4 minutes of wall time here."""
import argparse
import json
import shutil
import subprocess
import sys
from pathlib import Path

here = Path(__file__).resolve().parent
repo = here.parents[2]
sys.path.insert(0, str(repo / "tools"))
from autocoll.formats.cells import cell_name  # noqa: E402
from autocoll.run.bench import merge_parts, registry_algorithms, split_algorithms  # noqa: E402

EXCLUDED = {
    "simple": "not simulated: p x (p - 1) flows in flight take SMPI hours of wall time a call "
              "at 256 ranks (8 x the oracle on fat-tree-ib at 256 ranks)",
    "node_aware": "not simulated: with one rank per node the same messages as simple, p x "
                  "(p - 1) flows in flight (hours of wall time a call at 256 ranks)",
}
SHARES = 8


def bench(platform, out, common, *args):
    cmd = [str(repo / ".venv/bin/autocoll"), "bench", "--simgrid", platform, "--out", str(out),
           *common, *args]
    print("+", " ".join(cmd), flush=True)
    subprocess.run(cmd, check=True)


def cell_in_shares(collective, sync, folder, excluded, platform, only_share=None, size=8):
    """The 256-rank cell of `size` bytes of `collective` on `platform` as run.sh's cells256
    makes it (`--sync` `sync`, into `folder`/PLATFORM/), its fixed algorithms less `excluded`
    ({name: why}) simulated in SHARES shares one simulation each (part<k>of8.json, the names
    `autocoll bench --jobs 8` resumes from; part<k>of8-without.json for a share that loses an
    excluded algorithm), then merged; with only_share, that share alone."""
    common = ["--ranks", "256", "--collectives", collective, "--sizes", str(size),
              "--iterations", "20", "--warmup", "1", "--sync", sync, "--timeout", "14400"]
    cell_dir = here / folder / platform
    name = cell_name(collective, size, 256, "ompi").removesuffix(".json")
    parts_dir = cell_dir / f"{name}.parts"
    names = registry_algorithms("simgrid", repo / "build/simgrid", 256)[collective]
    shares = split_algorithms(names, None, SHARES)
    results = []
    for k, share in enumerate(shares, 1):
        suffix = "-without" if set(share) & set(excluded) else ""
        result = parts_dir / f"part{k}of{SHARES}{suffix}.json"
        results.append(result)
        if result.exists() or (only_share and k != only_share):
            continue
        kept = [n for n in share if n not in excluded]
        out = parts_dir / f"part{k}{suffix}.tmp"
        bench(platform, out, common, "--fixed-iterations", "5", "--selectors", "ompi",
              "--layers", "native" if k == 1 else "", "--only", ",".join(kept))
        (out / f"{name}.json").rename(result)
        shutil.rmtree(out)
    if only_share:
        return
    if not (cell_dir / cell_name(collective, size, 256, "mpich")).exists():
        bench(platform, cell_dir, common, "--layers", "", "--only", "native", "--selectors",
              "mpich")
    only = ",".join(n for n in names if n != "native" and n not in excluded)
    merged = merge_parts([json.loads(r.read_text()) for r in results], names, only)
    merged["skipped"] = [s for s in merged["skipped"] if s["name"] not in excluded]
    merged["skipped"] += [{"name": n, "kind": "fixed", "reason": why}
                          for n, why in excluded.items()]
    (cell_dir / f"{name}.json").write_text(json.dumps(merged, indent=1) + "\n")
    print(f"{platform}: merged {len(results)} shares; oracle {merged['oracle']['name']} "
          f"{merged['oracle']['median'] * 1e6:.2f} us")


def cell_main(doc, collective, sync, folder, excluded):
    """A script's command line, PLATFORM [SHARE] [--bytes N] (its usage the first part of
    `doc`), into cell_in_shares."""
    parser = argparse.ArgumentParser(description=doc.split(" - ")[0])
    parser.add_argument("platform")
    parser.add_argument("share", type=int, nargs="?")
    parser.add_argument("--bytes", type=int, default=8)
    args = parser.parse_args()
    cell_in_shares(collective, sync, folder, excluded, args.platform, args.share, args.bytes)


if __name__ == "__main__":
    cell_main(__doc__, "alltoall", "barrier", "cells256", EXCLUDED)

#!/usr/bin/env bash
# run.sh - the rows of ../validation-2026-11-25 that a node of several ranks decides, again on
# the node the platform loader builds since 2026-11-28 (one host a rank, a core's copy link each,
# the node's memory shared: platforms/README.md, "A node of several ranks"): ping-pong inside a
# node (bench/pingpong, --ppn 2), the message rate inside a node of 32 (bench/msgrate), and
# OSU-style latency at 8 ranks a node, 64 ranks (bench/osu_collective: allreduce and bcast at
# 8 B, 64 KiB, 1 MiB; alltoall at 8 B: its 64 KiB took more than 10 minutes of simulation on the
# new node, README.md). The rows at one rank a node do not change (they run the XML file as
# before). Writes node.txt here (OUT: another name; PLATFORMS: some of them, so that two runs
# share the machine's cores); table.py prints the tables beside those of 2026-11-25.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
autocoll="$repo/.venv/bin/autocoll"
bench="$repo/build/simgrid/bench"
run() { echo "\$ autocoll simgrid run $*"; "$autocoll" simgrid run "$@"; echo; }
{
  for p in ${PLATFORMS:-one-switch-gbe four-switch-gbe fat-tree-ib torus-3d dragonfly}; do
    echo "=== $p"
    run --platform "$p" -n 2 --ppn 2 "$bench/pingpong" 8 64K 4M
    run --platform "$p" -n 32 --ppn 32 "$bench/msgrate" 1 8 31
    for coll in allreduce bcast; do
      run --platform "$p" -n 64 --ppn 8 --shared-malloc 1048576 \
        "$bench/osu_collective" --iterations 10 --warmup 2 "$coll" 8 64K 1M
    done
    run --platform "$p" -n 64 --ppn 8 --shared-malloc 1048576 \
      "$bench/osu_collective" --iterations 10 --warmup 2 alltoall 8
  done
} > "$here/${OUT:-node.txt}" 2>&1

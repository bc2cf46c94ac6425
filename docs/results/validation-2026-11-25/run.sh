#!/usr/bin/env bash
# run.sh - what each simulated platform of platforms/ gives, to set beside published
# measurements (platforms/README.md, "Validation"): plain MPI programs of bench/ (no autocoll),
# SimGrid SMPI 3.32, simulated time (the same in every run), through `autocoll simgrid run` (the
# platform loader: shared-memory overheads inside a node).
#   - ping-pong latency and bandwidth between two nodes and inside one (bench/pingpong);
#   - the message rate of one rank sending 8 B to 1, 8, 64 and 255 others on as many nodes, and
#     to 1, 8 and 31 others inside its node (bench/msgrate): the send-side overhead;
#   - OSU-style latency (bench/osu_collective: barrier, call, mean over the ranks) of allreduce,
#     bcast and alltoall at 8 B, 64 KiB and 1 MiB on 64 ranks, one per node and 8 per node,
#     under SMPI's Open MPI selector (`ompi`, its copy of coll/tuned's fixed rules);
#   - STAR-MPI's topology (a) (seed 000: 16 nodes on one 100 Mbit/s switch, MPICH of 2006): the
#     one-switch-gbe model with its node links at 100 Mbit/s, alltoall, allgather and allreduce
#     at 16, 64 and 256 KiB on 16 ranks under SMPI's MPICH selector, beside the MPICH column of
#     the paper's Table 6.
# Writes validation.txt here, or the file OUT names. About 25 minutes of one core here (2-core
# VM, shared). ../validation-2026-11-28 is this script again (OUT=...), after the platform loader
# began to build a node of several ranks out of one host a rank.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
autocoll="$repo/.venv/bin/autocoll"
bench="$repo/build/simgrid/bench"
out="${OUT:-$here/validation.txt}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

run() { echo "\$ autocoll simgrid run $*"; "$autocoll" simgrid run "$@"; echo; }

{
  for p in one-switch-gbe four-switch-gbe fat-tree-ib torus-3d dragonfly; do
    echo "=== $p"
    run --platform "$p" -n 2 "$bench/pingpong" 8 64K 4M
    run --platform "$p" -n 2 --ppn 2 "$bench/pingpong" 8 64K 4M
    run --platform "$p" -n 256 "$bench/msgrate" 1 8 64 255
    run --platform "$p" -n 32 --ppn 32 "$bench/msgrate" 1 8 31
    for ppn in 1 8; do
      for coll in allreduce bcast alltoall; do
        run --platform "$p" -n 64 --ppn "$ppn" --shared-malloc 1048576 \
          "$bench/osu_collective" --iterations 10 --warmup 2 "$coll" 8 64K 1M
      done
    done
  done

  echo "=== STAR-MPI topology (a): one-switch-gbe with 100 Mbit/s node links, 16 ranks"
  sed 's/bw="1Gbps"/bw="100Mbps"/' "$repo/platforms/one-switch-gbe.xml" > "$work/one-switch-fe.xml"
  grep -q 'bw="100Mbps"' "$work/one-switch-fe.xml"
  run --platform "$work/one-switch-fe.xml" -n 2 "$bench/pingpong" 8 4M
  for coll in alltoall allgather allreduce; do
    run --platform "$work/one-switch-fe.xml" -n 16 --selector mpich \
      "$bench/osu_collective" --iterations 10 --warmup 2 "$coll" 16K 64K 256K
  done
} > "$out" 2>&1

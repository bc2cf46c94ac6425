#!/usr/bin/env bash
# baselines.sh - run.sh's step 2 (the baselines: SMPI's mpich selector, the MPICH 4 and Open MPI
# 5 tables) for the 256-rank cells at 32 ranks a node, run beside run.sh's step 1 (README.md:
# how this experiment was run). AG: the allgather sizes (default 8).
set -euo pipefail
repo=$(cd "$(dirname "$0")/../../.." && pwd)
autocoll="$repo/.venv/bin/autocoll"
cells="$repo/results/hier256-2026-11-28/fat-tree-ib-ppn32"
for m in "--collectives allreduce,bcast,reduce --sizes 8,1K" "--collectives allgather --sizes ${AG:-8}"; do
  common=(--simgrid fat-tree-ib --ppn 32 $m --ranks 256 --warmup 1 --sync clock --timeout 7200)
  "$autocoll" bench "${common[@]}" --out "$cells-mpich" --iterations 4 --layers '' --only native --selectors mpich
  for t in mpich4 ompi5; do
    "$autocoll" bench "${common[@]}" --out "$cells-$t" --iterations 4 --layers table --only native --selectors ompi --table "$repo/tables/$t-defaults.json"
  done
done

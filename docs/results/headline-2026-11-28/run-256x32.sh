#!/usr/bin/env bash
# run-256x32.sh - the cells of 256 ranks at 32 a node (8 nodes) added on 2026-11-29, one
# collective and size at a time (the whole pass, with alltoall, would take hours of this
# machine): for each "collective size" below, ../hier-2026-11-26/run.sh's step-1 commands for
# that one cell (every fixed algorithm of the registry, 4 calls after one warm-up, and the
# baselines: SMPI's `mpich` selector, tables/mpich4-defaults.json and tables/ompi5-defaults.json
# in the table layer). CELLS="allreduce:8 bcast:8" picks some. Then ./run.sh with STEP=2 replays
# and summarises every cell of the folder.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
autocoll="$repo/.venv/bin/autocoll"
out="$repo/results/headline-2026-11-28/fat-tree-ib-ppn32"
for cell in ${CELLS:-allreduce:8 bcast:8 allreduce:1K}; do
  coll=${cell%%:*} size=${cell#*:}
  common=(--simgrid fat-tree-ib --ppn 32 --placement block --collectives "$coll" --sizes "$size"
          --ranks 256 --warmup 1 --sync clock --timeout 7200)
  "$autocoll" bench "${common[@]}" --out "$out" --fixed-iterations 4 --iterations 4 \
    --layers '' --selectors ompi
  "$autocoll" bench "${common[@]}" --out "$out-mpich" --iterations 4 --layers '' \
    --only native --selectors mpich
  for t in mpich4 ompi5; do
    "$autocoll" bench "${common[@]}" --out "$out-$t" --iterations 4 --layers table \
      --only native --selectors ompi --table "$repo/tables/$t-defaults.json"
  done
done

#!/usr/bin/env bash
# run.sh - what bcast, reduce and allreduce through a node's shared memory (`shm`, and the
# hierarchical instances with a `shm` phase inside the nodes) are worth on platforms/fat-tree-ib.xml,
# every call started at one instant of the simulated clock (--sync clock), 8 B, 1 KiB, 64 KiB and
# 1 MiB, SMPI's `ompi` selector as native:
#   1. one node of 8 and of 32 ranks: every fixed algorithm of the registry (4 calls after one
#      warm-up), then `model` and `race` replayed over the cells (`autocoll simgrid replay`, 1000
#      calls from a cold start);
#   2. 64 ranks at 8 and 32 a node (8 and 2 nodes): the instances with a `shm` phase and native
#      only (STEP=2; slow: many minutes a cell); the other algorithms' times are those of
#      docs/results/hier-2026-11-26 and han-pipeline-2026-11-28 (same platform, simulated times
#      unchanged by this work: scripts/sim_regression), which summary.py reads from their archives.
# Cells go to results/shm-2026-11-28/ (outside the tree; resumable), then into cells.tar.xz here
# with its checksum; summary.py prints summary.md.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../../.." && pwd)
name=shm-2026-11-28
here="$repo/docs/results/$name"
autocoll="$repo/.venv/bin/autocoll"
out="$repo/results/$name"
platform=fat-tree-ib
sizes=${SIZES:-8,1K,64K,1M}
common=(--simgrid "$platform" --collectives allreduce,bcast,reduce --sizes "$sizes" --warmup 1
        --sync clock --timeout 7200 --selectors ompi --layers '')

if [ "${STEP:-1}" = 1 ]; then
  for ranks in 8 32; do
    cells="$out/$platform-node$ranks"
    "$autocoll" bench "${common[@]}" --ppn "$ranks" --ranks "$ranks" --out "$cells" \
      --fixed-iterations 4 --iterations 4
    mkdir -p "$here/replay"
    "$autocoll" simgrid replay "$cells"/*-ompi.json --layers race,model --calls 1000 \
      --json "$here/replay/$platform-node$ranks-cold.json" > /dev/null
  done
fi
if [ "${STEP:-1}" = 2 ]; then
  for ppn in ${PPNS:-32 8}; do
    for c in allreduce bcast reduce; do
      only=native,$("$repo/build/openmpi/autocoll-info" --collective "$c" --size 64 2>/dev/null |
                    grep -o 'hier[a-z0-9_]*shm[a-z0-9_]*' | sort -u | paste -sd,)
      "$autocoll" bench "${common[@]}" --collectives "$c" --ppn "$ppn" --ranks 64 \
        --out "$out/$platform-ppn$ppn" --fixed-iterations 4 --iterations 4 --only "$only"
    done
  done
fi
if [ "${SUMMARY:-0}" = 1 ]; then
  tar -C "$out" -cJf "$here/cells.tar.xz" .
  (cd "$here" && sha256sum cells.tar.xz > cells.tar.xz.sha256)
  "$repo/.venv/bin/python" "$here/summary.py" "$out" "$here/replay" > "$here/summary.md"
fi

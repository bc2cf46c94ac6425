#!/usr/bin/env bash
# run.sh - docs/results/shm-2026-11-28's step 1 again, on the node the platform loader builds
# since 2026-11-28 (one host a rank, a core's copy link each, the node's memory shared:
# platforms/README.md, "A node of several ranks"): bcast, reduce and allreduce on one node of
# 8 and of 32 ranks of platforms/fat-tree-ib.xml, every fixed algorithm of the registry (4
# calls after one warm-up, every call started at one instant: --sync clock), SMPI's `ompi`
# selector as native, 8 B, 1 KiB, 64 KiB and 1 MiB; then `model` and `race` replayed over the
# cells (`autocoll simgrid replay`, 1000 calls from a cold start). COLLECTIVES and RANKS choose
# others (the second run of the day: COLLECTIVES=gather,scatter,allgather RANKS=8 ./run.sh, the
# replays then over every cell of the folder). Hours here at 32 ranks and 1 MiB (README.md).
# Cells go to results/shm-node-2026-11-28/ (outside the tree), then into cells.tar.xz here with
# its checksum; summary.py prints summary.md (beside the same cells of shm-2026-11-28).
set -euo pipefail
repo=$(cd "$(dirname "$0")/../../.." && pwd)
name=shm-node-2026-11-28
here="$repo/docs/results/$name"
autocoll="$repo/.venv/bin/autocoll"
out="$repo/results/$name"
platform=fat-tree-ib
for ranks in ${RANKS:-8 32}; do
  cells="$out/$platform-node$ranks"
  "$autocoll" bench --simgrid "$platform" --collectives "${COLLECTIVES:-allreduce,bcast,reduce}" \
    --sizes 8,1K,64K,1M --warmup 1 --sync clock --timeout 7200 --selectors ompi --layers '' \
    --ppn "$ranks" --ranks "$ranks" --out "$cells" --fixed-iterations 4 --iterations 4
  mkdir -p "$here/replay"
  "$autocoll" simgrid replay "$cells"/*-ompi.json --layers race,model --calls 1000 \
    --json "$here/replay/$platform-node$ranks-cold.json" > /dev/null
done
tar -C "$out" -cJf "$here/cells.tar.xz" .
(cd "$here" && sha256sum cells.tar.xz > cells.tar.xz.sha256)
"$repo/.venv/bin/python" "$here/summary.py" "$out" "$here/replay" > "$here/summary.md"

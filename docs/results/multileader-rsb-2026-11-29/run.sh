#!/usr/bin/env bash
# run.sh - what several leaders a node are worth for reduce_scatter_block (issue 40, 2026-11-29):
# platforms/fat-tree-ib.xml, block placement, every call from one instant of the simulated clock
# (--sync clock), 4 calls after one warm-up, SMPI's `ompi` selector; every fixed algorithm of the
# registry (flat, orthogonal, hierarchical with 1, 2 and 4 leaders) at 16 and 64 ranks 8 a node
# (64: added later on 2026-11-29), vectors of 1 KiB and 64 KiB (doubles, summed); then `model`
# and `race` replayed over the cells from a cold start, 1000 calls, the agreement's time from
# headline-2026-11-28's allreduce of 8 B at the same layout (results/headline-2026-11-28: extract
# that folder's cells.tar.xz there).
# BUILD: the SimGrid build to run (default build/simgrid). Cells go to
# results/multileader-rsb-2026-11-29/ (outside the tree; resumable), then into cells.tar.xz here.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
autocoll="$repo/.venv/bin/autocoll"
out="$repo/results/multileader-rsb-2026-11-29"
build=${BUILD:-$repo/build/simgrid}
"$autocoll" bench --build "$build" --simgrid fat-tree-ib --ppn 8 --placement block \
  --collectives reduce_scatter_block --sizes 1K,64K --ranks 16,64 --warmup 1 --sync clock \
  --timeout 7200 --out "$out/fat-tree-ib-ppn8" --fixed-iterations 4 --iterations 4 \
  --layers '' --selectors ompi
tar -C "$out" -cJf "$here/cells.tar.xz" .
(cd "$here" && sha256sum cells.tar.xz > cells.tar.xz.sha256)
for np in 16 64; do
  suffix=$([ "$np" = 16 ] || echo "-np$np")  # the 16-rank files keep their first names
  "$autocoll" simgrid replay "$out"/fat-tree-ib-ppn8/reduce_scatter_block-*-np$np-ompi.json \
    --layers model,race --calls 1000 \
    --agreement "$repo/results/headline-2026-11-28/fat-tree-ib-ppn8/allreduce-8-np$np-ompi.json" \
    --json "$here/replay$suffix.json" > "$here/replay$suffix.txt"
done

#!/usr/bin/env bash
# run.sh - what several leaders a node are worth for allgather, gather and scatter (issue 40,
# 2026-11-29): platforms/fat-tree-ib.xml, block placement, every call from one instant of the
# simulated clock (--sync clock), 4 calls after one warm-up, SMPI's `ompi` selector; the
# hierarchical instances with 2 and 4 leaders (hier_k2_*, hier_k4_*) and native, measured beside
# headline-2026-11-28's cells (same options, same platform file), whose every other fixed
# algorithm they are compared with by compare.py:
#   allgather at 16 ranks 8 a node (8 B, 1 KiB, 64 KiB, 1 MiB) and at 64 ranks 8 and 32 a node
#   (8 B, 1 KiB, 64 KiB); gather and scatter are not in headline's matrix: not here. Then
#   merge.py adds them to headline's cells and `model` and `race` are replayed over those.
# BUILD: the SimGrid build to run (default build/simgrid); INFO: an autocoll-info of the same
# registry that runs outside SMPI (default build/openmpi/autocoll-info). Cells go to
# results/multileader-2026-11-29/ (outside the tree; resumable), then into cells.tar.xz here.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
autocoll="$repo/.venv/bin/autocoll"
out="$repo/results/multileader-2026-11-29"
build=${BUILD:-$repo/build/simgrid}
info=${INFO:-$repo/build/openmpi/autocoll-info}
for pass in "16 8 8,1K,64K,1M" "64 8 8,1K,64K" "64 32 8,1K,64K"; do
  read -r ranks ppn sizes <<< "$pass"
  names=$("$info" --collective allgather --size "$ranks" --parsable |
          grep -o '^algorithm:allgather:hier_k[0-9]*_[^:]*' | cut -d: -f3 | sort -u | paste -sd,)
  "$autocoll" bench --build "$build" --simgrid fat-tree-ib --ppn "$ppn" --placement block \
    --collectives allgather --sizes "$sizes" --ranks "$ranks" --warmup 1 --sync clock \
    --timeout 7200 --out "$out/fat-tree-ib-ppn$ppn" --fixed-iterations 4 --iterations 4 \
    --layers '' --selectors ompi --only "$names"
done
# gather and scatter at 64 ranks 32 a node, 1 KiB and 64 KiB: every fixed algorithm (their
# cells are not in headline's matrix), the multi-leader instances among them
"$autocoll" bench --build "$build" --simgrid fat-tree-ib --ppn 32 --placement block \
  --collectives gather,scatter --sizes 1K,64K --ranks 64 --warmup 1 --sync clock \
  --timeout 7200 --out "$out/rooted-ppn32" --fixed-iterations 4 --iterations 4 --layers '' \
  --selectors ompi
tar -C "$out" --exclude ./merged -cJf "$here/cells.tar.xz" .
(cd "$here" && sha256sum cells.tar.xz > cells.tar.xz.sha256)
# model over the merged cells (merge.py), by a build that knows the instances (REPLAY_BUILD,
# default build/openmpi)
rm -rf "$out/merged"
"$repo/.venv/bin/python" "$here/merge.py" "$out" "$repo/results/headline-2026-11-28" \
  "$out/merged"
for cells in "$out"/merged/*; do
  "$autocoll" simgrid replay "$cells"/allgather-*-ompi.json --layers model,race --calls 1000 \
    --build "${REPLAY_BUILD:-$repo/build/openmpi}" \
    --json "$here/replay-merged-$(basename "$cells").json" > /dev/null
done
"$repo/.venv/bin/python" "$here/compare.py" "$out" "$repo/results/headline-2026-11-28" "$here" \
  > "$here/summary.md"

#!/usr/bin/env bash
# run.sh - what several leaders a node are worth for alltoall (issue 40, 2026-11-29):
# platforms/fat-tree-ib.xml, block placement, every call from one instant of the simulated clock
# (--sync clock), 4 calls after one warm-up, SMPI's `ompi` selector; the hierarchical alltoall
# instances with 2 and 4 leaders (hier_k2_*, hier_k4_*) and native, measured beside
# headline-2026-11-28's alltoall cells (same options, same platform file: 8 B and 1 KiB at 16
# and 64 ranks 8 a node, 8 B at 64 ranks 32 a node), whose every other fixed algorithm they are
# compared with by ../multileader-2026-11-29/compare.py; ../multileader-2026-11-29/merge.py adds
# them to headline's cells and `model` and `race` are replayed over those.
# BUILD: the SimGrid build to run (default build/simgrid); INFO: an autocoll-info of the same
# registry that runs outside SMPI (default build/openmpi/autocoll-info); REPLAY_BUILD: the build
# whose strategies replay (default build/openmpi). Cells go to
# results/multileader-alltoall-2026-11-29/ (outside the tree; resumable), then into cells.tar.xz
# here.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
autocoll="$repo/.venv/bin/autocoll"
out="$repo/results/multileader-alltoall-2026-11-29"
build=${BUILD:-$repo/build/simgrid}
info=${INFO:-$repo/build/openmpi/autocoll-info}
for pass in "16 8 8,1K" "64 8 8,1K" "64 32 8"; do
  read -r ranks ppn sizes <<< "$pass"
  names=$("$info" --collective alltoall --size "$ranks" --parsable |
          grep -o '^algorithm:alltoall:hier_k[0-9]*_[^:]*' | cut -d: -f3 | sort -u | paste -sd,)
  "$autocoll" bench --build "$build" --simgrid fat-tree-ib --ppn "$ppn" --placement block \
    --collectives alltoall --sizes "$sizes" --ranks "$ranks" --warmup 1 --sync clock \
    --timeout 7200 --out "$out/fat-tree-ib-ppn$ppn" --fixed-iterations 4 --iterations 4 \
    --layers '' --selectors ompi --only "$names"
done
tar -C "$out" --exclude ./merged -cJf "$here/cells.tar.xz" .
(cd "$here" && sha256sum cells.tar.xz > cells.tar.xz.sha256)
rm -rf "$out/merged"
"$repo/.venv/bin/python" "$here/../multileader-2026-11-29/merge.py" "$out" \
  "$repo/results/headline-2026-11-28" "$out/merged"
for cells in "$out"/merged/*; do
  "$autocoll" simgrid replay "$cells"/alltoall-*-ompi.json --layers model,race --calls 1000 \
    --build "${REPLAY_BUILD:-$repo/build/openmpi}" \
    --json "$here/replay-merged-$(basename "$cells").json" > /dev/null
done
"$repo/.venv/bin/python" "$here/../multileader-2026-11-29/compare.py" "$out" \
  "$repo/results/headline-2026-11-28" "$here" > "$here/summary.md"

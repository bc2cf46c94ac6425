#!/usr/bin/env bash
# run.sh - what charging the sender (and shared memory inside a node) changes: the same cells
# simulated on the platforms as they were until 2026-11-25 (sending free: smpi/os = smpi/ois = 0,
# the whole per-message overhead charged to the receiver, the network's overheads inside a node
# too; the files of commit 0df46b8) and as they are now (platforms/: the sender pays, a node's
# messages pay shared-memory overheads), every fixed algorithm and SMPI's Open MPI selector
# (`ompi`), each call started at one instant of the simulated clock (--sync clock: a rooted
# collective's time runs to its last receiver). The 64-rank 8-byte bcast also with a barrier
# before each call (--sync barrier), as issue 38 measured it. Each cell records its wall time.
#
# Cells go to results/sendcost-2026-11-25/{before,after}/<platform>/ (outside the tree; resumable),
# then into cells.tar.xz here with its checksum; summary.py prints summary.md from them.
# About 40 minutes of one core here (2-core VM, shared with other work: wall times are rough).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
autocoll="$repo/.venv/bin/autocoll"
out="$repo/results/sendcost-2026-11-25"
BEFORE=0df46b8   # the last commit whose platforms charged nothing to the sender

mkdir -p "$out/platforms-before"
for p in fat-tree-ib one-switch-gbe; do
  git -C "$repo" show "$BEFORE:platforms/$p.xml" > "$out/platforms-before/$p.xml"
done

cell() {  # cell WHEN PLATFORM COLLECTIVE SIZES RANKS SYNC
  local when=$1 platform=$2 coll=$3 sizes=$4 ranks=$5 sync=$6 file=$2
  [ "$when" = before ] && file="$out/platforms-before/$platform.xml"
  "$autocoll" bench --simgrid "$file" --out "$out/$when/$platform-$sync" --collectives "$coll" \
    --sizes "$sizes" --ranks "$ranks" --iterations 10 --fixed-iterations 10 --warmup 2 \
    --layers '' --selectors ompi --sync "$sync" --timeout 3600
}

# Before and after side by side, cell by cell, so that both see the same load on this machine.
for p in fat-tree-ib one-switch-gbe; do
  for when in before after; do cell "$when" "$p" bcast 8 64 barrier; done
  for spec in "bcast 8,1K" "reduce 8,1K" "allreduce 8,1K" "allgather 8" "alltoall 8" \
              "scatter 8" "gather 8"; do
    for when in before after; do
      cell "$when" "$p" $spec 64 clock
    done
  done
done

tar -C "$out" -cJf "$here/cells.tar.xz" before after
(cd "$here" && sha256sum cells.tar.xz > cells.tar.xz.sha256)
"$repo/.venv/bin/python" "$here/summary.py" "$out" > "$here/summary.md"

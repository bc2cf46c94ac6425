#!/usr/bin/env bash
# run.sh - cyclic placement on the faithful node (issue 38 item 3, issue 40 item 3):
# platforms/fat-tree-ib.xml, 64 ranks at 8 a node and at 32 a node as in ../headline-2026-11-28
# (its block cells are the comparison), but rank r on node r mod nodes (`--placement cyclic`:
# MPI_COMM_WORLD's neighbours on different nodes), every call from one instant of the
# simulated clock.
#   1. per ranks-per-node, ../hier-2026-11-26/run.sh with PLACEMENT=cyclic: the cells (every
#      fixed algorithm, 4 calls after one warm-up) and the four baselines (SMPI's `ompi` and
#      `mpich`, the tables of MPICH 4's and Open MPI 5's defaults) for allreduce, bcast, reduce
#      and allgather of 8 B and 64 KiB and alltoall of 8 B;
#   2. the four strategies replayed over the cells, 1000 calls, cold and warm;
#   3. summary.md (../headline-2026-11-25/summary.py), hierarchy.md (../hier-2026-11-26/summary.py)
#      placement.md (../placement-2026-11-25/summary.py: cyclic against block, cell by cell) and
#      walltime.md (../headline-2026-11-28/walltime.py: what the cells cost this machine).
# Step 1 ran with AUTOCOLL_BUILD=<a build of this commit>, the two ranks-per-node side by side
# (PPN=8, PPN=32; its replay step then fails: step 2 here). STEP=2 runs steps 2 and 3. Cells go
# to results/placement-2026-11-28/ (outside the tree; resumable), then into cells.tar.xz here
# with its checksum.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
name=placement-2026-11-28
out="$repo/results/$name"
autocoll="$repo/.venv/bin/autocoll"

if [ "${STEP:-1}" = 1 ]; then
  for ppn in ${PPN:-8 32}; do
    NAME=$name RANKS=64 PPNS=$ppn PLACEMENT=cyclic SIZES=8,64K ALLTOALL_SIZES=8 \
      "$repo/docs/results/hier-2026-11-26/run.sh" || true  # its replay step: step 2 here
  done
fi

mkdir -p "$here/replay"
for ppn in 8 32; do
  for start in cold warm; do
    warm=()
    [ "$start" = warm ] && warm=(--warm)
    "$autocoll" simgrid replay "$out/fat-tree-ib-ppn$ppn"/*-ompi.json \
      --layers race,model,star_enhanced,lottery --calls 1000 "${warm[@]}" \
      --json "$here/replay/fat-tree-ib-ppn$ppn-$start.json" > /dev/null
  done
done
tar -C "$out" -cJf "$here/cells.tar.xz" .
(cd "$here" && sha256sum cells.tar.xz > cells.tar.xz.sha256)
"$repo/.venv/bin/python" "$repo/docs/results/headline-2026-11-25/summary.py" "$out" \
  "$here/replay" > "$here/summary.md"
"$repo/.venv/bin/python" "$repo/docs/results/hier-2026-11-26/summary.py" "$out" \
  "$here/replay" > "$here/hierarchy.md"
for ppn in 8 32; do
  echo "## $ppn ranks a node (64 ranks on $((64 / ppn)) nodes)"
  echo
  "$repo/.venv/bin/python" "$repo/docs/results/placement-2026-11-25/summary.py" \
    "$repo/results/headline-2026-11-28/fat-tree-ib-ppn$ppn" "$out/fat-tree-ib-ppn$ppn"
  echo
done > "$here/placement.md"
"$repo/.venv/bin/python" "$repo/docs/results/headline-2026-11-28/walltime.py" "$out" \
  > "$here/walltime.md"

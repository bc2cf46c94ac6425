#!/usr/bin/env bash
# run.sh - issue 38's headline evidence, first slice, on the corrected platforms (the sender
# pays, shared memory inside a node): platforms/fat-tree-ib.xml, 64 ranks at 1 and at 8 ranks
# per node (64 and 8 nodes, block placement), allreduce, bcast, reduce, allgather and alltoall of
# 8 B and 64 KiB, every call started at one instant of the simulated clock (--sync clock: a
# rooted collective's time runs to its last receiver).
#   1. the cells: every fixed algorithm (20 calls each) and SMPI's copy of Open MPI's tuned
#      rules (`ompi`), then SMPI's `mpich` selector alone;
#   2. the "MPICH 4 defaults" baseline: the table layer with tables/mpich4-defaults.json
#      (docs/baselines.md), 20 calls, to learn which algorithm it runs in each cell;
#   3. the strategies replayed over the cells (`autocoll simgrid replay`: their own code over
#      the measured per-call times), 1000 calls, cold and warm.
# The alltoall of 64 KiB is left out: its simulation (every fixed algorithm) grew past 18 GB of
# memory at one rank per node and past 24 GB (the VM's) at 8, and was killed; not traced.
# Cells go to results/headline-2026-11-25/ (outside the tree; resumable), then into
# cells.tar.xz here with its checksum; replays into replay/; summary.py prints summary.md.
# PPNS="1" or "8" runs one half (two halves side by side use both cores); PLATFORM=NAME another
# platform of platforms/ (default fat-tree-ib).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
autocoll="$repo/.venv/bin/autocoll"
out="$repo/results/headline-2026-11-25"
platform=${PLATFORM:-fat-tree-ib}
ranks=64
matrix=("--collectives allreduce,bcast,reduce,allgather --sizes 8,64K"
        "--collectives alltoall --sizes 8")

for ppn in ${PPNS:-1 8}; do
  cells="$out/$platform-ppn$ppn"
  for m in "${matrix[@]}"; do
    # shellcheck disable=SC2206 # $m is two options and their values
    common=(--simgrid "$platform" --ppn "$ppn" $m --ranks "$ranks" --warmup 2 --sync clock
            --timeout 7200)
    "$autocoll" bench "${common[@]}" --out "$cells" --fixed-iterations 20 --iterations 20 \
      --layers '' --selectors ompi
    "$autocoll" bench "${common[@]}" --out "$cells-mpich" --iterations 20 --layers '' \
      --only native --selectors mpich
    "$autocoll" bench "${common[@]}" --out "$cells-mpich4" --iterations 20 --layers table \
      --only native --selectors ompi --table "$repo/tables/mpich4-defaults.json"
  done
  mkdir -p "$here/replay"
  for start in cold warm; do
    warm=()
    [ "$start" = warm ] && warm=(--warm)
    "$autocoll" simgrid replay "$cells"/*-ompi.json --layers race,model,star_enhanced,lottery \
      --calls 1000 "${warm[@]}" --json "$here/replay/$platform-ppn$ppn-$start.json" > /dev/null
  done
done

if [ -z "${PPNS:-}" ]; then
  tar -C "$out" -cJf "$here/cells.tar.xz" .
  (cd "$here" && sha256sum cells.tar.xz > cells.tar.xz.sha256)
  "$repo/.venv/bin/python" "$here/summary.py" "$out" "$here/replay" > "$here/summary.md"
fi

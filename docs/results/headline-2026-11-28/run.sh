#!/usr/bin/env bash
# run.sh - issue 38's headline evidence on the node the platform loader builds since 2026-11-28
# (one host a rank, a core's own copy link, the node's memory shared where its cores can fill it:
# platforms/README.md, "A node of several ranks"): platforms/fat-tree-ib.xml, block placement,
# every call started at one instant of the simulated clock (--sync clock: a rooted collective's
# time runs to its last receiver).
#   1. per pass below ("ranks ppn sizes alltoall-sizes"), the cells and the four baselines:
#      ../hier-2026-11-26/run.sh (every fixed algorithm of the registry, 4 calls after one
#      warm-up; SMPI's `ompi` and `mpich` selectors; the table layer with
#      tables/mpich4-defaults.json and tables/ompi5-defaults.json) for allreduce, bcast, reduce
#      and allgather of the sizes and alltoall of the alltoall sizes;
#   2. the four strategies replayed over the cells (`autocoll simgrid replay`: their own code
#      over the measured per-call times), 1000 calls, from a cold start and warm;
#   3. ../headline-2026-11-25/summary.py prints summary.md, ../hier-2026-11-26/summary.py
#      hierarchy.md (what the hierarchical family is worth, cell by cell), walltime.py
#      walltime.md (what the cells cost this machine).
# The passes were run two side by side (both cores), AUTOCOLL_BUILD=<a build of this commit>;
# README.md says which were stopped and where. PASS="i" runs pass i of step 1 alone; STEP=2
# steps 2 and 3 over every cell the folder holds. Cells go to results/headline-2026-11-28/
# (outside the tree; resumable), then into cells.tar.xz here with its checksum.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
name=headline-2026-11-28
out="$repo/results/$name"
autocoll="$repo/.venv/bin/autocoll"
platform=fat-tree-ib
passes=("64 1 8,1K,64K 8,1K" "64 8 8,1K,64K 8,1K"
        "64 1 1M 8,1K" "16 1 8,1K,64K,1M 8,1K" "256 8 8,1K 8"
        "16 8 8,1K,64K,1M 8,1K" "64 32 8,1K 8" "64 8 1M 8,1K" "256 1 8 8"
        "256 1 1K 1K")

if [ "${STEP:-1}" = 1 ]; then
  for i in "${!passes[@]}"; do
    [ -n "${PASS:-}" ] && [ "$PASS" != "$i" ] && continue
    read -r ranks ppn sizes alltoall <<< "${passes[$i]}"
    NAME=$name RANKS=$ranks PPNS=$ppn SIZES=$sizes ALLTOALL_SIZES=$alltoall \
      "$repo/docs/results/hier-2026-11-26/run.sh" || true  # its replay step: step 2 here
  done
  [ -n "${PASS:-}" ] && exit 0
fi

mkdir -p "$here/replay"
for ppn in 1 8 32; do
  cells="$out/$platform-ppn$ppn"
  [ -d "$cells" ] || continue
  for start in cold warm; do
    warm=()
    [ "$start" = warm ] && warm=(--warm)
    "$autocoll" simgrid replay "$cells"/*-ompi.json --layers race,model,star_enhanced,lottery \
      --calls 1000 "${warm[@]}" --json "$here/replay/$platform-ppn$ppn-$start.json" > /dev/null
  done
done
tar -C "$out" -cJf "$here/cells.tar.xz" .
(cd "$here" && sha256sum cells.tar.xz > cells.tar.xz.sha256)
"$repo/.venv/bin/python" "$repo/docs/results/headline-2026-11-25/summary.py" "$out" \
  "$here/replay" > "$here/summary.md"
"$repo/.venv/bin/python" "$repo/docs/results/hier-2026-11-26/summary.py" "$out" \
  "$here/replay" > "$here/hierarchy.md"
"$repo/.venv/bin/python" "$here/walltime.py" "$out" > "$here/walltime.md"

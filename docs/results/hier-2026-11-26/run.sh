#!/usr/bin/env bash
# run.sh - what the hierarchical family (issue 40) is worth, first slice: platforms/fat-tree-ib.xml,
# 64 ranks at 8 and at 32 ranks per node (8 and 2 nodes, block placement), allreduce, bcast,
# reduce and allgather of 8 B, 1 KiB, 64 KiB and 1 MiB, alltoall of 8 B and 1 KiB, every call started at
# one instant of the simulated clock (--sync clock: a rooted collective's time runs to its last
# receiver).
#   1. the cells: every fixed algorithm of the registry (4 calls each after one warm-up: the flat ones, the
#      orthogonal meshes and the hierarchical instances) and SMPI's copy of Open MPI's tuned
#      rules (`ompi`, which also runs the instances' `native` phases);
#   2. the baselines, each in the same set-up (4 calls after one warm-up): SMPI's `mpich`
#      selector; the table layer with tables/mpich4-defaults.json (MPICH 4's Csel defaults and
#      its ch4 compositions as autocoll's algorithms) and with tables/ompi5-defaults.json (Open
#      MPI 5.0's HAN over tuned: hier_native_native on several nodes; docs/baselines.md);
#   3. the strategies replayed over the cells (`autocoll simgrid replay`: their own code over the
#      measured per-call times), 1000 calls from a cold start: model and race.
# summary.py prints summary.md: per cell the oracle with and without the family (how much
# hierarchy is worth), the best hierarchical instance, native, the baselines, and the
# strategies' steady state over the oracle and decision length.
# Cells go to results/hier-2026-11-26/ (outside the tree; resumable), then into cells.tar.xz here
# with its checksum; replays into replay/. PPNS="8" or "32" runs one half (then the summary
# only when SUMMARY=1).
# Other experiments run the same steps with: RANKS (default 64), PPNS (default "8 32"),
# SIZES (default 8,1K,64K,1M), ALLTOALL_SIZES (default 8,1K), NAME (the folder under results/ and docs/results/, default
# hier-2026-11-26): docs/results/matrix16-2026-11-26/README.md; PLACEMENT (block, the default,
# or cyclic: `autocoll bench --placement`; the folders keep their names); EXCLUDE (fixed
# algorithms left out of the cells of allreduce, bcast, reduce and allgather: `autocoll bench
# --exclude`, for those whose simulation would take hours; the folder's README says why);
# COLLECTIVES (of allreduce, bcast, reduce, allgather: those of the first matrix line) with
# ALLTOALL_SIZES=none (no alltoall cells) to run some cells alone.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../../.." && pwd)
name=${NAME:-hier-2026-11-26}
here="$repo/docs/results/$name"
autocoll="$repo/.venv/bin/autocoll"
out="$repo/results/$name"
platform=fat-tree-ib
ranks=${RANKS:-64}
matrix=("--collectives ${COLLECTIVES:-allreduce,bcast,reduce,allgather} --sizes ${SIZES:-8,1K,64K,1M}${EXCLUDE:+ --exclude $EXCLUDE}"
        "--collectives alltoall --sizes ${ALLTOALL_SIZES:-8,1K}")

[ "${ALLTOALL_SIZES:-}" = none ] && unset 'matrix[1]'

for ppn in ${PPNS:-8 32}; do
  cells="$out/$platform-ppn$ppn"
  for m in "${matrix[@]}"; do
    # shellcheck disable=SC2206 # $m is two options and their values
    common=(--simgrid "$platform" --ppn "$ppn" --placement "${PLACEMENT:-block}" $m
            --ranks "$ranks" --warmup 1 --sync clock --timeout 7200)
    "$autocoll" bench "${common[@]}" --out "$cells" --fixed-iterations 4 --iterations 4 \
      --layers '' --selectors ompi
    "$autocoll" bench "${common[@]}" --out "$cells-mpich" --iterations 4 --layers '' \
      --only native --selectors mpich
    for t in mpich4 ompi5; do
      "$autocoll" bench "${common[@]}" --out "$cells-$t" --iterations 4 --layers table \
        --only native --selectors ompi --table "$repo/tables/$t-defaults.json"
    done
  done
  mkdir -p "$here/replay"
  "$autocoll" simgrid replay "$cells"/*-ompi.json --layers race,model --calls 1000 \
    --json "$here/replay/$platform-ppn$ppn-cold.json" > /dev/null
done

if [ -z "${PPNS:-}" ] || [ "${SUMMARY:-}" = 1 ]; then
  tar -C "$out" -cJf "$here/cells.tar.xz" .
  (cd "$here" && sha256sum cells.tar.xz > cells.tar.xz.sha256)
  "$repo/.venv/bin/python" "$repo/docs/results/hier-2026-11-26/summary.py" "$out" \
    "$here/replay" > "$here/summary.md"
fi

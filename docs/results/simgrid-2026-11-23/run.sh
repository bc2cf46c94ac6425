#!/usr/bin/env bash
# run.sh - the simulated matrix of this folder (README.md says what was run and what it took).
# Resumable: a cell whose JSON is already in cells*/ is kept (autocoll bench). Two simulations
# at a time (one per core of the 2-core machine). Needs scripts/setup (build/simgrid, .venv).
#   run.sh matrix16   16 ranks, 4 platforms (four-switch-gbe puts 16 nodes on one switch: it is
#                     one-switch-gbe there), 8 collectives x 8 B, 1 KiB, 64 KiB, and barrier
#   run.sh matrix64   64 ranks on 3 platforms (four-switch-gbe: 48 nodes on switch 0, 16 on
#                     switch 1), allreduce and alltoall x 8 B, 1 KiB
#   run.sh noise16    4 collectives x 8 B, 1 KiB on 16 ranks of two platforms, with noise
#   run.sh scale      allreduce 8 B at 256 ranks on fat-tree-ib: learning cost, without and with
#                     noise
#   run.sh report     report.md from every cell
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
autocoll="$repo/.venv/bin/autocoll"
platforms="one-switch-gbe four-switch-gbe fat-tree-ib torus-3d dragonfly"
layers=native,star_enhanced,star_basic,lottery,race
noise=detour:0.05:0.0005   # 5 % of calls, on each rank apart, wait an exponential 500 us first
common=(--iterations 1000 --fixed-iterations 10 --warmup 2 --sync barrier)

# one platform's cells: the full cells (native under SMPI's ompi selector, every fixed
# algorithm, every strategy) and the mpich selector's native alone; $1 platform, $2 folder,
# then autocoll bench's matrix options
cells() {
  local platform=$1 out=$2
  shift 2
  "$autocoll" bench --simgrid "$platform" --out "$out" "${common[@]}" --layers "$layers" \
    --selectors ompi "$@"
  "$autocoll" bench --simgrid "$platform" --out "$out" "${common[@]}" --layers '' \
    --only native --selectors mpich "$@"
}

# every platform, two at a time; $1 folder, then the matrix options; the log of platform P is
# in the folder's P.log
each_platform() {
  local prefix=$1 failed=0
  shift
  for p in $platforms; do
    while [ "$(jobs -rp | wc -l)" -ge 2 ]; do wait -n || failed=1; done
    cells "$p" "$prefix/$p" "$@" >> "$prefix/$p.log" 2>&1 &
  done
  while [ "$(jobs -rp | wc -l)" -gt 0 ]; do wait -n || failed=1; done
  [ "$failed" = 0 ] || { echo "run.sh: a platform failed: see $prefix/*.log" >&2; exit 1; }
}

case ${1:-} in
  matrix16)
    mkdir -p "$here/cells16"
    platforms=${platforms/four-switch-gbe /}
    each_platform "$here/cells16" \
      --collectives allreduce,alltoall,allgather,bcast,reduce,reduce_scatter,scatter \
      --sizes 8,1K,64K --ranks 16
    each_platform "$here/cells16" --collectives gather --sizes 8,1K --ranks 16
    # the 64 KiB gather deadlocks on one-switch-gbe under SMPI's ompi selector (README.md)
    platforms=${platforms/one-switch-gbe /} each_platform "$here/cells16" \
      --collectives gather --sizes 64K --ranks 16
    each_platform "$here/cells16" --collectives barrier --sizes 0 --ranks 16
    ;;
  matrix64)
    mkdir -p "$here/cells64"
    platforms="four-switch-gbe fat-tree-ib torus-3d" each_platform "$here/cells64" \
      --collectives allreduce,alltoall --sizes 8,1K --ranks 64
    ;;
  noise16)
    mkdir -p "$here/noise16"
    platforms="one-switch-gbe fat-tree-ib" each_platform "$here/noise16" --noise "$noise" \
      --collectives allreduce,alltoall,allgather,bcast --sizes 8,1K --ranks 16
    ;;
  scale)
    mkdir -p "$here/scale" "$here/scale-noise"
    cells fat-tree-ib "$here/scale/fat-tree-ib" --collectives allreduce --sizes 8 --ranks 256 \
      > "$here/scale/fat-tree-ib.log" 2>&1 &
    cells fat-tree-ib "$here/scale-noise/fat-tree-ib" --noise "$noise" --collectives allreduce \
      --sizes 8 --ranks 256 > "$here/scale-noise/fat-tree-ib.log" 2>&1 &
    wait %1 && wait %2
    ;;
  report)
    dirs=()
    for d in cells16 cells64 noise16 scale scale-noise; do
      if [ -d "$here/$d" ]; then dirs+=("$here/$d"/*/); fi
    done
    "$autocoll" simgrid report "${dirs[@]}" --out "$here/report.md"
    ;;
  *)
    sed -n '2,10p' "$0" >&2
    exit 2
    ;;
esac

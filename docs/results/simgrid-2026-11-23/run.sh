#!/usr/bin/env bash
# run.sh - the simulated matrix of this folder (README.md says what was run and what it took).
# Resumable: a cell whose JSON is already in cells*/ is kept (autocoll bench). Two simulations
# at a time (one per core of the 2-core machine). Needs scripts/setup (build/simgrid, .venv).
#   run.sh matrix16   16 ranks, 4 platforms (four-switch-gbe puts 16 nodes on one switch: it is
#                     one-switch-gbe there), 8 collectives x 8 B, 1 KiB, 64 KiB, and barrier
#   run.sh big16      16 ranks, the 4 platforms of matrix16, the 8 collectives x 1 MiB, 4 MiB
#                     (buffers of 1 MiB or more shared between the simulated ranks: SMPI copies
#                     no data out of them, timings stay right, docs/simgrid.md)
#   run.sh matrix64   64 ranks on 4 platforms (four-switch-gbe: 48 nodes on switch 0, 16 on
#                     switch 1, so traffic crosses the uplinks), allreduce, alltoall and bcast
#                     x 8 B, 1 KiB
#   run.sh noise16    4 collectives x 8 B, 1 KiB on 16 ranks of two platforms, with noise
#                     (stress: 5 % of calls, 500 us mean)
#   run.sh noise16m   the same cells with the detours measured on the emulated cluster
#                     (noise_fit.py: about 1 % of calls, 0.65 x a call; here 20 us)
#   run.sh scale256   256 ranks on the platforms: allreduce, alltoall and bcast x 8 B, 1 KiB;
#                     native and every fixed algorithm (5 calls after 1 cold one, recorded),
#                     the native layer (its first call is the layer's set-up), 20 calls of
#                     native; the mpich selector's native alone. The strategies are replayed
#                     over these cells (run.sh replay): simulating their learning call by call
#                     costs hours per cell here (docs/simgrid.md, "Learning at scale")
#   run.sh bcast256   256 ranks, bcast of 8 B and 1 KiB, as scale256 but with --sync clock (every
#                     call starts at one simulated instant: a barrier's skew made scale256's bcast
#                     an artifact), into cells256clock/; the agreement's time from a native
#                     allreduce of 8 B alone, also --sync clock
#   run.sh allreduce256  256 ranks, allreduce of 8 B, native and every fixed algorithm, --sync
#                     clock, on ALLREDUCE256_PLATFORMS (default dragonfly), into allreduce256clock/
#   run.sh alltoall256  256 ranks, alltoall of 8 B, as scale256 (--sync barrier), on
#                     ALLTOALL256_PLATFORMS (default the four besides fat-tree-ib), into cells256/
#                     These two take JOBS (default 1): each cell's algorithms shared among JOBS
#                     simulations side by side (autocoll bench --jobs); device.sh runs them so
#   run.sh scale1024  1024 ranks on fat-tree-ib, --sync clock: bcast of 8 B (native and five
#                     algorithms) and allreduce of 8 B (native and three), each with the mpich
#                     selector's native; not an oracle (not every algorithm), into cells1024/
#   run.sh oracle64   the 64-rank cells matrix64 did not finish (dragonfly; torus-3d alltoall;
#                     four-switch-gbe alltoall 1 KiB and bcast; one-switch-gbe, which matrix64
#                     never ran), as scale256 runs them: the
#                     fixed algorithms, native and the native layer, for the replay
#   run.sh replay     the strategies replayed over oracle64/ and cells256/, without noise, with
#                     the measured noise and with the stress noise (replay64*.txt,
#                     replay256*.txt, .json), and checked against the simulated 16- and 64-rank
#                     cells (replay_check.txt)
#   run.sh tables16   the configuration phase (autocoll tune --simgrid) on the 4 platforms of
#                     matrix16, same cells, then every matrix16 cell with the table layer alone:
#                     once with the platform's own table, once with the previous platform's
#                     (cyclic: one-switch-gbe takes dragonfly's)
#   run.sh report     report.md and the learning curves (plots/) from every cell
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
autocoll=${AUTOCOLL:-$repo/.venv/bin/autocoll}  # device.sh: a copy there without the venv
platforms="one-switch-gbe four-switch-gbe fat-tree-ib torus-3d dragonfly"
layers=native,star_enhanced,star_basic,lottery,race
noise=detour:0.05:0.0005   # 5 % of calls, on each rank apart, wait an exponential 500 us first
measured_noise=detour:0.01:0.00002  # 1 % of calls, 20 us (noise_fit.txt)
common=(--iterations 1000 --fixed-iterations 10 --warmup 2 --sync barrier)

# one collective's 256-rank cells of 8 B ($1 collective, $2 --sync, $3 folder, then the
# platforms): native and every fixed algorithm (5 calls after one cold one; shared among JOBS
# simulations), the native layer, then the mpich selector's native alone
cells256() {
  local coll=$1 sync=$2 folder=$3 p
  shift 3
  mkdir -p "$here/$folder"
  for p in "$@"; do
    local c=(--simgrid "$p" --out "$here/$folder/$p" --ranks 256 --collectives "$coll" --sizes 8
             --iterations 20 --warmup 1 --sync "$sync" --timeout 14400)
    {
      "$autocoll" bench "${c[@]}" --fixed-iterations 5 --layers native --selectors ompi \
        --jobs "${JOBS:-1}" &&
      "$autocoll" bench "${c[@]}" --layers '' --only native --selectors mpich
    } >> "$here/$folder/$p.log" 2>&1
  done
}

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

# the tune of one platform: the cells of matrix16 (fixed algorithms and native only, no
# repetitions: simulated time does not vary between runs); $1 platform
tune16() {
  local p=$1 gather_sizes=8,1K,64K
  # the 64 KiB gather deadlocks on one-switch-gbe under SMPI's ompi selector (README.md)
  [ "$p" = one-switch-gbe ] && gather_sizes=8,1K
  for plan in "allreduce,alltoall,allgather,bcast,reduce,reduce_scatter,scatter 8,1K,64K" \
              "gather $gather_sizes" "barrier 0"; do
    set -- $plan
    "$autocoll" tune --simgrid "$p" --out "$here/tune16/$p/$1" --table "$here/tune16/$p/$1.json" \
      --collectives "$1" --sizes "$2" --ranks 16 --iterations 10 --warmup 2 --sync barrier \
      --repeats 0 --selector ompi
  done
  "$repo/.venv/bin/python" - "$here/tune16/$p" <<'PY'
import json, sys
from pathlib import Path
folder = Path(sys.argv[1])
parts = [json.loads((folder / f"{n}.json").read_text()) for n in ("allreduce,alltoall,allgather,bcast,reduce,reduce_scatter,scatter", "gather", "barrier")]
table = dict(parts[0])
table["cells"] = [c for t in parts for c in t["cells"]]
table["rules"] = [r for t in parts for r in t["rules"]]
table["sweep"] = dict(table["sweep"], collectives=[c for t in parts for c in t["sweep"]["collectives"]])
(folder / "table.json").write_text(json.dumps(table, indent=1) + "\n")
PY
}

# one platform's table cells: native and the table layer, 1000 calls each; $1 platform, $2 the
# platform whose table it runs, $3 folder
table_cells() {
  local p=$1 from=$2 out=$3 gather_sizes=8,1K,64K
  [ "$p" = one-switch-gbe ] && gather_sizes=8,1K
  for plan in "allreduce,alltoall,allgather,bcast,reduce,reduce_scatter,scatter 8,1K,64K" \
              "gather $gather_sizes" "barrier 0"; do
    set -- $plan
    "$autocoll" bench --simgrid "$p" --out "$out" "${common[@]}" --layers table --only native \
      --selectors ompi --table "$here/tune16/$from/table.json" --collectives "$1" \
      --sizes "$2" --ranks 16
  done
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
  big16)
    mkdir -p "$here/big16"
    platforms=${platforms/four-switch-gbe /}
    each_platform "$here/big16" \
      --collectives allreduce,alltoall,allgather,bcast,reduce,reduce_scatter,scatter,gather \
      --sizes 1M,4M --ranks 16
    ;;
  matrix64)
    mkdir -p "$here/cells64"
    platforms="four-switch-gbe fat-tree-ib torus-3d dragonfly" each_platform "$here/cells64" \
      --collectives allreduce,alltoall,bcast --sizes 8,1K --ranks 64
    ;;
  noise16)
    mkdir -p "$here/noise16"
    platforms="one-switch-gbe fat-tree-ib" each_platform "$here/noise16" --noise "$noise" \
      --collectives allreduce,alltoall,allgather,bcast --sizes 8,1K --ranks 16
    ;;
  noise16m)
    mkdir -p "$here/noise16m"
    platforms="one-switch-gbe fat-tree-ib" each_platform "$here/noise16m" \
      --noise "$measured_noise" --collectives allreduce,alltoall,allgather,bcast --sizes 8,1K \
      --ranks 16
    ;;
  scale256)
    mkdir -p "$here/cells256"
    at256=(--collectives allreduce,alltoall,bcast --sizes 8,1K --ranks 256 --timeout 14400)
    failed=0
    for p in ${SCALE_PLATFORMS:-fat-tree-ib torus-3d dragonfly four-switch-gbe one-switch-gbe}; do
      while [ "$(jobs -rp | wc -l)" -ge 2 ]; do wait -n || failed=1; done
      ( "$autocoll" bench --simgrid "$p" --out "$here/cells256/$p" --iterations 20 \
          --fixed-iterations 5 --warmup 1 --sync barrier --layers native --selectors ompi \
          "${at256[@]}" &&
        "$autocoll" bench --simgrid "$p" --out "$here/cells256/$p" --iterations 20 --warmup 1 \
          --sync barrier --layers '' --only native --selectors mpich "${at256[@]}"
      ) >> "$here/cells256/$p.log" 2>&1 &
    done
    while [ "$(jobs -rp | wc -l)" -gt 0 ]; do wait -n || failed=1; done
    [ "$failed" = 0 ] || { echo "run.sh: a platform failed: see $here/cells256/*.log" >&2; exit 1; }
    ;;
  bcast256)
    for p in ${SCALE_PLATFORMS:-fat-tree-ib dragonfly torus-3d four-switch-gbe one-switch-gbe}; do
      c256=(--simgrid "$p" --out "$here/cells256clock/$p" --ranks 256 --warmup 1 --sync clock
            --timeout 14400)
      mkdir -p "$here/cells256clock"
      {
        "$autocoll" bench "${c256[@]}" --collectives allreduce --sizes 8 --iterations 20 \
          --layers '' --only native --selectors ompi &&
        "$autocoll" bench "${c256[@]}" --collectives bcast --sizes 8,1K --iterations 20 \
          --fixed-iterations 5 --layers native --selectors ompi &&
        "$autocoll" bench "${c256[@]}" --collectives bcast --sizes 8,1K --iterations 20 \
          --layers '' --only native --selectors mpich
      } >> "$here/cells256clock/$p.log" 2>&1
    done
    ;;
  allreduce256)
    cells256 allreduce clock allreduce256clock ${ALLREDUCE256_PLATFORMS:-dragonfly}
    ;;
  alltoall256)
    cells256 alltoall barrier cells256 \
      ${ALLTOALL256_PLATFORMS:-torus-3d dragonfly four-switch-gbe one-switch-gbe}
    ;;
  scale1024)
    c1024=(--simgrid fat-tree-ib --out "$here/cells1024/fat-tree-ib" --ranks 1024 --warmup 1
           --sync clock --timeout 7200 --layers '' --iterations 20 --sizes 8)
    mkdir -p "$here/cells1024"
    bcasts=native,flat_tree,binomial_tree,knomial_tree_k4,orthogonal_32xn_flat_tree
    bcasts+=,orthogonal_8x8xn_flat_tree
    allreduces=native,recursive_doubling,allgather_mesh_3d,orthogonal_32xn_recursive_doubling
    {
      "$autocoll" bench "${c1024[@]}" --collectives bcast --fixed-iterations 5 --selectors ompi \
        --only "$bcasts"
      "$autocoll" bench "${c1024[@]}" --collectives bcast --selectors mpich --only native
      "$autocoll" bench "${c1024[@]}" --collectives allreduce --fixed-iterations 5 \
        --selectors ompi --only "$allreduces"
      "$autocoll" bench "${c1024[@]}" --collectives allreduce --selectors mpich --only native
    } >> "$here/cells1024/fat-tree-ib.log" 2>&1
    ;;
  oracle64)
    o64=(--ranks 64 --layers native --iterations 20 --fixed-iterations 10 --warmup 2
         --sync barrier --timeout 7200)
    gaps() {
      local p=$1
      shift
      "$autocoll" bench --simgrid "$p" --out "$here/oracle64/$p" --selectors ompi "${o64[@]}" "$@"
      "$autocoll" bench --simgrid "$p" --out "$here/oracle64/$p" --selectors mpich --layers '' \
        --only native --ranks 64 --iterations 20 --warmup 2 --sync barrier "$@"
    }
    gaps dragonfly --collectives allreduce,alltoall,bcast --sizes 8,1K
    gaps torus-3d --collectives alltoall --sizes 8,1K
    gaps four-switch-gbe --collectives bcast --sizes 8,1K
    gaps four-switch-gbe --collectives alltoall --sizes 1K
    gaps one-switch-gbe --collectives allreduce,alltoall,bcast --sizes 8,1K  # session 18
    ;;
  replay)
    # an agreement costs a native 8-byte allreduce of the platform: from the cell's folder, or
    # from cells64/ where oracle64/ has none
    for n in none "$measured_noise" "$noise"; do
      suffix=${n/none/}; suffix=${suffix:+-${n//[:.]/_}}
      for p in dragonfly torus-3d four-switch-gbe; do
        [ -d "$here/oracle64/$p" ] || continue
        agree=()
        [ -f "$here/oracle64/$p/allreduce-8-np64-ompi.json" ] ||
          agree=(--agreement "$here/cells64/$p/allreduce-8-np64-ompi.json")
        "$autocoll" simgrid replay "$here/oracle64/$p"/*-ompi.json --noise "$n" "${agree[@]}" \
          --json "$here/replay64-$p$suffix.json"
      done > "$here/replay64$suffix.txt"
      # fat-tree-ib's: the other platforms' alltoall cells have no allreduce beside them for
      # the agreement's time; ../model-eval-2026-11-24/run.sh replays them
      "$autocoll" simgrid replay "$here"/cells256/fat-tree-ib/*-ompi.json --noise "$n" \
        --json "$here/replay256$suffix.json" > "$here/replay256$suffix.txt"
    done
    "$autocoll" simgrid replay --compare "$here"/validate64/*/*.json "$here"/cells64/*/*-ompi.json \
      "$here"/cells16/*/*-ompi.json > "$here/replay_check.txt"
    ;;
  tables16)
    four="one-switch-gbe fat-tree-ib torus-3d dragonfly"
    mkdir -p "$here/tune16" "$here/tables16"
    failed=0
    for p in $four; do
      while [ "$(jobs -rp | wc -l)" -ge 2 ]; do wait -n || failed=1; done
      tune16 "$p" >> "$here/tune16/$p.log" 2>&1 &
    done
    while [ "$(jobs -rp | wc -l)" -gt 0 ]; do wait -n || failed=1; done
    [ "$failed" = 0 ] || { echo "run.sh: a tune failed: see $here/tune16/*.log" >&2; exit 1; }
    previous=dragonfly
    for p in $four; do
      for from in "$p" "$previous"; do
        while [ "$(jobs -rp | wc -l)" -ge 2 ]; do wait -n || failed=1; done
        table_cells "$p" "$from" "$here/tables16/$p-table-$from" \
          >> "$here/tables16/$p-table-$from.log" 2>&1 &
      done
      previous=$p
    done
    while [ "$(jobs -rp | wc -l)" -gt 0 ]; do wait -n || failed=1; done
    [ "$failed" = 0 ] || { echo "run.sh: a table cell failed: see $here/tables16/*.log" >&2; exit 1; }
    ;;
  report)
    dirs=()
    for d in cells16 big16 cells64 validate64 oracle64 noise16 noise16m tables16 cells256; do
      if [ -d "$here/$d" ]; then dirs+=("$here/$d"/*/); fi
    done
    "$autocoll" simgrid report "${dirs[@]}" --out "$here/report.md" --plots "$here/plots"
    ;;
  *)
    sed -n '2,10p' "$0" >&2
    exit 2
    ;;
esac

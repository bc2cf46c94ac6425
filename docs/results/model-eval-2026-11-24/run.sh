#!/usr/bin/env bash
# run.sh - issue 21's side-by-side table: the five run-time strategies (model, race, lottery,
# star_basic, star_enhanced) replayed (`autocoll simgrid replay`, bench/strategy_replay.c) over
# every simulated cell of ../simgrid-2026-11-23 that measured native and the fixed algorithms
# (at 256 ranks some without the few that SMPI takes hours over): 16 ranks (cells16/), 64 ranks
# (cells64/, oracle64/) and 256 ranks (cells256/ allreduce and alltoall, allreduce256clock/
# allreduce of 8 B and 1 KiB, cells256clock/ bcast, reduce256clock/ reduce), each cold and
# warm (as from a history file that knows every candidate), without noise and with the
# measured noise
# (detour:0.01:2e-5); and the model strategy cold once more without its group rule
# (AUTOCOLL_MODEL_GROUP_RANGE=0, the rule's before: *-groups-off.json) and once without its
# set-up rule (AUTOCOLL_MODEL_HORIZON=0: *-horizon-off.json). Writes replay/*.json;
# summary.py prints the tables of README.md from them. A few minutes of host time.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
sim="$repo/docs/results/simgrid-2026-11-23"
autocoll="$repo/.venv/bin/autocoll"
out="$here/replay"
mkdir -p "$out"
source "$here/../replay_cells.sh"  # candidates_of

# $1 name of the output, then the cells and replay options
replay() {
  local name=$1
  shift
  for warm in cold warm; do
    for noise in none detour:0.01:0.00002; do
      local suffix=$warm${noise/#detour/-detour}; suffix=${suffix%none}
      suffix=${suffix//[:.]/_}
      local flags=(--noise "$noise")
      [ "$warm" = warm ] && flags+=(--warm)
      "$autocoll" simgrid replay "$@" "${flags[@]}" --json "$out/$name-$suffix.json" > /dev/null
      [ "$warm" = cold ] || continue
      "$autocoll" simgrid replay "$@" "${flags[@]}" --layers model \
        --set AUTOCOLL_MODEL_GROUP_RANGE=0 --json "$out/$name-$suffix-groups-off.json" > /dev/null
      "$autocoll" simgrid replay "$@" "${flags[@]}" --layers model \
        --set AUTOCOLL_MODEL_HORIZON=0 --json "$out/$name-$suffix-horizon-off.json" > /dev/null
    done
  done
}

for d in "$sim"/cells16/*/; do
  p=$(basename "$d")
  replay "16-$p" "$d"*-ompi.json
done
for d in "$sim"/cells64/*/ "$sim"/oracle64/*/; do
  p=$(basename "$d")
  set=$(basename "$(dirname "$d")")
  agree=()
  [ -f "$d/allreduce-8-np64-ompi.json" ] || agree=(--agreement "$sim/cells64/$p/allreduce-8-np64-ompi.json")
  replay "64-$p-$set" "$d"*-ompi.json "${agree[@]}"
done
# $1 a cell replayed alone into 256-<platform>-<folder>[-<size>]: the agreement's time from the
# 8-byte allreduce beside it, else from cells256clock/ (the native 8-byte allreduce measured
# with --sync clock); the strategies choose among the algorithms the cell measured where it
# left some out (candidates_of)
replay_alone() {
  local cell=$1 d p folder size name agree candidates
  d=$(dirname "$cell"); p=$(basename "$d"); folder=$(basename "$(dirname "$d")")
  size=$(basename "$cell"); size=${size#*-}; size=${size%%-*}
  name="256-$p-$folder"
  [ "$size" = 8 ] || name+="-$size"
  agree=()
  [ -f "$d/allreduce-8-np256-ompi.json" ] ||
    agree=(--agreement "$sim/cells256clock/$p/allreduce-8-np256-ompi.json")
  mapfile -t candidates < <(candidates_of "$cell")
  replay "$name" "$cell" "${agree[@]}" "${candidates[@]}"
}

replay "256-fat-tree-ib-cells256" "$sim/cells256/fat-tree-ib/allreduce-8-np256-ompi.json" \
  "$sim/cells256/fat-tree-ib/alltoall-8-np256-ompi.json"
# the other alltoall cells (the other platforms' 8-byte ones; any of another size), simulated
# without `simple` and `node_aware` (../simgrid-2026-11-23/alltoall256_cell.py)
for cell in "$sim"/cells256/*/alltoall-*-np256-ompi.json; do
  [ "$cell" != "$sim/cells256/fat-tree-ib/alltoall-8-np256-ompi.json" ] || continue
  replay_alone "$cell"
done
# the allreduce cells with --sync clock; those made by allreduce256_cell.py (the 8-byte cells
# of torus-3d and four-switch-gbe, every 1 KiB cell) lack `rabenseifner_simple`
for cell in "$sim"/allreduce256clock/*/allreduce-*-np256-ompi.json; do
  replay_alone "$cell"
done
# the reduce cells with --sync clock (reduce256_cell.py, session 27)
for cell in "$sim"/reduce256clock/*/reduce-*-np256-ompi.json; do
  [ -f "$cell" ] || continue
  replay_alone "$cell"
done
for d in "$sim"/cells256clock/*/; do
  [ -n "$(ls "$d"bcast-*-ompi.json 2>/dev/null)" ] || continue
  replay "256-$(basename "$d")-cells256clock" "$d"bcast-*-ompi.json
done

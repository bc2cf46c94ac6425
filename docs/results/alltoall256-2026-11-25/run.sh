#!/usr/bin/env bash
# run.sh - the strategies replayed (`autocoll simgrid replay`, bench/strategy_replay.c) over the
# 256-rank alltoall cells of 8 B simulated in session 26 on torus-3d, dragonfly, one-switch-gbe
# and four-switch-gbe (../simgrid-2026-11-23/cells256/, alltoall256_cell.py: every applicable
# algorithm but `simple` and `node_aware`), cold, 1000 calls, without noise and with the
# measured noise (detour:0.01:2e-5, seeds 1 to 3). The strategies choose among the simulated
# algorithms and native (`--candidates`); the agreement costs the platform's native 8-byte
# allreduce at 256 ranks (../simgrid-2026-11-23/cells256clock/). Writes replay/*.json;
# summary.py prints summary.txt. A minute of host time here.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
sim="$repo/docs/results/simgrid-2026-11-23"
autocoll="$repo/.venv/bin/autocoll"
source "$here/../replay_cells.sh"  # candidates_of
mkdir -p "$here/replay"
for p in torus-3d dragonfly one-switch-gbe four-switch-gbe; do
  cell="$sim/cells256/$p/alltoall-8-np256-ompi.json"
  mapfile -t candidates < <(candidates_of "$cell")
  common=(--agreement "$sim/cells256clock/$p/allreduce-8-np256-ompi.json" "${candidates[@]}")
  "$autocoll" simgrid replay "$cell" "${common[@]}" \
    --json "$here/replay/none-$p.json" > /dev/null
  for seed in 1 2 3; do
    "$autocoll" simgrid replay "$cell" "${common[@]}" \
      --noise detour:0.01:0.00002 --seed "$seed" --json "$here/replay/detour$seed-$p.json" \
      > /dev/null
  done
done

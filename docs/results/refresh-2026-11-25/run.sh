#!/usr/bin/env bash
# run.sh - the model strategy's refresh (AUTOCOLL_MODEL_REFRESH, session 26) replayed
# (`autocoll simgrid replay`, bench/strategy_replay.c) over the cells of
# ../challenge-2026-11-25/run.sh (16, 64 and 256 simulated ranks, ../simgrid-2026-11-23), cold,
# without noise and with the measured noise (detour:0.01:2e-5): 20000 calls each, once with
# the default (a refresh after 4096 settled calls, then 8192, ...) and once with
# AUTOCOLL_MODEL_REFRESH=0 (never); then 1000 calls with both, which must be identical (no
# refresh comes before 4096 settled calls). A replayed cell's calls are drawn from its
# measured times, which do not change during the run: what this shows is what refreshing
# costs where nothing changes; tests/unit/test_model.c test_refresh shows what it finds where
# something does. Writes replay/<calls>-refresh<setting>-<noise>-<cells>.json; summary.py
# prints the tables of README.md. A few minutes of host time here.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
sim="$repo/docs/results/simgrid-2026-11-23"
autocoll="$repo/.venv/bin/autocoll"
out="$here/replay"
mkdir -p "$out"

source "$here/../replay_cells.sh"

for calls in 20000 1000; do
  for setting in 4096 0; do
    for noise in none detour:0.01:0.00002; do
      each=(--layers model --calls "$calls" --noise "$noise"
            --set "AUTOCOLL_MODEL_REFRESH=$setting")
      replay_16 "$out/$calls-refresh$setting-${noise%%:*}" "${each[@]}"
      replay_64_256 "$out/$calls-refresh$setting-${noise%%:*}" "${each[@]}"
    done
  done
done

#!/usr/bin/env bash
# run.sh - the model strategy's challenges (AUTOCOLL_MODEL_CHALLENGES, session 25) replayed
# (`autocoll simgrid replay`, bench/strategy_replay.c) over the cells of
# ../model-eval-2026-11-24/run.sh (16, 64 and 256 simulated ranks, ../simgrid-2026-11-23),
# cold, without noise and with the measured noise (detour:0.01:2e-5), once with the default
# (4 challenges) and once with AUTOCOLL_MODEL_CHALLENGES=0 (the monitor before them); then the
# 64- and 256-rank cells under the measured noise with four more seeds of its draws. Writes
# replay/<setting>-<noise>-<cells>.json and replay/seed<N>/; summary.py prints the tables of
# README.md. About seven minutes of host time here; `run.sh seeds` runs the seeds' part alone.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
sim="$repo/docs/results/simgrid-2026-11-23"
autocoll="$repo/.venv/bin/autocoll"
out="$here/replay"
mkdir -p "$out"

source "$here/../replay_cells.sh"  # replay_64_256

for setting in 4 0; do
  [ "${1:-}" = seeds ] && break
  for noise in none detour:0.01:0.00002; do
    tag=challenges$setting-${noise%%:*}
    each=(--layers model --noise "$noise" --set "AUTOCOLL_MODEL_CHALLENGES=$setting")
    for d in "$sim"/cells16/*/; do
      "$autocoll" simgrid replay "$d"*-ompi.json "${each[@]}" \
        --json "$out/$tag-16-$(basename "$d").json" > /dev/null
    done
    replay_64_256 "$out/$tag" "${each[@]}"
  done
done

for seed in 2 3 4 5; do
  mkdir -p "$out/seed$seed"
  for setting in 4 0; do
    replay_64_256 "$out/seed$seed/challenges$setting-detour" --layers model \
      --noise detour:0.01:0.00002 --seed "$seed" --set "AUTOCOLL_MODEL_CHALLENGES=$setting"
  done
done

#!/usr/bin/env bash
# run.sh - the set-up rule weighed by the registry group's measured error (session 26)
# replayed (`autocoll simgrid replay`, bench/strategy_replay.c) over the cells of
# ../refresh-2026-11-25/run.sh (16, 64 and 256 simulated ranks, ../simgrid-2026-11-23), the
# model strategy cold, 1000 calls, without noise and with the measured noise
# (detour:0.01:2e-5), then the 64- and 256-rank cells under that noise with seeds 2 to 5 of its
# draws. Writes replay/; `compare.py BEFORE AFTER` prints the tables of README.md against the
# same replays of the code before (commit 9ad05c2: ../refresh-2026-11-25/replay/1000-refresh4096-*
# and, for the seeds, ../challenge-2026-11-25/replay/seed<N>/challenges4-* of commit 84664be,
# whose 1000-call replays 9ad05c2 leaves identical). A few minutes of host time here.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
sim="$repo/docs/results/simgrid-2026-11-23"
autocoll="$repo/.venv/bin/autocoll"
out="$here/replay"
mkdir -p "$out"

source "$here/../replay_cells.sh"

for noise in none detour:0.01:0.00002; do
  tag=1000-default-${noise%%:*}
  replay_16 "$out/$tag" --layers model --noise "$noise"
  replay_64_256 "$out/$tag" --layers model --noise "$noise"
done
for seed in 2 3 4 5; do
  mkdir -p "$out/seed$seed"
  replay_64_256 "$out/seed$seed/1000-default-detour" --layers model \
    --noise detour:0.01:0.00002 --seed "$seed"
done

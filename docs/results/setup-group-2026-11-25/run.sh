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

# the 64- and 256-rank cells replayed into $1-64-*.json and $1-256.json; then replay's options
replay_64_256() {
  local prefix=$1 d p
  shift
  for d in "$sim"/cells64/*/ "$sim"/oracle64/*/; do
    p=$(basename "$d")
    agree=()
    [ -f "$d/allreduce-8-np64-ompi.json" ] ||
      agree=(--agreement "$sim/cells64/$p/allreduce-8-np64-ompi.json")
    "$autocoll" simgrid replay "$d"*-ompi.json "${agree[@]}" "$@" \
      --json "$prefix-64-$p-$(basename "$(dirname "$d")").json" > /dev/null
  done
  "$autocoll" simgrid replay "$sim"/cells256/fat-tree-ib/a*-ompi.json \
    "$sim"/allreduce256clock/{dragonfly,one-switch-gbe}/allreduce-8-np256-ompi.json \
    "$sim"/cells256clock/*/bcast-*-ompi.json "$@" --json "$prefix-256.json" > /dev/null
}

for noise in none detour:0.01:0.00002; do
  tag=1000-default-${noise%%:*}
  for d in "$sim"/cells16/*/; do
    "$autocoll" simgrid replay "$d"*-ompi.json --layers model --noise "$noise" \
      --json "$out/$tag-16-$(basename "$d").json" > /dev/null
  done
  replay_64_256 "$out/$tag" --layers model --noise "$noise"
done
for seed in 2 3 4 5; do
  mkdir -p "$out/seed$seed"
  replay_64_256 "$out/seed$seed/1000-default-detour" --layers model \
    --noise detour:0.01:0.00002 --seed "$seed"
done

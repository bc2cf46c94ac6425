#!/usr/bin/env bash
# history.sh - what the model strategy's platform parameters kept in history (issue 21 item 2)
# change, simulated call by call: on each platform, a first run (allreduce of 8 B, 16 ranks,
# 1000 calls of the model layer) writes its fitted parameters to a history file; then each
# cell of other contexts (allreduce, alltoall and bcast of 1 KiB) runs twice, from a copy of
# that file (its contexts unknown there: only the `model` line applies) and without history.
# Writes history/<platform>/{first,prior,cold}/ cells; summary: history_summary.py.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
autocoll="$repo/.venv/bin/autocoll"
common=(--ranks 16 --layers model --only native --iterations 1000 --warmup 2 --sync barrier
        --selectors ompi)
for p in ${PLATFORMS:-one-switch-gbe torus-3d}; do
  out="$here/history/$p"
  mkdir -p "$out"
  "$autocoll" bench --simgrid "$p" --out "$out/first" "${common[@]}" --collectives allreduce \
    --sizes 8 --history "$out/first.history"
  for c in allreduce alltoall bcast; do
    cp "$out/first.history" "$out/$c.history"
    "$autocoll" bench --simgrid "$p" --out "$out/prior" "${common[@]}" --collectives "$c" \
      --sizes 1K --history "$out/$c.history"
    "$autocoll" bench --simgrid "$p" --out "$out/cold" "${common[@]}" --collectives "$c" \
      --sizes 1K
  done
done

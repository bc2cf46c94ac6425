#!/usr/bin/env bash
# validate.sh - the model strategy simulated call by call (not replayed) with its current code,
# 64 ranks, 1000 calls, --sync barrier, first calls recorded: native and every fixed algorithm,
# the native layer and the model layer, in two cells: fat-tree-ib's allreduce of 8 B (the cell
# of ../simgrid-2026-11-23/validate64/), where the set-up rule (AUTOCOLL_MODEL_HORIZON) changes
# nothing, and one-switch-gbe's bcast of 8 B, where it measures fewer layouts.
# tests/tools/test_simreplay.py replays both and checks that the replayed model decides as the
# simulated one did. About 5 minutes of one core. Run it again after a change to the model
# strategy: it replaces the cells.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
# $1 platform, $2 collective
validate() {
  rm -f "$here/validate64/$1/$2-8-np64-ompi.json"
  "$repo/.venv/bin/autocoll" bench --simgrid "$1" --ranks 64 --collectives "$2" --sizes 8 \
    --layers native,model --selectors ompi --iterations 1000 --warmup 2 --fixed-iterations 10 \
    --sync barrier --shared-malloc 1048576 --out "$here/validate64/$1"
}
validate fat-tree-ib allreduce
validate one-switch-gbe bcast

#!/usr/bin/env bash
# validate.sh - the model strategy simulated call by call (not replayed) with its current code,
# 64 ranks, 1000 calls, --sync barrier, first calls recorded: native and every fixed algorithm,
# the native layer and the model layer, in two cells: fat-tree-ib's allreduce of 8 B (the cell
# of ../simgrid-2026-11-23/validate64/) with the defaults, where the set-up rule changes
# nothing, and one-switch-gbe's bcast of 8 B with AUTOCOLL_MODEL_HORIZON=30 (into
# validate64/one-switch-gbe-horizon30/), where the rule measures fewer layouts (with the default
# 300 it changes nothing there since the mesh lines are made with MPI_Comm_create_group).
# tests/tools/test_simreplay.py replays both with the same settings and checks that the
# replayed model decides as the simulated one did. About 5 minutes of one core. Run it again
# after a change to the model strategy: it replaces the cells.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
# $1 platform, $2 collective, $3 folder under validate64/
validate() {
  rm -f "$here/validate64/$3/$2-8-np64-ompi.json"
  "$repo/.venv/bin/autocoll" bench --simgrid "$1" --ranks 64 --collectives "$2" --sizes 8 \
    --layers native,model --selectors ompi --iterations 1000 --warmup 2 --fixed-iterations 10 \
    --sync barrier --shared-malloc 1048576 --out "$here/validate64/$3"
}
validate fat-tree-ib allreduce fat-tree-ib
AUTOCOLL_MODEL_HORIZON=30 validate one-switch-gbe bcast one-switch-gbe-horizon30

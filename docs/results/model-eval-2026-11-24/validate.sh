#!/usr/bin/env bash
# validate.sh - the model strategy simulated call by call (not replayed) with its current code,
# in the cell of ../simgrid-2026-11-23/validate64/ (fat-tree-ib, allreduce of 8 B, 64 ranks,
# 1000 calls, --sync barrier, first calls recorded): native and every fixed algorithm, the
# native layer and the model layer. tests/tools/test_simreplay.py replays the cell and checks
# that the replayed model decides as the simulated one did. About 5 minutes of one core.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
"$repo/.venv/bin/autocoll" bench --simgrid fat-tree-ib --ranks 64 --collectives allreduce \
  --sizes 8 --layers native,model --selectors ompi --iterations 1000 --warmup 2 \
  --fixed-iterations 10 --sync barrier --shared-malloc 1048576 --out "$here/validate64/fat-tree-ib"

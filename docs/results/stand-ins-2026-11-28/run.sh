#!/usr/bin/env bash
# run.sh - AUTOCOLL_MODEL_STAND_INS (mpich against tuned: whose rules price the library's own
# collective inside composed instances) over every cell set the repository keeps:
# scripts/replay_setting extracts each docs/results/*/cells.tar.xz into a scratch folder and
# replays the model strategy (its own code, bench/strategy_replay of the Open MPI build) over
# each cell from a cold start, 1000 calls, once per value; summary.md is what it prints. Every
# cell replayed was simulated with SMPI's ompi selector (tuned's rules). Needs scripts/build
# (the .venv and build/openmpi). About 5 minutes on this machine.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
scratch=${SCRATCH:-$(mktemp -d)}
"$repo/.venv/bin/python" "$repo/scripts/replay_setting" "$scratch" AUTOCOLL_MODEL_STAND_INS \
    mpich tuned > "$here/summary.md"

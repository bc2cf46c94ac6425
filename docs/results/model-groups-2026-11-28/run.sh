#!/usr/bin/env bash
# run.sh - AUTOCOLL_MODEL_GROUPS (registry against dims) over every cell set the repository
# keeps: scripts/replay_setting (this folder's replay.py until 2026-11-28) extracts each
# docs/results/*/cells.tar.xz into a scratch folder and replays the model strategy (its own
# code, bench/strategy_replay of the Open MPI build) over each cell from a cold start, 1000
# calls, once per value; summary.md is what it prints. Needs scripts/build (the .venv and
# build/openmpi). About 5 minutes on this machine.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
scratch=${SCRATCH:-$(mktemp -d)}
# the library's phases priced by MPICH's rules, as every replay was before
# AUTOCOLL_MODEL_STAND_INS (../stand-ins-2026-11-28)
"$repo/.venv/bin/python" "$repo/scripts/replay_setting" "$scratch" AUTOCOLL_MODEL_GROUPS \
    registry dims --set AUTOCOLL_MODEL_STAND_INS=mpich > "$here/summary.md"

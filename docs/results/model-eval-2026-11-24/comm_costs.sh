#!/usr/bin/env bash
# comm_costs.sh - what SMPI 3.32 charges for making communicators at 256 ranks (docs/model.md,
# "The set-up rule"): comm_costs.c times MPI_Comm_dup, MPI_Comm_split into lines of 16,
# MPI_Comm_create_group of a line of 16 and of all ranks, and the first and second allreduce
# on each new communicator (the slowest rank's time, between barriers), on fat-tree-ib and
# one-switch-gbe. Writes comm_costs.txt. Under a minute of one core.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
smpicc -O1 "$here/comm_costs.c" -o "$work/comm_costs"
for p in fat-tree-ib one-switch-gbe; do
  echo "== $p, 256 ranks"
  PYTHONPATH="$repo/tools" "$repo/.venv/bin/python" -c '
import subprocess, sys
from autocoll.run import simgrid
sys.exit(subprocess.run(simgrid.smpirun_command(sys.argv[1], 256, sys.argv[2],
                                                workdir=sys.argv[3])).returncode)' \
    "$p" "$work/comm_costs" "$work" 2>/dev/null | grep -v '^\['
done > "$here/comm_costs.txt"

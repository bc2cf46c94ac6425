#!/usr/bin/env bash
# mesh_setup.sh - fat-tree-ib's 256-rank bcast of 8 B simulated again with the mesh lines made by
# MPI_Comm_create_group (session 21) instead of MPI_Comm_split, with the options of
# ../simgrid-2026-11-23/run.sh bcast256 (--sync clock, 5 calls of each algorithm after a cold
# one, the native layer), into mesh-setup256/; then the model strategy replayed over it and over
# the cell of cells256clock/ (made with MPI_Comm_split), the agreement's time from the same
# native allreduce. About 10 minutes of one core.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
sim="$repo/docs/results/simgrid-2026-11-23"
autocoll="$repo/.venv/bin/autocoll"
"$autocoll" bench --simgrid fat-tree-ib --out "$here/mesh-setup256/fat-tree-ib" --ranks 256 \
  --warmup 1 --sync clock --timeout 14400 --collectives bcast --sizes 8 --iterations 20 \
  --fixed-iterations 5 --layers native --selectors ompi
agree=(--agreement "$sim/cells256clock/fat-tree-ib/allreduce-8-np256-ompi.json")
for cell in "$here/mesh-setup256/fat-tree-ib/bcast-8-np256-ompi.json" \
            "$sim/cells256clock/fat-tree-ib/bcast-8-np256-ompi.json"; do
  "$autocoll" simgrid replay "$cell" "${agree[@]}" --layers model,race
done > "$here/mesh-setup256.txt"

#!/usr/bin/env bash
# run.sh - what rank placement does (issue 38 item 3): the 8-ranks-per-node cells of
# ../headline-2026-11-25/ (fat-tree-ib, 64 ranks on 8 nodes, block placement: ranks 0-7 on the
# first node) again with cyclic placement (rank r on node r mod 8: MPI_COMM_WORLD's neighbours
# on different nodes), one cell per collective family, the same parameters (every fixed
# algorithm 20 calls, SMPI's `ompi` selector, --sync clock). Needs the headline's cells
# (results/headline-2026-11-25/fat-tree-ib-ppn8/); summary.py prints summary.md.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
autocoll="$repo/.venv/bin/autocoll"
out="$repo/results/placement-2026-11-25"

"$autocoll" bench --simgrid fat-tree-ib --ppn 8 --placement cyclic --ranks 64 \
  --collectives allreduce,bcast,reduce,allgather,alltoall --sizes 8 --warmup 2 --sync clock \
  --fixed-iterations 20 --iterations 20 --layers '' --selectors ompi --timeout 7200 \
  --out "$out/fat-tree-ib-ppn8-cyclic"
tar -C "$out" -cJf "$here/cells.tar.xz" .
(cd "$here" && sha256sum cells.tar.xz > cells.tar.xz.sha256)
"$repo/.venv/bin/python" "$here/summary.py" "$repo/results/headline-2026-11-25/fat-tree-ib-ppn8" \
  "$out/fat-tree-ib-ppn8-cyclic" > "$here/summary.md"

#!/usr/bin/env bash
# run_multileader.sh - the instances of several leaders a node of the hierarchical bcast and reduce
# (hier_k2_*, hier_k4_*: added after run.sh's cells were simulated), in the set-up of run.sh
# (fat-tree-ib, 64 ranks at 8 and 32 a node, block placement, --sync clock, 4 calls after one
# warm-up), native beside them; multileader.py compares them with run.sh's cells (the oracle
# of every other algorithm) into multileader.md. Cells to results/hier-ml-2026-11-26/ (outside
# the tree), then ml-cells.tar.xz here with its checksum.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../../.." && pwd)
here="$repo/docs/results/hier-2026-11-26"
out="$repo/results/hier-ml-2026-11-26"
for coll in bcast reduce; do
  only=$("$repo/build/openmpi/autocoll-info" --json --size 64 | python3 -c "
import json, sys
d = json.load(sys.stdin)
print(','.join(a['name'] for a in d['algorithms']
               if a['collective'] == '$coll' and a['name'].startswith('hier_k')))")
  for ppn in 8 32; do
    "$repo/.venv/bin/autocoll" bench --simgrid fat-tree-ib --ppn "$ppn" --ranks 64 \
      --collectives "$coll" --sizes 8,1K,64K,1M --only "$only" --warmup 1 --sync clock \
      --fixed-iterations 4 --iterations 4 --layers '' --selectors ompi --timeout 7200 \
      --out "$out/fat-tree-ib-ppn$ppn"
  done
done
tar -C "$out" -cJf "$here/ml-cells.tar.xz" .
(cd "$here" && sha256sum ml-cells.tar.xz > ml-cells.tar.xz.sha256)
"$repo/.venv/bin/python" "$here/multileader.py" "$out" "$repo/results/hier-2026-11-26" \
  > "$here/multileader.md"

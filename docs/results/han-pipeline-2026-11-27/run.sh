#!/usr/bin/env bash
# run.sh - Open MPI HAN's pipelined broadcast (hier_segment_64k_<intra>_native) against the
# unpipelined hierarchical instances and the flat algorithms that were the oracle in
# docs/results/hier-2026-11-26 (issue 40: "the phases pipelined by segment for large
# messages, as HAN does"; issue 38: the Open MPI 5 baseline above 64 KiB).
# platforms/fat-tree-ib.xml, 64 ranks at 8, 16 and 32 ranks per node (block placement: 8, 4
# and 2 nodes), bcast of 8 B, 64 KiB and 1 MiB, SMPI's copy of Open MPI's tuned rules as native
# (and as the instances' native phases; the pipelined instances' nonblocking phase among the
# leaders is SMPI's own MPI_Ibcast), and the "Open MPI 5.0 defaults" baseline (the table layer
# with tables/ompi5-defaults.json: HAN's pipeline on 2 to 4 nodes, its unpipelined schedule on
# more; docs/baselines.md), every call started at one instant of the simulated clock (--sync
# clock: a bcast's time runs to its last receiver), 4 calls of each after one warm-up (the
# simulated time is deterministic: the calls after the first are equal).
# Cells go to results/han-pipeline-2026-11-27/ (outside the tree); table.py prints table.md.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../../.." && pwd)
here="$repo/docs/results/han-pipeline-2026-11-27"
out="$repo/results/han-pipeline-2026-11-27"
only=native,hier_native_native,hier_native_binomial_tree,hier_binomial_tree_native
only=$only,hier_segment_64k_native_native,hier_segment_64k_binomial_tree_native
only=$only,binomial_tree_segment_8k,knomial_tree_k4,orthogonal_8xn_native,scatter_ring_allgather
for ppn in 8 16 32; do
  "$repo/.venv/bin/autocoll" bench --simgrid fat-tree-ib --ppn "$ppn" --ranks 64 \
    --collectives bcast --sizes 8,64K,1M --warmup 1 --sync clock --iterations 4 \
    --fixed-iterations 4 --layers table --table "$repo/tables/ompi5-defaults.json" \
    --selectors ompi --only "$only" \
    --out "$out/fat-tree-ib-ppn$ppn"
done
"$repo/.venv/bin/python" "$here/table.py" "$out" > "$here/table.md"

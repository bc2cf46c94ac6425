#!/usr/bin/env bash
# run.sh - Open MPI HAN's pipelined reduce and allreduce (hier_segment_64k_<intra>_native)
# against the unpipelined hierarchical instances and the algorithms that were the oracle of these
# cells in docs/results/hier-2026-11-26 (issue 40: "the phases pipelined by segment for large
# messages, as HAN does"; issue 38: the Open MPI 5 baseline). The bcast's twin of this run is
# docs/results/han-pipeline-2026-11-27.
# platforms/fat-tree-ib.xml, 64 ranks at 8, 16 and 32 ranks per node (block placement: 8, 4
# and 2 nodes), reduce and allreduce of 8 B, 64 KiB and 1 MiB, SMPI's copy of Open MPI's tuned
# rules as native (and as the instances' native phases; the pipelined instances' nonblocking
# phases among the leaders are SMPI's own MPI_Ireduce and MPI_Ibcast), and the "Open MPI 5.0
# defaults" baseline (the table layer with tables/ompi5-defaults.json: HAN's pipeline for reduce
# and allreduce on 2 nodes, its unpipelined schedule on more; docs/baselines.md), every call
# started at one instant of the simulated clock (--sync clock: a reduce's time runs to its
# root), 4 calls of each after one warm-up (the simulated time is deterministic: the calls after
# the first are equal).
# Cells go to results/han-pipeline-2026-11-28/ (outside the tree); table.py prints table.md.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../../.." && pwd)
here="$repo/docs/results/han-pipeline-2026-11-28"
out="$repo/results/han-pipeline-2026-11-28"
autocoll="$repo/.venv/bin/autocoll"
hier=native,hier_native_native,hier_binomial_tree_native
hier=$hier,hier_segment_64k_native_native,hier_segment_64k_binomial_tree_native
declare -A oracles=(
  [reduce]=knomial_tree_k4,binomial_tree_segment_8k,chain_tree_segment_8k,hier_native_rabenseifner
  [allreduce]=orthogonal_32xn_native,allgather_mesh_3d,hier_k2_native_recursive_doubling)
for ppn in 8 16 32; do
  for coll in reduce allreduce; do
    "$autocoll" bench --simgrid fat-tree-ib --ppn "$ppn" --ranks 64 \
      --collectives "$coll" --sizes 8,64K,1M --warmup 1 --sync clock --iterations 4 \
      --fixed-iterations 4 --layers table --table "$repo/tables/ompi5-defaults.json" \
      --selectors ompi --only "$hier,${oracles[$coll]}" \
      --out "$out/fat-tree-ib-ppn$ppn"
  done
done
"$repo/.venv/bin/python" "$here/table.py" "$out" > "$here/table.md"

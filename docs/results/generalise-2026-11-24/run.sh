#!/usr/bin/env bash
# Issue 21 item 4: tables fitted at 16, 32 and 64 simulated ranks (fat-tree-ib, SimGrid SMPI,
# SMPI's ompi selector as native) applied at counts never swept. `autocoll tune` sweeps the
# fitting counts, cross-validates the models (leave one count out), writes the table of the
# model it chose, then sweeps the --test-ranks counts and prints every model's penalty there
# (time of its pick / the cell's best time) against the floor lookup of table version 1.
# Run from the repository root with build/simgrid built; OUT is kept (resumable).
set -euo pipefail
OUT=${1:-/tmp/generalise-fat-tree-ib}
start=$(date +%s)
nice autocoll tune --simgrid fat-tree-ib --ranks 16,32,64 --test-ranks "${TEST_RANKS:-48}" \
  --collectives "${COLLECTIVES:-allreduce}" --sizes 8,1K --iterations 10 --warmup 2 \
  --sync barrier --out "$OUT"
echo "wall time: $(( $(date +%s) - start )) s"

#!/usr/bin/env bash
# Issue 21 item 4 on the other simulated platforms: the sweep of run.sh (tables fitted at 16, 32
# and 64 ranks; allreduce and bcast of 8 B and 1 KiB; SMPI's ompi selector as native) on each
# platform of PLATFORMS, tested at 48 and 128 ranks. Each platform's cells, table and what
# `autocoll tune` printed go to platforms/<platform>/ (resumable: kept cells are not run again).
# Run from the repository root with build/simgrid built.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
for p in ${PLATFORMS:-one-switch-gbe four-switch-gbe torus-3d dragonfly}; do
  out=$here/platforms/$p
  mkdir -p "$out"
  start=$(date +%s)
  nice autocoll tune --simgrid "$p" --ranks 16,32,64 --test-ranks "${TEST_RANKS:-48,128}" \
    --collectives allreduce,bcast --sizes 8,1K --iterations 10 --warmup 2 --sync barrier \
    --timeout 7200 --out "$out" > "$out/output.txt" 2>&1
  echo "wall time: $(( $(date +%s) - start )) s" >> "$out/output.txt"
done

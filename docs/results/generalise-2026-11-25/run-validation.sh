#!/usr/bin/env bash
# Issue 21 item 4, a check on cells no design decision of session 23 saw: the table sweep of
# ../generalise-2026-11-24/run-platforms.sh (fitted at 16, 32 and 64 ranks, tested at 48 and
# 128; SMPI's ompi selector as native) for reduce of 8 B, 1 KiB and 64 KiB and bcast of 64 KiB,
# on each platform of PLATFORMS. Each platform's cells, table and what `autocoll tune` printed
# go to platforms/<platform>/ (resumable: kept cells are not run again). The bcast cells of 8 B
# and 1 KiB the sweep also names are copied from the 2026-11-24 runs, not run again (but
# fat-tree-ib's).
# Run from the repository root with build/simgrid built.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
before=$here/../generalise-2026-11-24/platforms
for p in ${PLATFORMS:-one-switch-gbe torus-3d fat-tree-ib four-switch-gbe dragonfly}; do
  out=$here/platforms/$p
  mkdir -p "$out"
  # (fat-tree-ib's were measured under an older registry: tune refuses them, so runs them)
  [ "$p" = fat-tree-ib ] ||
    cp -n "$before/$p"/bcast-8-np*-ompi.json "$before/$p"/bcast-1K-np*-ompi.json "$out/"
  start=$(date +%s)
  nice autocoll tune --simgrid "$p" --ranks 16,32,64 --test-ranks "${TEST_RANKS:-48,128}" \
    --collectives reduce,bcast --sizes 8,1K,64K --iterations 10 --warmup 2 --sync barrier \
    --timeout 7200 --out "$out" > "$out/output.txt" 2>&1
  echo "wall time: $(( $(date +%s) - start )) s" >> "$out/output.txt"
done

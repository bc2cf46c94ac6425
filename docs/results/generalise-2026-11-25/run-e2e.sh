#!/usr/bin/env bash
# The trial simulated end to end (not replayed): the table layer of `autocoll bench --simgrid`
# with a table fitted at 16, 32 and 64 ranks (tables/<platform>.json: `autocoll tune` on the
# 2026-11-24 cells with session 23's lists) at 128 ranks, 300 calls, each call after an untimed
# barrier as in the sweeps, with AUTOCOLL_TABLE_TRY=1 (the rule's first) and 3 (the trial).
# Results in e2e/try<k>/<platform>/. Run from the repository root with build/simgrid built.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
run() {  # platform collective size
  for k in 1 3; do
    out=$here/e2e/try$k/$1
    mkdir -p "$out"
    start=$(date +%s)
    AUTOCOLL_TABLE_TRY=$k nice autocoll bench --simgrid "$1" --collectives "$2" --sizes "$3" \
      --ranks 128 --layers table --only native --iterations 300 --fixed-iterations 10 \
      --warmup 2 --sync barrier --selectors ompi --table "$here/tables/$1.json" --out "$out" \
      >> "$out/output.txt" 2>&1
    echo "$2 $3: wall time $(( $(date +%s) - start )) s" >> "$out/output.txt"
  done
}
run dragonfly bcast 1K
run torus-3d bcast 1K
run torus-3d allreduce 8

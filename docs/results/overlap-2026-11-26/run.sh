#!/usr/bin/env bash
# docs/results/overlap-2026-11-26/run.sh - the overlap benchmark (bench/overlap.c) on a simulated
# platform: a pipelined-CG-like loop of an allreduce of BYTES overlapped with COMPUTE us of
# computation cut into SLICES (an MPI_Test between slices), per iteration the slowest rank's time
# from a common start. Configurations: the blocking allreduce after the computation (SMPI's
# `ompi` selector: Open MPI 4.1-5.0's tuned rules, no overlap); MPI_Iallreduce by SMPI 3.32
# itself (its only algorithm: every rank sends its vector to every other, all at once); and
# MPI_Iallreduce run by the layer with each allreduce written as a schedule forced, and raced by
# the layer's learning strategy (AUTOCOLL_STRATEGY=race: the first calls race the candidates,
# SMPI's own included, docs/nonblocking.md).
#
#   RANKS="16 64" SIZES="8 1024 65536" COMPUTE="0 100" ITER=40 \
#     docs/results/overlap-2026-11-26/run.sh OUT.jsonl
#
# SMPI's MPI_Test sleeps 100 us per call by default, growing with each failed test
# (smpi/test, smpi/grow-injected-times): an MPI library's test costs well under a microsecond,
# so this sets it to 0.1 us, not growing. Needs build/simgrid (scripts/build; AUTOCOLL_BUILD=DIR
# for DIR/simgrid) and .venv. CONFIGS (a regex) keeps only the configurations it matches.
# COLLECTIVE=alltoall runs the FFT-like loop instead (an MPI_Ialltoall of BYTES a block,
# docs/results/overlap-alltoall-2026-11-26): the same configurations with the alltoalls written
# as schedules (AUTOCOLL_ALLTOALL); SMPI's own MPI_Ialltoall is linear too (every receive, then
# every send, posted at the start). EXTRA_ALGS (names) forces these too: instances of the
# families, which autocoll-info lists only for a size (the hierarchical and orthogonal ones,
# docs/results/overlap-ppn8-2026-11-27). PPN ranks a node (default 1).
set -euo pipefail
cd "$(dirname "$0")/../../.."
out=${1:?usage: run.sh OUT.jsonl}
platform=${PLATFORM:-fat-tree-ib}
ranks=${RANKS:-16 64}
sizes=${SIZES:-8 1024 65536}
compute=${COMPUTE:-0 100}
iter=${ITER:-40}
ppn=${PPN:-1}
build=${AUTOCOLL_BUILD:-build}
configs=${CONFIGS:-.}
collective=${COLLECTIVE:-allreduce}
algs=$("$build/openmpi/autocoll-info" --json | COLL=$collective python3 -c 'import json,os,sys
print(" ".join(a["name"] for a in json.load(sys.stdin)["algorithms"]
               if a["collective"] == os.environ["COLL"] and a["schedule"] and a["name"] != "native"))')
algs="$algs ${EXTRA_ALGS:-}"
force=AUTOCOLL_${collective^^}
: > "$out"
run() { # config-name env... -- overlap args...
  local name=$1; shift
  [[ $name =~ $configs ]] || return 0
  local envs=()
  while [ "$1" != "--" ]; do envs+=("$1"); shift; done
  shift
  line=$(env "${envs[@]}" AUTOCOLL_HISTORY=off .venv/bin/autocoll simgrid run --platform "$platform" \
         -n "$n" --ppn "$ppn" --cfg smpi/test:1e-7 --cfg smpi/grow-injected-times:no \
         "$build/simgrid/bench/overlap" --collective "$collective" --iterations "$iter" "$@" | tail -1)
  echo "{\"config\": \"$name\", \"platform\": \"$platform\", \"ppn\": $ppn, ${line#\{}" | tee -a "$out"
}
for n in $ranks; do
  for b in $sizes; do
    for c in $compute; do
      run blocking_native_ompi_selector AUTOCOLL_STRATEGY=native -- --bytes "$b" --compute "$c" --mode blocking
      for s in 1 8; do
        run nonblocking_smpi_linear AUTOCOLL_STRATEGY=native -- --bytes "$b" --compute "$c" --slices "$s"
        for a in $algs; do
          run "nonblocking_$a" "$force=$a" -- --bytes "$b" --compute "$c" --slices "$s"
        done
        run nonblocking_race AUTOCOLL_STRATEGY=race -- --bytes "$b" --compute "$c" --slices "$s"
      done
    done
  done
done

#!/usr/bin/env bash
# docs/results/overlap-neighbor-2026-11-27/run.sh - a stencil's halo exchange overlapped with
# computation (bench/overlap.c --collective neighbor_alltoall: an MPI_Ineighbor_alltoall of
# BYTES an edge on a periodic 3-D Cartesian communicator over all ranks, COMPUTE us of
# computation cut into SLICES with an MPI_Test between slices, the slowest rank's time per
# iteration from a common start) on a simulated platform. SMPI 3.32 has no neighbourhood
# collectives of its own, so every configuration is the layer's: the blocking exchange after the
# computation with each algorithm forced (no overlap), and MPI_Ineighbor_alltoall with each
# algorithm written as a schedule forced and raced (AUTOCOLL_STRATEGY=race).
#
#   RANKS="16 64" PPN=8 SIZES="8 1024 65536" COMPUTE="0 100" ITER=40 \
#     docs/results/overlap-neighbor-2026-11-27/run.sh OUT.jsonl
#
# SMPI's MPI_Test is set to 0.1 us, not growing (as docs/results/overlap-2026-11-26/run.sh).
# Needs build/simgrid (AUTOCOLL_BUILD=DIR for DIR/simgrid) and .venv.
set -euo pipefail
cd "$(dirname "$0")/../../.."
out=${1:?usage: run.sh OUT.jsonl}
platform=${PLATFORM:-fat-tree-ib}
build=${AUTOCOLL_BUILD:-build}
: > "$out"
run() { # config-name env... -- overlap args...
  local name=$1; shift
  local envs=()
  while [ "$1" != "--" ]; do envs+=("$1"); shift; done
  shift
  line=$(env "${envs[@]}" AUTOCOLL_HISTORY=off .venv/bin/autocoll simgrid run \
         --platform "$platform" -n "$n" --ppn "${PPN:-8}" --cfg smpi/test:1e-7 \
         --cfg smpi/grow-injected-times:no "$build/simgrid/bench/overlap" \
         --collective neighbor_alltoall --iterations "${ITER:-40}" "$@" | tail -1)
  echo "{\"config\": \"$name\", \"platform\": \"$platform\", \"ppn\": ${PPN:-8}, ${line#\{}" |
    tee -a "$out"
}
for n in ${RANKS:-16 64}; do
  for b in ${SIZES:-8 1024 65536}; do
    for c in ${COMPUTE:-0 100}; do
      for a in isend_irecv sendrecv_pair win_fence_put; do
        run "blocking_$a" AUTOCOLL_NEIGHBOR_ALLTOALL=$a -- --bytes "$b" --compute "$c" \
          --mode blocking
      done
      for s in 1 8; do
        for a in isend_irecv sendrecv_pair; do
          run "nonblocking_$a" AUTOCOLL_NEIGHBOR_ALLTOALL=$a -- --bytes "$b" --compute "$c" \
            --slices "$s"
        done
        run nonblocking_race AUTOCOLL_STRATEGY=race -- --bytes "$b" --compute "$c" --slices "$s"
      done
    done
  done
done

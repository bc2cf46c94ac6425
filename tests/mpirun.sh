#!/usr/bin/env bash
# tests/mpirun.sh MPI NP PROGRAM [ARGS...] - run an MPI program on NP local ranks with the
# launcher of MPI (openmpi | mpich | simgrid), passing the AUTOCOLL_* environment, under a time
# limit so that a hang fails the test instead of stalling the suite. simgrid: NP simulated ranks
# through `autocoll simgrid run` (SMPI shares one environment between all ranks).
#   AUTOCOLL_TEST_PLATFORM simgrid only: the platform (default one-switch-gbe)
#   AUTOCOLL_TEST_PPN      simgrid only: processes per node (default 1)
#   AUTOCOLL_TEST_SELECTOR simgrid only: SMPI's native collective selector (default ompi)
#   AUTOCOLL_TEST_CFG      simgrid only: SimGrid settings KEY:VALUE, separated by spaces
#   AUTOCOLL_TEST_TIMEOUT  seconds (default 1200)
#   AUTOCOLL_TEST_YIELD    MPICH only: path of the test-only yield_progress preload
#   AUTOCOLL_TEST_PRELOAD  a library to LD_PRELOAD into the ranks (e.g. libautocoll.so)
# Runs here leave the user's history file alone: AUTOCOLL_HISTORY is off unless set.
set -euo pipefail
mpi=$1 np=$2
shift 2
export AUTOCOLL_HISTORY=${AUTOCOLL_HISTORY:-off}
limit=${AUTOCOLL_TEST_TIMEOUT:-1200}
envs=()
for v in $(env | grep -o '^AUTOCOLL_[A-Z_]*' | grep -v -E '^AUTOCOLL_TEST_(TIMEOUT|YIELD|PRELOAD)$' || true); do
  envs+=("$v")
done
case $mpi in
  openmpi)
    args=(--allow-run-as-root --oversubscribe -n "$np")
    for v in "${envs[@]}"; do args+=(-x "$v"); done
    if [ -n "${AUTOCOLL_TEST_PRELOAD:-}" ]; then args+=(-x "LD_PRELOAD=$AUTOCOLL_TEST_PRELOAD"); fi
    exec timeout -k 10 "$limit" mpirun.openmpi "${args[@]}" "$@"
    ;;
  mpich)
    preload=${AUTOCOLL_TEST_PRELOAD:-}
    if [ -n "${AUTOCOLL_TEST_YIELD:-}" ]; then preload="${preload:+$preload:}$AUTOCOLL_TEST_YIELD"; fi
    args=(-n "$np")
    for v in "${envs[@]}"; do args+=(-genv "$v" "${!v}"); done
    if [ -n "$preload" ]; then args+=(-genv LD_PRELOAD "$preload"); fi
    exec timeout -k 10 "$limit" mpiexec.mpich "${args[@]}" "$@"
    ;;
  simgrid)
    repo=$(cd "$(dirname "$0")/.." && pwd)
    cfg=()
    for c in ${AUTOCOLL_TEST_CFG:-}; do cfg+=(--cfg "$c"); done
    exec timeout -k 10 "$limit" env PYTHONPATH="$repo/tools${PYTHONPATH:+:$PYTHONPATH}" \
      python3 -m autocoll.cli simgrid run --platform "${AUTOCOLL_TEST_PLATFORM:-one-switch-gbe}" \
      --ppn "${AUTOCOLL_TEST_PPN:-1}" --selector "${AUTOCOLL_TEST_SELECTOR:-ompi}" "${cfg[@]}" \
      -n "$np" "$@"
    ;;
  *)
    echo "tests/mpirun.sh: unknown MPI '$mpi' (openmpi, mpich or simgrid)" >&2
    exit 2
    ;;
esac

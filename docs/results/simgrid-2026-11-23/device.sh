#!/bin/sh
# Runs 256-rank cells on the lent 16-core machine (the `device` tool), from the repository
# root there, with .simroot carried (simroot.sh makes it):
#   docs/results/simgrid-2026-11-23/device.sh SECONDS JOBS COLLECTIVE:PLATFORM...
# Every cell runs at once, as run.sh's alltoall256 or allreduce256 step with JOBS simulations a
# cell (autocoll bench --jobs), for at most SECONDS; then the cells' folders go to
# $OUT/cells.tgz (files come back from at most two folders down). A cell's finished shares wait
# in its <cell>.parts/ folder: unpacked here, the next run (there or here, with the same JOBS)
# goes on from them. Simulated time does not depend on the machine: a share measured there and
# one measured here agree on native and the calibration to the bit, as the merge checks.
set -u
seconds=$1 jobs=$2
shift 2
here=docs/results/simgrid-2026-11-23
export SIMROOT="$PWD/.simroot" PATH="$PWD/.simroot/bin:$PATH" PYTHONPATH="$PWD/tools"
export AUTOCOLL="$SIMROOT/bin/autocoll" JOBS="$jobs"
printf '#!/bin/sh\nexec python3 -m autocoll "$@"\n' > "$AUTOCOLL"
chmod +x "$AUTOCOLL"
mkdir -p build/simgrid/bench
cp .simroot/build/autocoll_bench build/simgrid/bench/
cp .simroot/build/autocoll-info .simroot/build/libautocoll.so build/simgrid/
for cell in "$@"; do
  coll=${cell%%:*} platform=${cell#*:}
  case $coll in
    alltoall) ALLTOALL256_PLATFORMS=$platform timeout "$seconds" "$here/run.sh" alltoall256 & ;;
    allreduce) ALLREDUCE256_PLATFORMS=$platform timeout "$seconds" "$here/run.sh" allreduce256 & ;;
    *) echo "device.sh: no 256-rank step for $coll" >&2; exit 2 ;;
  esac
done
wait
pkill -f 'autocoll bench'  # timeout stops run.sh, not what it started
pkill -f smpimain
sleep 1
{ nproc; lscpu | grep -i 'model name'; } > "$OUT/machine.txt"
tar czf "$OUT/cells.tgz" "$here/cells256" "$here/allreduce256clock"

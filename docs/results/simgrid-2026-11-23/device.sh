#!/bin/sh
# Runs 256-rank cells on the lent 16-core machine (the `device` tool), from the repository
# root there, with .simroot (simroot.sh) and .simwork (the cells so far) carried:
#   docs/results/simgrid-2026-11-23/device.sh SECONDS JOBS COLLECTIVE:PLATFORM...
# Every cell runs at once, each as JOBS simulations (autocoll bench --jobs), for at most SECONDS;
# then .simwork goes to $OUT/simwork.tgz. A cell's finished shares are kept in .simwork, so the next call
# (with the returned .simwork carried) goes on from them. The options are run.sh's: alltoall as
# scale256 runs it (--sync barrier), allreduce as allreduce256 (--sync clock); each cell then the
# mpich selector's native alone. Copy .simwork/cells256/* to cells256/ and
# .simwork/allreduce256clock/* to allreduce256clock/ once done.
set -u
seconds=$1 jobs=$2
shift 2
export SIMROOT="$PWD/.simroot" PATH="$PWD/.simroot/bin:$PATH" PYTHONPATH="$PWD/tools"
mkdir -p build/simgrid/bench
cp .simroot/build/autocoll_bench build/simgrid/bench/
cp .simroot/build/autocoll-info .simroot/build/libautocoll.so build/simgrid/
mkdir -p .simwork
for cell in "$@"; do
  coll=${cell%%:*} platform=${cell#*:}
  case $coll in
    alltoall) out=.simwork/cells256/$platform sync=barrier ;;
    allreduce) out=.simwork/allreduce256clock/$platform sync=clock ;;
    *) echo "device.sh: no 256-rank step for $coll" >&2; exit 2 ;;
  esac
  common="--simgrid $platform --out $out --ranks 256 --collectives $coll --sizes 8
          --iterations 20 --warmup 1 --sync $sync --timeout $seconds"
  mkdir -p "$out"
  {
    timeout "$seconds" python3 -m autocoll bench $common --fixed-iterations 5 \
      --layers native --selectors ompi --jobs "$jobs" &&
      timeout 120 python3 -m autocoll bench $common --layers '' --only native --selectors mpich
  } >> "$out.log" 2>&1 &
done
wait
pkill -f smpimain  # shares a timeout left running
nproc > .simwork/machine.txt
lscpu | grep -i 'model name' >> .simwork/machine.txt
tar czf "$OUT/simwork.tgz" .simwork  # files come back at most two folders down

#!/usr/bin/env bash
# run.sh - the real-TCP check of the simulation (README.md says what was run and what it gave).
#   run.sh device     on the lent 16-core machine: bundle.sh here, then, through the device tool,
#                     `device.sh 100m-16 100m-8` with .devroot carried (into device16/ and, a
#                     second time, device16-rep2/: the emulated-cluster matrix of
#                     bench/cluster/emulated-matrix)
#   run.sh simulate   the same cells under SimGrid on platforms/emulated-*.xml (emulated_platform.py),
#                     with the bench options of bench/cluster/emulated-matrix, into
#                     simulated-rate/ (links at 100 Mbit/s) and simulated-burst/ (unshaped)
#   run.sh compare    compare.py over device16*, ../emulated-final-2026-11-22 (the same matrix on
#                     the 2-core machine) and simulated-*/ > compare.txt
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
autocoll="$repo/.venv/bin/autocoll"
all=alltoall,allgather,allreduce,bcast
layers=race,race_final,star_enhanced,lottery,native
case ${1:-} in
  device)
    "$here/bundle.sh"
    echo "now run, through the device tool: docs/results/realtcp-2026-11-24/device.sh 100m-16 100m-8"
    ;;
  simulate)
    # rate: the links at the tbf rate; burst: the links unshaped (emulated_platform.py)
    for model in 100:rate 10000:burst; do
      for t in one-switch four-switch; do
        for n in 16 8; do
          [ "$n" = 16 ] && sizes=1K || sizes=1K,16K
          platform=$("$repo/.venv/bin/python" "$here/emulated_platform.py" "$t" "$n" \
                     --rate-mbit "${model%%:*}")
          "$autocoll" bench --simgrid "$platform" --out "$here/simulated-${model#*:}/100m-$n-$t" \
            --collectives "$all" --sizes "$sizes" --ranks "$n" --layers "$layers" \
            --iterations 200 --fixed-iterations 10 --warmup 2 --factor 1 --selectors ompi \
            --timeout 3600
        done
      done
    done
    ;;
  compare)
    "$repo/.venv/bin/python" "$here/compare.py" > "$here/compare.txt"
    ;;
  *)
    sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'
    exit 2 ;;
esac

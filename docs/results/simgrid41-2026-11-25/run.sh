#!/bin/bash
# Reproduces docs/results/simgrid41-2026-11-25: cost of send-side per-message overheads
# (smpi/os, smpi/ois) in SimGrid SMPI 3.32 (Debian) against 4.1 (built from PyPI's sdist).
#
#   run.sh build                 compile alltoall_cost.c with each SimGrid's smpicc
#   run.sh main                  the matrix: versions x platforms x 32/64/128 ranks x settings a, b
#   run.sh variants              settings c (on top of b) at 64 ranks
#   run.sh confirm               network/optim:Full (the variant that keeps the times) at 64, 128
#   run.sh one VER PLAT NP MODE NCALLS SETTING   a single run (appends to $WORK/summary.tsv)
#
# VER:  332deb (Debian's libsimgrid-dev 3.32: /usr/bin/smpicc, /usr/bin/smpirun)
#       332src (SimGrid v3.32 from git, built with the same flags as 4.1: $SG332)
#       41     (SimGrid 4.1 from the PyPI sdist: $SG41)
# PLAT: gbe (platforms/one-switch-gbe.xml) | ib (platforms/fat-tree-ib.xml), both taken from
#       commit 5930905 (receiver-only overheads: the state this study was asked about; the files
#       changed to sender-pays in commit 7e8de7e while it ran).
# Each run: TMPDIR of its own, 1 rank per host, nice -n 19, /usr/bin/time for wall, CPU, max RSS,
# a timeout of $TIMEOUT s (default 700). Output: one line per run in $WORK/summary.tsv and the
# raw output in $WORK/runs/.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../../.." && pwd)
WORK=${WORK:-/work/simgrid41}
SG41=${SG41:-/work/simgrid41/install}       # SimGrid 4.1 install prefix
SG332=${SG332:-/work/simgrid41/install332}  # SimGrid 3.32 from source, install prefix
TIMEOUT=${TIMEOUT:-700}
PLATFORM_COMMIT=5930905a7dcbd510bb89dfbbf588b36e99d0415b
mkdir -p "$WORK/runs" "$WORK/platforms" "$WORK/bench"

smpi_bin() { # VER -> directory holding smpicc/smpirun
  case $1 in
    332deb) echo /usr/bin ;;
    332src) echo "$SG332/bin" ;;
    41) echo "$SG41/bin" ;;
  esac
}

platform() { # PLAT -> xml path (extracted from the pinned commit)
  local name
  case $1 in gbe) name=one-switch-gbe ;; ib) name=fat-tree-ib ;; esac
  local f="$WORK/platforms/$name.xml"
  [ -s "$f" ] || git -C "$REPO" show "$PLATFORM_COMMIT:platforms/$name.xml" > "$f"
  echo "$f"
}

settings() { # PLAT SETTING -> extra --cfg options
  local P=$1 S=$2
  # b: the sender pays (the brief's values)
  local b_gbe="--cfg=smpi/os:0:5.76e-6:0 --cfg=smpi/ois:0:5.76e-6:0 --cfg=smpi/or:0:4.53e-6:0"
  local b_ib="--cfg=smpi/os:0:0.3e-6:0 --cfg=smpi/ois:0:0.3e-6:0 --cfg=smpi/or:0:0.1e-6:0"
  # *_eq: the same values written as one number, which SimGrid >= 3.34 applies to every size
  # including 0 bytes, as 3.32 does for "0:x:0" (4.1 only: 3.32 cannot parse one number)
  local a_eq_gbe="--cfg=smpi/or:10.29e-6" a_eq_ib="--cfg=smpi/or:0.4e-6"
  local b_eq_gbe="--cfg=smpi/os:5.76e-6 --cfg=smpi/ois:5.76e-6 --cfg=smpi/or:4.53e-6"
  local b_eq_ib="--cfg=smpi/os:0.3e-6 --cfg=smpi/ois:0.3e-6 --cfg=smpi/or:0.1e-6"
  local b; eval "b=\$b_$P"
  case $S in
    a) echo "" ;;
    b) echo "$b" ;;
    a_eq) eval "echo \$a_eq_$P" ;;
    b_eq) eval "echo \$b_eq_$P" ;;
    a+net_full) echo "--cfg=network/optim:Full" ;;
    b_eq+net_full) eval "echo \$b_eq_$P --cfg=network/optim:Full" ;;
    # variants of b that might make it cheaper
    b+net_full) echo "$b --cfg=network/optim:Full" ;;
    b+net_full_nosel) echo "$b --cfg=network/optim:Full --cfg=network/maxmin-selective-update:no" ;;
    b+cpu_full) echo "$b --cfg=cpu/optim:Full" ;;
    b+conc16) echo "$b --cfg=maxmin/concurrency-limit:16" ;;
    b+timing1e-7) echo "$b --cfg=surf/precision:1e-7" ;;
    b+workamount1e-3) echo "$b --cfg=maxmin/precision:1e-3" ;;
    b+ctx_thread) echo "$b --cfg=contexts/factory:thread" ;;
    b+ctx_boost) echo "$b --cfg=contexts/factory:boost" ;;
    b+ctx_ucontext) echo "$b --cfg=contexts/factory:ucontext" ;;
    b+async0) echo "$b --cfg=smpi/async-small-thresh:0" ;;
    b+fairbottleneck) echo "$b --cfg=network/solver:fairbottleneck" ;;
    *) echo "unknown setting $S" >&2; exit 2 ;;
  esac
}

build() {
  for V in 332deb 332src 41; do
    mkdir -p "$WORK/bench/$V"
    "$(smpi_bin $V)/smpicc" -O2 -o "$WORK/bench/$V/alltoall_cost" "$HERE/alltoall_cost.c" || exit 1
  done
}

one() { # VER PLAT NP MODE NCALLS SETTING
  local V=$1 P=$2 NP=$3 MODE=$4 NC=$5 S=$6
  local prefix; case $P in gbe) prefix=node- ;; ib) prefix=ib- ;; esac
  local tag="$V-$P-$NP-$MODE-$NC-$S"
  local out="$WORK/runs/$tag.out" tm="$WORK/runs/$tag.time" hf td
  hf=$(mktemp) td=$(mktemp -d)
  seq 0 $((NP - 1)) | sed "s/^/$prefix/" > "$hf"
  local cfg; cfg=$(settings "$P" "$S") || exit 2
  # shellcheck disable=SC2086
  TMPDIR=$td /usr/bin/time -f "%e %U %S %M" -o "$tm" timeout "$TIMEOUT" nice -n 19 \
    "$(smpi_bin $V)/smpirun" -np "$NP" -platform "$(platform $P)" -hostfile "$hf" \
    --cfg=smpi/simulate-computation:no --log=root.thresh:warning $cfg \
    "$WORK/bench/$V/alltoall_cost" "$MODE" "$NC" 1024 > "$out" 2>&1
  local rc=$?
  rm -rf "$hf" "$td"
  local sim r0 wall user sys rss status=ok
  sim=$(grep -o 'sim_us_per_call=[0-9.]*' "$out" | cut -d= -f2)
  r0=$(grep -o 'rank0_us_per_call=[0-9.]*' "$out" | cut -d= -f2)
  read -r wall user sys rss < <(tail -1 "$tm")
  [ $rc -eq 124 ] && status="timeout>${TIMEOUT}s"
  [ $rc -ne 0 ] && [ $rc -ne 124 ] && status="rc=$rc"
  [ -s "$WORK/summary.tsv" ] || printf 'version\tplatform\tranks\tmode\tncalls\tsetting\twall_s\tcpu_s\tmaxrss_MiB\tsim_us_per_call\trank0_us_per_call\tstatus\tload1\n' > "$WORK/summary.tsv"
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%.2f\t%.0f\t%s\t%s\t%s\t%s\n' "$V" "$P" "$NP" "$MODE" "$NC" "$S" "$wall" \
    "$(echo "$user + $sys" | bc)" "$(echo "$rss / 1024" | bc)" "${sim:--}" "${r0:--}" "$status" \
    "$(cut -d' ' -f1 /proc/loadavg)" >> "$WORK/summary.tsv"
  tail -1 "$WORK/summary.tsv"
}

main() {
  # alltoall: 1 untimed + 2 timed calls; fanout: 1 untimed + 20 timed calls
  for NP in 32 64 128; do
    for P in gbe ib; do
      for V in 332deb 332src 41; do
        for S in a b; do
          one $V $P $NP alltoall 2 $S
          one $V $P $NP fanout 20 $S
        done
      done
      for S in a_eq b_eq; do
        one 41 $P $NP alltoall 2 $S
        one 41 $P $NP fanout 20 $S
      done
    done
  done
}

variants() {
  for P in gbe ib; do
    for V in 332deb 41; do
      for S in b+net_full b+net_full_nosel b+cpu_full b+conc16 b+timing1e-7 b+workamount1e-3 \
               b+ctx_thread b+ctx_boost b+async0 b+fairbottleneck; do
        one $V $P 64 alltoall 2 $S
      done
    done
    one 332deb $P 64 alltoall 2 b+ctx_ucontext
  done
}

confirm() { # the one variant that keeps the simulated times (network/optim:Full), at 64 and 128 ranks
  for NP in 64 128; do
    for P in gbe ib; do
      for V in 332deb 41; do
        one $V $P $NP alltoall 2 a+net_full
        one $V $P $NP alltoall 2 b+net_full
      done
      one 41 $P $NP alltoall 2 b_eq+net_full
    done
  done
}

case ${1:-} in
  build) build ;;
  main) main ;;
  variants) variants ;;
  confirm) confirm ;;
  one) shift; one "$@" ;;
  *) sed -n 2,20p "$0"; exit 2 ;;
esac

#!/usr/bin/env bash
# run.sh - an unseen program on the simulated clusters, as Tianhe-2 did (issue 21 item 5): HPCC
# 1.5.0's MPIFFT (Debian's hpcc source; nobody here wrote it), built with smpicc against
# build/simgrid/libautocoll.so, profiled, tuned from its profile, and run under SMPI's Open MPI
# and MPICH selectors, under the tuned table and under each run-time strategy. README.md says
# what was run and what it gave.
#   run.sh build                  download (checksum-checked), patch, build: build/hpcc/
#   run.sh platform P [RANKS]     on platform P (platforms/P.xml; RANKS default 16): the profile
#                                 run, `autocoll tune --profile` under each selector, then
#                                 every configuration, into runs/P-npRANKS/
#   run.sh again P [RANKS]        the runs of step 3 of `platform` again (the tables kept): for a
#                                 layer or a strategy newer than the tables
#   run.sh summary                summary.txt from every run here
# Needs scripts/setup (build/simgrid, .venv) and, for `build`, deb.debian.org.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
autocoll="$repo/.venv/bin/autocoll"
work="$repo/build/hpcc"
source_url=http://deb.debian.org/debian/pool/main/h/hpcc/hpcc_1.5.0.orig.tar.gz
source_sha256=0a6fef7ab9f3347e549fed65ebb98234feea9ee18aea0c8f59baefbe3cf7ffb8
program="$work/hpcc-1.5.0/hpcc"
hpl_n=4000              # HPL's N, from which HPCC sizes MPIFFT: 4194304 points on 16 ranks
strategies="star race lottery model"

build() {
  mkdir -p "$work"
  cd "$work"
  [ -f hpcc_1.5.0.orig.tar.gz ] || curl -fsSLo hpcc_1.5.0.orig.tar.gz "$source_url"
  echo "$source_sha256  hpcc_1.5.0.orig.tar.gz" | sha256sum -c --quiet
  rm -rf hpcc-1.5.0
  tar xzf hpcc_1.5.0.orig.tar.gz
  # The one change to HPCC: HPCC_ONLY=MPIFFT runs just that test (HPCC runs all of them, and
  # MPIRandomAccess polls MPI_Test in loops that take SMPI more than 15 minutes of wall time
  # at 4 ranks; HPL computes for real). Nothing in MPIFFT is changed.
  patch -s -d hpcc-1.5.0 -p1 < "$here/hpcc-only.patch"
  # HPL's make configuration for smpicc: Debian's reference BLAS (Fortran interface), the whole
  # archive linked (main is in it), and autocoll's library kept although nothing names it.
  cat > hpcc-1.5.0/hpl/Make.smpi <<EOF
SHELL = /bin/sh
CD = cd
CP = cp
LN_S = ln -s
MKDIR = mkdir
RM = /bin/rm -f
TOUCH = touch
ARCH = \$(arch)
TOPdir = ../../..
INCdir = \$(TOPdir)/include
BINdir = \$(TOPdir)/bin/\$(ARCH)
LIBdir = \$(TOPdir)/lib/\$(ARCH)
HPLlib = \$(LIBdir)/libhpl.a
LAlib = /usr/lib/x86_64-linux-gnu/libblas.so.3
F2CDEFS = -DAdd_ -DF77_INTEGER=int -DStringSunStyle
HPL_INCLUDES = -I\$(INCdir) -I\$(INCdir)/\$(ARCH)
HPL_LIBS = -Wl,--whole-archive \$(HPLlib) -Wl,--no-whole-archive \$(LAlib) -lm
HPL_DEFS = \$(F2CDEFS) \$(HPL_INCLUDES)
CC = smpicc
CCNOOPT = \$(HPL_DEFS)
CCFLAGS = \$(HPL_DEFS) -O2 -fcommon
LINKER = smpicc
LINKFLAGS = \$(CCFLAGS) -Wl,--no-as-needed -L$repo/build/simgrid -lautocoll -Wl,-rpath,$repo/build/simgrid
ARCHIVER = ar
ARFLAGS = r
RANLIB = echo
EOF
  make -s -C hpcc-1.5.0 arch=smpi > "$work/build.log" 2>&1 ||
    { tail -20 "$work/build.log" >&2; exit 1; }
  ldd "$program" | grep -q "libautocoll.so => $repo/build/simgrid" ||
    { echo "run.sh: $program does not load build/simgrid's libautocoll.so" >&2; exit 1; }
  echo "built $program"
}

# HPCC's input for RANKS ranks: its example file with HPL's N and a P x Q grid of RANKS.
input() {
  local ranks=$1 p=1
  for ((q = 1; q * q <= ranks; q++)); do ((ranks % q == 0)) && p=$q; done
  sed -e "6s/^[0-9]* /$hpl_n /" -e "11s/^[0-9]* /$p /" -e "12s/^[0-9]* /$((ranks / p)) /" \
    "$work/hpcc-1.5.0/_hpccinf.txt"
}

# One run of MPIFFT; $1 folder, $2 platform, $3 ranks, $4 selector, then AUTOCOLL_* settings.
# hpccoutf.txt, the layer's JSON report (report.json) and the simulation's log land in $1.
run_hpcc() {
  local dir=$1 platform=$2 ranks=$3 selector=$4
  shift 4
  mkdir -p "$dir"
  input "$ranks" > "$dir/hpccinf.txt"
  (cd "$dir" && rm -f hpccoutf.txt &&
     env HPCC_ONLY=MPIFFT AUTOCOLL_HISTORY=off AUTOCOLL_REPORT="$dir/report.json" "$@" \
       "$autocoll" simgrid run --platform "$platform" -n "$ranks" --selector "$selector" \
       "$program" > "$dir/simulation.log" 2>&1)
  grep -q '^Success=1' "$dir/hpccoutf.txt" ||
    { echo "run.sh: HPCC failed in $dir (simulation.log)" >&2; exit 1; }
  echo "$dir: $(grep -E '^MPIFFT_Gflops=' "$dir/hpccoutf.txt")"
}

platform_runs() {
  local platform=$1 ranks=${2:-16}
  local out="$here/runs/$platform-np$ranks"
  [ -x "$program" ] || build
  # 1. the profile: the program once, natively under SMPI's Open MPI selector
  run_hpcc "$out/native-ompi" "$platform" "$ranks" ompi
  run_hpcc "$out/native-mpich" "$platform" "$ranks" mpich
  # 2. the configuration phase on what the profile shows (fixed algorithms and native, this
  #    platform), once per selector: a table's `native` is the library's own choice, which is
  #    another algorithm under each selector
  for selector in ompi mpich; do
    "$autocoll" tune --simgrid "$platform" --profile "$out/native-ompi/report.json" \
      --out "$out/tune-$selector" --table "$out/table-$selector.json" --iterations 10 \
      --warmup 2 --repeats 0 --selector "$selector" --sync barrier \
      > "$out/tune-$selector.log" 2>&1 || { tail -5 "$out/tune-$selector.log" >&2; exit 1; }
  done
  program_runs "$platform" "$ranks"
}

# 3. the program under its selector's table, and under each run-time strategy (cold: history
#    off); $1 platform, $2 ranks
program_runs() {
  local platform=$1 ranks=${2:-16}
  local out="$here/runs/$platform-np$ranks"
  [ -x "$program" ] || build
  for selector in ompi mpich; do
    run_hpcc "$out/table-$selector" "$platform" "$ranks" "$selector" AUTOCOLL_STRATEGY=table \
      AUTOCOLL_TABLE="$out/table-$selector.json"
    for s in $strategies; do
      run_hpcc "$out/$s-$selector" "$platform" "$ranks" "$selector" AUTOCOLL_STRATEGY="$s"
    done
  done
}

case ${1:-} in
  build) build ;;
  platform) shift; platform_runs "$@" ;;
  again) shift; program_runs "$@" ;;
  summary) "$repo/.venv/bin/python" "$here/summary.py" "$here/runs" > "$here/summary.txt" ;;
  *) sed -n '2,12p' "$0" >&2; exit 2 ;;
esac

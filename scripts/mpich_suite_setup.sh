#!/usr/bin/env bash
# scripts/mpich_suite_setup.sh - MPICH's own collective tests (test/mpi/coll of the MPICH 4.0.2
# sources, Debian's source package), built once per MPI for tests/peer/mpich_coll_suite.py.
# Idempotent: a built tree is kept (its stamp file), so a second run takes a second.
#
#   build/mpich-testsuite/src/           the unpacked test/mpi tree
#   build/mpich-testsuite/<mpi>/test/mpi/ the tree configured and built with <mpi>'s compiler:
#                                         util (libmtest), dtpools and coll (make -k: the
#                                         persistent collectives, which neither library has,
#                                         do not link; the runner skips them as strict=false)
#
# The sources come from Debian's source package (apt-get source, through a private list of
# deb-src lines: the machine's own apt configuration is left alone). Open MPI 4.1 hides the
# MPI-1 functions that MPI-3.0 removed (MPI_Type_hvector, ...) behind _Static_assert unless
# OMPI_OMIT_MPI1_COMPAT_DECLS=0; Debian's libmpi still exports them, and the suite's datatype
# pool uses them, so its Open MPI build defines that.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
top=$root/build/mpich-testsuite
version=4.0.2
mkdir -p "$top"

if [ ! -f "$top/src/.unpacked" ]; then
  fetch=$top/fetch
  rm -rf "$fetch" "$top/src"
  mkdir -p "$fetch/lists/partial"
  keyring=/usr/share/keyrings/debian-archive-keyring.gpg
  echo "deb-src [signed-by=$keyring] http://deb.debian.org/debian bookworm main" \
    > "$fetch/sources.list"
  apt=(apt-get -q -o "Dir::Etc::SourceList=$fetch/sources.list" -o Dir::Etc::SourceParts=/dev/null
       -o "Dir::State::Lists=$fetch/lists")
  "${apt[@]}" update >/dev/null
  (cd "$fetch" && "${apt[@]}" source --download-only "mpich=$version-3" >/dev/null 2>&1) || {
    echo "mpich_suite_setup: cannot download MPICH $version's sources (Debian's source package)" >&2
    exit 1
  }
  mkdir -p "$top/src"
  tar -xf "$fetch/mpich_$version.orig.tar.xz" -C "$top/src" --strip-components=1 \
    "mpich-$version/test/mpi"
  rm -rf "$fetch"
  touch "$top/src/.unpacked"
fi

for mpi in openmpi mpich; do
  tree=$top/$mpi/test/mpi
  [ -f "$tree/.built" ] && continue
  echo "mpich_suite_setup: building MPICH's collective tests with $mpi (a few minutes)"
  rm -rf "$top/$mpi"
  mkdir -p "$top/$mpi/test"
  cp -a "$top/src/test/mpi" "$tree"  # -a: timestamps kept, or make reruns automake
  cflags="-O2"
  [ "$mpi" = openmpi ] && cflags="-O2 -DOMPI_OMIT_MPI1_COMPAT_DECLS=0"
  (cd "$tree" &&
   MPICC="mpicc.$mpi" CC="mpicc.$mpi" CFLAGS="$cflags" ./configure --enable-strictmpi --enable-fortran=no \
     --disable-cxx --disable-romio --enable-threads=single > configure.log 2>&1 &&
   make -C util > make-util.log 2>&1 &&
   make -C dtpools > make-dtpools.log 2>&1 &&
   { make -k -C coll > make-coll.log 2>&1 || true; } &&
   [ -x coll/allred ] && [ -x coll/bcasttest ]) || {
    echo "mpich_suite_setup: the build with $mpi failed: see $tree/*.log" >&2
    exit 1
  }
  touch "$tree/.built"
done

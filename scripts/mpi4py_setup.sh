#!/usr/bin/env bash
# scripts/mpi4py_setup.sh - install mpi4py into the project's virtual environment so that it runs
# under both Open MPI and MPICH. Idempotent: a second run changes nothing and takes a second.
#
#   AUTOCOLL_VENV   the virtual environment (default: <repository>/.venv; created if missing)
#   PYTHON          the interpreter that creates it (default: python3)
#
# mpi4py's binary wheel finds the MPI library at run time. Open MPI: it loads libmpi.so.40 as it
# is. MPICH: run with MPI4PY_MPIABI=mpich and LD_LIBRARY_PATH=$AUTOCOLL_VENV/mpich-abi, where this
# script links libmpi.so.12 -> libmpich.so.12 (tests/lang/run_lang.py and
# tests/peer/mpi4py_suite.py set both themselves).
set -euo pipefail

MPI4PY_VERSION=4.1.2
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
venv=${AUTOCOLL_VENV:-$root/.venv}
python=${PYTHON:-python3}

if [ ! -x "$venv/bin/python" ]; then
    echo "mpi4py_setup: creating $venv"
    "$python" -m venv "$venv"
fi
if ! "$venv/bin/python" -c "import sys, mpi4py; sys.exit(mpi4py.__version__ != '$MPI4PY_VERSION')" \
        2>/dev/null; then
    echo "mpi4py_setup: installing mpi4py==$MPI4PY_VERSION into $venv"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
        "mpi4py==$MPI4PY_VERSION"
fi

# MPICH's library under the name the wheel's MPICH ABI looks for.
# (awk reads to the end: an early exit would kill ldconfig with SIGPIPE, fatal under pipefail)
mpich=$(ldconfig -p | awk '$1 == "libmpich.so.12" && !found { print $NF; found = 1 }')
if [ -z "$mpich" ]; then
    echo "mpi4py_setup: libmpich.so.12 not found (apt-get install mpich libmpich-dev)" >&2
    exit 1
fi
mkdir -p "$venv/mpich-abi"
ln -sfn "$mpich" "$venv/mpich-abi/libmpi.so.12"

# Check that mpi4py loads each library (singleton runs, no launcher needed).
check='from mpi4py import MPI
print(MPI.Get_library_version().replace("\0", "").splitlines()[0].strip())'
ompi=$(OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 timeout 60 \
       "$venv/bin/python" -c "$check")
abi_path="$venv/mpich-abi${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
mpichv=$(MPI4PY_MPIABI=mpich LD_LIBRARY_PATH="$abi_path" timeout 60 "$venv/bin/python" -c "$check")
for got in "Open MPI:$ompi" "MPICH:$mpichv"; do
    case ${got#*:} in
        *"${got%%:*}"*) ;;
        *) echo "mpi4py_setup: mpi4py under ${got%%:*} printed '${got#*:}'" >&2; exit 1 ;;
    esac
done
echo "mpi4py_setup: mpi4py $MPI4PY_VERSION in $venv: $ompi | $mpichv"
echo "mpi4py_setup: for MPICH run with MPI4PY_MPIABI=mpich LD_LIBRARY_PATH=$venv/mpich-abi"

"""libautocoll.so exports its public surface only: the MPI entry points it defines (C, and in the
Open MPI build the Fortran ones of src/intercept/fortran.c and fortran_f08.c) and the public API
of include/autocoll.h (autocoll_*) and include/ADCL.h (ADCL_*), nothing of its internals (cmake/exports.map)."""

import re
import subprocess

import pytest

from conftest import build_dir

PUBLIC = re.compile(r"MPI_[A-Za-z_]+"          # C entry points; Open MPI's MPI_ALLREDUCE
                    r"|mpi_[a-z0-9_]+"         # Fortran: mpi_allreduce(_, __), mpi_init_f08_
                    r"|ompi_[a-z_]+_f"         # Open MPI's Fortran implementations
                    r"|autocoll_[a-z0-9_]+"    # include/autocoll.h
                    r"|ADCL_[A-Za-z_]+")       # include/ADCL.h


def exported(mpi):
    out = subprocess.run(["nm", "-D", "--defined-only", str(build_dir(mpi) / "libautocoll.so")],
                         check=True, capture_output=True, text=True).stdout
    return {line.split()[-1] for line in out.splitlines() if line.strip()}


@pytest.mark.parametrize("mpi", ["openmpi", "mpich", "simgrid"])
def test_exports_only_the_public_surface(mpi):
    symbols = exported(mpi)
    assert sorted(s for s in symbols if not PUBLIC.fullmatch(s)) == []
    assert {"MPI_Init", "MPI_Allreduce", "MPI_Finalize", "mpi_init_f08_"} <= symbols
    if mpi == "openmpi":
        assert {"mpi_allreduce_", "MPI_ALLREDUCE", "ompi_allreduce_f"} <= symbols

# Spack package for autocoll (https://spack.io). UNTESTED: Spack is not available on the
# machines this repository is developed on; the recipe follows Spack's CMakePackage conventions
# and the build's own interface (docs/guide.md, "Install"), and is to be tried on a site with
# Spack before it is relied on.
#
#   spack repo add packaging/spack        (a one-package repository: repo.yaml, packages/)
#   spack install autocoll ^openmpi       or ^mpich, ^intel-oneapi-mpi, ^mvapich2, ^cray-mpich
#
# The MPI provider is Spack's `mpi` virtual dependency: the build takes the provider's mpicc
# (MPI_C_COMPILER) and names itself after the library its mpi.h is (openmpi, or mpich for the
# MPICH family). The library installs as lib/autocoll/<mpi>/libautocoll.so with autocoll-info,
# the manual pages, pkg-config and a CMake package.

from spack.package import *


class Autocoll(CMakePackage):
    """An adaptive collective layer for MPI: a PMPI library that runs each collective call with
    an algorithm chosen for the platform, the process count and the message size."""

    homepage = "https://example.invalid/autocoll"  # no public home yet
    git = "https://example.invalid/autocoll.git"

    version("main", branch="main")

    variant("libdw", default=True, description="Name call sites by source line (elfutils)")
    variant("tests", default=False, description="Build the test programs")

    depends_on("cmake@3.20:", type="build")
    depends_on("mpi")
    depends_on("elfutils", when="+libdw")
    depends_on("pkgconfig", type="build", when="+libdw")

    def cmake_args(self):
        return [
            self.define("MPI_C_COMPILER", self.spec["mpi"].mpicc),
            self.define("AUTOCOLL_MPI", "auto"),
            self.define_from_variant("AUTOCOLL_WITH_LIBDW", "libdw"),
            self.define_from_variant("AUTOCOLL_TESTS", "tests"),
        ]

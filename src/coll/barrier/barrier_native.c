/*
 * barrier_native.c - the MPI library's own MPI_Barrier, called on the private communicator.
 * Cost: whatever the library chooses. Requirements: none. Always a candidate (invariant 7).
 */
#include "coll/algorithms.h"

int ac_barrier_native(MPI_Comm comm, const ac_params *p)
{
    (void)p;
    return PMPI_Barrier(comm);
}

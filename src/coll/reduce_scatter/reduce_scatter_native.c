/*
 * reduce_scatter_native.c - the MPI library's own MPI_Reduce_scatter, called on the private
 * communicator.
 * Cost: whatever the library chooses. Requirements: none. Always a candidate (invariant 7).
 */
#include "coll/algorithms.h"

int ac_reduce_scatter_native(const void *sbuf, void *rbuf, const int *rcounts, MPI_Datatype dtype,
                             MPI_Op op, MPI_Comm comm, const ac_params *p)
{
    (void)p;
    return PMPI_Reduce_scatter(sbuf, rbuf, rcounts, dtype, op, comm);
}

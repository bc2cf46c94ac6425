/*
 * reduce_native.c - the MPI library's own MPI_Reduce, called on the private communicator.
 * Cost: whatever the library chooses. Requirements: none. Always a candidate (invariant 7).
 */
#include "coll/algorithms.h"

int ac_reduce_native(const void *sbuf, void *rbuf, int count, MPI_Datatype dtype, MPI_Op op,
                     int root, MPI_Comm comm, const ac_params *p)
{
    (void)p;
    return PMPI_Reduce(sbuf, rbuf, count, dtype, op, root, comm);
}

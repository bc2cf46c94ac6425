/*
 * allreduce_native.c - the MPI library's own MPI_Allreduce, called on the private communicator.
 * Cost: whatever the library chooses. Requirements: none. Always a candidate (invariant 7).
 */
#include "coll/algorithms.h"

int ac_allreduce_native(const void *sbuf, void *rbuf, int count, MPI_Datatype dtype, MPI_Op op,
                        MPI_Comm comm, const ac_params *p)
{
    (void)p;
    return PMPI_Allreduce(sbuf, rbuf, count, dtype, op, comm);
}

/*
 * reduce_scatter_block_native.c - the MPI library's own MPI_Reduce_scatter_block, called on the
 * private communicator.
 * Cost: whatever the library chooses. Requirements: none. Always a candidate (invariant 7).
 */
#include "coll/algorithms.h"

int ac_reduce_scatter_block_native(const void *sbuf, void *rbuf, int rcount, MPI_Datatype dtype,
                                   MPI_Op op, MPI_Comm comm, const ac_params *p)
{
    (void)p;
    return PMPI_Reduce_scatter_block(sbuf, rbuf, rcount, dtype, op, comm);
}

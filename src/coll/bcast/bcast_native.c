/*
 * bcast_native.c - the MPI library's own MPI_Bcast, called on the private communicator.
 * Cost: whatever the library chooses. Requirements: none. Always a candidate (invariant 7).
 */
#include "coll/algorithms.h"

int ac_bcast_native(void *buf, int count, MPI_Datatype dtype, int root, MPI_Comm comm,
                    const ac_params *p)
{
    (void)p;
    return PMPI_Bcast(buf, count, dtype, root, comm);
}

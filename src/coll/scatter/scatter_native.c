/*
 * scatter_native.c - the MPI library's own MPI_Scatter, called on the private communicator.
 * Cost: whatever the library chooses. Requirements: none. Always a candidate (invariant 7).
 */
#include "coll/algorithms.h"

int ac_scatter_native(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                      MPI_Datatype rtype, int root, MPI_Comm comm, const ac_params *p)
{
    (void)p;
    return PMPI_Scatter(sbuf, scount, stype, rbuf, rcount, rtype, root, comm);
}

/*
 * allgather_native.c - the MPI library's own MPI_Allgather, called on the private communicator.
 * Cost: whatever the library chooses. Requirements: none. Always a candidate (invariant 7).
 */
#include "coll/algorithms.h"

int ac_allgather_native(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                        MPI_Datatype rtype, MPI_Comm comm, const ac_params *p)
{
    (void)p;
    return PMPI_Allgather(sbuf, scount, stype, rbuf, rcount, rtype, comm);
}

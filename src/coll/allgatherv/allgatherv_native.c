/*
 * allgatherv_native.c - the MPI library's own MPI_Allgatherv, called on the private communicator.
 * Cost: whatever the library chooses. Requirements: none. Always a candidate (invariant 7).
 */
#include "coll/algorithms.h"

int ac_allgatherv_native(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                         const int *rcounts, const int *displs, MPI_Datatype rtype,
                         MPI_Comm comm, const ac_params *p)
{
    (void)p;
    return PMPI_Allgatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm);
}

/*
 * alltoallv_native.c - the MPI library's own MPI_Alltoallv, called on the private communicator.
 * Cost: whatever the library chooses. Requirements: none. Always a candidate (invariant 7).
 */
#include "coll/algorithms.h"

int ac_alltoallv_native(const void *sbuf, const int *scounts, const int *sdispls,
                        MPI_Datatype stype, void *rbuf, const int *rcounts, const int *rdispls,
                        MPI_Datatype rtype, MPI_Comm comm, const ac_params *p)
{
    (void)p;
    return PMPI_Alltoallv(sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, comm);
}

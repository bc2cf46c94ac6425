/*
 * neighbor_alltoallw_native.c - the MPI library's own MPI_Neighbor_alltoallw, called on the private
 * communicator (a duplicate keeps the topology). Cost: whatever the library does.
 * Requirements: none. Always a candidate (invariant 7). Where the library departs from the
 * standard (MPICH 4.0.2 on periodic dimensions of one or two processes, docs/neighbor.md) so
 * does this entry: it is the library's answer.
 */
#include "coll/algorithms.h"

int ac_neighbor_alltoallw_native(const void *sbuf, const int *scounts, const MPI_Aint *sdispls,
                                 const MPI_Datatype *stypes, void *rbuf, const int *rcounts,
                                 const MPI_Aint *rdispls, const MPI_Datatype *rtypes, MPI_Comm comm,
                                 const ac_params *p)
{
    (void)p;
    return PMPI_Neighbor_alltoallw(sbuf, scounts, sdispls, stypes, rbuf, rcounts, rdispls, rtypes,
                                   comm);
}

/*
 * neighbor_allgatherv_native.c - the MPI library's own MPI_Neighbor_allgatherv, called on the
 * private communicator (a duplicate keeps the topology). Cost: whatever the library does.
 * Requirements: none. Always a candidate (invariant 7). Where the library departs from the
 * standard (MPICH 4.0.2 on periodic dimensions of one or two processes, docs/neighbor.md) so
 * does this entry: it is the library's answer.
 */
#include "coll/algorithms.h"

int ac_neighbor_allgatherv_native(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                                  const int *rcounts, const int *displs, MPI_Datatype rtype,
                                  MPI_Comm comm, const ac_params *p)
{
    (void)p;
    return PMPI_Neighbor_allgatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm);
}

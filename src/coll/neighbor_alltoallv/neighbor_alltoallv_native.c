/*
 * neighbor_alltoallv_native.c - the MPI library's own MPI_Neighbor_alltoallv, called on the private
 * communicator (a duplicate keeps the topology). Cost: whatever the library does.
 * Requirements: none. Always a candidate (invariant 7). As a schedule (nonblocking and
 * persistent calls race it like the others), the library's MPI_Ineighbor_alltoallv as the one
 * step. Where the library departs from the
 * standard (MPICH 4.0.2 on periodic dimensions of one or two processes, docs/neighbor.md) so
 * does this entry: it is the library's answer.
 */
#include "coll/algorithms.h"
#include "coll/common/sched.h"

int ac_neighbor_alltoallv_native(const void *sbuf, const int *scounts, const int *sdispls,
                                 MPI_Datatype stype, void *rbuf, const int *rcounts,
                                 const int *rdispls, MPI_Datatype rtype, MPI_Comm comm,
                                 const ac_params *p)
{
    (void)p;
    return PMPI_Neighbor_alltoallv(sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype,
                                   comm);
}

static int start(const void *arg, MPI_Comm comm, MPI_Request *req)
{
    const ac_alltoallv_args *a = arg;
    return PMPI_Ineighbor_alltoallv(a->sbuf, a->scounts, a->sdispls, a->stype, a->rbuf, a->rcounts,
                                    a->rdispls, a->rtype, comm, req);
}

int ac_neighbor_alltoallv_native_schedule(ac_sched *s, const void *sbuf, const int *scounts,
                                          const int *sdispls, MPI_Datatype stype, void *rbuf,
                                          const int *rcounts, const int *rdispls,
                                          MPI_Datatype rtype, const ac_params *p)
{
    ac_alltoallv_args *a = ac_sched_tmp(s, sizeof *a, MPI_BYTE);
    (void)p;
    if (!a) return ac_sched_error(s);
    *a = (ac_alltoallv_args){sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype};
    ac_sched_library(s, start, a);
    return ac_sched_error(s);
}

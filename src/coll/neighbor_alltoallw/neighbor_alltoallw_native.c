/*
 * neighbor_alltoallw_native.c - the MPI library's own MPI_Neighbor_alltoallw, called on the private
 * communicator (a duplicate keeps the topology). Cost: whatever the library does.
 * Requirements: none. Always a candidate (invariant 7). As a schedule (nonblocking and
 * persistent calls race it like the others), the library's MPI_Ineighbor_alltoallw as the one
 * step. Where the library departs from the
 * standard (MPICH 4.0.2 on periodic dimensions of one or two processes, docs/neighbor.md) so
 * does this entry: it is the library's answer.
 */
#include "coll/algorithms.h"
#include "coll/common/sched.h"

int ac_neighbor_alltoallw_native(const void *sbuf, const int *scounts, const MPI_Aint *sdispls,
                                 const MPI_Datatype *stypes, void *rbuf, const int *rcounts,
                                 const MPI_Aint *rdispls, const MPI_Datatype *rtypes, MPI_Comm comm,
                                 const ac_params *p)
{
    (void)p;
    return PMPI_Neighbor_alltoallw(sbuf, scounts, sdispls, stypes, rbuf, rcounts, rdispls, rtypes,
                                   comm);
}

static int start(const void *arg, MPI_Comm comm, MPI_Request *req)
{
    const ac_neighbor_alltoallw_args *a = arg;
    return PMPI_Ineighbor_alltoallw(a->sbuf, a->scounts, a->sdispls, a->stypes, a->rbuf, a->rcounts,
                                    a->rdispls, a->rtypes, comm, req);
}

int ac_neighbor_alltoallw_native_schedule(ac_sched *s, const void *sbuf, const int *scounts,
                                          const MPI_Aint *sdispls, const MPI_Datatype *stypes,
                                          void *rbuf, const int *rcounts, const MPI_Aint *rdispls,
                                          const MPI_Datatype *rtypes, const ac_params *p)
{
    ac_neighbor_alltoallw_args *a = ac_sched_tmp(s, sizeof *a, MPI_BYTE);
    (void)p;
    if (!a) return ac_sched_error(s);
    *a = (ac_neighbor_alltoallw_args){sbuf,  scounts, sdispls, stypes,
                                      rbuf, rcounts, rdispls, rtypes};
    ac_sched_library(s, start, a);
    return ac_sched_error(s);
}

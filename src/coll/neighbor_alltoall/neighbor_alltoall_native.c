/*
 * neighbor_alltoall_native.c - the MPI library's own MPI_Neighbor_alltoall, called on the private
 * communicator (a duplicate keeps the topology). Cost: whatever the library does.
 * Requirements: none. Always a candidate (invariant 7). As a schedule (nonblocking and
 * persistent calls race it like the others), the library's MPI_Ineighbor_alltoall as the one
 * step. Where the library departs from the
 * standard (MPICH 4.0.2 on periodic dimensions of one or two processes, docs/neighbor.md) so
 * does this entry: it is the library's answer.
 */
#include "coll/algorithms.h"
#include "coll/common/sched.h"

int ac_neighbor_alltoall_native(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                                int rcount, MPI_Datatype rtype, MPI_Comm comm, const ac_params *p)
{
    (void)p;
    return PMPI_Neighbor_alltoall(sbuf, scount, stype, rbuf, rcount, rtype, comm);
}

static int start(const void *arg, MPI_Comm comm, MPI_Request *req)
{
    const ac_blocks_args *a = arg;
    return PMPI_Ineighbor_alltoall(a->sbuf, a->scount, a->stype, a->rbuf, a->rcount, a->rtype, comm,
                                   req);
}

int ac_neighbor_alltoall_native_schedule(ac_sched *s, const void *sbuf, int scount,
                                         MPI_Datatype stype, void *rbuf, int rcount,
                                         MPI_Datatype rtype, const ac_params *p)
{
    ac_blocks_args *a = ac_sched_tmp(s, sizeof *a, MPI_BYTE);
    (void)p;
    if (!a) return ac_sched_error(s);
    *a = (ac_blocks_args){sbuf, scount, stype, rbuf, rcount, rtype};
    ac_sched_library(s, start, a);
    return ac_sched_error(s);
}

/*
 * reduce_native.c - the MPI library's own MPI_Reduce, called on the private communicator; as a
 * schedule (nonblocking and persistent calls race it like the others), the library's MPI_Ireduce
 * as the one step.
 * Cost: whatever the library chooses. Requirements: none. Always a candidate (invariant 7).
 */
#include "coll/algorithms.h"
#include "coll/common/sched.h"

int ac_reduce_native(const void *sbuf, void *rbuf, int count, MPI_Datatype dtype, MPI_Op op,
                     int root, MPI_Comm comm, const ac_params *p)
{
    (void)p;
    return PMPI_Reduce(sbuf, rbuf, count, dtype, op, root, comm);
}

static int start_ireduce(const void *arg, MPI_Comm comm, MPI_Request *req)
{
    const ac_reduce_args *a = arg;
    return PMPI_Ireduce(a->sbuf, a->rbuf, a->count, a->dtype, a->op, a->root, comm, req);
}

int ac_reduce_native_schedule(ac_sched *s, const void *sbuf, void *rbuf, int count,
                              MPI_Datatype dtype, MPI_Op op, int root, const ac_params *p)
{
    ac_reduce_args *a = ac_sched_tmp(s, sizeof *a, MPI_BYTE);
    (void)p;
    if (!a) return ac_sched_error(s);
    *a = (ac_reduce_args){sbuf, rbuf, count, dtype, op, root};
    ac_sched_library(s, start_ireduce, a);
    return ac_sched_error(s);
}

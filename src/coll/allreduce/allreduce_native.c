/*
 * allreduce_native.c - the MPI library's own MPI_Allreduce, called on the private communicator;
 * as a schedule (nonblocking and persistent calls race it like the others), the library's
 * MPI_Iallreduce as the one step.
 * Cost: whatever the library chooses. Requirements: none. Always a candidate (invariant 7).
 */
#include "coll/algorithms.h"

int ac_allreduce_native(const void *sbuf, void *rbuf, int count, MPI_Datatype dtype, MPI_Op op,
                        MPI_Comm comm, const ac_params *p)
{
    (void)p;
    return PMPI_Allreduce(sbuf, rbuf, count, dtype, op, comm);
}

static int start_iallreduce(const void *arg, MPI_Comm comm, MPI_Request *req)
{
    const ac_allreduce_args *a = arg;
    return PMPI_Iallreduce(a->sbuf, a->rbuf, a->count, a->dtype, a->op, comm, req);
}

int ac_allreduce_native_schedule(ac_sched *s, const void *sbuf, void *rbuf, int count,
                                 MPI_Datatype dtype, MPI_Op op, const ac_params *p)
{
    ac_allreduce_args *a = ac_sched_tmp(s, sizeof *a, MPI_BYTE);
    (void)p;
    if (!a) return ac_sched_error(s);
    *a = (ac_allreduce_args){sbuf, rbuf, count, dtype, op};
    ac_sched_library(s, start_iallreduce, a);
    return ac_sched_error(s);
}

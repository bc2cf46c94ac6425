/*
 * reduce_scatter_native.c - the MPI library's own MPI_Reduce_scatter, called on the private
 * communicator.
 * As a schedule (nonblocking and persistent calls race it like the others), the library's
 * MPI_Ireduce_scatter as the one step.
 * Cost: whatever the library chooses. Requirements: none. Always a candidate (invariant 7).
 */
#include "coll/algorithms.h"
#include "coll/common/sched.h"

int ac_reduce_scatter_native(const void *sbuf, void *rbuf, const int *rcounts, MPI_Datatype dtype,
                             MPI_Op op, MPI_Comm comm, const ac_params *p)
{
    (void)p;
    return PMPI_Reduce_scatter(sbuf, rbuf, rcounts, dtype, op, comm);
}

static int start_ireduce_scatter(const void *arg, MPI_Comm comm, MPI_Request *req)
{
    const ac_reduce_scatter_args *a = arg;
    return PMPI_Ireduce_scatter(a->sbuf, a->rbuf, a->rcounts, a->dtype, a->op, comm, req);
}

int ac_reduce_scatter_native_schedule(ac_sched *s, const void *sbuf, void *rbuf,
                                      const int *rcounts, MPI_Datatype dtype, MPI_Op op,
                                      const ac_params *p)
{
    ac_reduce_scatter_args *a = ac_sched_tmp(s, sizeof *a, MPI_BYTE);
    (void)p;
    if (!a) return ac_sched_error(s);
    *a = (ac_reduce_scatter_args){sbuf, rbuf, rcounts, 0, dtype, op};
    ac_sched_library(s, start_ireduce_scatter, a);
    return ac_sched_error(s);
}

/*
 * bcast_native.c - the MPI library's own MPI_Bcast, called on the private communicator; as a
 * schedule (nonblocking and persistent calls race it like the others), the library's MPI_Ibcast
 * as the one step.
 * Cost: whatever the library chooses. Requirements: none. Always a candidate (invariant 7).
 */
#include "coll/algorithms.h"
#include "coll/common/sched.h"

int ac_bcast_native(void *buf, int count, MPI_Datatype dtype, int root, MPI_Comm comm,
                    const ac_params *p)
{
    (void)p;
    return PMPI_Bcast(buf, count, dtype, root, comm);
}

static int start_ibcast(const void *arg, MPI_Comm comm, MPI_Request *req)
{
    const ac_bcast_args *a = arg;
    return PMPI_Ibcast(a->buf, a->count, a->dtype, a->root, comm, req);
}

int ac_bcast_native_schedule(ac_sched *s, void *buf, int count, MPI_Datatype dtype, int root,
                             const ac_params *p)
{
    ac_bcast_args *a = ac_sched_tmp(s, sizeof *a, MPI_BYTE);
    (void)p;
    if (!a) return ac_sched_error(s);
    *a = (ac_bcast_args){buf, count, dtype, root};
    ac_sched_library(s, start_ibcast, a);
    return ac_sched_error(s);
}

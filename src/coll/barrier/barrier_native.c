/*
 * barrier_native.c - the MPI library's own MPI_Barrier, called on the private communicator; as a
 * schedule (nonblocking and persistent calls race it like the others), the library's
 * MPI_Ibarrier as the one step.
 * Cost: whatever the library chooses. Requirements: none. Always a candidate (invariant 7).
 */
#include "coll/algorithms.h"

int ac_barrier_native(MPI_Comm comm, const ac_params *p)
{
    (void)p;
    return PMPI_Barrier(comm);
}

static int start_ibarrier(const void *arg, MPI_Comm comm, MPI_Request *req)
{
    (void)arg;
    return PMPI_Ibarrier(comm, req);
}

int ac_barrier_native_schedule(ac_sched *s, const ac_params *p)
{
    (void)p;
    ac_sched_library(s, start_ibarrier, NULL);
    return ac_sched_error(s);
}

/*
 * allgather_native.c - the MPI library's own MPI_Allgather, called on the private communicator;
 * as a schedule (nonblocking and persistent calls race it like the others), the library's
 * MPI_Iallgather as the one step.
 * Cost: whatever the library chooses. Requirements: none. Always a candidate (invariant 7).
 */
#include "coll/algorithms.h"
#include "coll/common/sched.h"

int ac_allgather_native(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                        MPI_Datatype rtype, MPI_Comm comm, const ac_params *p)
{
    (void)p;
    return PMPI_Allgather(sbuf, scount, stype, rbuf, rcount, rtype, comm);
}


static int start_iallgather(const void *arg, MPI_Comm comm, MPI_Request *req)
{
    const ac_blocks_args *a = arg;
    return PMPI_Iallgather(a->sbuf, a->scount, a->stype, a->rbuf, a->rcount, a->rtype, comm, req);
}

int ac_allgather_native_schedule(ac_sched *s, const void *sbuf, int scount, MPI_Datatype stype,
                                 void *rbuf, int rcount, MPI_Datatype rtype, const ac_params *p)
{
    ac_blocks_args *a = ac_sched_tmp(s, sizeof *a, MPI_BYTE);
    (void)p;
    if (!a) return ac_sched_error(s);
    *a = (ac_blocks_args){sbuf, scount, stype, rbuf, rcount, rtype};
    ac_sched_library(s, start_iallgather, a);
    return ac_sched_error(s);
}

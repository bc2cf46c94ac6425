/*
 * scatter_native.c - the MPI library's own MPI_Scatter, called on the private communicator; as a
 * schedule (nonblocking and persistent calls race it like the others), the library's
 * MPI_Iscatter as the one step.
 * Cost: whatever the library chooses. Requirements: none. Always a candidate (invariant 7).
 */
#include "coll/algorithms.h"
#include "coll/common/sched.h"

int ac_scatter_native(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                     MPI_Datatype rtype, int root, MPI_Comm comm, const ac_params *p)
{
    (void)p;
    return PMPI_Scatter(sbuf, scount, stype, rbuf, rcount, rtype, root, comm);
}

static int start_iscatter(const void *arg, MPI_Comm comm, MPI_Request *req)
{
    const ac_rooted_args *a = arg;
    return PMPI_Iscatter(a->sbuf, a->scount, a->stype, a->rbuf, a->rcount, a->rtype, a->root, comm,
                        req);
}

int ac_scatter_native_schedule(ac_sched *s, const void *sbuf, int scount, MPI_Datatype stype,
                              void *rbuf, int rcount, MPI_Datatype rtype, int root,
                              const ac_params *p)
{
    ac_rooted_args *a = ac_sched_tmp(s, sizeof *a, MPI_BYTE);
    (void)p;
    if (!a) return ac_sched_error(s);
    *a = (ac_rooted_args){sbuf, scount, stype, rbuf, rcount, rtype, root};
    ac_sched_library(s, start_iscatter, a);
    return ac_sched_error(s);
}

/*
 * inner.c - the inner phases of the composed allreduces (allreduce_allgather.c,
 * allreduce_rabenseifner.c, allreduce_alltoall_allgather.c): an all-gather or all-to-all
 * appended to the allreduce's schedule, by its own schedule where it is written as one
 * (params->allgatherv_schedule, params->alltoallv_schedule), else (the node-aware ring, or the
 * library's own where no inner phase is named) as one step calling its blocking engine, which
 * only a schedule built for the blocking run may hold (ac_sched_call). The counts and
 * displacements must live as long as the schedule (its temporaries).
 */
#include "coll/algorithms.h"
#include "coll/common/sched.h"

typedef struct inner_call {
    ac_allgatherv_fn *allgatherv;
    ac_alltoallv_fn *alltoallv;
    const ac_params *params;
    const void *sbuf;
    const int *scounts, *sdispls; /* all-to-all; all-gather: scounts[0] */
    MPI_Datatype stype;
    void *rbuf;
    const int *rcounts, *rdispls;
    MPI_Datatype rtype;
} inner_call;

static int call_inner(const void *arg, MPI_Comm comm)
{
    const inner_call *a = arg;
    if (a->allgatherv)
        return a->allgatherv(a->sbuf, a->scounts[0], a->stype, a->rbuf, a->rcounts, a->rdispls,
                             a->rtype, comm, a->params);
    return a->alltoallv(a->sbuf, a->scounts, a->sdispls, a->stype, a->rbuf, a->rcounts,
                        a->rdispls, a->rtype, comm, a->params);
}

/* The blocking engine's call as a step of s (ac_sched_call), its arguments kept in s. */
static int as_step(ac_sched *s, const inner_call *call)
{
    inner_call *a = ac_sched_tmp(s, sizeof *a, MPI_BYTE);
    int *scount = ac_sched_tmp(s, 1, MPI_INT);
    if (!a || !scount) return ac_sched_error(s);
    *a = *call;
    if (a->allgatherv) {
        *scount = call->scounts[0];
        a->scounts = scount;
    }
    ac_sched_call(s, call_inner, a);
    return ac_sched_error(s);
}

int ac_allreduce_inner_allgatherv(ac_sched *s, const ac_params *p, const void *sbuf, int scount,
                                  MPI_Datatype stype, void *rbuf, const int *counts,
                                  const int *displs, MPI_Datatype rtype)
{
    if (p && p->allgatherv_schedule)
        return p->allgatherv_schedule(s, sbuf, scount, stype, rbuf, counts, displs, rtype,
                                      p->inner);
    inner_call call = {.allgatherv = p && p->allgatherv ? p->allgatherv : ac_allgatherv_native,
                       .params = p && p->allgatherv ? p->inner : NULL,
                       .sbuf = sbuf,
                       .scounts = &scount,
                       .stype = stype,
                       .rbuf = rbuf,
                       .rcounts = counts,
                       .rdispls = displs,
                       .rtype = rtype};
    return as_step(s, &call);
}

int ac_allreduce_inner_alltoallv(ac_sched *s, const ac_params *p, const void *sbuf,
                                 const int *scounts, const int *sdispls, MPI_Datatype stype,
                                 void *rbuf, const int *rcounts, const int *rdispls,
                                 MPI_Datatype rtype)
{
    if (p && p->alltoallv_schedule)
        return p->alltoallv_schedule(s, sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls,
                                     rtype, p->inner2);
    inner_call call = {.alltoallv = p && p->alltoallv ? p->alltoallv : ac_alltoallv_native,
                       .params = p && p->alltoallv ? p->inner2 : NULL,
                       .sbuf = sbuf,
                       .scounts = scounts,
                       .sdispls = sdispls,
                       .stype = stype,
                       .rbuf = rbuf,
                       .rcounts = rcounts,
                       .rdispls = rdispls,
                       .rtype = rtype};
    return as_step(s, &call);
}

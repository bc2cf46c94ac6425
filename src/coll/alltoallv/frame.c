/*
 * frame.c - the start shared by the alltoallv engines of this folder (the rank's own block, and
 * MPI_IN_PLACE), the phased engines' exchange of one phase, and the blocking run of an engine
 * written as a schedule.
 *
 * With MPI_IN_PLACE the outgoing data lives in the receive buffer and is overwritten by the
 * incoming data, so the engines send from a copy. The copy is one byte range that spans every
 * outgoing block (true lower bound and true extent honoured, negative extents included); it
 * keeps rbuf's layout, so the engines address it with rdispls and rtype.
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"
#include "coll/common/sched.h"

#include <limits.h>

/* The byte range [*lo, *hi) of rbuf that holds every outgoing block (all but `self`'s); 0 when
 * none goes out. */
static int outgoing_range(const int *rcounts, const int *rdispls, MPI_Datatype rtype, int size,
                          int self, MPI_Aint *lo, MPI_Aint *hi)
{
    MPI_Aint lb, extent, true_lb, true_extent;
    int any = 0;
    PMPI_Type_get_extent(rtype, &lb, &extent);
    PMPI_Type_get_true_extent(rtype, &true_lb, &true_extent);
    for (int i = 0; i < size; i++) {
        if (i == self || rcounts[i] == 0) continue;
        MPI_Aint start = (MPI_Aint)rdispls[i] * extent + true_lb;
        MPI_Aint last = (MPI_Aint)(rcounts[i] - 1) * extent;
        MPI_Aint b_lo = start + (last < 0 ? last : 0);
        MPI_Aint b_hi = start + true_extent + (last > 0 ? last : 0);
        if (!any || b_lo < *lo) *lo = b_lo;
        if (!any || b_hi > *hi) *hi = b_hi;
        any = 1;
    }
    return any;
}

/* The start of every engine's schedule (alltoallv.h, ac_alltoallv_sched_engine). */
static int sched_frame(ac_sched *s, ac_alltoallv_frame *f, const void *sbuf, const int *scounts,
                       const int *sdispls, MPI_Datatype stype, void *rbuf, const int *rcounts,
                       const int *rdispls, MPI_Datatype rtype)
{
    *f = (ac_alltoallv_frame){{sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype},
                              .rank = s->rank, .size = s->size};
    f->rext = ac_extent(rtype);
    if (sbuf != MPI_IN_PLACE) {
        ac_sched_copy(s, ac_at(sbuf, sdispls[f->rank] * ac_extent(stype)),
                      scounts[f->rank], stype, ac_at(rbuf, rdispls[f->rank] * f->rext),
                      rcounts[f->rank], rtype);
    } else {
        /* In place: the own block is already where it belongs; send from a copy of the rest. */
        MPI_Aint lo = 0, hi = 0;
        f->call.scounts = rcounts;
        f->call.sdispls = rdispls;
        f->call.stype = rtype;
        f->call.sbuf = rbuf; /* nothing goes out: any valid address will do */
        if (outgoing_range(rcounts, rdispls, rtype, f->size, f->rank, &lo, &hi)) {
            char *copy = ac_sched_tmp(s, hi - lo + 1, MPI_BYTE);
            if (!copy) return ac_sched_error(s);
            for (MPI_Aint at = 0; at < hi - lo; at += INT_MAX) {
                int n = hi - lo - at < INT_MAX ? (int)(hi - lo - at) : INT_MAX;
                ac_sched_copy(s, ac_at(rbuf, lo + at), n, MPI_BYTE, copy + at, n,
                              MPI_BYTE);
            }
            f->call.sbuf = copy - lo;
        }
    }
    f->sext = ac_extent(f->call.stype);
    PMPI_Type_size(f->call.stype, &f->ssize);
    PMPI_Type_size(rtype, &f->rsize);
    return ac_sched_error(s);
}

void ac_alltoallv_sched_exchange(ac_sched *s, const ac_alltoallv_frame *f, int to, int from)
{
    const ac_alltoallv_args *a = &f->call;
    int sendto = a->scounts[to] == 0 || f->ssize == 0 ? MPI_PROC_NULL : to;
    int recvfrom = a->rcounts[from] == 0 || f->rsize == 0 ? MPI_PROC_NULL : from;
    ac_sched_send(s, ac_at(a->sbuf, a->sdispls[to] * f->sext), a->scounts[to], a->stype,
                  sendto);
    ac_sched_recv(s, ac_at(a->rbuf, a->rdispls[from] * f->rext), a->rcounts[from], a->rtype,
                  recvfrom);
    ac_sched_round(s);
}

int ac_alltoallv_sched_engine(ac_alltoallv_rounds_fn *rounds, ac_sched *s, const void *sbuf,
                              const int *scounts, const int *sdispls, MPI_Datatype stype,
                              void *rbuf, const int *rcounts, const int *rdispls,
                              MPI_Datatype rtype, const ac_params *p)
{
    ac_alltoallv_frame f;
    int rc = sched_frame(s, &f, sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype);
    if (rc != MPI_SUCCESS) return rc;
    rounds(s, &f, p);
    return ac_sched_error(s);
}

int ac_alltoallv_by_schedule(ac_alltoallv_sched_fn *build, const void *sbuf, const int *scounts,
                             const int *sdispls, MPI_Datatype stype, void *rbuf,
                             const int *rcounts, const int *rdispls, MPI_Datatype rtype,
                             MPI_Comm comm, const ac_params *p)
{
    ac_sched s;
    int rc = ac_sched_init(&s, comm, AC_TAG_DATA);
    s.blocking = 1;
    if (rc == MPI_SUCCESS)
        rc = build(&s, sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, p);
    if (rc == MPI_SUCCESS) rc = ac_sched_run(&s);
    ac_sched_free(&s);
    return rc;
}

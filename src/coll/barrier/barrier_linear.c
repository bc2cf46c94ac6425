/*
 * barrier_linear.c - flat-tree barrier: every rank sends a zero-byte token to rank 0, which
 * waits for all of them and then sends a release token to every rank (the "linear" barrier of
 * Open MPI's basic component).
 *
 * Cost: 2 (p-1) * alpha through rank 0. Requirements: none; any process count.
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"

int ac_barrier_linear_schedule(ac_sched *s, const ac_params *p)
{
    (void)p;
    if (s->rank != 0) {
        ac_sched_send(s, NULL, 0, MPI_BYTE, 0);
        ac_sched_round(s);
        ac_sched_recv(s, NULL, 0, MPI_BYTE, 0);
        return ac_sched_error(s);
    }
    /* rank 0 posts its receives, then its releases (Irecv/Isend and Waitall, as ever) */
    for (int r = 1; r < s->size; r++)
        ac_sched_recv(s, NULL, 0, MPI_BYTE, r);
    ac_sched_round_posted(s);
    for (int r = 1; r < s->size; r++)
        ac_sched_send(s, NULL, 0, MPI_BYTE, r);
    ac_sched_round_posted(s);
    return ac_sched_error(s);
}

AC_BARRIER_BY_SCHEDULE(linear)

/*
 * reduce_linear_ordered.c - flat-tree reduce in rank order: every rank sends its vector to the
 * root, which receives them one at a time from rank p-1 down to rank 0 and folds each into the
 * result as its left operand, giving x0 op (x1 op (... op x(p-1))) for any op (MPICH's linear
 * reduce and Open MPI's basic_linear do the same).
 *
 * Cost: (p-1) * (alpha + n*beta + n*gamma), all at the root. A reference and a small-p choice.
 * Requirements: none; correct for non-commutative ops and any process count.
 * Written as a schedule (common/sched.h: each receive a round, the combinations local steps),
 * which the blocking call runs and nonblocking and persistent calls progress.
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"
#include "coll/common/sched.h"

int ac_reduce_linear_ordered_schedule(ac_sched *s, const void *sbuf, void *rbuf, int count,
                                      MPI_Datatype dtype, MPI_Op op, int root,
                                      const ac_params *p)
{
    int rank = s->rank, size = s->size;
    const void *mine = sbuf;
    char *incoming = NULL;
    (void)p;

    if (count == 0) return ac_sched_error(s);
    if (rank != root) {
        ac_sched_send(s, sbuf, count, dtype, root);
        ac_sched_round(s);
        return ac_sched_error(s);
    }
    if (sbuf == MPI_IN_PLACE) {
        /* rbuf accumulates the result: keep the root's own operand aside (at root p-1 it is
         * the first operand, in rbuf already) */
        char *saved = NULL;
        if (root != size - 1) {
            saved = ac_sched_tmp(s, count, dtype);
            ac_sched_copy(s, rbuf, count, dtype, saved, count, dtype);
        }
        mine = saved;
    }
    if (size > 1) incoming = ac_sched_tmp(s, count, dtype);

    for (int r = size - 1; r >= 0; r--) {
        const void *operand = mine;
        if (r != root) {
            void *into = r == size - 1 ? rbuf : incoming;
            ac_sched_recv(s, into, count, dtype, r);
            ac_sched_round(s);
            operand = into;
        }
        if (r == size - 1) {
            /* the first operand starts the result (in place at root p-1 it is there already) */
            if (operand != rbuf && sbuf != MPI_IN_PLACE)
                ac_sched_copy(s, operand, count, dtype, rbuf, count, dtype);
        } else {
            ac_sched_reduce(s, operand, rbuf, count, dtype, op);
        }
    }
    return ac_sched_error(s);
}

AC_REDUCE_BY_SCHEDULE(linear_ordered)

/*
 * reduce_scatter_pairwise.c - pairwise-exchange reduce-scatter (Thakur, Rabenseifner and Gropp
 * 2005: MPICH's algorithm for long messages and non-commutative ops).
 *
 * In step s = 1 .. p-1 rank r sends block (r+s) mod p of its input to rank r+s and receives
 * block r of rank r-s's input. The contributions arrive from ranks r-1, r-2, ..., 0, then
 * p-1, p-2, ..., r+1: two descending runs. Each run is folded as it arrives with the newcomer
 * as the left operand (low = x_s op low, high = x_s op high), and the result is
 * low op (x_r op high) = x_0 op x_1 op ... op x_(p-1): rank order, so any op is correct.
 *
 * Cost: (p-1) * alpha + ((p-1)/p) * n * beta + ((p-1)/p) * n * gamma (n = whole vector).
 * Bandwidth-optimal; a long-message algorithm. Requirements: none; any op, any process count.
 * MPI_IN_PLACE: the input is the whole vector in rbuf.
 * Written as a schedule (common/sched.h): each exchange a round, the folds its local steps; the
 * blocking call runs it, nonblocking and persistent calls progress it.
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"
#include "coll/common/sched.h"

#include <stdlib.h>

int ac_reduce_scatter_pairwise_schedule(ac_sched *s, const void *sbuf, void *rbuf,
                                        const int *rcounts, MPI_Datatype dtype, MPI_Op op,
                                        const ac_params *p)
{
    int rank = s->rank, size = s->size, mycount = rcounts[rank];
    MPI_Aint *displs, extent = ac_extent(dtype);
    const char *in = sbuf == MPI_IN_PLACE ? rbuf : sbuf;
    char *low, *high, *incoming;
    (void)p;

    displs = malloc((size_t)size * sizeof *displs);
    if (!displs) return MPI_ERR_NO_MEM;
    displs[0] = 0;
    for (int r = 1; r < size; r++) displs[r] = displs[r - 1] + rcounts[r - 1];
    /* NULL where mycount is 0 (nothing is moved or combined then) */
    low = ac_sched_tmp(s, mycount, dtype);
    high = ac_sched_tmp(s, mycount, dtype);
    incoming = ac_sched_tmp(s, mycount, dtype);

    for (int st = 1; st < size; st++) {
        int to = (rank + st) % size, from = (rank - st + size) % size;
        int first_of_run = st == 1 || from == size - 1;
        char *acc = from < rank ? low : high;
        char *into = first_of_run ? acc : incoming;
        ac_sched_send(s, in + displs[to] * extent, rcounts[to], dtype, to);
        ac_sched_recv(s, into, mycount, dtype, from);
        ac_sched_round(s);
        if (!first_of_run) ac_sched_reduce(s, incoming, acc, mycount, dtype, op);
    }

    /* result = low op (own op high); low is empty on rank 0, high on rank p-1 */
    if (rank < size - 1)
        ac_sched_reduce(s, in + displs[rank] * extent, high, mycount, dtype, op);
    else
        ac_sched_copy(s, in + displs[rank] * extent, mycount, dtype, high, mycount, dtype);
    if (rank > 0) ac_sched_reduce(s, low, high, mycount, dtype, op);
    ac_sched_copy(s, high, mycount, dtype, rbuf, mycount, dtype);
    free(displs);
    return ac_sched_error(s);
}

AC_REDUCE_SCATTER_BY_SCHEDULE(pairwise)

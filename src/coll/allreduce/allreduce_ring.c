/*
 * allreduce_ring.c - ring allreduce: a ring reduce-scatter followed by a ring all-gather (the
 * bandwidth-optimal "ring" allreduce; Patarasuk and Yuan 2009, Thakur, Rabenseifner and Gropp
 * 2005 for the ring all-gather).
 *
 * The vector is cut into p blocks (sizes differ by at most one element; blocks are empty when
 * count < p). Reduce-scatter: in step s (s = 0 .. p-2) rank r sends its partial block
 * (r-s-1) mod p to r+1 and combines the partial block (r-s-2) mod p received from r-1 into its
 * own; after p-1 steps rank r holds block r fully reduced. All-gather: in step s rank r forwards
 * block (r-s) mod p to r+1 and receives block (r-s-1) mod p from r-1, straight into the result.
 * Each block is reduced in exactly one place, so every rank gets identical bits.
 *
 * Cost: 2(p-1)*alpha + 2((p-1)/p)*n*beta + ((p-1)/p)*n*gamma. A large-message algorithm.
 * Requirements: commutative op (block b is combined in the order b+1, b+2, ..., b around the
 * ring). Any process count: the ring needs no power of two.
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"

#include <stdlib.h>

int ac_allreduce_ring_schedule(ac_sched *s, const void *sbuf, void *rbuf, int count,
                               MPI_Datatype dtype, MPI_Op op, const ac_params *p)
{
    int rank = s->rank, size = s->size;
    char *res = rbuf, *tmp;
    MPI_Aint extent = ac_extent(dtype);
    (void)p;

    if (count == 0) return MPI_SUCCESS;
    if (sbuf != MPI_IN_PLACE) ac_sched_copy(s, sbuf, count, dtype, rbuf, count, dtype);
    if (size == 1) return ac_sched_error(s);

    int *counts = malloc((size_t)size * sizeof *counts);
    int *displs = malloc((size_t)(size + 1) * sizeof *displs);
    if (!counts || !displs) {
        free(counts);
        free(displs);
        return MPI_ERR_NO_MEM;
    }
    ac_even_blocks(count, size, counts, displs);
    tmp = ac_sched_tmp(s, counts[0], dtype);
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;

    /* reduce-scatter: each step's received block is combined at the start of the next round */
    for (int st = 0; st < size - 1; st++) {
        int sb = (rank - st - 1 + 2 * size) % size;
        int rb = (rank - st - 2 + 2 * size) % size;
        ac_sched_send(s, res + displs[sb] * extent, counts[sb], dtype, next);
        ac_sched_recv(s, tmp, counts[rb], dtype, prev);
        ac_sched_round(s);
        ac_sched_reduce(s, tmp, res + displs[rb] * extent, counts[rb], dtype, op);
    }
    /* all-gather */
    for (int st = 0; st < size - 1; st++) {
        int sb = (rank - st + size) % size;
        int rb = (rank - st - 1 + size) % size;
        ac_sched_send(s, res + displs[sb] * extent, counts[sb], dtype, next);
        ac_sched_recv(s, res + displs[rb] * extent, counts[rb], dtype, prev);
        ac_sched_round(s);
    }
    free(counts);
    free(displs);
    return ac_sched_error(s);
}

AC_ALLREDUCE_BY_SCHEDULE(ring)

/*
 * barrier_dissemination.c - dissemination barrier (Hensgen, Finkel and Manber 1988; MPICH's
 * barrier). In round k = 0 .. ceil(log2 p)-1 rank r sends a zero-byte token to r + 2^k and
 * waits for one from r - 2^k (mod p). After the last round every rank has heard, directly or
 * transitively, from every other, so none leaves before all have entered.
 *
 * Cost: ceil(log2 p) * alpha. Requirements: none; any process count (no pairing needed).
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"

int ac_barrier_dissemination_schedule(ac_sched *s, const ac_params *p)
{
    int rank = s->rank, size = s->size;
    (void)p;
    for (int dist = 1; dist < size; dist <<= 1) {
        ac_sched_send(s, NULL, 0, MPI_BYTE, (rank + dist) % size);
        ac_sched_recv(s, NULL, 0, MPI_BYTE, (rank - dist + size) % size);
        ac_sched_round(s);
    }
    return ac_sched_error(s);
}

AC_BARRIER_BY_SCHEDULE(dissemination)

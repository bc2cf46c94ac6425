/*
 * barrier_recursive_doubling.c - recursive-doubling barrier (Thakur, Rabenseifner and Gropp
 * 2005). With p' the largest power of two <= p, ranks r >= p' first send a zero-byte token to
 * r - p'. The ranks below p' then exchange tokens with r XOR 2^k for k = 0 .. log2 p' - 1, and
 * finally release the extra ranks with a token to r + p'.
 *
 * Cost: log2 p' * alpha, plus 2 * alpha when p is not a power of two.
 * Requirements: none; any process count through the extra pre/post step.
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"

int ac_barrier_recursive_doubling_schedule(ac_sched *s, const ac_params *p)
{
    int rank = s->rank, size = s->size, pof2 = ac_pow2_floor(size);
    (void)p;
    if (rank >= pof2) {
        ac_sched_send(s, NULL, 0, MPI_BYTE, rank - pof2);
        ac_sched_round(s);
        ac_sched_recv(s, NULL, 0, MPI_BYTE, rank - pof2);
        return ac_sched_error(s);
    }
    if (rank + pof2 < size) {
        ac_sched_recv(s, NULL, 0, MPI_BYTE, rank + pof2);
        ac_sched_round(s);
    }
    for (int mask = 1; mask < pof2; mask <<= 1) {
        ac_sched_send(s, NULL, 0, MPI_BYTE, rank ^ mask);
        ac_sched_recv(s, NULL, 0, MPI_BYTE, rank ^ mask);
        ac_sched_round(s);
    }
    if (rank + pof2 < size) ac_sched_send(s, NULL, 0, MPI_BYTE, rank + pof2);
    return ac_sched_error(s);
}

AC_BARRIER_BY_SCHEDULE(recursive_doubling)

/*
 * allreduce_rabenseifner.c - Rabenseifner's allreduce: a reduce-scatter by recursive halving
 * followed by an all-gather of the reduced blocks with a pluggable all-gather (STAR-MPI section
 * 3.1, second type, "Rab1-x"; Rabenseifner 1997; Thakur, Rabenseifner and Gropp 2005).
 *
 * With p' the largest power of two <= p, the vector is cut into p' blocks (sizes differ by at
 * most one element; blocks are empty when count < p'). Recursive halving: in step k
 * (k = 0 .. lg(p')-1) each rank exchanges half of the blocks it still holds with the rank whose
 * renumbered rank differs in bit lg(p')-1-k, keeps the half its bit selects and combines the
 * partner's copy of that half into its own. Rank r' then holds block r' fully reduced. The
 * all-gather params->allgatherv (parameters params->inner) distributes the blocks in place.
 * Each block is reduced in exactly one place, so every rank gets identical bits.
 *
 * Cost: lg(p')*alpha + ((p'-1)/p')*n*(beta + gamma) for the reduce-scatter, plus the inner
 * all-gather of n bytes in total (ring: (p-1)*alpha + ((p'-1)/p')*n*beta). Non-power of two
 * adds alpha + n*(beta + gamma). A large-message algorithm.
 * Requirements: commutative op (halving combines ranks r and r + p'/2 first).
 * Non-power-of-two p (MPICH): with rem = p - p', the first 2*rem ranks pair up and each even one
 * sends its vector to the odd one above it and drops out of the reduce-scatter. The all-gather
 * then runs on the whole communicator with zero counts for the dropped ranks, so they receive
 * the result directly (no sub-communicator, no extra send back).
 * Defaults (params NULL or without an inner all-gather): the library's MPI_Allgatherv.
 * Written as a schedule (common/sched.h): each blocking call of the reduce-scatter a round, its
 * copies and combinations local steps, then the inner all-gather's (inner.c); the blocking call
 * runs it, nonblocking and persistent calls progress it where the all-gather is written as one.
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"
#include "coll/common/sched.h"

#include <stdlib.h>

/* Real rank of renumbered rank `newrank` (MPICH's non-power-of-two renumbering). */
static int real_rank(int newrank, int rem)
{
    return newrank < rem ? newrank * 2 + 1 : newrank + rem;
}

int ac_allreduce_rabenseifner_schedule(ac_sched *s, const void *sbuf, void *rbuf, int count,
                                       MPI_Datatype dtype, MPI_Op op, const ac_params *p)
{
    int rc = MPI_SUCCESS, rank = s->rank, size = s->size, pof2 = ac_pow2_floor(size);
    int rem = size - pof2, newrank, lo, hi;
    int *bdispl = NULL, *counts, *displs;
    char *res = rbuf, *tmp;
    MPI_Aint extent = ac_extent(dtype);

    if (count == 0) return ac_sched_error(s);
    bdispl = malloc((size_t)(pof2 + 1) * sizeof *bdispl);
    counts = ac_sched_tmp(s, size, MPI_INT);
    displs = ac_sched_tmp(s, size, MPI_INT);
    if (!bdispl) return MPI_ERR_NO_MEM;
    if (!counts || !displs) goto out;
    /* Block b is [bdispl[b], bdispl[b+1]): count split among the p' survivors. */
    ac_even_blocks(count, pof2, NULL, bdispl);
    for (int r = 0; r < size; r++) {
        int dropped = r < 2 * rem && r % 2 == 0;
        int nr = r < 2 * rem ? r / 2 : r - rem;
        counts[r] = dropped ? 0 : bdispl[nr + 1] - bdispl[nr];
        displs[r] = dropped ? 0 : bdispl[nr];
    }

    if (rank < 2 * rem && rank % 2 == 0) {
        ac_sched_send(s, sbuf == MPI_IN_PLACE ? rbuf : sbuf, count, dtype, rank + 1);
        ac_sched_round(s);
    } else {
        tmp = ac_sched_tmp(s, count, dtype);
        if (!tmp) goto out;
        if (sbuf != MPI_IN_PLACE) ac_sched_copy(s, sbuf, count, dtype, rbuf, count, dtype);
        if (rank < 2 * rem) {
            ac_sched_recv(s, tmp, count, dtype, rank - 1);
            ac_sched_round(s);
            ac_sched_reduce(s, tmp, res, count, dtype, op);
            newrank = rank / 2;
        } else {
            newrank = rank - rem;
        }
        /* Recursive halving over the block range [lo, hi) still held. */
        lo = 0;
        hi = pof2;
        for (int mask = pof2 / 2; mask >= 1; mask >>= 1) {
            int dst = real_rank(newrank ^ mask, rem);
            int mid = lo + mask;
            int keep_lo = newrank & mask ? mid : lo, keep_hi = newrank & mask ? hi : mid;
            int send_lo = newrank & mask ? lo : mid, send_hi = newrank & mask ? mid : hi;
            MPI_Aint keep_off = bdispl[keep_lo] * extent;
            int keep_count = bdispl[keep_hi] - bdispl[keep_lo];
            ac_sched_send(s, res + bdispl[send_lo] * extent, bdispl[send_hi] - bdispl[send_lo],
                          dtype, dst);
            ac_sched_recv(s, tmp + keep_off, keep_count, dtype, dst);
            ac_sched_round(s);
            ac_sched_reduce(s, tmp + keep_off, res + keep_off, keep_count, dtype, op);
            lo = keep_lo;
            hi = keep_hi;
        }
    }
    rc = ac_allreduce_inner_allgatherv(s, p, MPI_IN_PLACE, 0, dtype, rbuf, counts, displs, dtype);
out:
    free(bdispl);
    return rc != MPI_SUCCESS ? rc : ac_sched_error(s);
}

AC_ALLREDUCE_BY_SCHEDULE(rabenseifner)

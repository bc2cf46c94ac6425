/*
 * reduce_rabenseifner.c - Rabenseifner's reduce: a reduce-scatter by recursive halving, then a
 * binomial gather of the reduced blocks to the root (Rabenseifner 1997/2004; Thakur,
 * Rabenseifner and Gropp 2005, MPICH's reduce_scatter_gather).
 *
 * With p' the largest power of two <= p, the vector is cut into p' blocks of whole elements
 * (sizes differ by at most one element; blocks are empty when count < p').
 *   Non-power of two: with rem = p - p', ranks 2i and 2i+1 (i < rem) pair up; one of them sends
 *   its vector to the other, which combines x_2i op x_2i+1 and goes on as virtual rank i; ranks
 *   r >= 2 rem go on as r - rem. The root always goes on (it is the survivor of its pair), so
 *   the result needs no extra hop. Virtual ranks in order stand for runs of real ranks in order.
 *   Recursive halving, distance 1, 2, 4, ... p'/2: partners v and v^d exchange half of the block
 *   range they share; the one with bit d clear keeps the lower half. Each already holds the
 *   partial result over an aligned run of d virtual ranks, the two runs adjacent, and the lower
 *   run's partial is the left operand: operands stay in rank order, so any op works, commutative
 *   or not. After lg p' steps virtual rank v holds one block fully reduced.
 *   Gather: the halving steps in reverse (distance p'/2 down to 1), relative to the root's
 *   virtual rank: the partner whose relative rank has bit d set sends everything it holds (a
 *   contiguous block range, the half it kept at that step) and leaves. The root receives
 *   straight into its receive buffer.
 * Each element is combined once per level, in one place.
 *
 * Cost: non-power of two alpha + n (beta + gamma); halving lg p' alpha + ((p'-1)/p') n
 * (beta + gamma); gather lg p' alpha + ((p'-1)/p') n beta. A large-message algorithm (compare
 * the binomial tree's lg p (alpha + n beta + n gamma)).
 * Requirements: none: any op (operand order kept), any count (empty blocks), any process
 * count. MPI_IN_PLACE at the root. Memory: two vectors per surviving rank.
 * Written as a schedule (common/sched.h: each blocking call of the exchanges a round, the
 * copies and combinations local steps), which the blocking call runs and nonblocking and
 * persistent calls progress.
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"
#include "coll/common/sched.h"

#include <stdlib.h>

/* The rank that goes on for pair i (ranks 2i, 2i+1): the root if it is one of them. */
static int survivor(int i, int root)
{
    return root == 2 * i ? 2 * i : 2 * i + 1;
}

/* Real rank of virtual rank v. */
static int real_rank(int v, int rem, int root)
{
    return v < rem ? survivor(v, root) : v + rem;
}

int ac_reduce_rabenseifner_schedule(ac_sched *s, const void *sbuf, void *rbuf, int count,
                                    MPI_Datatype dtype, MPI_Op op, int root, const ac_params *p)
{
    int rc = MPI_SUCCESS, rank = s->rank, size = s->size, pof2 = ac_pow2_floor(size);
    int rem = size - pof2, steps, vrank, vroot, lo = 0, hi;
    int *bdispl = NULL, *keep_lo = NULL, *keep_hi = NULL;
    const void *own = sbuf == MPI_IN_PLACE ? rbuf : sbuf;
    MPI_Aint extent = ac_extent(dtype);
    char *res, *tmp;
    (void)p;

    if (count == 0) return ac_sched_error(s);
    steps = ac_ceil_log2(pof2);

    /* Pairs below 2 rem: the one that is not the survivor sends its vector and is done. */
    if (rank < 2 * rem && rank != survivor(rank / 2, root)) {
        ac_sched_send(s, own, count, dtype, survivor(rank / 2, root));
        ac_sched_round(s);
        return ac_sched_error(s);
    }
    vrank = rank < 2 * rem ? rank / 2 : rank - rem;
    vroot = root < 2 * rem ? root / 2 : root - rem;

    bdispl = malloc((size_t)(pof2 + 1) * sizeof *bdispl);
    keep_lo = malloc((size_t)(steps + 1) * sizeof *keep_lo);
    keep_hi = malloc((size_t)(steps + 1) * sizeof *keep_hi);
    if (!bdispl || !keep_lo || !keep_hi) {
        rc = MPI_ERR_NO_MEM;
        goto out;
    }
    /* Block b is elements [bdispl[b], bdispl[b+1]). */
    ac_even_blocks(count, pof2, NULL, bdispl);
    res = ac_sched_tmp(s, count, dtype);
    tmp = ac_sched_tmp(s, count, dtype);
    if (!res || !tmp) goto out;
    ac_sched_copy(s, own, count, dtype, res, count, dtype);

    if (rank < 2 * rem) {
        /* x_2i op x_2i+1: the even rank's vector is the left operand */
        int partner = rank ^ 1;
        ac_sched_recv(s, tmp, count, dtype, partner);
        ac_sched_round(s);
        ac_sched_reduce_ordered(s, &res, &tmp, 0, partner < rank, count, dtype, op);
    }

    /* Recursive halving over the block range [lo, hi), distances 1, 2, ..., p'/2; step k
     * keeps [keep_lo[k], keep_hi[k]) (step 0: everything). */
    hi = pof2;
    keep_lo[0] = lo;
    keep_hi[0] = hi;
    for (int k = 1, d = 1; d < pof2; k++, d <<= 1) {
        int partner = real_rank(vrank ^ d, rem, root), mid = lo + (hi - lo) / 2, upper = vrank & d;
        int klo = upper ? mid : lo, khi = upper ? hi : mid, slo = upper ? lo : mid,
            shi = upper ? mid : hi;
        MPI_Aint koff = bdispl[klo] * extent;
        int kcount = bdispl[khi] - bdispl[klo];
        ac_sched_send(s, res + bdispl[slo] * extent, bdispl[shi] - bdispl[slo], dtype, partner);
        ac_sched_recv(s, tmp + koff, kcount, dtype, partner);
        ac_sched_round(s);
        /* upper: the partner's run is below ours (partner op mine); else mine op partner,
         * which lands in tmp, and the buffers swap roles */
        ac_sched_reduce_ordered(s, &res, &tmp, koff, upper, kcount, dtype, op);
        keep_lo[k] = lo = klo;
        keep_hi[k] = hi = khi;
    }

    /* Gather to the root, the halving steps in reverse: at distance d the partner whose
     * relative rank has bit d set sends what it holds (the half it kept at that step). */
    if (rank == root) {
        ac_sched_copy(s, res + bdispl[lo] * extent, bdispl[hi] - bdispl[lo], dtype,
                      ac_at(rbuf, bdispl[lo] * extent), bdispl[hi] - bdispl[lo], dtype);
        res = rbuf;
    }
    for (int k = steps, d = pof2 / 2; d >= 1; k--, d >>= 1) {
        int rel = vrank ^ vroot, partner = real_rank(vrank ^ d, rem, root);
        if (rel >= 2 * d) continue; /* sent already, at a larger distance */
        if (rel & d) {
            ac_sched_send(s, res + bdispl[keep_lo[k]] * extent,
                          bdispl[keep_hi[k]] - bdispl[keep_lo[k]], dtype, partner);
            ac_sched_round(s);
            break;
        }
        /* the partner kept the other half of the range we shared before step k */
        int lower = !(vrank & d); /* we kept the lower half at step k */
        int plo = lower ? keep_hi[k] : keep_lo[k - 1], phi = lower ? keep_hi[k - 1] : keep_lo[k];
        char *at = res == rbuf ? ac_at(rbuf, bdispl[plo] * extent) : res + bdispl[plo] * extent;
        ac_sched_recv(s, at, bdispl[phi] - bdispl[plo], dtype, partner);
        ac_sched_round(s);
    }
out:
    free(bdispl);
    free(keep_lo);
    free(keep_hi);
    return rc != MPI_SUCCESS ? rc : ac_sched_error(s);
}

AC_REDUCE_BY_SCHEDULE(rabenseifner)

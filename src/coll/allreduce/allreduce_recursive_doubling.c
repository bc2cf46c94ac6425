/*
 * allreduce_recursive_doubling.c - recursive doubling allreduce (MPICH; Thakur, Rabenseifner and
 * Gropp 2005).
 *
 * In step k (k = 0 .. lg(p')-1) each rank exchanges its whole partial result with the rank whose
 * (renumbered) rank differs in bit k and combines the two. The partial result of the lower rank
 * is always the left operand and both partners compute the same combination, so the op is
 * applied in rank order (non-commutative ops are correct) and every rank gets identical bits.
 *
 * Cost: lg(p)*(alpha + n*beta + n*gamma); non-power of two adds 2*(alpha + n*beta) + n*gamma.
 * Latency-optimal; a small-message algorithm. Requirements: none.
 * Non-power-of-two p (MPICH): with p' the largest power of two <= p and rem = p - p', the first
 * 2*rem ranks pair up before the exchange: each even one sends its vector to the odd one above
 * it, which combines them (even rank left) and takes part in the exchange; afterwards the odd
 * ranks send the result back to their even partners.
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"

int ac_allreduce_recursive_doubling_schedule(ac_sched *s, const void *sbuf, void *rbuf,
                                             int count, MPI_Datatype dtype, MPI_Op op,
                                             const ac_params *p)
{
    int rank = s->rank, size = s->size, pof2 = ac_pow2_floor(size), rem = size - pof2, newrank;
    char *acc = rbuf, *other;
    (void)p;

    if (count == 0) return MPI_SUCCESS;
    if (rank < 2 * rem && rank % 2 == 0) {
        /* Paired even rank: hand the input to rank+1, get the result back at the end. */
        ac_sched_send(s, sbuf == MPI_IN_PLACE ? rbuf : sbuf, count, dtype, rank + 1);
        ac_sched_round(s);
        ac_sched_recv(s, rbuf, count, dtype, rank + 1);
        return ac_sched_error(s);
    }

    other = ac_sched_tmp(s, count, dtype);
    if (!other) return ac_sched_error(s);
    if (sbuf != MPI_IN_PLACE) ac_sched_copy(s, sbuf, count, dtype, rbuf, count, dtype);
    if (rank < 2 * rem) {
        ac_sched_recv(s, other, count, dtype, rank - 1);
        ac_sched_round(s);
        ac_sched_reduce(s, other, acc, count, dtype, op);
        newrank = rank / 2;
    } else {
        newrank = rank - rem;
    }

    /* `acc` holds the partial result, `other` receives the partner's; they swap when the
     * result of a step lands in `other` (the partner is higher: acc op other). */
    for (int mask = 1; mask < pof2; mask <<= 1) {
        int newdst = newrank ^ mask;
        int dst = newdst < rem ? newdst * 2 + 1 : newdst + rem;
        ac_sched_send(s, acc, count, dtype, dst);
        ac_sched_recv(s, other, count, dtype, dst);
        ac_sched_round(s);
        ac_sched_reduce_ordered(s, &acc, &other, 0, dst < rank, count, dtype, op);
    }
    if (acc != (char *)rbuf) ac_sched_copy(s, acc, count, dtype, rbuf, count, dtype);
    if (rank < 2 * rem) ac_sched_send(s, rbuf, count, dtype, rank - 1);
    return ac_sched_error(s);
}

AC_ALLREDUCE_BY_SCHEDULE(recursive_doubling)

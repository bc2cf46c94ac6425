/*
 * allgatherv_pair.c - pairwise-exchange all-gather (STAR-MPI section 3.1, "pair", "pair with
 * light barrier", "pair with MPI barrier"): p-1 steps; in step i rank r exchanges its own block
 * with rank r XOR i, so every rank talks to exactly one partner per step. Blocks move in place
 * in rbuf with rtype. params->sync adds a zero-byte exchange with the next step's partner
 * (LIGHT) or an MPI barrier (BARRIER) between steps.
 *
 * Cost: (p-1) alpha + (p-1) n beta for n-byte blocks, plus (p-2) zero-byte exchanges or
 * barriers with synchronisation.
 * Requirements: power-of-two process count (r XOR i must be a rank); other sizes return
 * MPI_ERR_SIZE (the registry declares AC_REQ_POWER_OF_TWO, so selection never runs it there).
 * Source: STAR-MPI (Faraj, Yuan, Lowenthal 2006) section 3.1, after its all-to-all "pair".
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"
#include "coll/common/sched.h"

int ac_allgatherv_pair_schedule(ac_sched *s, const void *sbuf, int scount, MPI_Datatype stype,
                                void *rbuf, const int *rcounts, const int *displs,
                                MPI_Datatype rtype, const ac_params *p)
{
    int rank = s->rank, size = s->size;
    ac_sync sync = p ? p->sync : AC_SYNC_NONE;
    MPI_Aint ext = ac_extent(rtype);
    char *own = ac_at(rbuf, (MPI_Aint)displs[rank] * ext);
    if (!ac_is_pow2(size)) return MPI_ERR_SIZE;
    if (sbuf != MPI_IN_PLACE) /* the own block, before the first exchange sends it */
        ac_sched_copy(s, sbuf, scount, stype, own, rcounts[rank], rtype);
    for (int i = 1; i < size; i++) {
        int partner = rank ^ i;
        if (i > 1) ac_sched_sync_phase(s, sync, partner, partner);
        ac_sched_send(s, own, rcounts[rank], rtype, partner);
        ac_sched_recv(s, ac_at(rbuf, (MPI_Aint)displs[partner] * ext), rcounts[partner], rtype,
                      partner);
        ac_sched_round(s);
    }
    return ac_sched_error(s);
}

AC_ALLGATHERV_BY_SCHEDULE(pair)

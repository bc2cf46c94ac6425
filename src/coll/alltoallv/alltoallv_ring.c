/*
 * alltoallv_ring.c - all-to-all in p-1 phases along a logical ring.
 *
 * In phase i (1 <= i < p) rank r sends its block for (r+i) mod p and receives the block of
 * (r-i) mod p with one sendrecv. Between phases params->sync adds nothing (AC_SYNC_NONE), a
 * light barrier (AC_SYNC_LIGHT: a zero-byte "ready to receive" token to the rank that sends to
 * us in the next phase, and from the rank we send to, so nobody sends to a rank still busy with
 * the previous phase) or MPI_Barrier (AC_SYNC_BARRIER: lock-step phases).
 * Zero-byte blocks are not sent (type signatures match, so both sides agree).
 * Cost: (p-1) alpha + (p-1) n beta for blocks of n bytes, plus (p-2) light or full barriers.
 * Requirements: none; any process count. MPI_IN_PLACE: sends from a copy of the outgoing blocks.
 * Also the inner all-to-all of the allreduce "reduce-scatter by all-to-all" family (uneven
 * counts, zeros included).
 * Source: STAR-MPI (Faraj, Yuan, Lowenthal, ICS 2006) section 3.1, "Ring", "Ring with light
 * barrier", "Ring with MPI barrier".
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"
#include "coll/common/sched.h"

static void ring_rounds(ac_sched *s, const ac_alltoallv_frame *f, const ac_params *p)
{
    ac_sync sync = p ? p->sync : AC_SYNC_NONE;
    for (int i = 1; i < f->size; i++) {
        int to = (f->rank + i) % f->size, from = (f->rank - i + f->size) % f->size;
        if (i > 1) ac_sched_sync_phase(s, sync, from, to);
        ac_alltoallv_sched_exchange(s, f, to, from);
    }
}

AC_ALLTOALLV_ENGINE(ring)

/*
 * alltoallv_pair.c - all-to-all by pairwise exchange: in phase i rank r exchanges with r XOR i.
 *
 * Each phase is one sendrecv with a single partner, so every rank talks to exactly one other
 * rank per phase (less coordination than the ring). Between phases params->sync adds nothing
 * (AC_SYNC_NONE), a light barrier (AC_SYNC_LIGHT: a zero-byte token exchanged with the next
 * phase's partner) or MPI_Barrier (AC_SYNC_BARRIER). Zero-byte blocks are not sent.
 * Cost (p a power of two): (p-1) alpha + (p-1) n beta for blocks of n bytes, plus (p-2)
 * barriers. Non-power-of-two p: the phases of the next power of two P are run (P-1 phases) and
 * a rank whose partner r XOR i is >= p idles in that phase; each pair still meets exactly once.
 * This is a generalisation: STAR-MPI defines the pair algorithm for powers of two only.
 * MPI_IN_PLACE: sends from a copy of the outgoing blocks.
 * Also the inner all-to-all of the allreduce "reduce-scatter by all-to-all" family.
 * Source: STAR-MPI (Faraj, Yuan, Lowenthal, ICS 2006) section 3.1, "Pair", "Pair with light
 * barrier", "Pair with MPI barrier".
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"
#include "coll/common/sched.h"

static void pair_rounds(ac_sched *s, const ac_alltoallv_frame *f, const ac_params *p)
{
    ac_sync sync = p ? p->sync : AC_SYNC_NONE;
    int phases = 1 << ac_ceil_log2(f->size);
    for (int i = 1; i < phases; i++) {
        int peer = f->rank ^ i;
        if (peer >= f->size) peer = MPI_PROC_NULL; /* idle in this phase, but synchronised */
        if (i > 1) ac_sched_sync_phase(s, sync, peer, peer);
        if (peer != MPI_PROC_NULL) ac_alltoallv_sched_exchange(s, f, peer, peer);
    }
}

AC_ALLTOALLV_ENGINE(pair)

/*
 * allgatherv_ring.c - ring all-gather (STAR-MPI section 3.1, "ring", "ring with light
 * barrier", "ring with MPI barrier"): p-1 steps; in step i rank j sends block (j-i) mod p to
 * j+1 and receives block (j-i-1) mod p from j-1, forwarding what it received in the step
 * before. Blocks move in place in rbuf with rtype. params->sync adds a zero-byte token from
 * each receiver to its sender (LIGHT) or an MPI barrier (BARRIER) between steps, so that steps
 * run in lock step and contention between steps is removed.
 *
 * Cost: (p-1) alpha + (p-1) n beta for n-byte blocks (bandwidth optimal; each rank talks to
 * two neighbours only), plus (p-2) zero-byte exchanges or barriers with synchronisation.
 * Requirements: none; any process count (non-powers of two need nothing special).
 * Source: STAR-MPI (Faraj, Yuan, Lowenthal 2006) section 3.1; Thakur, Rabenseifner, Gropp 2005.
 */
#include "coll/algorithms.h"
#include "coll/common/sched.h"

int ac_allgatherv_ring_schedule(ac_sched *s, const void *sbuf, int scount, MPI_Datatype stype,
                                void *rbuf, const int *rcounts, const int *displs,
                                MPI_Datatype rtype, const ac_params *p)
{
    return ac_allgatherv_logical_ring_schedule(s, sbuf, scount, stype, rbuf, rcounts, displs,
                                               rtype, NULL, p ? p->sync : AC_SYNC_NONE);
}

AC_ALLGATHERV_BY_SCHEDULE(ring)

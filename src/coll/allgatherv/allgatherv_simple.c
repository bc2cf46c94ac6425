/*
 * allgatherv_simple.c - simple all-gather (STAR-MPI section 3.1, "simple"): every rank posts
 * all its receives and all its sends at once and waits for them all. Rank i sends its block to
 * i+1, i+2, ..., i+p-1 (mod p) in that order and receives from i-1, i-2, ... in the matching
 * order, directly between the rbuf blocks with rtype.
 *
 * Cost: (p-1) alpha + (p-1) n beta per rank for n-byte blocks, all messages in flight at once
 * (latency overlapped, but node and link contention are left to the network).
 * Requirements: none; any process count.
 * Source: STAR-MPI (Faraj, Yuan, Lowenthal 2006) section 3.1, after its all-to-all "simple".
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"
#include "coll/common/sched.h"

int ac_allgatherv_simple_schedule(ac_sched *s, const void *sbuf, int scount, MPI_Datatype stype,
                                  void *rbuf, const int *rcounts, const int *displs,
                                  MPI_Datatype rtype, const ac_params *p)
{
    int rank = s->rank, size = s->size;
    MPI_Aint ext = ac_extent(rtype);
    char *own = ac_at(rbuf, (MPI_Aint)displs[rank] * ext);
    (void)p;
    if (sbuf != MPI_IN_PLACE) /* the own block, before the messages that send it */
        ac_sched_copy(s, sbuf, scount, stype, own, rcounts[rank], rtype);
    for (int i = 1; i < size; i++) {
        int src = (rank - i + size) % size;
        ac_sched_recv(s, ac_at(rbuf, (MPI_Aint)displs[src] * ext), rcounts[src], rtype, src);
    }
    for (int i = 1; i < size; i++)
        ac_sched_send(s, own, rcounts[rank], rtype, (rank + i) % size);
    ac_sched_round_posted(s); /* MPI_Irecv, MPI_Isend, then MPI_Waitall, whatever their number */
    return ac_sched_error(s);
}

AC_ALLGATHERV_BY_SCHEDULE(simple)

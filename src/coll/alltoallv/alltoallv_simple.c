/*
 * alltoallv_simple.c - all-to-all by posting every receive and every send at once.
 *
 * Rank i posts its receives from i-1, i-2, ..., and its sends to i+1, i+2, ..., i+p-1 (mod p),
 * copies its own block locally and waits for everything. Zero-byte blocks are not sent (type
 * signatures match, so sender and receiver agree on which ones are empty).
 * Cost: (p-1) alpha + (p-1) n beta for blocks of n bytes, all messages in flight together
 * (no control over contention). Requirements: none; any process count.
 * MPI_IN_PLACE: the outgoing blocks are copied out of the receive buffer first.
 * Source: STAR-MPI (Faraj, Yuan, Lowenthal, ICS 2006) section 3.1, "Simple".
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"
#include "coll/common/sched.h"

static void simple_rounds(ac_sched *s, const ac_alltoallv_frame *f, const ac_params *p)
{
    (void)p;
    const ac_alltoallv_args *a = &f->call;
    for (int i = 1; i < f->size; i++) {
        int from = (f->rank - i + f->size) % f->size;
        if (a->rcounts[from] == 0 || f->rsize == 0) continue;
        ac_sched_recv(s, ac_at(a->rbuf, a->rdispls[from] * f->rext), a->rcounts[from], a->rtype,
                      from);
    }
    for (int i = 1; i < f->size; i++) {
        int to = (f->rank + i) % f->size;
        if (a->scounts[to] == 0 || f->ssize == 0) continue;
        ac_sched_send(s, ac_at(a->sbuf, a->sdispls[to] * f->sext), a->scounts[to],
                      a->stype, to);
    }
    ac_sched_round_posted(s); /* one message too: MPI_Irecv or MPI_Isend, then MPI_Waitall */
}

AC_ALLTOALLV_ENGINE(simple)

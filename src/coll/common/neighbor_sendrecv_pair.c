/*
 * neighbor_sendrecv_pair.c - sendrecv_pair: one neighbour pair at a time. For each dimension d
 * of a Cartesian communicator, two shifts, each a round of one send and one receive (the
 * blocking call's MPI_Sendrecv): every process sends its block for the positive side and
 * receives from its negative side, then the reverse. Every process runs the same shift at the
 * same step, so the blocking calls cannot wait on each other in a cycle; where a periodic
 * dimension has one or two processes, the two shifts' messages between the pair are told
 * apart by their order (neighbor.h).
 * Cost: 2 x ndims steps of alpha + block / bandwidth, one after the other.
 * Requirements: a Cartesian communicator (AC_REQ_CARTESIAN: a distributed graph has no pairs
 * whose blocking order is known to be free of cycles). ADCL's Sendrecv_pair.
 */
#include "coll/common/neighbor.h"
#include "coll/common/sched.h"

/* Out-edge `to` and in-edge `from` in one round. */
static void shift(ac_sched *s, const ac_neighbors *nb, int to, int from)
{
    const ac_neighbor_block *out = &nb->send[to], *in = &nb->recv[from];
    ac_sched_send(s, out->buf, out->count, out->type, nb->dests[to]);
    ac_sched_recv(s, in->buf, in->count, in->type, nb->sources[from]);
    ac_sched_round(s);
}

int ac_neighbor_sendrecv_pair_schedule(ac_sched *s, const ac_neighbors *nb)
{
    for (int d = 0; 2 * d + 1 < nb->outdegree; d++) {
        shift(s, nb, 2 * d + 1, 2 * d); /* positive shift */
        shift(s, nb, 2 * d, 2 * d + 1); /* negative shift */
    }
    return ac_sched_error(s);
}

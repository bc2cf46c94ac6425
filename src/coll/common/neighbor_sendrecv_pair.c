/*
 * neighbor_sendrecv_pair.c - sendrecv_pair: one neighbour pair at a time, blocking. For each
 * dimension d of a Cartesian communicator, two MPI_Sendrecv shifts: every process sends its
 * block for the positive side and receives from its negative side, then the reverse. Every
 * process runs the same shift at the same step, so the blocking calls cannot wait on each
 * other in a cycle; tags keep the two shifts of a periodic dimension of one or two processes
 * apart (neighbor.h).
 * Cost: 2 x ndims steps of alpha + block / bandwidth, one after the other.
 * Requirements: a Cartesian communicator (AC_REQ_CARTESIAN: a distributed graph has no pairs
 * whose blocking order is known to be free of cycles). ADCL's Sendrecv_pair.
 */
#include "coll/common/neighbor.h"

/* Out-edge `to` and in-edge `from` in one MPI_Sendrecv. */
static int shift(ac_neighbors *nb, int to, int from, MPI_Comm comm)
{
    const ac_neighbor_block *s = &nb->send[to], *r = &nb->recv[from];
    return PMPI_Sendrecv(s->buf, s->count, s->type, nb->dests[to], nb->send_tags[to], r->buf,
                         r->count, r->type, nb->sources[from], nb->recv_tags[from], comm,
                         MPI_STATUS_IGNORE);
}

int ac_neighbor_sendrecv_pair(ac_neighbors *nb, MPI_Comm comm)
{
    int rc = MPI_SUCCESS;
    for (int d = 0; 2 * d + 1 < nb->outdegree && rc == MPI_SUCCESS; d++) {
        rc = shift(nb, 2 * d + 1, 2 * d, comm);                        /* positive shift */
        if (rc == MPI_SUCCESS) rc = shift(nb, 2 * d, 2 * d + 1, comm); /* negative shift */
    }
    return rc;
}

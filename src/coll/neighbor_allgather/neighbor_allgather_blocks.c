/*
 * neighbor_allgather_blocks.c - the layer's MPI_Neighbor_allgather: the call as one block per edge
 * (every out-neighbour gets the same block; in-block j lies j x rcount x extent(rtype)
 * after rbuf), moved by the engine the registry entry names
 * (params->exchange_schedule: isend_irecv, sendrecv_pair; params->exchange:
 * win_fence_put; src/coll/common/neighbor.h).
 * Cost and requirements: the engine's. The neighbours come from the communicator's cache.
 * The blocking call runs it (ac_neighbor_exchange: the schedule run to completion, or the
 * one-sided engine); nonblocking and persistent calls progress its schedule
 * (ac_neighbor_allgather_blocks_schedule, built from the same description).
 */
#include "coll/algorithms.h"
#include "coll/common/neighbor.h"
#include "coll/common/sched.h"

/* The call's blocks, into nb's. */
static int describe(ac_neighbors *nb, const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                    int rcount, MPI_Datatype rtype)
{
    for (int k = 0; k < nb->outdegree; k++) /* the one block to every out-neighbour */
        nb->send[k] = (ac_neighbor_block){(void *)sbuf, scount, stype};
    return ac_neighbor_blocks(nb->recv, nb->indegree, rbuf, rtype, rcount, NULL, NULL);
}

int ac_neighbor_allgather_blocks(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                                 int rcount, MPI_Datatype rtype, MPI_Comm comm, const ac_params *p)
{
    ac_neighbors *nb;
    int rc = ac_neighbors_get(comm, &nb);
    if (rc == MPI_SUCCESS) rc = describe(nb, sbuf, scount, stype, rbuf, rcount, rtype);
    return rc != MPI_SUCCESS ? rc : ac_neighbor_exchange(nb, comm, p);
}

int ac_neighbor_allgather_blocks_schedule(ac_sched *s, const void *sbuf, int scount,
                                          MPI_Datatype stype, void *rbuf, int rcount,
                                          MPI_Datatype rtype, const ac_params *p)
{
    ac_neighbors *nb;
    int rc = ac_neighbors_lists(s->comm, &nb);
    if (rc == MPI_SUCCESS) rc = describe(nb, sbuf, scount, stype, rbuf, rcount, rtype);
    return rc != MPI_SUCCESS ? rc : p->exchange_schedule(s, nb);
}

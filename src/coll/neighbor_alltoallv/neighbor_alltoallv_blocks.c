/*
 * neighbor_alltoallv_blocks.c - the layer's MPI_Neighbor_alltoallv: the call as one block per edge
 * (out-block k is scounts[k] elements at sdispls[k] x extent(stype), in-block j
 * rcounts[j] at rdispls[j] x extent(rtype)), moved by the engine the registry entry names
 * (params->exchange_schedule: isend_irecv, sendrecv_pair; params->exchange:
 * win_fence_put; src/coll/common/neighbor.h).
 * Cost and requirements: the engine's. The neighbours come from the communicator's cache.
 * The blocking call runs it (ac_neighbor_exchange: the schedule run to completion, or the
 * one-sided engine); nonblocking and persistent calls progress its schedule
 * (ac_neighbor_alltoallv_blocks_schedule, built from the same description).
 */
#include "coll/algorithms.h"
#include "coll/common/neighbor.h"
#include "coll/common/sched.h"

/* The call's blocks, into nb's. */
static int describe(ac_neighbors *nb, const void *sbuf, const int *scounts, const int *sdispls,
                    MPI_Datatype stype, void *rbuf, const int *rcounts, const int *rdispls,
                    MPI_Datatype rtype)
{
    int rc = ac_neighbor_blocks(nb->send, nb->outdegree, sbuf, stype, 0, scounts, sdispls);
    if (rc != MPI_SUCCESS) return rc;
    return ac_neighbor_blocks(nb->recv, nb->indegree, rbuf, rtype, 0, rcounts, rdispls);
}

int ac_neighbor_alltoallv_blocks(const void *sbuf, const int *scounts, const int *sdispls,
                                 MPI_Datatype stype, void *rbuf, const int *rcounts,
                                 const int *rdispls, MPI_Datatype rtype, MPI_Comm comm,
                                 const ac_params *p)
{
    ac_neighbors *nb;
    int rc = ac_neighbors_get(comm, &nb);
    if (rc == MPI_SUCCESS)
        rc = describe(nb, sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype);
    return rc != MPI_SUCCESS ? rc : ac_neighbor_exchange(nb, comm, p);
}

int ac_neighbor_alltoallv_blocks_schedule(ac_sched *s, const void *sbuf, const int *scounts,
                                          const int *sdispls, MPI_Datatype stype, void *rbuf,
                                          const int *rcounts, const int *rdispls,
                                          MPI_Datatype rtype, const ac_params *p)
{
    ac_neighbors *nb;
    int rc = ac_neighbors_lists(s->comm, &nb);
    if (rc == MPI_SUCCESS)
        rc = describe(nb, sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype);
    return rc != MPI_SUCCESS ? rc : p->exchange_schedule(s, nb);
}

/*
 * neighbor_alltoallw_blocks.c - the layer's MPI_Neighbor_alltoallw: the call as one block per edge
 * (out-block k is scounts[k] x stypes[k] at sdispls[k] bytes, in-block j
 * rcounts[j] x rtypes[j] at rdispls[j] bytes), moved by the engine the registry entry names
 * (params->exchange_schedule: isend_irecv, sendrecv_pair; params->exchange:
 * win_fence_put; src/coll/common/neighbor.h).
 * Cost and requirements: the engine's. The neighbours come from the communicator's cache.
 * The blocking call runs it (ac_neighbor_exchange: the schedule run to completion, or the
 * one-sided engine); nonblocking and persistent calls progress its schedule
 * (ac_neighbor_alltoallw_blocks_schedule, built from the same description).
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"
#include "coll/common/neighbor.h"
#include "coll/common/sched.h"

/* The call's blocks, into nb's. */
static int describe(ac_neighbors *nb, const void *sbuf, const int *scounts, const MPI_Aint *sdispls,
                    const MPI_Datatype *stypes, void *rbuf, const int *rcounts,
                    const MPI_Aint *rdispls, const MPI_Datatype *rtypes)
{
    for (int k = 0; k < nb->outdegree; k++)
        nb->send[k] = (ac_neighbor_block){ac_at(sbuf, sdispls[k]), scounts[k], stypes[k]};
    for (int j = 0; j < nb->indegree; j++)
        nb->recv[j] = (ac_neighbor_block){ac_at(rbuf, rdispls[j]), rcounts[j], rtypes[j]};
    return MPI_SUCCESS;
}

int ac_neighbor_alltoallw_blocks(const void *sbuf, const int *scounts, const MPI_Aint *sdispls,
                                 const MPI_Datatype *stypes, void *rbuf, const int *rcounts,
                                 const MPI_Aint *rdispls, const MPI_Datatype *rtypes, MPI_Comm comm,
                                 const ac_params *p)
{
    ac_neighbors *nb;
    int rc = ac_neighbors_get(comm, &nb);
    if (rc == MPI_SUCCESS)
        rc = describe(nb, sbuf, scounts, sdispls, stypes, rbuf, rcounts, rdispls, rtypes);
    return rc != MPI_SUCCESS ? rc : ac_neighbor_exchange(nb, comm, p);
}

int ac_neighbor_alltoallw_blocks_schedule(ac_sched *s, const void *sbuf, const int *scounts,
                                          const MPI_Aint *sdispls, const MPI_Datatype *stypes,
                                          void *rbuf, const int *rcounts, const MPI_Aint *rdispls,
                                          const MPI_Datatype *rtypes, const ac_params *p)
{
    ac_neighbors *nb;
    int rc = ac_neighbors_lists(s->comm, &nb);
    if (rc == MPI_SUCCESS)
        rc = describe(nb, sbuf, scounts, sdispls, stypes, rbuf, rcounts, rdispls, rtypes);
    return rc != MPI_SUCCESS ? rc : p->exchange_schedule(s, nb);
}

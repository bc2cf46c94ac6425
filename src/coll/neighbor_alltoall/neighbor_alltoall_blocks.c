/*
 * neighbor_alltoall_blocks.c - the layer's MPI_Neighbor_alltoall: the call as one block per edge
 * (out-block k lies k x scount x extent(stype) after sbuf, in-block j j x rcount x
 * extent(rtype) after rbuf), moved by the engine the registry entry names
 * (params->exchange: isend_irecv, sendrecv_pair, win_fence_put; src/coll/common/neighbor.h).
 * Cost and requirements: the engine's. The neighbours come from the communicator's cache.
 */
#include "coll/algorithms.h"
#include "coll/common/neighbor.h"

int ac_neighbor_alltoall_blocks(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                                int rcount, MPI_Datatype rtype, MPI_Comm comm, const ac_params *p)
{
    ac_neighbors *nb;
    int rc = ac_neighbors_get(comm, &nb);
    if (rc == MPI_SUCCESS)
        rc = ac_neighbor_blocks(nb->send, nb->outdegree, sbuf, stype, scount, NULL, NULL);
    if (rc == MPI_SUCCESS)
        rc = ac_neighbor_blocks(nb->recv, nb->indegree, rbuf, rtype, rcount, NULL, NULL);
    if (rc != MPI_SUCCESS) return rc;
    return p->exchange(nb, comm);
}

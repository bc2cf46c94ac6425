/*
 * allgatherv_node_ring.c - node-ordered logical ring all-gather, our stand-in for STAR-MPI's
 * topology-specific logical ring (TSLR). TSLR picks a permutation n'0 -> n'1 -> ... -> n'(p-1)
 * -> n'0 whose ring edges do not contend in the network and runs the ring all-gather on it.
 * Without a switch topology we use the node layout (ac_nodes_get()->order: ranks node by node),
 * so only one ring edge leaves each node and intra-node edges use shared memory. The ring
 * steps are those of allgatherv_ring.c on that permutation; params->sync as there.
 *
 * Cost: (p-1) alpha + (p-1) n beta for n-byte blocks; each node's network link carries each
 * block once in each direction. First use on a communicator also builds its node layout
 * (a split and an allgather, cached).
 * Requirements: none; any process count and any rank-to-node placement.
 * Source: STAR-MPI (Faraj, Yuan, Lowenthal 2006) section 3.1; TSLR: Faraj and Yuan,
 * "Bandwidth efficient all-to-all broadcast on switched clusters", Cluster 2005.
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"

int ac_allgatherv_node_ring(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                            const int *rcounts, const int *displs, MPI_Datatype rtype,
                            MPI_Comm comm, const ac_params *p)
{
    const ac_nodes *nodes;
    int rc = ac_nodes_get(comm, &nodes);
    if (rc != MPI_SUCCESS) return rc;
    return ac_allgatherv_logical_ring(sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm,
                                      nodes->order, p ? p->sync : AC_SYNC_NONE);
}

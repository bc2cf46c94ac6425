/*
 * bcast_hier.c - hierarchical bcast (hierarchical.c's family): the root's node leader gets the
 * message, the leaders broadcast it among the nodes, each leader broadcasts it on its node.
 *
 * Order of operations, one leader per node (its lowest rank, local rank 0): when the root is
 * not its node's leader, it sends the message to that leader (one intra-node message, PMPI_Send
 * on comm); the leaders broadcast it with params->phase on the leaders' communicator, rooted at
 * the root's node (the leaders' ranks are the node indices: nodes are numbered by their
 * leaders' order, ac_nodes); then every leader broadcasts it on its node with params->intra[1]
 * from local rank 0. The root takes part in its node's bcast like any rank: it receives the
 * bits it sent, unchanged.
 *
 * Cost (nodes N of L ranks): bcast(N, n) among the leaders on inter-node links + bcast(L, n)
 * on every node at once on intra-node links, plus one intra-node message of n bytes when the
 * root is not a leader (not priced: the cost shape knows no root).
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"

int ac_bcast_hier(void *buf, int count, MPI_Datatype dtype, int root, MPI_Comm comm,
                  const ac_params *p)
{
    const ac_nodes *nodes;
    int rank, rc = ac_nodes_get(comm, &nodes);
    if (rc == MPI_SUCCESS) rc = PMPI_Comm_rank(comm, &rank);
    if (rc != MPI_SUCCESS) return rc;
    const ac_algorithm *inter = p->phase, *bcast = p->intra[1];
    int root_node = nodes->node_of[root], leader = nodes->leader_of[root_node];

    if (root != leader) {
        if (rank == root) rc = PMPI_Send(buf, count, dtype, leader, AC_TAG_DATA, comm);
        if (rank == leader)
            rc = PMPI_Recv(buf, count, dtype, root, AC_TAG_DATA, comm, MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS) return rc;
    }
    if (nodes->leaders != MPI_COMM_NULL) {
        rc = inter->fn.bcast(buf, count, dtype, root_node, nodes->leaders, inter->params);
        if (rc != MPI_SUCCESS) return rc;
    }
    return bcast->fn.bcast(buf, count, dtype, 0, nodes->local, bcast->params);
}

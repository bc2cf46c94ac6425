/*
 * reduce_hier.c - hierarchical reduce (hierarchical.c's family): reduce on every node to its
 * leader, reduce among the leaders to the root's node leader, which hands the result to the
 * root.
 *
 * Order of operations, one leader per node (its lowest rank, local rank 0): every node reduces
 * its ranks' vectors to its leader with params->intra[0] (into the root's rbuf when the leader
 * is the root, otherwise into a temporary of the leader's); the leaders reduce the nodes'
 * results with params->phase on the leaders' communicator to the root's node (the leaders'
 * ranks are the node indices, ac_nodes), in place there; when the root is not its node's
 * leader, that leader sends the result to the root (one intra-node message, PMPI_Send on comm).
 * MPI_IN_PLACE at the root: its operand is in rbuf, given as the operand of its node's reduce
 * (and as that reduce's in-place buffer when the root is the leader). rbuf is not significant
 * elsewhere: a rank that is not a phase's root passes NULL.
 *
 * Order of a non-commutative op: each node combines its ranks in rank order, the leaders the
 * nodes in node order: the ranks' order when the nodes are blocks of consecutive ranks, which
 * AC_REQ_NODES requires for such an op (the family's `ordered`).
 *
 * Cost (nodes N of L ranks): reduce(L, n) on every node at once on intra-node links +
 * reduce(N, n) among the leaders on inter-node links, plus one intra-node message of n bytes
 * when the root is not a leader (not priced: the cost shape knows no root).
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"

int ac_reduce_hier(const void *sbuf, void *rbuf, int count, MPI_Datatype dtype, MPI_Op op,
                   int root, MPI_Comm comm, const ac_params *p)
{
    const ac_nodes *nodes;
    int rank, rc = ac_nodes_get(comm, &nodes);
    if (rc == MPI_SUCCESS) rc = PMPI_Comm_rank(comm, &rank);
    if (rc != MPI_SUCCESS) return rc;
    const ac_algorithm *reduce = p->intra[0], *inter = p->phase;
    int root_node = nodes->node_of[root], leader = nodes->leader_of[root_node];
    int in_place = rank == root && sbuf == MPI_IN_PLACE;
    const void *mine = in_place ? rbuf : sbuf;
    int is_leader = nodes->local_rank == 0;

    /* The node's result: the root's rbuf when the leader is the root, else a temporary. */
    ac_tmp tmp = {NULL, NULL};
    char *acc = NULL;
    if (is_leader && rank == root) {
        acc = rbuf;
    } else if (is_leader) {
        rc = ac_tmp_alloc(&tmp, count, dtype);
        if (rc != MPI_SUCCESS) return rc;
        acc = tmp.buf;
    }

    rc = reduce->fn.reduce(is_leader && in_place ? MPI_IN_PLACE : mine, acc, count, dtype, op, 0,
                           nodes->local, reduce->params);
    if (rc == MPI_SUCCESS && is_leader) {
        int at_root = nodes->node == root_node;
        rc = inter->fn.reduce(at_root ? MPI_IN_PLACE : acc, at_root ? acc : NULL, count, dtype,
                              op, root_node, nodes->leaders, inter->params);
    }
    if (rc == MPI_SUCCESS && root != leader) {
        if (rank == leader) rc = PMPI_Send(acc, count, dtype, root, AC_TAG_DATA, comm);
        if (rank == root)
            rc = PMPI_Recv(rbuf, count, dtype, leader, AC_TAG_DATA, comm, MPI_STATUS_IGNORE);
    }
    ac_tmp_free(&tmp);
    return rc;
}

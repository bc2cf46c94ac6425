/*
 * reduce_hier.c - hierarchical reduce (hierarchical.c's family): reduce on every node to its
 * leaders, reduce among the nodes to the root's node, whose leaders hand the result to the
 * root.
 *
 * One leader per node (params->leaders 0 or 1: its lowest rank, local rank 0): every node
 * reduces its ranks' vectors to its leader with params->intra[0] (into the root's rbuf when
 * the leader is the root, otherwise into a temporary of the leader's); the leaders reduce the
 * nodes' results with params->phase on the leaders' communicator to the root's node, in place
 * there; when the root is not its node's leader, that leader sends the result to the root (one
 * intra-node message, PMPI_Send on comm).
 *
 * k leaders (the node's first k ranks; every node has k or more, AC_REQ_NODES): the vector is
 * cut into k shares as even as can be; every node reduces share j to its local rank j; share j
 * is reduced among the j-th ranks of every node (ac_nodes.lane) to the root's node, so the k
 * shares cross the network on k pairs of links at once; local rank j of the root's node sends
 * share j to the root. A share of no element (count < k) runs no phase: SMPI's reductions of 0
 * elements divide by zero. In a lane the ranks are in comm's order, which is not always the
 * nodes' order (irregular nodes dealt round-robin): the lane's root is counted, not assumed
 * (ac_nodes_lane_roots).
 *
 * MPI_IN_PLACE at the root: its operand is in rbuf, given as the operand of its node's reduces
 * (and as the in-place buffer of the one whose result it keeps). rbuf is not significant
 * elsewhere: a rank that is not a phase's root passes NULL.
 *
 * Order of a non-commutative op: each node combines its ranks in rank order, the nodes are
 * combined in lane order: the nodes' order and the ranks' when the nodes are blocks of
 * consecutive ranks, which AC_REQ_NODES requires for such an op (the family's `ordered`).
 *
 * Cost (nodes N of L ranks): k reduce(L, n / k) on every node at once on intra-node links +
 * reduce(N, n / k) among the nodes on k lanes of inter-node links, plus up to k intra-node
 * messages to the root (not priced: the cost shape knows no root).
 *
 * Written as a schedule (common/phase.h): each phase's rounds on its communicator, a phase
 * of the library's own a step of the blocking run.
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"
#include "coll/common/phase.h"

AC_REDUCE_BY_SCHEDULE(hier)

int ac_reduce_hier_schedule(ac_sched *s, const void *sbuf, void *rbuf, int count,
                            MPI_Datatype dtype, MPI_Op op, int root, const ac_params *p)
{
    ac_hier_call h;
    int rc = ac_hier_begin(&h, s->comm, p, count, dtype);
    if (rc != MPI_SUCCESS) return rc;
    const ac_nodes *nodes = h.nodes;
    const ac_algorithm *reduce = p->intra[0], *inter = p->phase;
    int root_node = nodes->node_of[root];
    int in_place = h.rank == root && sbuf == MPI_IN_PLACE;
    const char *mine = in_place ? rbuf : sbuf;
    int j = nodes->local_rank; /* the share this rank leads, when j < h.shares */

    /* The share this rank leads: the root's rbuf when it is the root, else a temporary. */
    char *acc = NULL;
    if (j < h.shares && h.rank == root)
        acc = ac_hier_share(&h, rbuf, j);
    else if (j < h.shares && !(acc = ac_sched_tmp(s, h.counts[j], dtype)) && h.counts[j] > 0)
        return ac_sched_error(s);

    for (int i = 0; i < h.shares && rc == MPI_SUCCESS; i++) {
        int leads = i == j;
        rc = ac_phase_reduce(s, reduce, nodes->local,
                                  leads && in_place ? MPI_IN_PLACE : ac_hier_share(&h, mine, i),
                                  leads ? acc : NULL, h.counts[i], dtype, op, i);
    }
    int holder[AC_HIER_SHARES], lane_root[AC_HIER_SHARES]; /* share i on the root's node */
    ac_nodes_lane_roots(nodes, h.size, root_node, h.k, holder, lane_root);
    if (rc == MPI_SUCCESS && j < h.shares) {
        int at_root = nodes->node == root_node;
        rc = ac_phase_reduce(s, inter, h.k > 1 ? nodes->lane : nodes->leaders,
                                  at_root ? MPI_IN_PLACE : acc, at_root ? acc : NULL, h.counts[j],
                                  dtype, op, lane_root[j]);
    }
    for (int i = 0; i < h.shares && rc == MPI_SUCCESS; i++) { /* a round a share */
        if (holder[i] == root) continue;
        if (h.rank == holder[i]) ac_sched_send(s, acc, h.counts[i], dtype, root);
        if (h.rank == root)
            ac_sched_recv(s, ac_hier_share(&h, rbuf, i), h.counts[i], dtype, holder[i]);
        ac_sched_round(s);
    }
    return rc != MPI_SUCCESS ? rc : ac_sched_error(s);
}

/*
 * allreduce_hier.c - hierarchical allreduce (hierarchical.c's family): reduce on every node to
 * its leaders, all-reduce among the leaders of the nodes, bcast on every node.
 *
 * With one leader (params->leaders 0 or 1) the node's lowest rank reduces the node's vectors
 * with params->intra[0] (a reduce), the leaders all-reduce with params->phase on the leaders'
 * communicator, and each leader broadcasts the result on its node with params->intra[1]. With k
 * leaders the vector is cut into k shares as even as can be: share j is reduced to local rank
 * j, all-reduced among the j-th ranks of every node (ac_nodes.lane; every node has k ranks or
 * more, AC_REQ_NODES), and broadcast from local rank j: the inter-node phase of the k shares
 * runs on k pairs of links at once. A share of no element (count < k) runs no phase: SMPI's
 * reductions of 0 elements divide by zero.
 *
 * Order of a non-commutative op: the node's reduce combines its ranks in rank order, the
 * leaders combine the nodes in node order: the ranks' order when the nodes are blocks of
 * consecutive ranks, which AC_REQ_NODES requires for such an op. Every rank then holds the
 * bits the leaders computed.
 *
 * Written as a schedule (common/phase.h): each phase's rounds on its communicator, a phase
 * of the library's own a step of the blocking run.
 *
 * Cost (one leader, nodes N of L ranks): reduce(L, n) + allreduce(N, n) + bcast(L, n), the
 * node phases on intra-node links, the leaders' on inter-node ones; with k leaders each phase
 * on n / k, the node phases k times over.
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"
#include "coll/common/phase.h"

AC_ALLREDUCE_BY_SCHEDULE(hier)

int ac_allreduce_hier_schedule(ac_sched *s, const void *sbuf, void *rbuf, int count,
                               MPI_Datatype dtype, MPI_Op op, const ac_params *p)
{
    ac_hier_call h;
    int rc = ac_hier_begin(&h, s->comm, p, count, dtype);
    if (rc != MPI_SUCCESS) return rc;
    const ac_nodes *nodes = h.nodes;
    const ac_algorithm *reduce = p->intra[0], *bcast = p->intra[1], *inter = p->phase;
    int in_place = sbuf == MPI_IN_PLACE;

    /* Share j to local rank j; a rank that is not share j's root gives its operand (in place:
     * rbuf's, untouched until the bcasts) and receives nothing. */
    for (int j = 0; j < h.k && rc == MPI_SUCCESS; j++) {
        if (h.counts[j] == 0) continue; /* an empty share (count < k): equal on every rank */
        char *at = ac_hier_share(&h, rbuf, j);
        const char *from = in_place ? at : ac_hier_share(&h, sbuf, j);
        int root = nodes->local_rank == j;
        rc = ac_phase_reduce(s, reduce, nodes->local, root && in_place ? MPI_IN_PLACE : from,
                                  root ? at : NULL, h.counts[j], dtype, op, j);
    }
    if (rc == MPI_SUCCESS && nodes->local_rank < h.k && h.counts[nodes->local_rank] > 0) {
        int j = nodes->local_rank;
        rc = ac_phase_allreduce(s, inter, nodes->lane, MPI_IN_PLACE,
                                     ac_hier_share(&h, rbuf, j), h.counts[j], dtype, op);
    }
    for (int j = 0; j < h.k && h.counts[j] > 0 && rc == MPI_SUCCESS; j++)
        rc = ac_phase_bcast(s, bcast, nodes->local, ac_hier_share(&h, rbuf, j), h.counts[j],
                                 dtype, j);
    return rc;
}

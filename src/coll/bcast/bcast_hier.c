/*
 * bcast_hier.c - hierarchical bcast (hierarchical.c's family): the root's node's leaders get the
 * message, the leaders broadcast it among the nodes, each node's leaders broadcast it on their
 * node.
 *
 * One leader per node (params->leaders 0 or 1: its lowest rank, local rank 0): when the root
 * is not its node's leader, it sends the message to that leader (one intra-node message,
 * PMPI_Send on comm); the leaders broadcast it with params->phase among the nodes, rooted at the
 * root's node; then every leader broadcasts it on its node with params->intra[1] from local
 * rank 0.
 *
 * k leaders (the node's first k ranks; every node has k or more, AC_REQ_NODES): the message,
 * packed (ranks may describe it with different datatypes: only its bytes are agreed), is cut
 * into k shares of bytes as even as can be; the root sends share j to local rank j of its node
 * (keeping the one that is its own); share j is broadcast among the j-th ranks of every node
 * (ac_nodes.lane), rooted at the root's node, so the k shares cross the network on k pairs of
 * links at once; then every node broadcasts share j from local rank j. With k leaders a share
 * of no element (count < k) runs no phase (one leader runs them all, as for any count). In a
 * lane the ranks are in comm's order, which is not always the nodes' order (irregular nodes
 * dealt round-robin): the lane's root is counted, not assumed (ac_nodes_lane_roots).
 *
 * The root takes part in its node's bcasts like any rank: it receives the bits it sent,
 * unchanged.
 *
 * Written as a schedule (common/phase.h): each phase's rounds on its communicator, a phase
 * of the library's own a step of the blocking run.
 *
 * Cost (nodes N of L ranks): bcast(N, n / k) among the nodes on k lanes of inter-node links +
 * k bcast(L, n / k) on every node at once on intra-node links, plus up to k intra-node messages
 * from the root (not priced: the cost shape knows no root).
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"
#include "coll/common/phase.h"
#include "coll/common/pipeline.h"

AC_BCAST_BY_SCHEDULE(hier)

int ac_bcast_hier_schedule(ac_sched *s, void *user, int ucount, MPI_Datatype utype, int root,
                           const ac_params *p)
{
    /* the message as packed bytes: ranks may describe it with different datatypes (the root 1 x
     * a contiguous type of 16 ints, the others 16 x MPI_INT), so shares are cut in bytes, the
     * only measure every rank agrees on (plain bytes: the user's buffer itself) */
    ac_bytes bytes;
    int rc = ac_pipe_bytes(s, user, ucount, utype, s->rank == root, &bytes);
    if (rc != MPI_SUCCESS) return rc;
    char *buf = bytes.data;
    int count = bytes.size;
    MPI_Datatype dtype = MPI_BYTE;
    ac_hier_call h;
    rc = ac_hier_begin(&h, s->comm, p, count, dtype);
    if (rc != MPI_SUCCESS) return rc;
    const ac_nodes *nodes = h.nodes;
    const ac_algorithm *inter = p->phase, *bcast = p->intra[1];
    int j = nodes->local_rank; /* the share this rank leads, when j < h.shares */

    int holder[AC_HIER_SHARES], lane_root[AC_HIER_SHARES]; /* share s on the root's node */
    ac_nodes_lane_roots(nodes, h.size, nodes->node_of[root], h.k, holder, lane_root);

    for (int i = 0; i < h.shares; i++) { /* a round a share: one message at most a rank */
        char *at = ac_hier_share(&h, buf, i);
        if (holder[i] == root) continue;
        if (h.rank == root) ac_sched_send(s, at, h.counts[i], dtype, holder[i]);
        if (h.rank == holder[i]) ac_sched_recv(s, at, h.counts[i], dtype, root);
        ac_sched_round(s);
    }
    if (j < h.shares)
        rc = ac_phase_bcast(s, inter, h.k > 1 ? nodes->lane : nodes->leaders,
                                 ac_hier_share(&h, buf, j), h.counts[j], dtype, lane_root[j]);
    for (int i = 0; i < h.shares && rc == MPI_SUCCESS; i++)
        rc = ac_phase_bcast(s, bcast, nodes->local, ac_hier_share(&h, buf, i), h.counts[i],
                                 dtype, i);
    if (rc == MPI_SUCCESS && h.rank != root) ac_pipe_bytes_store(s, &bytes, user, ucount, utype);
    return rc != MPI_SUCCESS ? rc : ac_sched_error(s);
}

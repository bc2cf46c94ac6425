/*
 * reduce_scatter_block_hier.c - hierarchical reduce_scatter_block (hierarchical.c's family):
 * reduce on every node to its leader, reduce-scatter among the leaders, scatter on every node.
 *
 * (1) The node's leader (local rank 0) reduces the node's whole vectors (p blocks of rcount
 * elements; MPI_IN_PLACE: the vector in rbuf) into a temporary with params->intra[0] (a reduce)
 * on the node's communicator. (2) The leader puts the blocks in node order (ac_nodes.order:
 * node i's ranks, in local-rank order, after the nodes before it): nothing to do when every
 * node's ranks are consecutive, one copy a block otherwise (ranks dealt round-robin). (3) The
 * leaders reduce-scatter the vector in place with params->phase (a reduce_scatter entry), node
 * i getting the node_size[i] blocks of its ranks (nodes may differ in size). (4) Each leader
 * scatters its node's blocks to their ranks with params->intra[1] (a scatter).
 *
 * Order of a non-commutative op: the node's reduce combines its ranks in rank order, the
 * leaders' reduce-scatter the nodes in node order: the ranks' order when the nodes are blocks
 * of consecutive ranks, which AC_REQ_NODES requires for such an op (the family is ordered);
 * then (2) is the identity.
 *
 * Cost (nodes N of L ranks, p = N L, vector of n bytes): reduce(L, n) + reduce_scatter(N, n) +
 * scatter(L, n / p a rank), the node phases on intra-node links, the leaders' on inter-node
 * ones, plus a local copy of the vector at the leaders when the nodes are not rank blocks.
 * rcount 0: nothing is sent.
 *
 * With k leaders (params->leaders, hier_k<k>_<intra>_<inter>) every block's rcount elements are
 * cut into k pieces as even as can be (ac_phase_pieces), and piece i of every block takes the
 * path above alone with local rank i as its node's leader: every rank copies piece i of its p
 * blocks into one vector, node by node in the order of lane i's members (ac_nodes.lane: the
 * ranks of local rank i, in comm's order), the node reduces it to local rank i, lane i
 * reduce-scatters it (member m getting its node's run), and local rank i scatters piece i of
 * each block to its rank, into its place in rbuf. In rank order for a non-commutative op: the
 * nodes are then rank blocks, and lane order is node order. Pieces of no element (rcount < k)
 * run no phase. Cost: k x reduce(L, n / k) + reduce_scatter(N, n / k, k lanes at once) +
 * k x scatter(L, n / (p k) a rank), plus the copy of the vector into pieces on every rank.
 *
 * Written as a schedule (common/phase.h): each phase's rounds on its communicator, a phase
 * of the library's own a step of the blocking run.
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"
#include "coll/common/phase.h"

AC_REDUCE_SCATTER_BLOCK_BY_SCHEDULE(hier)

/* k leaders a node (the header): piece i of every block through local rank i. */
static int lanes(ac_sched *s, const ac_nodes *nodes, const void *input, void *rbuf, int rcount,
                 MPI_Datatype dtype, MPI_Op op, const ac_params *p)
{
    int rc = MPI_SUCCESS, k = p->leaders, size = s->size, nn = nodes->nnodes;
    int j = nodes->local_rank;
    MPI_Aint lo[AC_HIER_SHARES + 1];
    if (k > AC_HIER_SHARES) return MPI_ERR_ARG;
    ac_phase_pieces(rcount, k, lo);
    MPI_Aint extent = ac_extent(dtype), block = (MPI_Aint)rcount * extent;
    /* pieces: piece i of the p blocks at pieces + p lo[i] elements, in lane i's order; first:
     * node n's first rank in nodes->order; counts: lane j's runs, by member */
    char *pieces = ac_sched_tmp(s, (MPI_Aint)rcount * size, dtype);
    int *first = ac_sched_tmp(s, 2 * (MPI_Aint)nn, MPI_INT);
    if (!pieces || !first) return ac_sched_error(s);
    int *counts = first + nn;
    for (int n = 0, at = 0; n < nn; at += nodes->node_size[n], n++)
        first[n] = at;
    for (int i = 0; i < k; i++) {
        int len = lo[i + 1] - lo[i];
        char *to = pieces + (MPI_Aint)size * lo[i] * extent;
        for (int r = 0, m = 0; len > 0 && r < size; r++) {
            if (nodes->local_rank_of[r] != i) continue;
            int n = nodes->node_of[r]; /* lane i's member m: local rank i of node n */
            if (i == j) counts[m] = nodes->node_size[n] * len;
            m++;
            for (int l = 0; l < nodes->node_size[n]; l++, to += (MPI_Aint)len * extent)
                ac_sched_copy(s, ac_at(input, nodes->order[first[n] + l] * block + lo[i] * extent),
                              len, dtype, to, len, dtype);
        }
    }

    /* (1) piece i of the node's vectors reduced to local rank i */
    MPI_Aint len = j < k ? lo[j + 1] - lo[j] : 0;
    char *sum = len > 0 ? ac_sched_tmp(s, len * size, dtype) : NULL;
    if (len > 0 && !sum) return ac_sched_error(s);
    for (int i = 0; i < k && rc == MPI_SUCCESS; i++)
        if (lo[i + 1] > lo[i])
            rc = ac_phase_reduce(s, p->intra[0], nodes->local,
                                 pieces + (MPI_Aint)size * lo[i] * extent, i == j ? sum : NULL,
                                 (lo[i + 1] - lo[i]) * size, dtype, op, i);

    /* (2) lane j's reduce-scatter: this node's run of piece j to the start of sum */
    if (rc == MPI_SUCCESS && len > 0)
        rc = ac_phase_reduce_scatter(s, p->phase, j == 0 ? nodes->leaders : nodes->lane,
                                     MPI_IN_PLACE, sum, counts, dtype, op);

    /* (3) piece i of each rank's block from local rank i to its place in rbuf */
    for (int i = 0; i < k && rc == MPI_SUCCESS; i++)
        if (lo[i + 1] > lo[i])
            rc = ac_phase_scatter(s, p->intra[1], nodes->local, i == j ? sum : NULL,
                                  lo[i + 1] - lo[i], dtype, ac_at(rbuf, lo[i] * extent),
                                  lo[i + 1] - lo[i], dtype, i);
    return rc != MPI_SUCCESS ? rc : ac_sched_error(s);
}

int ac_reduce_scatter_block_hier_schedule(ac_sched *s, const void *sbuf, void *rbuf, int rcount,
                                          MPI_Datatype dtype, MPI_Op op, const ac_params *p)
{
    const ac_nodes *nodes;
    int rc, size = s->size;
    rc = ac_nodes_get(s->comm, &nodes);
    if (rc != MPI_SUCCESS || rcount == 0) return rc;
    const ac_algorithm *reduce = p->intra[0], *scatter = p->intra[1], *inter = p->phase;
    const void *input = sbuf == MPI_IN_PLACE ? rbuf : sbuf;
    MPI_Aint block = (MPI_Aint)rcount * ac_extent(dtype);
    if (p->leaders > 1) return lanes(s, nodes, input, rbuf, rcount, dtype, op, p);
    if (nodes->local_rank != 0) {
        rc = ac_phase_reduce(s, reduce, nodes->local, input, NULL, rcount * size, dtype, op,
                                  0);
        if (rc != MPI_SUCCESS) return rc;
        return ac_phase_scatter(s, scatter, nodes->local, NULL, rcount, dtype, rbuf, rcount,
                                     dtype, 0);
    }

    /* Leader: the node's vector in `sum`, then in node order in `vec`. */
    int nn = nodes->nnodes;
    int *counts = ac_sched_tmp(s, nn, MPI_INT);
    char *sum = ac_sched_tmp(s, (MPI_Aint)rcount * size, dtype);
    char *vec = nodes->blocks ? sum : ac_sched_tmp(s, (MPI_Aint)rcount * size, dtype);
    if ((rc = ac_sched_error(s)) != MPI_SUCCESS) return rc;
    for (int i = 0; i < nn; i++)
        counts[i] = nodes->node_size[i] * rcount;

    /* (1) */
    rc = ac_phase_reduce(s, reduce, nodes->local, input, sum, rcount * size, dtype, op, 0);
    if (rc != MPI_SUCCESS) return rc;

    /* (2) */
    for (int k = 0; k < size && !nodes->blocks; k++)
        ac_sched_copy(s, sum + (MPI_Aint)nodes->order[k] * block, rcount, dtype,
                      vec + (MPI_Aint)k * block, rcount, dtype);

    /* (3) this node's blocks to the start of vec */
    rc = ac_phase_reduce_scatter(s, inter, nodes->leaders, MPI_IN_PLACE, vec, counts, dtype,
                                      op);
    if (rc != MPI_SUCCESS) return rc;

    /* (4) */
    return ac_phase_scatter(s, scatter, nodes->local, vec, rcount, dtype, rbuf, rcount,
                                 dtype, 0);
}

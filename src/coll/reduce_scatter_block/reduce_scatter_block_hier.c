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
 * Written as a schedule (common/phase.h): each phase's rounds on its communicator, a phase
 * of the library's own a step of the blocking run.
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"
#include "coll/common/phase.h"

AC_REDUCE_SCATTER_BLOCK_BY_SCHEDULE(hier)

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

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
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"

#include <stdlib.h>

int ac_reduce_scatter_block_hier(const void *sbuf, void *rbuf, int rcount, MPI_Datatype dtype,
                                 MPI_Op op, MPI_Comm comm, const ac_params *p)
{
    const ac_nodes *nodes;
    int rc, size;
    rc = ac_nodes_get(comm, &nodes);
    if (rc != MPI_SUCCESS) return rc;
    PMPI_Comm_size(comm, &size);
    if (rcount == 0) return MPI_SUCCESS;
    const ac_algorithm *reduce = p->intra[0], *scatter = p->intra[1], *inter = p->phase;
    const void *input = sbuf == MPI_IN_PLACE ? rbuf : sbuf;
    MPI_Aint block = (MPI_Aint)rcount * ac_extent(dtype);
    int leader = nodes->local_rank == 0;
    if (!leader) {
        rc = reduce->fn.reduce(input, NULL, rcount * size, dtype, op, 0, nodes->local,
                               reduce->params);
        if (rc != MPI_SUCCESS) return rc;
        return scatter->fn.scatter(NULL, rcount, dtype, rbuf, rcount, dtype, 0, nodes->local,
                                   scatter->params);
    }

    /* Leader: the node's vector in `sum`, then in node order in `vec`. */
    int nn = nodes->nnodes;
    ac_tmp sum = {0}, perm = {0};
    int *counts = malloc(sizeof(int) * (size_t)nn);
    rc = counts ? ac_tmp_alloc(&sum, (MPI_Aint)rcount * size, dtype) : MPI_ERR_NO_MEM;
    if (rc == MPI_SUCCESS && !nodes->blocks)
        rc = ac_tmp_alloc(&perm, (MPI_Aint)rcount * size, dtype);
    if (rc != MPI_SUCCESS) goto out;
    for (int i = 0; i < nn; i++)
        counts[i] = nodes->node_size[i] * rcount;

    /* (1) */
    rc = reduce->fn.reduce(input, sum.buf, rcount * size, dtype, op, 0, nodes->local,
                           reduce->params);
    if (rc != MPI_SUCCESS) goto out;

    /* (2) */
    char *vec = sum.buf;
    if (!nodes->blocks) {
        vec = perm.buf;
        for (int k = 0; k < size && rc == MPI_SUCCESS; k++)
            rc = ac_copy(sum.buf + (MPI_Aint)nodes->order[k] * block, rcount, dtype,
                         vec + (MPI_Aint)k * block, rcount, dtype);
        if (rc != MPI_SUCCESS) goto out;
    }

    /* (3) this node's blocks to the start of vec */
    rc = inter->fn.reduce_scatter(MPI_IN_PLACE, vec, counts, dtype, op, nodes->leaders,
                                  inter->params);
    if (rc != MPI_SUCCESS) goto out;

    /* (4) */
    rc = scatter->fn.scatter(vec, rcount, dtype, rbuf, rcount, dtype, 0, nodes->local,
                             scatter->params);
out:
    ac_tmp_free(&perm);
    ac_tmp_free(&sum);
    free(counts);
    return rc;
}

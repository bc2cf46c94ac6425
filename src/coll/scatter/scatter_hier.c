/*
 * scatter_hier.c - hierarchical scatter (hierarchical.c's family), the mirror of
 * gather_hier.c: the root's node leader gets every block, scatters the nodes' runs of blocks
 * among the leaders, each leader scatters its node's blocks on its node.
 *
 * Order of operations, one leader per node (its lowest rank, local rank 0), blocks as packed
 * bytes (MPI_BYTE, the MPI_Pack format: send and receive types may differ): the root packs the
 * blocks node by node (block i is rank ac_nodes.order[i]'s: nodes need not be blocks of
 * consecutive ranks) and, when it is not its node's leader, sends them to that leader (one
 * intra-node message of p blocks); the leaders scatter the nodes' runs of blocks from the
 * root's node (the leaders' ranks are the node indices, ac_nodes): on nodes of one size with
 * params->phase on runs of ppn blocks, on nodes of different sizes with the library's
 * MPI_Scatterv (AC_REQ_NODES admits only native there, the family's equal_nodes); every leader
 * then scatters its node's blocks in local rank order with params->intra[1], and every rank
 * unpacks its block into rbuf. MPI_IN_PLACE at the root: its block stays in sbuf, and the one
 * its node's scatter gives it is dropped.
 *
 * Cost (nodes N of L ranks, b bytes a block): scatter(N, L b) among the leaders on inter-node
 * links + scatter(L, b) on every node at once on intra-node links, plus one intra-node message
 * of p b bytes when the root is not a leader (not priced: the cost shape knows no root).
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"

#include <stdlib.h>

/* The leaders' scatter of every node's run of blocks from `all` (node by node, at the root's
 * node leader) to `to` on each leader. */
static int leaders_scatter(const ac_nodes *nodes, const ac_algorithm *inter, const char *all,
                           char *to, MPI_Aint block, int root_node)
{
    if (ac_nodes_equal(nodes)) {
        int run = (int)(nodes->node_size[0] * block);
        return inter->fn.scatter(all, run, MPI_BYTE, to, run, MPI_BYTE, root_node, nodes->leaders,
                                 inter->params);
    }
    /* nodes of different sizes: inter is native (AC_REQ_NODES), the library's scatterv */
    int *counts, *displs, rc = ac_nodes_runs(nodes, block, &counts, &displs);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Scatterv(all, counts, displs, MPI_BYTE, to, counts[nodes->node], MPI_BYTE,
                           root_node, nodes->leaders);
    free(counts);
    free(displs);
    return rc;
}

int ac_scatter_hier(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                    MPI_Datatype rtype, int root, MPI_Comm comm, const ac_params *p)
{
    const ac_nodes *nodes;
    int rc, rank, size;
    MPI_Aint block;
    /* block bytes from the significant arguments: the send side at the root */
    rc = ac_rooted_block(comm, root, scount, stype, rcount, rtype, &rank, &size, &block);
    if (rc != MPI_SUCCESS || block == 0) return rc;
    rc = ac_nodes_get(comm, &nodes);
    if (rc != MPI_SUCCESS) return rc;
    const ac_algorithm *inter = p->phase, *scatter = p->intra[1];
    int root_node = nodes->node_of[root], leader = nodes->leader_of[root_node];
    int is_leader = nodes->local_rank == 0, in_place = rank == root && rbuf == MPI_IN_PLACE;
    MPI_Aint stride = rank == root ? ac_extent(stype) * scount : 0;
    MPI_Aint total = size * block;
    char *node_blocks = NULL, *all = NULL, *dropped = NULL;
    ac_bytes own = {0};

    if (in_place) {
        if (!(dropped = malloc((size_t)block))) return MPI_ERR_NO_MEM;
        own.data = dropped;
    } else {
        rc = ac_bytes_get(&own, rbuf, rcount, rtype, 0, comm);
        if (rc != MPI_SUCCESS) return rc;
    }
    if (is_leader && !(node_blocks = malloc((size_t)(nodes->local_size * block)))) {
        rc = MPI_ERR_NO_MEM;
        goto out;
    }
    if ((rank == leader || rank == root) && !(all = malloc((size_t)total))) {
        rc = MPI_ERR_NO_MEM;
        goto out;
    }

    /* the root: block i is rank order[i]'s */
    for (int i = 0; rc == MPI_SUCCESS && rank == root && i < size; i++) {
        int position = (int)(i * block);
        rc = ac_pack(ac_at(sbuf, nodes->order[i] * stride), scount, stype, all,
                     (int)total, &position, comm);
    }
    if (rc == MPI_SUCCESS && root != leader) {
        if (rank == root) rc = PMPI_Send(all, (int)total, MPI_BYTE, leader, AC_TAG_DATA, comm);
        if (rank == leader)
            rc = PMPI_Recv(all, (int)total, MPI_BYTE, root, AC_TAG_DATA, comm,
                           MPI_STATUS_IGNORE);
    }
    if (rc == MPI_SUCCESS && is_leader)
        rc = leaders_scatter(nodes, inter, all, node_blocks, block, root_node);
    if (rc == MPI_SUCCESS)
        rc = scatter->fn.scatter(node_blocks, (int)block, MPI_BYTE, own.data, (int)block,
                                 MPI_BYTE, 0, nodes->local, scatter->params);
out:
    free(all);
    free(node_blocks);
    free(dropped);
    return in_place ? rc : ac_bytes_release(&own, rbuf, rcount, rtype, 1, comm, rc);
}

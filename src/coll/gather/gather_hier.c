/*
 * gather_hier.c - hierarchical gather (hierarchical.c's family): gather on every node to its
 * leader, gather of the nodes' blocks among the leaders to the root's node leader, which puts
 * them in rank order (or hands them to the root).
 *
 * Order of operations, one leader per node (its lowest rank, local rank 0), blocks as packed
 * bytes (MPI_BYTE, the MPI_Pack format: send and receive types may differ): every rank's block
 * is gathered on its node to the leader with params->intra[0], in local rank order (the node's
 * ranks in rank order); the leaders gather the nodes' runs of blocks to the root's node leader
 * (the leaders' ranks are the node indices, ac_nodes), which then holds every block node by
 * node (ac_nodes.order). On nodes of one size that is params->phase on runs of ppn blocks; on
 * nodes of different sizes the runs differ and no registry gather applies (AC_REQ_NODES admits
 * only native there, the family's equal_nodes): native among the leaders is then the library's
 * MPI_Gatherv. When the root is not its node's leader, the leader sends it every block (one
 * intra-node message of p blocks); the root unpacks block i into rank order[i]'s place of rbuf.
 * Nodes need not be blocks of consecutive ranks (cyclic placement): the unpacking puts them in
 * rank order. MPI_IN_PLACE at the root: its block is taken from rbuf and left there.
 *
 * Cost (nodes N of L ranks, b bytes a block): gather(L, b) on every node at once on intra-node
 * links + gather(N, L b) among the leaders on inter-node links, plus one intra-node message of
 * p b bytes when the root is not a leader (not priced: the cost shape knows no root).
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"

#include <stdlib.h>

/* The leaders' gather of every node's run of blocks (n bytes at `from`) into `all` (node by
 * node) at the root's node leader. */
static int leaders_gather(const ac_nodes *nodes, const ac_algorithm *inter, const char *from,
                          char *all, MPI_Aint block, int root_node)
{
    if (ac_nodes_equal(nodes)) {
        int run = (int)(nodes->node_size[0] * block);
        return inter->fn.gather(from, run, MPI_BYTE, all, run, MPI_BYTE, root_node, nodes->leaders,
                                inter->params);
    }
    /* nodes of different sizes: inter is native (AC_REQ_NODES), the library's gatherv */
    int *counts, *displs, rc = ac_nodes_runs(nodes, block, &counts, &displs);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Gatherv(from, counts[nodes->node], MPI_BYTE, all, counts, displs, MPI_BYTE,
                          root_node, nodes->leaders);
    free(counts);
    free(displs);
    return rc;
}

int ac_gather_hier(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                   MPI_Datatype rtype, int root, MPI_Comm comm, const ac_params *p)
{
    const ac_nodes *nodes;
    int rc, rank, size;
    MPI_Aint block;
    /* block bytes from the significant arguments: the receive side at the root */
    rc = ac_rooted_block(comm, root, rcount, rtype, scount, stype, &rank, &size, &block);
    if (rc != MPI_SUCCESS || block == 0) return rc;
    rc = ac_nodes_get(comm, &nodes);
    if (rc != MPI_SUCCESS) return rc;
    const ac_algorithm *gather = p->intra[0], *inter = p->phase;
    int root_node = nodes->node_of[root], leader = nodes->leader_of[root_node];
    int is_leader = nodes->local_rank == 0, in_place = rank == root && sbuf == MPI_IN_PLACE;
    MPI_Aint stride = rank == root ? ac_extent(rtype) * rcount : 0;
    MPI_Aint total = size * block;
    char *node_blocks = NULL, *all = NULL;
    ac_bytes own = {0};

    if (in_place)
        rc = ac_bytes_get(&own, ac_at(rbuf, root * stride), rcount, rtype, 1, comm);
    else
        rc = ac_bytes_get(&own, sbuf, scount, stype, 1, comm);
    if (rc != MPI_SUCCESS) return rc;
    if (is_leader && !(node_blocks = malloc((size_t)(nodes->local_size * block)))) {
        rc = MPI_ERR_NO_MEM;
        goto out;
    }
    if ((rank == leader || rank == root) && !(all = malloc((size_t)total))) {
        rc = MPI_ERR_NO_MEM;
        goto out;
    }

    rc = gather->fn.gather(own.data, (int)block, MPI_BYTE, node_blocks, (int)block, MPI_BYTE, 0,
                           nodes->local, gather->params);
    if (rc == MPI_SUCCESS && is_leader)
        rc = leaders_gather(nodes, inter, node_blocks, all, block, root_node);
    if (rc == MPI_SUCCESS && root != leader) {
        if (rank == leader) rc = PMPI_Send(all, (int)total, MPI_BYTE, root, AC_TAG_DATA, comm);
        if (rank == root)
            rc = PMPI_Recv(all, (int)total, MPI_BYTE, leader, AC_TAG_DATA, comm,
                           MPI_STATUS_IGNORE);
    }
    /* the root: block i is rank order[i]'s */
    for (int i = 0; rc == MPI_SUCCESS && rank == root && i < size; i++) {
        int r = nodes->order[i], position = (int)(i * block);
        if (in_place && r == root) continue;
        rc = ac_unpack(all, (int)total, &position, ac_at(rbuf, r * stride), rcount, rtype, comm);
    }
out:
    free(all);
    free(node_blocks);
    return ac_bytes_release(&own, NULL, 0, MPI_BYTE, 0, comm, rc);
}

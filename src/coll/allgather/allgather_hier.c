/*
 * allgather_hier.c - hierarchical allgather (hierarchical.c's family): gather on every node to
 * its leader, all-gather of the nodes' blocks among the leaders, bcast on every node.
 *
 * Every block travels packed (b = rcount x size(rtype) bytes, MPI_PACKED), in node order: node
 * i's blocks, in its local-rank order (ac_nodes.order), come after those of the nodes before
 * it. (1) Every rank packs its block (MPI_IN_PLACE: from its place in rbuf) and the node's
 * leader gathers the node's blocks with params->intra[0] (a gather) on the node's communicator.
 * (2) The leaders all-gather the nodes' runs with params->phase (an allgatherv: node i gives
 * node_size[i] x b bytes; nodes may differ in size). (3) Each leader broadcasts all p blocks
 * on its node with params->intra[1] (a bcast). (4) Every rank unpacks each block to its rank's
 * place in rbuf: one unpack when the nodes are blocks of consecutive ranks, one per rank
 * otherwise (ranks dealt round-robin over the nodes).
 *
 * Cost (nodes N of L ranks, p = N L): gather(L, b) + allgatherv(N, p b in all) + bcast(L, p b),
 * the node phases on intra-node links, the leaders' on inter-node ones: N - 1 inter-node
 * messages a leader in a ring instead of p - 1 a rank.
 * Requirements: the family's (AC_REQ_NODES), and all blocks together fit an int
 * (AC_REQ_BLOCKS_FIT_INT). Zero-byte blocks: nothing is sent.
 *
 * Written as a schedule (common/phase.h): each phase's rounds on its communicator, a phase
 * of the library's own a step of the blocking run.
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"
#include "coll/common/phase.h"

AC_BLOCKS_BY_SCHEDULE(allgather, hier)

int ac_allgather_hier_schedule(ac_sched *s, const void *sbuf, int scount, MPI_Datatype stype,
                               void *rbuf, int rcount, MPI_Datatype rtype, const ac_params *p)
{
    const ac_nodes *nodes;
    int rc, tsize, rank = s->rank, size = s->size;
    rc = ac_nodes_get(s->comm, &nodes);
    if (rc == MPI_SUCCESS) rc = PMPI_Type_size(rtype, &tsize);
    if (rc != MPI_SUCCESS) return rc;
    int b = rcount * tsize; /* size * b fits an int: AC_REQ_BLOCKS_FIT_INT */
    if (b == 0) return MPI_SUCCESS;
    const ac_algorithm *gather = p->intra[0], *bcast = p->intra[1], *inter = p->phase;
    int nn = nodes->nnodes;
    char *all = ac_sched_tmp(s, (MPI_Aint)b * size, MPI_BYTE);
    int *counts = ac_sched_tmp(s, 2 * (MPI_Aint)nn, MPI_INT);
    if (!all || !counts) return ac_sched_error(s);
    int *displs = counts + nn; /* node i's run: bytes [displs[i], displs[i] + counts[i]) */
    for (int i = 0, at = 0; i < nn; at += nodes->node_size[i], i++) {
        counts[i] = nodes->node_size[i] * b;
        displs[i] = at * b;
    }
    char *node_run = all + displs[nodes->node];
    char *mine = node_run + (MPI_Aint)nodes->local_rank * b;
    MPI_Aint rextent = ac_extent(rtype);

    /* (1) this rank's block, packed at its place in the node's run, gathered to the leader */
    if (sbuf == MPI_IN_PLACE)
        ac_sched_pack(s, ac_at(rbuf, (MPI_Aint)rank * rcount * rextent), rcount, rtype, mine, b);
    else
        ac_sched_pack(s, sbuf, scount, stype, mine, b);
    int leader = nodes->local_rank == 0;
    rc = ac_phase_gather(s, gather, nodes->local, leader ? MPI_IN_PLACE : mine, b,
                              MPI_PACKED, leader ? node_run : NULL, b, MPI_PACKED, 0);

    /* (2) the nodes' runs among the leaders */
    if (rc == MPI_SUCCESS && leader)
        rc = ac_phase_allgatherv(s, inter, nodes->leaders, MPI_IN_PLACE, 0,
                                      MPI_DATATYPE_NULL, all, counts, displs, MPI_PACKED);

    /* (3) every block on every node */
    if (rc == MPI_SUCCESS)
        rc = ac_phase_bcast(s, bcast, nodes->local, all, b * size, MPI_PACKED, 0);
    if (rc != MPI_SUCCESS) return rc;

    /* (4) node order to rank order */
    if (nodes->blocks) {
        ac_sched_unpack(s, all, b * size, rbuf, rcount * size, rtype);
    } else {
        for (int k = 0; k < size; k++)
            ac_sched_unpack(s, all + (MPI_Aint)k * b, b,
                            ac_at(rbuf, (MPI_Aint)nodes->order[k] * rcount * rextent), rcount,
                            rtype);
    }
    return ac_sched_error(s);
}

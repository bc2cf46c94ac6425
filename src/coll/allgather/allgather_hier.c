/*
 * allgather_hier.c - hierarchical allgather (hierarchical.c's family): gather on every node to
 * its leaders, all-gather of the nodes' blocks among the leaders, bcast on every node.
 *
 * Every block travels packed (b = rcount x size(rtype) bytes, MPI_PACKED), in node order: node
 * i's blocks, in its local-rank order (ac_nodes.order), come after those of the nodes before
 * it. With one leader (params->leaders 0 or 1): (1) every rank packs its block (MPI_IN_PLACE:
 * from its place in rbuf) and the node's leader gathers the node's blocks with params->intra[0]
 * (a gather) on the node's communicator; (2) the leaders all-gather the nodes' runs with
 * params->phase (an allgatherv: node i gives node_size[i] x b bytes; nodes may differ in size);
 * (3) each leader broadcasts all p blocks on its node with params->intra[1] (a bcast); (4) every
 * rank unpacks each block to its rank's place in rbuf: one unpack when the nodes are blocks of
 * consecutive ranks, one per rank otherwise (ranks dealt round-robin over the nodes).
 *
 * With k leaders every packed block is cut into k pieces as even as can be (piece j: bytes
 * [j b / k, (j + 1) b / k)), and piece j of every block takes that path alone: gathered on the
 * node to local rank j, all-gathered among the j-th ranks of every node (ac_nodes.lane, whose
 * order is not always the nodes': each member's run is placed by its node), broadcast on the
 * node from local rank j; each rank then interleaves the k pieces back into blocks (one copy a
 * piece, a strided datatype) and unpacks as above. Pieces of no byte (b < k) run no phase. The
 * inter-node phases of the k pieces run on k pairs of links at once.
 *
 * Cost (nodes N of L ranks, p = N L, k leaders): k x gather(L, b / k) + allgatherv(N, p b / k
 * in all, k lanes at once) + k x bcast(L, p b / k), the node phases on intra-node links, the
 * leaders' on inter-node ones: N - 1 inter-node messages a leader in a ring instead of p - 1 a
 * rank.
 * Requirements: the family's (AC_REQ_NODES: with k leaders every node has k ranks or more), and
 * all blocks together fit an int (AC_REQ_BLOCKS_FIT_INT). Zero-byte blocks: nothing is sent.
 *
 * Written as a schedule (common/phase.h): each phase's rounds on its communicator, a phase
 * of the library's own a step of the blocking run.
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"
#include "coll/common/phase.h"

AC_BLOCKS_BY_SCHEDULE(allgather, hier)

/* Lane j's allgatherv of piece j (len bytes a block) into pieces, the nodes' runs in node order:
 * counts and displacements by lane member, each member's run placed by its node. */
static int lane_allgatherv(ac_sched *s, const ac_algorithm *inter, const ac_nodes *nodes,
                           int j, int size, const int *node_start, char *pieces, int len)
{
    int nn = nodes->nnodes;
    int *counts = ac_sched_tmp(s, 2 * (MPI_Aint)nn, MPI_INT);
    if (!counts) return ac_sched_error(s);
    int *displs = counts + nn;
    for (int r = 0, i = 0; r < size && i < nn; r++) {
        if (nodes->local_rank_of[r] != j) continue;
        int node = nodes->node_of[r]; /* lane member i: local rank j of this node */
        counts[i] = nodes->node_size[node] * len;
        displs[i++] = node_start[node] * len;
    }
    return ac_phase_allgatherv(s, inter, j == 0 ? nodes->leaders : nodes->lane, MPI_IN_PLACE,
                               0, MPI_DATATYPE_NULL, pieces, counts, displs, MPI_PACKED);
}

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
    int k = p->leaders > 1 ? p->leaders : 1;
    if (k > AC_HIER_SHARES) return MPI_ERR_ARG;
    const ac_algorithm *gather = p->intra[0], *bcast = p->intra[1], *inter = p->phase;
    int nn = nodes->nnodes;
    /* all: the p blocks in node order; with k > 1, pieces: piece j of every block at
     * pieces + size lo[j], in node order, and mine: this rank's packed block */
    char *all = ac_sched_tmp(s, (MPI_Aint)b * size, MPI_BYTE);
    char *pieces = k > 1 ? ac_sched_tmp(s, (MPI_Aint)b * size, MPI_BYTE) : all;
    char *mine = k > 1 ? ac_sched_tmp(s, b, MPI_BYTE) : NULL;
    int *node_start = ac_sched_tmp(s, nn, MPI_INT);
    if (!all || !pieces || (k > 1 && !mine) || !node_start) return ac_sched_error(s);
    for (int i = 0, at = 0; i < nn; at += nodes->node_size[i], i++)
        node_start[i] = at;
    MPI_Aint lo[AC_HIER_SHARES + 1];
    ac_phase_pieces(b, k, lo);
    int place = node_start[nodes->node] + nodes->local_rank; /* this rank's, in node order */
    MPI_Aint rextent = ac_extent(rtype);

    /* (1) this rank's block, packed (in its place when k = 1), its pieces in their places */
    const void *from = sbuf == MPI_IN_PLACE ? ac_at(rbuf, (MPI_Aint)rank * rcount * rextent)
                                            : sbuf;
    int fcount = sbuf == MPI_IN_PLACE ? rcount : scount;
    MPI_Datatype ftype = sbuf == MPI_IN_PLACE ? rtype : stype;
    ac_sched_pack(s, from, fcount, ftype, k > 1 ? mine : all + (MPI_Aint)place * b, b);
    for (int j = 0; k > 1 && j < k; j++)
        if (lo[j + 1] > lo[j])
            ac_sched_copy(s, mine + lo[j], lo[j + 1] - lo[j], MPI_BYTE,
                          pieces + (MPI_Aint)size * lo[j] + (MPI_Aint)place * (lo[j + 1] - lo[j]),
                          lo[j + 1] - lo[j], MPI_BYTE);
    /* ... gathered to local rank j, piece by piece */
    for (int j = 0; j < k && rc == MPI_SUCCESS; j++) {
        int len = lo[j + 1] - lo[j];
        if (len == 0) continue; /* equal on every rank: b is */
        char *piece = pieces + (MPI_Aint)size * lo[j];
        int root = nodes->local_rank == j;
        rc = ac_phase_gather(s, gather, nodes->local,
                             root ? MPI_IN_PLACE : piece + (MPI_Aint)place * len, len, MPI_PACKED,
                             root ? piece + (MPI_Aint)node_start[nodes->node] * len : NULL, len,
                             MPI_PACKED, j);
    }

    /* (2) the nodes' runs of piece j among the j-th ranks */
    int j = nodes->local_rank;
    if (rc == MPI_SUCCESS && j < k && lo[j + 1] > lo[j])
        rc = lane_allgatherv(s, inter, nodes, j, size, node_start,
                             pieces + (MPI_Aint)size * lo[j], lo[j + 1] - lo[j]);

    /* (3) every piece of every block on every node */
    for (int i = 0; i < k && rc == MPI_SUCCESS; i++) {
        int len = lo[i + 1] - lo[i];
        if (len > 0)
            rc = ac_phase_bcast(s, bcast, nodes->local, pieces + (MPI_Aint)size * lo[i],
                                len * size, MPI_PACKED, i);
    }
    if (rc != MPI_SUCCESS) return rc;

    /* (4) the pieces interleaved back into blocks; node order to rank order */
    for (int i = 0; k > 1 && i < k; i++) {
        int len = lo[i + 1] - lo[i];
        MPI_Datatype strided;
        if (len == 0) continue;
        rc = PMPI_Type_vector(size, len, b, MPI_BYTE, &strided);
        if (rc == MPI_SUCCESS) rc = PMPI_Type_commit(&strided);
        if (rc != MPI_SUCCESS) return rc;
        ac_sched_own(s, strided);
        ac_sched_copy(s, pieces + (MPI_Aint)size * lo[i], len * size, MPI_BYTE, all + lo[i], 1,
                      strided);
    }
    if (nodes->blocks) {
        ac_sched_unpack(s, all, b * size, rbuf, rcount * size, rtype);
    } else {
        for (int q = 0; q < size; q++)
            ac_sched_unpack(s, all + (MPI_Aint)q * b, b,
                            ac_at(rbuf, (MPI_Aint)nodes->order[q] * rcount * rextent), rcount,
                            rtype);
    }
    return ac_sched_error(s);
}

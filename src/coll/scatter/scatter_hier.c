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
 * With k leaders (nodes of one size, ac_registry's nodes_met) every packed block is cut into k
 * pieces as even as can be (piece j: bytes [j b / k, (j + 1) b / k)), and piece j of every
 * block takes that path alone: the root sends it, the nodes' runs in lane order (a strided
 * copy a piece and node), to its node's local rank j (one message a piece, all in one round),
 * which scatters the runs among the j-th ranks of every node (ac_nodes.lane); each node's
 * local rank j scatters the piece on its node, and every rank unpacks its block once its k
 * pieces are there. Pieces of no byte (b < k) run no phase.
 *
 * Cost (nodes N of L ranks, b bytes a block, k leaders): scatter(N, L b / k) among the leaders
 * on inter-node links (k lanes at once) + k x scatter(L, b / k) on every node at once on
 * intra-node links, plus intra-node messages of p b bytes in all when the root is not a leader
 * (not priced: the cost shape knows no root).
 *
 * Written as a schedule (common/phase.h): each phase's rounds on its communicator, a phase
 * of the library's own a step of the blocking run.
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"
#include "coll/common/phase.h"
#include "coll/common/pipeline.h"

AC_ROOTED_BY_SCHEDULE(scatter, hier)

/* k > 1 leaders: the pieces' paths (above) from `all`, the blocks in node order at the root, to
 * `mine`, this rank's block. */
static int scatter_pieces(ac_sched *s, const ac_params *p, const ac_nodes *nodes,
                          const char *all, MPI_Aint block, int root, char *mine)
{
    ac_phase_rooted_pieces pc;
    int k = p->leaders, size = s->size, ppn = nodes->node_size[0]; /* nodes of one size */
    int rc = ac_phase_rooted_pieces_begin(s, nodes, k, block, root, &pc);
    if (rc != MPI_SUCCESS) return rc;
    const MPI_Aint *lo = pc.lo;
    int j = nodes->local_rank;
    for (int i = 0; s->rank == root && i < k && rc == MPI_SUCCESS; i++)
        if (lo[i + 1] > lo[i])
            rc = ac_phase_lane_runs(s, nodes, i, block, lo[i], lo[i + 1] - lo[i], (char *)all,
                                    pc.pieces + (MPI_Aint)size * lo[i], 1);
    if (rc != MPI_SUCCESS) return rc;
    ac_phase_rooted_pieces_hand(s, &pc, root, 0);
    if (j < k && lo[j + 1] > lo[j]) {
        int run = ppn * (lo[j + 1] - lo[j]);
        rc = ac_phase_scatter(s, p->phase, nodes->lane,
                              pc.holds ? pc.pieces + (MPI_Aint)size * lo[j] : NULL, run,
                              MPI_BYTE, pc.node_run, run, MPI_BYTE, pc.lane_root[j]);
    }
    for (int i = 0; i < k && rc == MPI_SUCCESS; i++) {
        int len = lo[i + 1] - lo[i];
        if (len > 0)
            rc = ac_phase_scatter(s, p->intra[1], nodes->local, j == i ? pc.node_run : NULL,
                                  len, MPI_BYTE, mine + lo[i], len, MPI_BYTE, i);
    }
    return rc != MPI_SUCCESS ? rc : ac_sched_error(s);
}

int ac_scatter_hier_schedule(ac_sched *s, const void *sbuf, int scount, MPI_Datatype stype,
                             void *rbuf, int rcount, MPI_Datatype rtype, int root,
                             const ac_params *p)
{
    const ac_nodes *nodes;
    int rc, rank, size;
    MPI_Aint block;
    /* block bytes from the significant arguments: the send side at the root */
    rc = ac_rooted_block(s->comm, root, scount, stype, rcount, rtype, &rank, &size, &block);
    if (rc != MPI_SUCCESS || block == 0) return rc;
    rc = ac_nodes_get(s->comm, &nodes);
    if (rc != MPI_SUCCESS) return rc;
    const ac_algorithm *inter = p->phase, *scatter = p->intra[1];
    int root_node = nodes->node_of[root], leader = nodes->leader_of[root_node];
    int is_leader = nodes->local_rank == 0, in_place = rank == root && rbuf == MPI_IN_PLACE;
    int k = p->leaders > 1 ? p->leaders : 1;
    MPI_Aint stride = rank == root ? ac_extent(stype) * scount : 0;
    MPI_Aint total = size * block;
    char *node_blocks = NULL, *all = NULL;
    ac_bytes own = {0};

    if (in_place) /* the root's own block stays in sbuf: received into a temporary, dropped */
        own.data = ac_sched_tmp(s, block, MPI_BYTE);
    else if ((rc = ac_pipe_bytes(s, rbuf, rcount, rtype, 0, &own)) != MPI_SUCCESS)
        return rc;
    if (is_leader && k == 1) node_blocks = ac_sched_tmp(s, nodes->local_size * block, MPI_BYTE);
    if ((rank == leader && k == 1) || rank == root) all = ac_sched_tmp(s, total, MPI_BYTE);
    if ((rc = ac_sched_error(s)) != MPI_SUCCESS) return rc;

    /* the root: block i is rank order[i]'s */
    for (int i = 0; rank == root && i < size; i++)
        ac_sched_pack(s, ac_at(sbuf, nodes->order[i] * stride), scount, stype, all + i * block,
                      (int)block);
    if (k > 1) {
        rc = scatter_pieces(s, p, nodes, all, block, root, own.data);
    } else {
        if (root != leader) {
            if (rank == root) ac_sched_send(s, all, (int)total, MPI_BYTE, leader);
            if (rank == leader) ac_sched_recv(s, all, (int)total, MPI_BYTE, root);
        }
        ac_sched_round(s);
        if (is_leader && ac_nodes_equal(nodes)) {
            int run = (int)(nodes->node_size[0] * block);
            rc = ac_phase_scatter(s, inter, nodes->leaders, all, run, MPI_BYTE, node_blocks, run,
                                  MPI_BYTE, root_node);
        } else if (is_leader) {
            /* nodes of different sizes: inter is native (AC_REQ_NODES), the library's
             * scatterv */
            rc = ac_phase_leaders_scatterv(s, nodes, block, all, node_blocks, root_node);
        }
        if (rc == MPI_SUCCESS)
            rc = ac_phase_scatter(s, scatter, nodes->local, node_blocks, (int)block, MPI_BYTE,
                                  own.data, (int)block, MPI_BYTE, 0);
    }
    if (rc == MPI_SUCCESS && !in_place) ac_pipe_bytes_store(s, &own, rbuf, rcount, rtype);
    return rc != MPI_SUCCESS ? rc : ac_sched_error(s);
}

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
 * With k leaders (nodes of one size, ac_registry's nodes_met) every packed block is cut into k
 * pieces as even as can be (piece j: bytes [j b / k, (j + 1) b / k)), and piece j of every
 * block takes that path alone: gathered on each node to local rank j, gathered among the j-th
 * ranks of every node (ac_nodes.lane) to the root's node's local rank j, which sends them to
 * the root (one message a piece, all in one round); the root places each lane member's run by
 * its node (the lane's order is not always the nodes') and interleaves the pieces into blocks
 * (a strided copy a piece and node). Pieces of no byte (b < k) run no phase.
 *
 * Cost (nodes N of L ranks, b bytes a block, k leaders): k x gather(L, b / k) on every node at
 * once on intra-node links + gather(N, L b / k) among the leaders on inter-node links (k lanes
 * at once), plus intra-node messages of p b bytes in all when the root is not a leader (not
 * priced: the cost shape knows no root).
 *
 * Written as a schedule (common/phase.h): each phase's rounds on its communicator, a phase
 * of the library's own a step of the blocking run.
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"
#include "coll/common/phase.h"
#include "coll/common/pipeline.h"

AC_ROOTED_BY_SCHEDULE(gather, hier)

/* k > 1 leaders: the pieces' paths (above) into `all`, the blocks in node order, at the root. */
static int gather_pieces(ac_sched *s, const ac_params *p, const ac_nodes *nodes, const char *own,
                         MPI_Aint block, int root, char *all)
{
    ac_phase_rooted_pieces pc;
    int k = p->leaders, size = s->size, ppn = nodes->node_size[0]; /* nodes of one size */
    int rc = ac_phase_rooted_pieces_begin(s, nodes, k, block, root, &pc);
    if (rc != MPI_SUCCESS) return rc;
    const MPI_Aint *lo = pc.lo;
    int j = nodes->local_rank;
    for (int i = 0; i < k && rc == MPI_SUCCESS; i++) {
        int len = lo[i + 1] - lo[i];
        if (len > 0)
            rc = ac_phase_gather(s, p->intra[0], nodes->local, own + lo[i], len, MPI_BYTE,
                                 j == i ? pc.node_run : NULL, len, MPI_BYTE, i);
    }
    if (rc == MPI_SUCCESS && j < k && lo[j + 1] > lo[j]) {
        int run = ppn * (lo[j + 1] - lo[j]);
        rc = ac_phase_gather(s, p->phase, nodes->lane, pc.node_run, run, MPI_BYTE,
                             pc.holds ? pc.pieces + (MPI_Aint)size * lo[j] : NULL, run,
                             MPI_BYTE, pc.lane_root[j]);
    }
    if (rc != MPI_SUCCESS) return rc;
    ac_phase_rooted_pieces_hand(s, &pc, root, 1);
    for (int i = 0; s->rank == root && i < k && rc == MPI_SUCCESS; i++)
        if (lo[i + 1] > lo[i])
            rc = ac_phase_lane_runs(s, nodes, i, block, lo[i], lo[i + 1] - lo[i], all,
                                    pc.pieces + (MPI_Aint)size * lo[i], 0);
    return rc != MPI_SUCCESS ? rc : ac_sched_error(s);
}

int ac_gather_hier_schedule(ac_sched *s, const void *sbuf, int scount, MPI_Datatype stype,
                            void *rbuf, int rcount, MPI_Datatype rtype, int root,
                            const ac_params *p)
{
    const ac_nodes *nodes;
    int rc, rank, size;
    MPI_Aint block;
    /* block bytes from the significant arguments: the receive side at the root */
    rc = ac_rooted_block(s->comm, root, rcount, rtype, scount, stype, &rank, &size, &block);
    if (rc != MPI_SUCCESS || block == 0) return rc;
    rc = ac_nodes_get(s->comm, &nodes);
    if (rc != MPI_SUCCESS) return rc;
    const ac_algorithm *gather = p->intra[0], *inter = p->phase;
    int root_node = nodes->node_of[root], leader = nodes->leader_of[root_node];
    int is_leader = nodes->local_rank == 0, in_place = rank == root && sbuf == MPI_IN_PLACE;
    MPI_Aint stride = rank == root ? ac_extent(rtype) * rcount : 0;
    MPI_Aint total = size * block;
    char *node_blocks = NULL, *all = NULL;
    ac_bytes own = {0};

    if (in_place)
        rc = ac_pipe_bytes(s, ac_at(rbuf, root * stride), rcount, rtype, 1, &own);
    else
        rc = ac_pipe_bytes(s, sbuf, scount, stype, 1, &own);
    if (rc != MPI_SUCCESS) return rc;
    if (p->leaders > 1) {
        if (rank == root) all = ac_sched_tmp(s, total, MPI_BYTE);
        if ((rc = ac_sched_error(s)) != MPI_SUCCESS) return rc;
        rc = gather_pieces(s, p, nodes, own.data, block, root, all);
    } else {
        if (is_leader) node_blocks = ac_sched_tmp(s, nodes->local_size * block, MPI_BYTE);
        if (rank == leader || rank == root) all = ac_sched_tmp(s, total, MPI_BYTE);
        if ((rc = ac_sched_error(s)) != MPI_SUCCESS) return rc;

        rc = ac_phase_gather(s, gather, nodes->local, own.data, (int)block, MPI_BYTE,
                             node_blocks, (int)block, MPI_BYTE, 0);
        if (rc == MPI_SUCCESS && is_leader && ac_nodes_equal(nodes)) {
            int run = (int)(nodes->node_size[0] * block);
            rc = ac_phase_gather(s, inter, nodes->leaders, node_blocks, run, MPI_BYTE, all,
                                 run, MPI_BYTE, root_node);
        } else if (rc == MPI_SUCCESS && is_leader) {
            /* nodes of different sizes: inter is native (AC_REQ_NODES), the library's gatherv */
            rc = ac_phase_leaders_gatherv(s, nodes, block, node_blocks, all, root_node);
        }
        if (rc == MPI_SUCCESS && root != leader) {
            if (rank == leader) ac_sched_send(s, all, (int)total, MPI_BYTE, root);
            if (rank == root) ac_sched_recv(s, all, (int)total, MPI_BYTE, leader);
            ac_sched_round(s);
        }
    }
    /* the root: block i is rank order[i]'s */
    for (int i = 0; rc == MPI_SUCCESS && rank == root && i < size; i++) {
        int r = nodes->order[i];
        if (in_place && r == root) continue;
        ac_sched_unpack(s, all + i * block, (int)block, ac_at(rbuf, r * stride), rcount, rtype);
    }
    return rc != MPI_SUCCESS ? rc : ac_sched_error(s);
}

/*
 * reduce_tree.c - pipelined tree reduce: the tree engine (common/tree.h) gives the shape, the
 * pipelining engine (common/pipeline.h, ac_pipe_reduce) combines segment by segment: each rank
 * posts its children's receives ahead, combines segment j as own(j) op child0(j) op child1(j)
 * ... and sends it to its parent with a nonblocking send while the next segments arrive
 * (Berkeley report, section 3; Thakur, Rabenseifner and Gropp 2005 for the binomial reduce;
 * Open MPI's pipelined chain/binary/binomial reduce).
 *
 * Operand order. Every subtree is a run of consecutive ranks in the tree's numbering and the
 * children, by increasing number, tile it, so "own op child0 op child1 ..." combines the
 * operands in the tree's rank order, from the left, in every shape.
 *   Commutative ops: the tree is numbered relative to the root and the result lands at the
 *   root directly.
 *   Non-commutative ops (user ops not declared commutative): the tree is rooted at rank 0 and
 *   numbered by rank, so every partial result is x_a op ... op x_b over a rank range and the
 *   result, at rank 0, is x_0 op x_1 op ... op x_(p-1); rank 0 then sends it to the root in
 *   one message (alpha + n beta more when root != 0, as MPICH's binomial reduce does).
 * So every instance is correct for every op; none declares AC_REQ_COMMUTATIVE.
 *
 * Parameters: params->tree (binomial, binary, chain, flat, k-nomial with params->k) and
 * params->segment (bytes, rounded down to whole elements, at least one; 0: unsegmented).
 * NULL params: binomial, unsegmented (MPICH's binomial reduce). Data travel in the caller's
 * datatype (MPI requires the same count and type on every rank), so segments hold whole
 * elements.
 *
 * Cost, n bytes, s-byte segments (m = ceil(n/s)), gamma per byte combined:
 *   binomial  ceil(log2 p) (alpha + n beta + n gamma) unsegmented; segmented, each rank
 *             receives and combines up to log2 p streams: about (log2 p + m - 1) log2 p
 *             (alpha + s beta + s gamma).
 *   k-nomial  ceil(log_k p) levels, up to (k-1) children per level.
 *   binary    (depth + m - 1) 2 (alpha + s beta + s gamma), depth floor(log2 p).
 *   chain     (p - 1 + m - 1) (alpha + s beta + s gamma): bandwidth and compute spread evenly.
 *   flat      (p - 1) m (alpha + s beta + s gamma), all at the root.
 * Memory: at most AC_PIPE_SLOTS segment buffers per rank (plus the whole vector at rank 0 for
 * a non-commutative op with root != 0).
 * Requirements: none. Any process count and root; MPI_IN_PLACE at the root.
 * Written as a schedule (common/sched.h: the pipelining engine's transfers as kept messages,
 * the send to a root other than the tree's a round of its own), which the blocking call runs
 * and nonblocking and persistent calls progress.
 * Source: Berkeley report (seeds/001) section 3.
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"
#include "coll/common/pipeline.h"
#include "coll/common/sched.h"
#include "coll/common/tree.h"

int ac_reduce_tree_schedule(ac_sched *s, const void *sbuf, void *rbuf, int count,
                            MPI_Datatype dtype, MPI_Op op, int root, const ac_params *p)
{
    int rc, rank = s->rank, commutative, tree_root, tsize, segcount = 0;
    const void *own = sbuf == MPI_IN_PLACE ? rbuf : sbuf;
    ac_tree_node node = {0};

    if (count == 0) return ac_sched_error(s);
    rc = PMPI_Op_commutative(op, &commutative);
    if (rc == MPI_SUCCESS) rc = PMPI_Type_size(dtype, &tsize);
    if (rc != MPI_SUCCESS) return rc;
    if (p && p->segment > 0 && tsize > 0)
        segcount = p->segment / tsize > 0 ? p->segment / tsize : 1;
    tree_root = commutative ? root : 0;
    rc = ac_tree_node_get(ac_tree_of(p), tree_root, rank, s->size, &node);
    if (rc != MPI_SUCCESS) return rc;

    if (rank == tree_root) {
        void *into = rank != root ? ac_sched_tmp(s, count, dtype) : rbuf;
        if (into)
            rc = ac_pipe_reduce_schedule(s, own, into, count, dtype, op, MPI_PROC_NULL,
                                         node.child, node.nchildren, segcount);
        if (rank != root) {
            ac_sched_send(s, into, count, dtype, root);
            ac_sched_round(s);
        }
    } else {
        rc = ac_pipe_reduce_schedule(s, own, NULL, count, dtype, op, node.parent, node.child,
                                     node.nchildren, segcount);
        /* the root's own operand has left (every send completed): rbuf may take the result */
        if (rank == root) {
            ac_sched_recv(s, rbuf, count, dtype, tree_root);
            ac_sched_round(s);
        }
    }
    ac_tree_node_free(&node);
    return rc != MPI_SUCCESS ? rc : ac_sched_error(s);
}

AC_REDUCE_BY_SCHEDULE(tree)

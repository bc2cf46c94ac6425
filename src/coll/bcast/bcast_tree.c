/*
 * bcast_tree.c - pipelined tree broadcast: the tree engine (common/tree.h) gives the shape,
 * the pipelining engine (common/pipeline.h, ac_pipe_forward) moves the message down it in
 * segments: every rank posts its receives from the parent ahead and sends each segment on to
 * its children (largest subtree first) with nonblocking sends as soon as it has arrived, while
 * the next segments arrive (Berkeley report, section 3; Thakur, Rabenseifner and Gropp 2005
 * for the binomial tree; Open MPI's tuned pipelined chain/binary/binomial broadcasts).
 *
 * Parameters: params->tree (binomial, binary, chain, flat, k-nomial with params->k) and
 * params->segment (bytes; 0: the whole message in one message per edge). NULL params: binomial,
 * unsegmented (MPICH's binomial broadcast; with the flat tree it is the linear broadcast).
 * The message travels as its packed bytes (MPI_PACKED at both ends): a buffer whose type is a
 * contiguous run of a predefined type is used as it is, others are packed at the root and
 * unpacked at the other ranks. So types may differ between ranks (same signature), and segment
 * boundaries, at multiples of the segment size in the byte stream, may fall inside an element:
 * no typed operation ever sees part of one.
 *
 * Cost, n bytes, s-byte segments (m = ceil(n/s) segments, m = 1 unsegmented):
 *   binomial  ceil(log2 p) * (alpha + n beta) unsegmented; segmented about
 *             (ceil(log2 p) + m - 1) * log2 p * (alpha + s beta) (a node sends each segment to
 *             up to log2 p children).
 *   k-nomial  ceil(log_k p) levels, up to (k-1) sends per level.
 *   binary    (depth + m - 1) * 2 * (alpha + s beta), depth floor(log2 p).
 *   chain     (p - 1 + m - 1) * (alpha + s beta): bandwidth optimal for m >> p.
 *   flat      (p - 1) * m * (alpha + s beta) at the root.
 * Requirements: none. Any process count and root (subtrees past p are clipped).
 * Written as a schedule (common/sched.h), which the blocking call runs and nonblocking and
 * persistent calls progress. Unsegmented (params->segment 0): a round that receives the message
 * from the parent (its typed elements), then a round of its sends to the children in the same
 * order, posted at once (MPI_Irecv, then MPI_Isend each and MPI_Waitall in the blocking run:
 * the pipeline engine's calls for one segment, so the simulated times stay the engine's).
 * Segmented: the pipelining engine's transfers as kept messages, the root's pack the first
 * local step and the other ranks' unpack the last (types that are not plain bytes).
 * Source: Berkeley report (seeds/001) section 3, "Static optimizations: trees and pipelining".
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"
#include "coll/common/pipeline.h"
#include "coll/common/sched.h"
#include "coll/common/tree.h"

#include <stdlib.h>

/* The segmented instances: the message's bytes down the tree by the pipelining engine. */
static int forward_segments(ac_sched *s, void *buf, int count, MPI_Datatype dtype, int root,
                            const ac_tree_node *node, const int *order, MPI_Aint seg)
{
    ac_bytes bytes;
    ac_pipe_edge *edges = malloc((size_t)(node->nchildren + 1) * sizeof *edges);
    int rc = edges ? ac_pipe_bytes(s, buf, count, dtype, s->rank == root, &bytes) : MPI_ERR_NO_MEM;
    if (rc == MPI_SUCCESS) {
        for (int i = 0; i < node->nchildren; i++)
            edges[i] = (ac_pipe_edge){node->child[order[i]], bytes.data, bytes.size};
        rc = ac_pipe_forward_schedule(s, bytes.data, bytes.size,
                                      s->rank == root ? MPI_PROC_NULL : node->parent, edges,
                                      node->nchildren, seg);
        if (s->rank != root) ac_pipe_bytes_store(s, &bytes, buf, count, dtype);
    }
    free(edges);
    return rc != MPI_SUCCESS ? rc : ac_sched_error(s);
}

int ac_bcast_tree_schedule(ac_sched *s, void *buf, int count, MPI_Datatype dtype, int root,
                           const ac_params *p)
{
    int tsize, *order = NULL;
    ac_tree_node node = {0};
    int rc = PMPI_Type_size(dtype, &tsize);
    if (rc != MPI_SUCCESS) return rc;
    if ((MPI_Aint)count * tsize == 0 || s->size == 1) return ac_sched_error(s);
    rc = ac_tree_node_get(ac_tree_of(p), root, s->rank, s->size, &node);
    if (rc == MPI_SUCCESS && !(order = malloc((size_t)(node.nchildren + 1) * sizeof *order)))
        rc = MPI_ERR_NO_MEM;
    if (rc == MPI_SUCCESS) ac_tree_send_order(&node, order);
    if (rc == MPI_SUCCESS && p && p->segment > 0) {
        rc = forward_segments(s, buf, count, dtype, root, &node, order, p->segment);
    } else if (rc == MPI_SUCCESS) {
        if (s->rank != root) {
            ac_sched_recv(s, buf, count, dtype, node.parent);
            ac_sched_round_posted(s);
        }
        for (int i = 0; i < node.nchildren; i++)
            ac_sched_send(s, buf, count, dtype, node.child[order[i]]);
        ac_sched_round_posted(s);
        rc = ac_sched_error(s);
    }
    free(order);
    ac_tree_node_free(&node);
    return rc;
}

AC_BCAST_BY_SCHEDULE(tree)

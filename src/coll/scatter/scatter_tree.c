/*
 * scatter_tree.c - pipelined tree scatter: the tree engine (common/tree.h) gives the shape, in
 * which every subtree is a run of consecutive ranks relative to the root; the root sends each
 * child its subtree's blocks, and every inner rank forwards its children's ranges of what it
 * receives, segment by segment, with nonblocking sends while the next segments arrive
 * (common/pipeline.h, ac_pipe_forward): intermediate ranks are "packet forwarders" (Berkeley
 * report, sections 3.1-3.2; Thakur, Rabenseifner and Gropp 2005 for the binomial scatter).
 *
 * Parameters: params->tree (binomial, binary, chain, flat, k-nomial with params->k) and
 * params->segment (bytes; 0: one message per edge). NULL params: binomial, unsegmented (MPICH's
 * binomial scatter); the flat tree is the linear scatter of MPICH and Open MPI.
 * Data travel as packed bytes (MPI_PACKED at both ends), so send and receive types may differ
 * and a segment boundary may fall inside an element: only whole blocks are ever packed or
 * unpacked. The root sends straight from its send buffer when the type is plain bytes and the
 * child's ranks do not wrap past p-1; otherwise it packs that child's blocks (in relative
 * order) first. A leaf receives straight into its receive buffer when its type is plain bytes;
 * inner ranks receive their subtree's blocks into a temporary buffer and unpack their own.
 *
 * Cost, n bytes scattered in total (n/p per rank), s-byte segments: the root sends n(p-1)/p
 * bytes whatever the shape; a rank with subtree size t receives t n/p bytes and forwards
 * (t-1) n/p. Unsegmented: binomial ceil(log2 p) alpha + (p-1)/p n beta; flat (p-1) alpha +
 * (p-1)/p n beta at the root; chain (p-1) alpha + (p-1) n/2 beta in sequence (the report's
 * O(N M) traffic); segmenting adds one alpha per segment and overlaps the levels.
 * Requirements: none. Any process count and root; MPI_IN_PLACE at the root. Assumes the
 * homogeneous packed format (a block packs to its signature's bytes), true of Open MPI and
 * MPICH on one architecture.
 * Written as a schedule (common/sched.h: the staged subtrees' packs the first local steps, the
 * pipelining engine's transfers kept messages, the own block's copy or unpack the last local
 * step), which the blocking call runs and nonblocking and persistent calls progress.
 * Source: Berkeley report (seeds/001) section 3.
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"
#include "coll/common/pipeline.h"
#include "coll/common/sched.h"
#include "coll/common/tree.h"

#include <stdlib.h>

/* The root: each child's blocks straight from sbuf when possible, else packed in relative
 * order into `stage`; then the pipelined sends; its own block last. */
static int scatter_root(ac_sched *s, const void *sbuf, int scount, MPI_Datatype stype,
                        void *rbuf, int rcount, MPI_Datatype rtype, int root, MPI_Aint block,
                        const ac_tree_node *node, MPI_Aint seg)
{
    int rc, size = s->size, direct = ac_is_bytes(stype), *order = NULL;
    MPI_Aint lb, extent, stride, staged = 0, at = 0;
    ac_pipe_edge *edges = NULL;
    char *stage;

    PMPI_Type_get_extent(stype, &lb, &extent);
    stride = extent * scount;
    for (int i = 0; i < node->nchildren; i++)
        if (!direct || node->child[i] + node->child_size[i] > size)
            staged += node->child_size[i] * block;
    stage = ac_sched_tmp(s, staged + 1, MPI_BYTE);
    if (!stage) return ac_sched_error(s);
    edges = malloc((size_t)(node->nchildren + 1) * sizeof *edges);
    order = malloc((size_t)(node->nchildren + 1) * sizeof *order);
    if (!edges || !order) {
        rc = MPI_ERR_NO_MEM;
        goto out;
    }
    ac_tree_send_order(node, order);
    for (int i = 0; i < node->nchildren; i++) {
        int c = order[i], first = node->child[c], n = node->child_size[c];
        MPI_Aint len = n * block;
        if (direct && first + n <= size) {
            edges[i] = (ac_pipe_edge){first, ac_at(sbuf, lb + first * stride), len};
            continue;
        }
        /* ranks first .. p-1, then 0 .. (wrapping subtree), packed */
        int head = first + n <= size ? n : size - first;
        ac_sched_pack(s, ac_at(sbuf, first * stride), head * scount, stype, stage + at,
                      (int)(head * block));
        if (head < n)
            ac_sched_pack(s, sbuf, (n - head) * scount, stype, stage + at + head * block,
                          (int)((n - head) * block));
        edges[i] = (ac_pipe_edge){first, stage + at, len};
        at += len;
    }
    rc = ac_pipe_forward_schedule(s, NULL, 0, MPI_PROC_NULL, edges, node->nchildren, seg);
    if (rbuf != MPI_IN_PLACE)
        ac_sched_copy(s, ac_at(sbuf, root * stride), scount, stype, rbuf, rcount, rtype);
out:
    free(edges);
    free(order);
    return rc != MPI_SUCCESS ? rc : ac_sched_error(s);
}

/* Any other rank: receive the subtree's blocks, forward the children's ranges, keep its own. */
static int scatter_nonroot(ac_sched *s, void *rbuf, int rcount, MPI_Datatype rtype, int root,
                           MPI_Aint block, const ac_tree_node *node, MPI_Aint seg)
{
    int rc, size = s->size, *order = NULL;
    MPI_Aint len = node->subtree * block;
    ac_pipe_edge *edges = NULL;
    ac_bytes own;
    char *stream;

    if (node->nchildren == 0) {
        /* a leaf: its block only, into rbuf itself when the type allows */
        rc = ac_pipe_bytes(s, rbuf, rcount, rtype, 0, &own);
        if (rc == MPI_SUCCESS)
            rc = ac_pipe_forward_schedule(s, own.data, block, node->parent, NULL, 0, seg);
        ac_pipe_bytes_store(s, &own, rbuf, rcount, rtype);
        return rc != MPI_SUCCESS ? rc : ac_sched_error(s);
    }
    stream = ac_sched_tmp(s, len, MPI_BYTE);
    if (!stream) return ac_sched_error(s);
    edges = malloc((size_t)node->nchildren * sizeof *edges);
    order = malloc((size_t)node->nchildren * sizeof *order);
    if (!edges || !order) {
        rc = MPI_ERR_NO_MEM;
        goto out;
    }
    ac_tree_send_order(node, order);
    for (int i = 0; i < node->nchildren; i++) {
        int c = order[i];
        /* the child's blocks start at its relative rank minus this rank's */
        MPI_Aint skip = ((node->child[c] - root + size) % size) - node->vrank;
        edges[i] =
            (ac_pipe_edge){node->child[c], stream + skip * block, node->child_size[c] * block};
    }
    rc = ac_pipe_forward_schedule(s, stream, len, node->parent, edges, node->nchildren, seg);
    ac_sched_unpack(s, stream, (int)block, rbuf, rcount, rtype);
out:
    free(edges);
    free(order);
    return rc != MPI_SUCCESS ? rc : ac_sched_error(s);
}

int ac_scatter_tree_schedule(ac_sched *s, const void *sbuf, int scount, MPI_Datatype stype,
                             void *rbuf, int rcount, MPI_Datatype rtype, int root,
                             const ac_params *p)
{
    int rc, rank, size;
    MPI_Aint block;
    ac_tree_node node = {0};

    /* block bytes from the significant arguments: the send side at the root */
    rc = ac_rooted_block(s->comm, root, scount, stype, rcount, rtype, &rank, &size, &block);
    if (rc != MPI_SUCCESS || block == 0) return rc != MPI_SUCCESS ? rc : ac_sched_error(s);
    rc = ac_tree_node_get(ac_tree_of(p), root, rank, size, &node);
    if (rc != MPI_SUCCESS) return rc;
    if (rank == root)
        rc = scatter_root(s, sbuf, scount, stype, rbuf, rcount, rtype, root, block, &node,
                          p ? p->segment : 0);
    else
        rc = scatter_nonroot(s, rbuf, rcount, rtype, root, block, &node, p ? p->segment : 0);
    ac_tree_node_free(&node);
    return rc;
}

AC_ROOTED_BY_SCHEDULE(scatter, tree)

/*
 * gather_tree.c - pipelined tree gather, the mirror of scatter_tree.c: the tree engine
 * (common/tree.h) gives the shape, in which every subtree is a run of consecutive ranks
 * relative to the root; each rank sends its parent its own block followed by its children's
 * subtrees, segment by segment, as soon as those bytes have arrived (common/pipeline.h,
 * ac_pipe_collect): intermediate ranks are "packet forwarders" (Berkeley report, sections
 * 3.1-3.2; Thakur, Rabenseifner and Gropp 2005 for the binomial gather).
 *
 * Parameters: params->tree (binomial, binary, chain, flat, k-nomial with params->k) and
 * params->segment (bytes; 0: one message per edge). NULL params: binomial, unsegmented (MPICH's
 * binomial gather); the flat tree is the linear gather of MPICH and Open MPI.
 * Data travel as packed bytes (MPI_PACKED at both ends), so send and receive types may differ
 * and a segment boundary may fall inside an element: only whole blocks are ever packed or
 * unpacked. The root receives straight into its receive buffer when the type is plain bytes
 * and the child's ranks do not wrap past p-1, otherwise into a temporary buffer that it
 * unpacks in rank order. A leaf sends straight from its send buffer when the type is plain
 * bytes; inner ranks assemble their subtree's blocks in a temporary buffer.
 *
 * Cost, n bytes gathered in total (n/p per rank), s-byte segments: the root receives
 * n(p-1)/p bytes whatever the shape; a rank with subtree size t sends t n/p bytes.
 * Unsegmented: binomial ceil(log2 p) alpha + (p-1)/p n beta; flat (p-1) alpha + (p-1)/p n beta
 * at the root; chain (p-1) alpha + (p-1) n/2 beta in sequence; segmenting adds one alpha per
 * segment and overlaps the levels.
 * Requirements: none. Any process count and root; MPI_IN_PLACE at the root. Assumes the
 * homogeneous packed format (a block packs to its signature's bytes), true of Open MPI and
 * MPICH on one architecture.
 * Written as a schedule (common/sched.h: the own block's copy or pack the first local step, the
 * pipelining engine's transfers kept messages, the staged subtrees' unpacks the last local
 * steps), which the blocking call runs and nonblocking and persistent calls progress.
 * Source: Berkeley report (seeds/001) section 3.
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"
#include "coll/common/pipeline.h"
#include "coll/common/sched.h"
#include "coll/common/tree.h"

#include <stdlib.h>

/* The root: every child's subtree into rbuf (or a temporary buffer, unpacked afterwards). */
static int gather_root(ac_sched *s, const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                       int rcount, MPI_Datatype rtype, int root, MPI_Aint block,
                       const ac_tree_node *node, MPI_Aint seg)
{
    int rc, size = s->size, direct = ac_is_bytes(rtype);
    MPI_Aint lb, extent, stride, staged = 0, at = 0;
    ac_pipe_edge *edges = NULL;
    char *stage;

    PMPI_Type_get_extent(rtype, &lb, &extent);
    stride = extent * rcount;
    if (sbuf != MPI_IN_PLACE)
        ac_sched_copy(s, sbuf, scount, stype, ac_at(rbuf, root * stride), rcount, rtype);
    edges = malloc((size_t)(node->nchildren + 1) * sizeof *edges);
    if (!edges) return MPI_ERR_NO_MEM;
    for (int i = 0; i < node->nchildren; i++)
        if (!direct || node->child[i] + node->child_size[i] > size)
            staged += node->child_size[i] * block;
    stage = ac_sched_tmp(s, staged + 1, MPI_BYTE);
    if (!stage) {
        free(edges);
        return ac_sched_error(s);
    }
    for (int i = 0; i < node->nchildren; i++) {
        int first = node->child[i], n = node->child_size[i];
        if (direct && first + n <= size) {
            edges[i] = (ac_pipe_edge){first, ac_at(rbuf, lb + first * stride), n * block};
        } else {
            edges[i] = (ac_pipe_edge){first, stage + at, n * block};
            at += n * block;
        }
    }
    rc = ac_pipe_collect_schedule(s, NULL, 0, 0, MPI_PROC_NULL, edges, node->nchildren, seg);
    /* the staged subtrees, ranks first .. p-1 then 0 .. for the one that wraps */
    for (int i = 0; i < node->nchildren && rc == MPI_SUCCESS; i++) {
        int first = node->child[i], n = node->child_size[i];
        int head = first + n <= size ? n : size - first, len = (int)(n * block);
        if (direct && head == n) continue; /* received in place */
        ac_sched_unpack(s, edges[i].data, (int)(head * block), ac_at(rbuf, first * stride),
                        head * rcount, rtype);
        if (head < n)
            ac_sched_unpack(s, edges[i].data + head * block, len - (int)(head * block), rbuf,
                            (n - head) * rcount, rtype);
    }
    free(edges);
    return rc != MPI_SUCCESS ? rc : ac_sched_error(s);
}

/* Any other rank: its own block, then its children's subtrees, up to the parent. */
static int gather_nonroot(ac_sched *s, const void *sbuf, int scount, MPI_Datatype stype, int root,
                          MPI_Aint block, const ac_tree_node *node, MPI_Aint seg)
{
    int rc, size = s->size;
    MPI_Aint len = node->subtree * block;
    ac_pipe_edge *edges = NULL;
    ac_bytes own;
    char *stream;

    if (node->nchildren == 0) {
        /* a leaf: its block only, from sbuf itself when the type allows */
        rc = ac_pipe_bytes(s, sbuf, scount, stype, 1, &own);
        if (rc == MPI_SUCCESS)
            rc = ac_pipe_collect_schedule(s, own.data, block, block, node->parent, NULL, 0, seg);
        return rc;
    }
    stream = ac_sched_tmp(s, len, MPI_BYTE);
    if (!stream) return ac_sched_error(s);
    edges = malloc((size_t)node->nchildren * sizeof *edges);
    if (!edges) return MPI_ERR_NO_MEM;
    ac_sched_pack(s, sbuf, scount, stype, stream, (int)block);
    for (int i = 0; i < node->nchildren; i++) {
        /* the child's blocks start at its relative rank minus this rank's */
        MPI_Aint skip = ((node->child[i] - root + size) % size) - node->vrank;
        edges[i] =
            (ac_pipe_edge){node->child[i], stream + skip * block, node->child_size[i] * block};
    }
    rc = ac_pipe_collect_schedule(s, stream, len, block, node->parent, edges, node->nchildren,
                                  seg);
    free(edges);
    return rc;
}

int ac_gather_tree_schedule(ac_sched *s, const void *sbuf, int scount, MPI_Datatype stype,
                            void *rbuf, int rcount, MPI_Datatype rtype, int root,
                            const ac_params *p)
{
    int rc, rank, size;
    MPI_Aint block;
    ac_tree_node node = {0};

    /* block bytes from the significant arguments: the receive side at the root */
    rc = ac_rooted_block(s->comm, root, rcount, rtype, scount, stype, &rank, &size, &block);
    if (rc != MPI_SUCCESS || block == 0) return rc != MPI_SUCCESS ? rc : ac_sched_error(s);
    rc = ac_tree_node_get(ac_tree_of(p), root, rank, size, &node);
    if (rc != MPI_SUCCESS) return rc;
    if (rank == root)
        rc = gather_root(s, sbuf, scount, stype, rbuf, rcount, rtype, root, block, &node,
                         p ? p->segment : 0);
    else
        rc = gather_nonroot(s, sbuf, scount, stype, root, block, &node, p ? p->segment : 0);
    ac_tree_node_free(&node);
    return rc;
}

AC_ROOTED_BY_SCHEDULE(gather, tree)

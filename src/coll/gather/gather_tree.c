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
 * Source: Berkeley report (seeds/001) section 3.
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"
#include "coll/common/pipeline.h"
#include "coll/common/tree.h"

#include <stdlib.h>

/* The root: every child's subtree into rbuf (or a temporary buffer, unpacked afterwards). */
static int gather_root(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                       MPI_Datatype rtype, int root, int size, MPI_Aint block,
                       const ac_tree_node *node, MPI_Aint seg, MPI_Comm comm)
{
    int rc = MPI_SUCCESS, direct = ac_is_bytes(rtype);
    MPI_Aint lb, extent, stride, staged = 0, at = 0;
    ac_pipe_edge *edges = NULL;
    char *stage = NULL;

    PMPI_Type_get_extent(rtype, &lb, &extent);
    stride = extent * rcount;
    if (sbuf != MPI_IN_PLACE) {
        rc = ac_copy(sbuf, scount, stype, (char *)rbuf + root * stride, rcount, rtype);
        if (rc != MPI_SUCCESS) return rc;
    }
    edges = malloc((size_t)(node->nchildren + 1) * sizeof *edges);
    if (!edges) return MPI_ERR_NO_MEM;
    for (int i = 0; i < node->nchildren; i++)
        if (!direct || node->child[i] + node->child_size[i] > size)
            staged += node->child_size[i] * block;
    stage = malloc((size_t)staged + 1);
    if (!stage) {
        rc = MPI_ERR_NO_MEM;
        goto out;
    }
    for (int i = 0; i < node->nchildren; i++) {
        int first = node->child[i], n = node->child_size[i];
        if (direct && first + n <= size) {
            edges[i] = (ac_pipe_edge){first, (char *)rbuf + lb + first * stride, n * block};
        } else {
            edges[i] = (ac_pipe_edge){first, stage + at, n * block};
            at += n * block;
        }
    }
    rc = ac_pipe_collect(NULL, 0, 0, MPI_PROC_NULL, edges, node->nchildren, seg, comm);
    /* the staged subtrees, ranks first .. p-1 then 0 .. for the one that wraps */
    for (int i = 0; i < node->nchildren && rc == MPI_SUCCESS; i++) {
        int first = node->child[i], n = node->child_size[i], position = 0;
        int head = first + n <= size ? n : size - first, len = (int)(n * block);
        if (direct && head == n) continue; /* received in place */
        rc = ac_unpack(edges[i].data, len, &position, (char *)rbuf + first * stride, head * rcount,
                       rtype, comm);
        if (rc == MPI_SUCCESS && head < n)
            rc = ac_unpack(edges[i].data, len, &position, rbuf, (n - head) * rcount, rtype, comm);
    }
out:
    free(stage);
    free(edges);
    return rc;
}

/* Any other rank: its own block, then its children's subtrees, up to the parent. */
static int gather_nonroot(const void *sbuf, int scount, MPI_Datatype stype, int root, int size,
                          MPI_Aint block, const ac_tree_node *node, MPI_Aint seg, MPI_Comm comm)
{
    int rc = MPI_SUCCESS, position = 0;
    MPI_Aint len = node->subtree * block;
    ac_pipe_edge *edges = NULL;
    ac_bytes own = {0};
    char *stream = NULL;

    if (node->nchildren == 0) {
        /* a leaf: its block only, from sbuf itself when the type allows */
        rc = ac_bytes_get(&own, sbuf, scount, stype, 1, comm);
        if (rc == MPI_SUCCESS)
            rc = ac_pipe_collect(own.data, block, block, node->parent, NULL, 0, seg, comm);
        return ac_bytes_release(&own, NULL, scount, stype, 0, comm, rc);
    }
    edges = malloc((size_t)node->nchildren * sizeof *edges);
    stream = malloc((size_t)len);
    if (!edges || !stream) {
        rc = MPI_ERR_NO_MEM;
        goto out;
    }
    rc = ac_pack(sbuf, scount, stype, stream, (int)block, &position, comm);
    if (rc != MPI_SUCCESS) goto out;
    for (int i = 0; i < node->nchildren; i++) {
        /* the child's blocks start at its relative rank minus this rank's */
        MPI_Aint skip = ((node->child[i] - root + size) % size) - node->vrank;
        edges[i] =
            (ac_pipe_edge){node->child[i], stream + skip * block, node->child_size[i] * block};
    }
    rc = ac_pipe_collect(stream, len, block, node->parent, edges, node->nchildren, seg, comm);
out:
    free(stream);
    free(edges);
    return rc;
}

int ac_gather_tree(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                   MPI_Datatype rtype, int root, MPI_Comm comm, const ac_params *p)
{
    int rc, rank, size;
    MPI_Aint block;
    ac_tree_node node = {0};

    /* block bytes from the significant arguments: the receive side at the root */
    rc = ac_rooted_block(comm, root, rcount, rtype, scount, stype, &rank, &size, &block);
    if (rc != MPI_SUCCESS || block == 0) return rc;
    rc = ac_tree_node_get(ac_tree_of(p), root, rank, size, &node);
    if (rc != MPI_SUCCESS) return rc;
    if (rank == root)
        rc = gather_root(sbuf, scount, stype, rbuf, rcount, rtype, root, size, block, &node,
                         p ? p->segment : 0, comm);
    else
        rc =
            gather_nonroot(sbuf, scount, stype, root, size, block, &node, p ? p->segment : 0, comm);
    ac_tree_node_free(&node);
    return rc;
}

/*
 * bcast_scatter_allgather.c - van de Geijn broadcast: a tree scatter of p chunks followed by
 * an all-gather of the chunks (Barnett, Shuler, van de Geijn et al. 1994; Thakur, Rabenseifner
 * and Gropp 2005, MPICH's bcast_scatter_ring_allgather and bcast_scatter_doubling_allgather).
 *
 * The algorithm works on the packed byte representation of the message (n = count * type size
 * bytes, equal on every rank), so any datatype and any count work, whatever the type layout on
 * each rank. The bytes are cut into p chunks of ceil(n/p) bytes; trailing chunks are shorter
 * or empty (n < p is fine). Chunk j belongs to the rank at distance j from the root.
 *   Scatter: the tree engine's shape (params->tree, default binomial) rooted at the root; each
 *   subtree's chunks are contiguous bytes, moved by the pipelining engine (ac_pipe_forward,
 *   unsegmented).
 *   All-gather: params->allgatherv in place over the chunks (MPI_BYTE, one uneven block per
 *   rank): ac_allgatherv_ring (p-1 steps, each rank forwarding the chunk it received last) or
 *   ac_allgatherv_recursive_doubling (lg p steps exchanging everything gathered so far).
 * Types that are contiguous bytes (predefined, or contiguous of such) are used in place; others
 * are packed at the root and unpacked at the other ranks.
 *
 * Cost (binomial scatter): log2 p * alpha + ((p-1)/p) n beta, then
 *   ring:               (p-1) alpha + ((p-1)/p) n beta  -> (log2 p + p - 1) alpha + 2 ((p-1)/p) n
 * beta recursive doubling: log2 p alpha + ((p-1)/p) n beta -> 2 log2 p alpha + 2 ((p-1)/p) n beta
 *                       for power-of-two p (plus a packed copy of the chunks).
 * Large-message algorithms.
 * Requirements: none. Any process count: the scatter tree is clipped at p; the ring needs no
 * power of two; recursive doubling folds the ranks above the largest power of two p' <= p
 * onto partners first and returns the result to them at the end (allgatherv_recursive_doubling.c:
 * 2 alpha and up to n beta more on the folded ranks). Assumes the homogeneous packed format
 * (n bytes for n bytes of signature), true of Open MPI and MPICH on one architecture.
 * Defaults (params NULL or without an all-gather): the ring.
 * Written as a schedule (common/sched.h: the root's pack the first local step, the scatter the
 * pipelining engine's kept messages, then the all-gather's schedule, params->allgatherv_schedule,
 * the other ranks' unpack the last local step), which the blocking call runs and nonblocking and
 * persistent calls progress.
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"
#include "coll/common/pipeline.h"
#include "coll/common/sched.h"
#include "coll/common/tree.h"

#include <stdlib.h>

/* Offset of chunk j (relative rank j) in the packed message. */
static MPI_Aint chunk_start(int j, MPI_Aint chunk, MPI_Aint nbytes)
{
    MPI_Aint at = (MPI_Aint)j * chunk;
    return at < nbytes ? at : nbytes;
}

int ac_bcast_scatter_allgather_schedule(ac_sched *s, void *buf, int count, MPI_Datatype dtype,
                                        int root, const ac_params *p)
{
    int rc, rank = s->rank, size = s->size, tsize, *counts, *displs;
    MPI_Aint nbytes, chunk;
    ac_tree_node node = {0};
    ac_pipe_edge *edges = NULL;
    ac_bytes bytes;
    ac_allgatherv_sched_fn *allgatherv =
        p && p->allgatherv_schedule ? p->allgatherv_schedule : ac_allgatherv_ring_schedule;

    rc = PMPI_Type_size(dtype, &tsize);
    if (rc != MPI_SUCCESS) return rc;
    nbytes = (MPI_Aint)count * tsize;
    if (nbytes == 0 || size == 1) return ac_sched_error(s);
    chunk = (nbytes + size - 1) / size;

    rc = ac_tree_node_get(ac_tree_of(p), root, rank, size, &node);
    if (rc != MPI_SUCCESS) return rc;
    edges = malloc((size_t)(node.nchildren + 1) * sizeof *edges);
    counts = ac_sched_tmp(s, size, MPI_INT);
    displs = ac_sched_tmp(s, size, MPI_INT);
    if (!edges) rc = MPI_ERR_NO_MEM;
    if (rc == MPI_SUCCESS) rc = ac_pipe_bytes(s, buf, count, dtype, rank == root, &bytes);
    if (rc != MPI_SUCCESS) goto out;

    /* Scatter: this rank's subtree holds chunks [vrank, vrank + subtree), each child's its own
     * range of them. */
    for (int i = 0; i < node.nchildren; i++) {
        int v = (node.child[i] - root + size) % size;
        MPI_Aint lo = chunk_start(v, chunk, nbytes);
        MPI_Aint hi = chunk_start(v + node.child_size[i], chunk, nbytes);
        edges[i] = (ac_pipe_edge){node.child[i], bytes.data + lo, hi - lo};
    }
    {
        MPI_Aint lo = chunk_start(node.vrank, chunk, nbytes);
        MPI_Aint hi = chunk_start(node.vrank + node.subtree, chunk, nbytes);
        rc = ac_pipe_forward_schedule(s, bytes.data + lo, hi - lo,
                                      rank == root ? MPI_PROC_NULL : node.parent, edges,
                                      node.nchildren, 0);
        if (rc != MPI_SUCCESS) goto out;
    }

    /* All-gather of the chunks, in place: rank r's block is chunk (r - root) mod p. */
    for (int r = 0; r < size; r++) {
        int v = (r - root + size) % size;
        displs[r] = (int)chunk_start(v, chunk, nbytes);
        counts[r] = (int)(chunk_start(v + 1, chunk, nbytes) - displs[r]);
    }
    rc = allgatherv(s, MPI_IN_PLACE, 0, MPI_BYTE, bytes.data, counts, displs, MPI_BYTE,
                    p && p->allgatherv_schedule ? p->inner : NULL);
    if (rc == MPI_SUCCESS && rank != root) ac_pipe_bytes_store(s, &bytes, buf, count, dtype);
out:
    free(edges);
    ac_tree_node_free(&node);
    return rc != MPI_SUCCESS ? rc : ac_sched_error(s);
}

AC_BCAST_BY_SCHEDULE(scatter_allgather)

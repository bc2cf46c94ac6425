/*
 * allreduce_hier_pipelined.c - Open MPI 5's HAN allreduce (coll/han's default on communicators
 * that span nodes): the vector in segments of params->segment bytes' worth of elements (HAN's
 * default 64 KiB), one leader a node (its lowest rank), each segment through four steps: the
 * nodes' reduce to their leaders (lr, params->intra[0]), the leaders' reduce to the first node's
 * leader (ur, the library's MPI_Ireduce), the leaders' bcast from it (ub, the library's
 * MPI_Ibcast), the nodes' bcast from their leaders (lb, params->intra[1]). Step t starts ub of
 * segment t - 2 and ur of segment t - 1 among the leaders, runs lr of segment t and lb of
 * segment t - 3 on every node, and the leaders wait for their two: four segments in flight at
 * once (HAN's tasks t0 to t3, whose order of calls this keeps).
 *
 * rbuf holds every segment as it goes (the leaders' partial results, then the result): the
 * steps of one iteration touch different segments. Segments are whole elements (a reduction
 * works on elements): params->segment / the type's size of them, at least one; one segment (a
 * vector of at most params->segment bytes) is the unpipelined instance's schedule with the
 * leaders' allreduce as a reduce and a bcast.
 *
 * Order of a non-commutative op: each node combines its ranks in rank order, the leaders the
 * nodes in node order (their communicator's): the ranks' order where the nodes are blocks of
 * consecutive ranks, which AC_REQ_NODES requires for such an op (the family's `ordered`; HAN
 * leaves such ops to tuned). Every rank then holds the bits the first node's leader computed.
 *
 * Cost (N nodes of L ranks, n bytes, m = ceil(n / s) segments of s bytes): the leaders' phase,
 * priced as allreduce(N, s), m times, and the nodes' phases reduce(L, s) and bcast(L, s) once
 * (the others overlap the leaders' phase: priced where the leaders' phase is the longer one, as
 * between nodes it is; cost.c, hier_features).
 * Requirements: AC_REQ_NODES (hierarchical.c).
 * Source: Open MPI 5.0, ompi/mca/coll/han/coll_han_allreduce.c (mca_coll_han_allreduce_intra
 * and its tasks); X. Luo et al., "HAN: a Hierarchical AutotuNed Collective Communication
 * Framework", IEEE Cluster 2020.
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"

int ac_allreduce_hier_pipelined(const void *sbuf, void *rbuf, int count, MPI_Datatype dtype,
                                MPI_Op op, MPI_Comm comm, const ac_params *p)
{
    const ac_nodes *nodes;
    int tsize, rc = ac_nodes_get(comm, &nodes);
    if (rc == MPI_SUCCESS) rc = PMPI_Type_size(dtype, &tsize);
    if (rc != MPI_SUCCESS || count == 0 || tsize == 0) return rc;
    const ac_algorithm *reduce = p->intra[0], *bcast = p->intra[1];
    int is_leader = nodes->local_rank == 0, first_node = nodes->node == 0;
    MPI_Aint extent = ac_extent(dtype);
    int seg = p->segment >= tsize && p->segment / tsize < count ? p->segment / tsize : count;
    int nseg = (count - 1) / seg + 1;
    /* segment i: seg elements at i x seg, the last one the rest; step i's "in" the segment */
#define AT(buf, i) ac_at((buf), (MPI_Aint)(i) * seg * extent)
#define COUNT(i) ((i) + 1 < nseg ? seg : count - (i) * seg)
#define IN(i) ((i) >= 0 && (i) < nseg)
    for (int t = 0; t < nseg + 3 && rc == MPI_SUCCESS; t++) {
        MPI_Request up[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
        if (is_leader && IN(t - 2)) /* ub: segment t - 2 from the first node's leader */
            rc = PMPI_Ibcast(AT(rbuf, t - 2), COUNT(t - 2), dtype, 0, nodes->leaders, &up[0]);
        if (rc == MPI_SUCCESS && is_leader && IN(t - 1)) /* ur: segment t - 1 to it */
            rc = PMPI_Ireduce(first_node ? MPI_IN_PLACE : AT(rbuf, t - 1),
                              first_node ? AT(rbuf, t - 1) : NULL, COUNT(t - 1), dtype, op, 0,
                              nodes->leaders, &up[1]);
        if (rc == MPI_SUCCESS && IN(t)) { /* lr: segment t to the node's leader */
            const void *in = sbuf == MPI_IN_PLACE ? (is_leader ? MPI_IN_PLACE : AT(rbuf, t))
                                                  : AT(sbuf, t);
            rc = reduce->fn.reduce(in, is_leader ? AT(rbuf, t) : NULL, COUNT(t), dtype, op, 0,
                                   nodes->local, reduce->params);
        }
        if (rc == MPI_SUCCESS && IN(t - 3)) /* lb: segment t - 3 from the node's leader */
            rc = bcast->fn.bcast(AT(rbuf, t - 3), COUNT(t - 3), dtype, 0, nodes->local,
                                 bcast->params);
        if (up[0] != MPI_REQUEST_NULL || up[1] != MPI_REQUEST_NULL) {
            MPI_Status st[2]; /* not MPI_STATUSES_IGNORE: gcc's stringop-overflow check
                               * rejects it with MPICH's mpi.h */
            int wrc = PMPI_Waitall(2, up, st);
            if (rc == MPI_SUCCESS) rc = wrc;
        }
    }
#undef IN
#undef COUNT
#undef AT
    return rc;
}

/*
 * reduce_hier_pipelined.c - Open MPI 5's HAN reduce (coll/han's default on communicators that
 * span nodes): the vector in segments of params->segment bytes' worth of elements (HAN's
 * default 64 KiB), one leader a node (its lowest rank). Every node reduces segment 0 to its
 * leader (params->intra[0]); then for each segment i the leaders start the reduction of segment
 * i among themselves to the root's node with the library's nonblocking MPI_Ireduce, every node
 * reduces segment i + 1 to its leader, and the leaders wait for segment i. The leaders' phase of
 * one segment so overlaps the nodes' phase of the next (HAN's tasks t0 and t1).
 *
 * Where the root is not its node's leader, that leader sends each segment's result to the root
 * once the leaders' reduction of it has ended (the root receives it after the nodes' phase of
 * the next segment): HAN instead reduces on every node to the local rank of the root, which the
 * family's one leader a node (local rank 0) does not. Segments are whole elements (a reduction
 * works on elements): params->segment / the type's size of them, at least one; one segment (a
 * vector of at most params->segment bytes) is the unpipelined instance's schedule,
 * hier_<intra>_native.
 *
 * Order of a non-commutative op: each node combines its ranks in rank order, the leaders the
 * nodes in node order (their communicator's): the ranks' order where the nodes are blocks of
 * consecutive ranks, which AC_REQ_NODES requires for such an op (the family's `ordered`; HAN
 * leaves such ops to tuned).
 *
 * Cost (N nodes of L ranks, n bytes, m = ceil(n / s) segments of s bytes): the leaders' phase
 * reduce(N, s) m times and the nodes' phase reduce(L, s) of the first segment (the others
 * overlap the leaders' phase: priced where the leaders' phase is the longer one, as between
 * nodes it is; cost.c, hier_features), plus the segments' messages to a root that is not its
 * node's leader (not priced: the cost shape knows no root).
 * Requirements: AC_REQ_NODES (hierarchical.c); any root.
 * Source: Open MPI 5.0, ompi/mca/coll/han/coll_han_reduce.c (mca_coll_han_reduce_intra and its
 * tasks t0 and t1); X. Luo et al., "HAN: a Hierarchical AutotuNed Collective Communication
 * Framework", IEEE Cluster 2020.
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"

int ac_reduce_hier_pipelined(const void *sbuf, void *rbuf, int count, MPI_Datatype dtype,
                             MPI_Op op, int root, MPI_Comm comm, const ac_params *p)
{
    const ac_nodes *nodes;
    int rank, tsize, rc = ac_nodes_get(comm, &nodes);
    if (rc == MPI_SUCCESS) rc = PMPI_Comm_rank(comm, &rank);
    if (rc == MPI_SUCCESS) rc = PMPI_Type_size(dtype, &tsize);
    if (rc != MPI_SUCCESS || count == 0 || tsize == 0) return rc;
    const ac_algorithm *reduce = p->intra[0];
    int root_node = nodes->node_of[root], leader = nodes->leader_of[root_node];
    int is_leader = nodes->local_rank == 0, at_root_node = nodes->node == root_node;
    int in_place = rank == root && sbuf == MPI_IN_PLACE;
    const char *mine = in_place ? rbuf : sbuf;

    /* A leader's partial results: the root's rbuf where it leads, else a temporary. */
    ac_tmp tmp = {0};
    char *acc = rank == root ? rbuf : NULL;
    if (is_leader && rank != root) {
        if ((rc = ac_tmp_alloc(&tmp, count, dtype)) != MPI_SUCCESS) return rc;
        acc = tmp.buf;
    }
    MPI_Aint extent = ac_extent(dtype);
    int seg = p->segment >= tsize && p->segment / tsize < count ? p->segment / tsize : count;
    int nseg = (count - 1) / seg + 1;
    /* segment i: seg elements at i x seg, the last one the rest */
#define AT(buf, i) ac_at((buf), (MPI_Aint)(i) * seg * extent)
#define COUNT(i) ((i) + 1 < nseg ? seg : count - (i) * seg)
    for (int i = -1; i < nseg && rc == MPI_SUCCESS; i++) {
        MPI_Request up = MPI_REQUEST_NULL;
        if (i >= 0 && is_leader) /* the leaders' reduction of segment i */
            rc = PMPI_Ireduce(at_root_node ? MPI_IN_PLACE : AT(acc, i),
                              at_root_node ? AT(acc, i) : NULL, COUNT(i), dtype, op, root_node,
                              nodes->leaders, &up);
        if (rc == MPI_SUCCESS && i + 1 < nseg) { /* the nodes' reduction of segment i + 1 */
            int j = i + 1;
            const void *in = is_leader && in_place ? MPI_IN_PLACE : AT(mine, j);
            rc = reduce->fn.reduce(in, is_leader ? AT(acc, j) : NULL, COUNT(j), dtype, op, 0,
                                   nodes->local, reduce->params);
        }
        if (up != MPI_REQUEST_NULL) {
            int wrc = PMPI_Wait(&up, MPI_STATUS_IGNORE);
            if (rc == MPI_SUCCESS) rc = wrc;
        }
        if (rc == MPI_SUCCESS && i >= 0 && root != leader && rank == leader)
            rc = PMPI_Send(AT(acc, i), COUNT(i), dtype, root, AC_TAG_DATA, comm);
        if (rc == MPI_SUCCESS && i >= 0 && root != leader && rank == root)
            rc = PMPI_Recv(AT(rbuf, i), COUNT(i), dtype, leader, AC_TAG_DATA, comm,
                           MPI_STATUS_IGNORE);
    }
#undef COUNT
#undef AT
    ac_tmp_free(&tmp);
    return rc;
}

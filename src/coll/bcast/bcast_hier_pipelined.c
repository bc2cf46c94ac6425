/*
 * bcast_hier_pipelined.c - Open MPI 5's HAN broadcast (coll/han's default on communicators that
 * span nodes): the message in segments of params->segment bytes (HAN's default 64 KiB), one
 * leader a node (its lowest rank). The root gives the message to its node's leader; the leaders
 * broadcast segment 0 among themselves (params->phase, the library's own); then for each
 * segment i the leaders start the broadcast of segment i+1 among themselves with the library's
 * nonblocking MPI_Ibcast, every node broadcasts segment i inside (params->intra[1]), and the
 * leaders wait for segment i+1. The leaders' phase of one segment so overlaps the nodes' phase
 * of the segment before (HAN's tasks t0 and t1).
 *
 * The message travels as its packed bytes (MPI_PACKED at both ends, as the tree broadcasts do):
 * segments are byte ranges, equal on every rank whatever the types they pass (same signature).
 * One segment (a message of at most params->segment bytes) is the unpipelined instance's
 * schedule, hier_<intra>_native.
 *
 * Cost (N nodes of L ranks, n bytes, m = ceil(n / s) segments of s bytes): the leaders' phase
 * bcast(N, s) m times, and the nodes' phase bcast(L, s) of the last segment (the others overlap
 * the leaders' phase: priced where the leaders' phase is the longer one, as between nodes it
 * is), plus one intra-node message n from the root where it is not its node's leader (not
 * priced: the cost shape knows no root).
 * Requirements: AC_REQ_NODES (hierarchical.c); any root.
 * Source: Open MPI 5.0, ompi/mca/coll/han/coll_han_bcast.c (mca_coll_han_bcast_intra and its
 * tasks); X. Luo et al., "HAN: a Hierarchical AutotuNed Collective Communication Framework",
 * IEEE Cluster 2020.
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"

int ac_bcast_hier_pipelined(void *buf, int count, MPI_Datatype dtype, int root, MPI_Comm comm,
                            const ac_params *p)
{
    const ac_nodes *nodes;
    int rank, rc = ac_nodes_get(comm, &nodes);
    if (rc == MPI_SUCCESS) rc = PMPI_Comm_rank(comm, &rank);
    if (rc != MPI_SUCCESS) return rc;
    const ac_algorithm *inter = p->phase, *bcast = p->intra[1];
    int root_node = nodes->node_of[root], leader = nodes->leader_of[root_node];
    int is_leader = nodes->local_rank == 0;
    ac_bytes bytes = {0};
    rc = ac_bytes_get(&bytes, buf, count, dtype, rank == root, comm);
    if (rc != MPI_SUCCESS || bytes.size == 0)
        return ac_bytes_release(&bytes, buf, count, dtype, 0, comm, rc);

    if (root != leader && rank == root)
        rc = PMPI_Send(bytes.data, bytes.size, MPI_PACKED, leader, AC_TAG_DATA, comm);
    if (root != leader && rank == leader)
        rc = PMPI_Recv(bytes.data, bytes.size, MPI_PACKED, root, AC_TAG_DATA, comm,
                       MPI_STATUS_IGNORE);
    int seg = p->segment > 0 && p->segment < bytes.size ? p->segment : bytes.size;
    int nseg = (bytes.size - 1) / seg + 1;
    /* segment i: seg bytes at i x seg, the last one the rest; among the leaders the root is
     * the root's node (the leaders' communicator holds them in node order) */
#define SEGMENT(i) bytes.data + (MPI_Aint)(i) * seg, (i) + 1 < nseg ? seg : bytes.size - (i) * seg
    if (rc == MPI_SUCCESS && is_leader)
        rc = inter->fn.bcast(SEGMENT(0), MPI_PACKED, root_node, nodes->leaders, inter->params);
    for (int i = 0; i < nseg && rc == MPI_SUCCESS; i++) {
        MPI_Request next = MPI_REQUEST_NULL;
        if (is_leader && i + 1 < nseg)
            rc = PMPI_Ibcast(SEGMENT(i + 1), MPI_PACKED, root_node, nodes->leaders, &next);
        if (rc == MPI_SUCCESS)
            rc = bcast->fn.bcast(SEGMENT(i), MPI_PACKED, 0, nodes->local, bcast->params);
        if (next != MPI_REQUEST_NULL) {
            int wrc = PMPI_Wait(&next, MPI_STATUS_IGNORE);
            if (rc == MPI_SUCCESS) rc = wrc;
        }
    }
#undef SEGMENT
    return ac_bytes_release(&bytes, buf, count, dtype, rank != root, comm, rc);
}

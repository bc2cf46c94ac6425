/*
 * neighbor_isend_irecv.c - isend_irecv: every receive of a neighbourhood collective posted at
 * once (MPI_Irecv), then every send (MPI_Isend), then one MPI_Waitall. Each block travels with
 * its own datatype (no packing). Tags tell the two sides of a Cartesian dimension apart, so a
 * periodic dimension of one or two processes gets its blocks as the standard says (neighbor.h).
 * Cost: one message per edge, all in flight together: alpha + (degree x block) / bandwidth at
 * the busiest rank. Requirements: none (Cartesian and distributed-graph communicators).
 * ADCL's IsendIrecv_aao (Gabriel et al.), on the MPI-3 neighbourhood.
 */
#include "coll/common/neighbor.h"

int ac_neighbor_isend_irecv(ac_neighbors *nb, MPI_Comm comm)
{
    int rc = MPI_SUCCESS, n = 0;
    for (int j = 0; j < nb->indegree && rc == MPI_SUCCESS; j++, n++)
        rc = PMPI_Irecv(nb->recv[j].buf, nb->recv[j].count, nb->recv[j].type, nb->sources[j],
                        nb->recv_tags[j], comm, &nb->requests[n]);
    for (int k = 0; k < nb->outdegree && rc == MPI_SUCCESS; k++, n++)
        rc = PMPI_Isend(nb->send[k].buf, nb->send[k].count, nb->send[k].type, nb->dests[k],
                        nb->send_tags[k], comm, &nb->requests[n]);
    if (rc != MPI_SUCCESS) n--; /* the failed post made no request */
    int wrc = PMPI_Waitall(n, nb->requests, nb->statuses);
    return rc != MPI_SUCCESS ? rc : wrc;
}

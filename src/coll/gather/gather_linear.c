/*
 * gather_linear.c - flat-tree gather: every rank sends its block to the root, which posts one
 * nonblocking receive per rank straight into its slot of the receive buffer (the "linear"
 * baseline of MPICH and Open MPI).
 *
 * Cost: (p-1) * alpha + ((p-1)/p) * n * beta, all through the root (n = total bytes gathered).
 * Requirements: none; any process count. MPI_IN_PLACE at the root.
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"

#include <stdlib.h>

int ac_gather_linear(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                     MPI_Datatype rtype, int root, MPI_Comm comm, const ac_params *p)
{
    int rc, rank, size, nreq = 0;
    MPI_Aint stride;
    MPI_Request *reqs = NULL;
    MPI_Status *stats = NULL;
    (void)p;

    rc = PMPI_Comm_rank(comm, &rank);
    if (rc == MPI_SUCCESS) rc = PMPI_Comm_size(comm, &size);
    if (rc != MPI_SUCCESS) return rc;
    if (rank != root) return PMPI_Send(sbuf, scount, stype, root, AC_TAG_DATA, comm);

    stride = ac_extent(rtype) * rcount;
    reqs = malloc((size_t)size * sizeof *reqs);
    stats = malloc((size_t)size * sizeof *stats);
    if (!reqs || !stats) {
        rc = MPI_ERR_NO_MEM;
        goto out;
    }
    for (int r = 0; r < size; r++) {
        if (r == root) continue;
        rc = PMPI_Irecv((char *)rbuf + r * stride, rcount, rtype, r, AC_TAG_DATA, comm,
                        &reqs[nreq]);
        if (rc != MPI_SUCCESS) goto out;
        nreq++;
    }
    if (sbuf != MPI_IN_PLACE)
        rc = ac_copy(sbuf, scount, stype, (char *)rbuf + root * stride, rcount, rtype);
out:
    if (nreq > 0) {
        int wrc = PMPI_Waitall(nreq, reqs, stats);
        if (rc == MPI_SUCCESS) rc = wrc;
    }
    free(reqs);
    free(stats);
    return rc;
}

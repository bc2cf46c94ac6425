/*
 * bcast_linear.c - flat-tree broadcast: the root sends the whole buffer to every other rank
 * with nonblocking sends; the others receive it (the "linear" baseline of MPICH and Open MPI).
 *
 * Cost: (p-1) * (alpha + n*beta) at the root; one receive elsewhere. Useful only for very small
 * communicators or as a reference. Requirements: none; any process count.
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"

#include <stdlib.h>

int ac_bcast_linear(void *buf, int count, MPI_Datatype dtype, int root, MPI_Comm comm,
                    const ac_params *p)
{
    int rc, rank, size, nreq = 0;
    MPI_Request *reqs = NULL;
    MPI_Status *stats = NULL;
    (void)p;

    rc = PMPI_Comm_rank(comm, &rank);
    if (rc == MPI_SUCCESS) rc = PMPI_Comm_size(comm, &size);
    if (rc != MPI_SUCCESS) return rc;
    if (rank != root)
        return PMPI_Recv(buf, count, dtype, root, AC_TAG_DATA, comm, MPI_STATUS_IGNORE);

    reqs = malloc((size_t)size * sizeof *reqs);
    stats = malloc((size_t)size * sizeof *stats);
    if (!reqs || !stats) {
        rc = MPI_ERR_NO_MEM;
        goto out;
    }
    for (int r = 0; r < size; r++) {
        if (r == root) continue;
        rc = PMPI_Isend(buf, count, dtype, r, AC_TAG_DATA, comm, &reqs[nreq]);
        if (rc != MPI_SUCCESS) goto out;
        nreq++;
    }
out:
    if (nreq > 0) {
        int wrc = PMPI_Waitall(nreq, reqs, stats);
        if (rc == MPI_SUCCESS) rc = wrc;
    }
    free(reqs);
    free(stats);
    return rc;
}

/*
 * barrier_linear.c - flat-tree barrier: every rank sends a zero-byte token to rank 0, which
 * waits for all of them and then sends a release token to every rank (the "linear" barrier of
 * Open MPI's basic component).
 *
 * Cost: 2 (p-1) * alpha through rank 0. Requirements: none; any process count.
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"

#include <stdlib.h>

int ac_barrier_linear(MPI_Comm comm, const ac_params *p)
{
    int rc, rank, size, nreq = 0;
    MPI_Request *reqs = NULL;
    MPI_Status *stats = NULL;
    (void)p;

    rc = PMPI_Comm_rank(comm, &rank);
    if (rc == MPI_SUCCESS) rc = PMPI_Comm_size(comm, &size);
    if (rc != MPI_SUCCESS) return rc;
    if (rank != 0) {
        rc = PMPI_Send(NULL, 0, MPI_BYTE, 0, AC_TAG_SYNC, comm);
        if (rc == MPI_SUCCESS)
            rc = PMPI_Recv(NULL, 0, MPI_BYTE, 0, AC_TAG_SYNC, comm, MPI_STATUS_IGNORE);
        return rc;
    }

    reqs = malloc((size_t)size * sizeof *reqs);
    stats = malloc((size_t)size * sizeof *stats);
    if (!reqs || !stats) {
        rc = MPI_ERR_NO_MEM;
        goto out;
    }
    for (int r = 1; r < size; r++) {
        rc = PMPI_Irecv(NULL, 0, MPI_BYTE, r, AC_TAG_SYNC, comm, &reqs[nreq]);
        if (rc != MPI_SUCCESS) goto out;
        nreq++;
    }
    rc = PMPI_Waitall(nreq, reqs, stats);
    nreq = 0;
    if (rc != MPI_SUCCESS) goto out;
    for (int r = 1; r < size; r++) {
        rc = PMPI_Isend(NULL, 0, MPI_BYTE, r, AC_TAG_SYNC, comm, &reqs[nreq]);
        if (rc != MPI_SUCCESS) goto out;
        nreq++;
    }
out:
    rc = ac_wait_pending(rc, nreq, reqs, stats);
    free(reqs);
    free(stats);
    return rc;
}

/*
 * scatter_linear.c - flat-tree scatter: the root posts one nonblocking send per rank straight
 * from that rank's slot of the send buffer; every other rank receives its block (the "linear"
 * baseline of MPICH and Open MPI).
 *
 * Cost: (p-1) * alpha + ((p-1)/p) * n * beta, all through the root (n = total bytes scattered).
 * Requirements: none; any process count. MPI_IN_PLACE at the root.
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"

#include <stdlib.h>

int ac_scatter_linear(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
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
    if (rank != root)
        return PMPI_Recv(rbuf, rcount, rtype, root, AC_TAG_DATA, comm, MPI_STATUS_IGNORE);

    stride = ac_extent(stype) * scount;
    reqs = malloc((size_t)size * sizeof *reqs);
    stats = malloc((size_t)size * sizeof *stats);
    if (!reqs || !stats) {
        rc = MPI_ERR_NO_MEM;
        goto out;
    }
    for (int r = 0; r < size; r++) {
        if (r == root) continue;
        rc = PMPI_Isend((const char *)sbuf + r * stride, scount, stype, r, AC_TAG_DATA, comm,
                        &reqs[nreq]);
        if (rc != MPI_SUCCESS) goto out;
        nreq++;
    }
    if (rbuf != MPI_IN_PLACE)
        rc = ac_copy((const char *)sbuf + root * stride, scount, stype, rbuf, rcount, rtype);
out:
    if (nreq > 0) {
        int wrc = PMPI_Waitall(nreq, reqs, stats);
        if (rc == MPI_SUCCESS) rc = wrc;
    }
    free(reqs);
    free(stats);
    return rc;
}

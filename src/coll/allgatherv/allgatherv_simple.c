/*
 * allgatherv_simple.c - simple all-gather (STAR-MPI section 3.1, "simple"): every rank posts
 * all its receives and all its sends at once and waits for them all. Rank i sends its block to
 * i+1, i+2, ..., i+p-1 (mod p) in that order and receives from i-1, i-2, ... in the matching
 * order, directly between the rbuf blocks with rtype.
 *
 * Cost: (p-1) alpha + (p-1) n beta per rank for n-byte blocks, all messages in flight at once
 * (latency overlapped, but node and link contention are left to the network).
 * Requirements: none; any process count.
 * Source: STAR-MPI (Faraj, Yuan, Lowenthal 2006) section 3.1, after its all-to-all "simple".
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"

#include <stdlib.h>

int ac_allgatherv_simple(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                         const int *rcounts, const int *displs, MPI_Datatype rtype,
                         MPI_Comm comm, const ac_params *p)
{
    int rc, rank, size, n = 0;
    MPI_Aint ext = ac_extent(rtype);
    MPI_Request *reqs = NULL;
    MPI_Status *stats = NULL; /* not MPI_STATUSES_IGNORE: gcc 12 -Wstringop-overflow with MPICH */
    (void)p;
    PMPI_Comm_rank(comm, &rank);
    PMPI_Comm_size(comm, &size);
    rc = ac_allgatherv_place_own(sbuf, scount, stype, rbuf, rcounts, displs, rtype, rank);
    if (rc != MPI_SUCCESS || size == 1) return rc;
    reqs = malloc(sizeof(MPI_Request) * 2 * (size_t)(size - 1));
    stats = malloc(sizeof(MPI_Status) * 2 * (size_t)(size - 1));
    if (!reqs || !stats) {
        rc = MPI_ERR_NO_MEM;
        goto out;
    }
    for (int i = 1; i < size; i++) {
        int src = (rank - i + size) % size;
        rc = PMPI_Irecv((char *)rbuf + (MPI_Aint)displs[src] * ext, rcounts[src], rtype, src,
                        AC_TAG_DATA, comm, &reqs[n]);
        if (rc != MPI_SUCCESS) goto out;
        n++;
    }
    const char *own = (const char *)rbuf + (MPI_Aint)displs[rank] * ext;
    for (int i = 1; i < size; i++) {
        rc = PMPI_Isend(own, rcounts[rank], rtype, (rank + i) % size, AC_TAG_DATA, comm,
                        &reqs[n]);
        if (rc != MPI_SUCCESS) goto out;
        n++;
    }
out:
    if (n > 0) {
        int wrc = PMPI_Waitall(n, reqs, stats);
        if (rc == MPI_SUCCESS) rc = wrc;
    }
    free(reqs);
    free(stats);
    return rc;
}

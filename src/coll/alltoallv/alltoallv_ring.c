/*
 * alltoallv_ring.c - all-to-all in p-1 phases along a logical ring.
 *
 * In phase i (1 <= i < p) rank r sends its block for (r+i) mod p and receives the block of
 * (r-i) mod p with one sendrecv. Between phases params->sync adds nothing (AC_SYNC_NONE), a
 * light barrier (AC_SYNC_LIGHT: a zero-byte "ready to receive" token to the rank that sends to
 * us in the next phase, and from the rank we send to, so nobody sends to a rank still busy with
 * the previous phase) or MPI_Barrier (AC_SYNC_BARRIER: lock-step phases).
 * Zero-byte blocks are not sent (type signatures match, so both sides agree).
 * Cost: (p-1) alpha + (p-1) n beta for blocks of n bytes, plus (p-2) light or full barriers.
 * Requirements: none; any process count. MPI_IN_PLACE: sends from a copy of the outgoing blocks.
 * Also the inner all-to-all of the allreduce "reduce-scatter by all-to-all" family (uneven
 * counts, zeros included).
 * Source: STAR-MPI (Faraj, Yuan, Lowenthal, ICS 2006) section 3.1, "Ring", "Ring with light
 * barrier", "Ring with MPI barrier".
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"

#include <stdlib.h>

int ac_alltoallv_ring(const void *sbuf, const int *scounts, const int *sdispls,
                      MPI_Datatype stype, void *rbuf, const int *rcounts, const int *rdispls,
                      MPI_Datatype rtype, MPI_Comm comm, const ac_params *p)
{
    int rc = MPI_SUCCESS, rank, size, ssize, rsize;
    ac_sync sync = p ? p->sync : AC_SYNC_NONE;
    void *copy = NULL;
    PMPI_Comm_rank(comm, &rank);
    PMPI_Comm_size(comm, &size);
    rc = ac_alltoallv_start(&sbuf, &scounts, &sdispls, &stype, rbuf, rcounts, rdispls, rtype,
                            size, rank, &copy);
    if (rc != MPI_SUCCESS) goto out;
    MPI_Aint sext = ac_extent(stype), rext = ac_extent(rtype);
    PMPI_Type_size(stype, &ssize);
    PMPI_Type_size(rtype, &rsize);
    for (int i = 1; i < size; i++) {
        int to = (rank + i) % size, from = (rank - i + size) % size;
        if (i > 1) {
            rc = ac_sync_phase(comm, sync, from, to);
            if (rc != MPI_SUCCESS) goto out;
        }
        int sendto = scounts[to] == 0 || ssize == 0 ? MPI_PROC_NULL : to;
        int recvfrom = rcounts[from] == 0 || rsize == 0 ? MPI_PROC_NULL : from;
        rc = PMPI_Sendrecv((const char *)sbuf + sdispls[to] * sext, scounts[to], stype, sendto,
                           AC_TAG_DATA, (char *)rbuf + rdispls[from] * rext, rcounts[from], rtype,
                           recvfrom, AC_TAG_DATA, comm, MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS) goto out;
    }
out:
    free(copy);
    return rc;
}

/*
 * alltoallv_simple.c - all-to-all by posting every receive and every send at once.
 *
 * Rank i posts its receives from i-1, i-2, ..., and its sends to i+1, i+2, ..., i+p-1 (mod p),
 * copies its own block locally and waits for everything. Zero-byte blocks are not sent (type
 * signatures match, so sender and receiver agree on which ones are empty).
 * Cost: (p-1) alpha + (p-1) n beta for blocks of n bytes, all messages in flight together
 * (no control over contention). Requirements: none; any process count.
 * MPI_IN_PLACE: the outgoing blocks are copied out of the receive buffer first.
 * Source: STAR-MPI (Faraj, Yuan, Lowenthal, ICS 2006) section 3.1, "Simple".
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"

#include <stdlib.h>

int ac_alltoallv_simple(const void *sbuf, const int *scounts, const int *sdispls,
                        MPI_Datatype stype, void *rbuf, const int *rcounts, const int *rdispls,
                        MPI_Datatype rtype, MPI_Comm comm, const ac_params *p)
{
    int nreq = 0;
    MPI_Request *reqs = NULL;
    MPI_Status *stats = NULL; /* not MPI_STATUSES_IGNORE: gcc 12 -Wstringop-overflow with MPICH */
    ac_alltoallv_frame f;
    (void)p;
    int rc = ac_alltoallv_start(&f, sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype,
                                comm);
    if (rc != MPI_SUCCESS) goto out;
    reqs = malloc(sizeof(MPI_Request) * (size_t)(2 * f.size));
    stats = malloc(sizeof(MPI_Status) * (size_t)(2 * f.size));
    if (!reqs || !stats) {
        rc = MPI_ERR_NO_MEM;
        goto out;
    }
    for (int i = 1; i < f.size; i++) {
        int from = (f.rank - i + f.size) % f.size;
        if (f.rcounts[from] == 0 || f.rsize == 0) continue;
        rc = PMPI_Irecv((char *)f.rbuf + f.rdispls[from] * f.rext, f.rcounts[from], f.rtype, from,
                        AC_TAG_DATA, comm, &reqs[nreq]);
        if (rc != MPI_SUCCESS) goto out;
        nreq++;
    }
    for (int i = 1; i < f.size; i++) {
        int to = (f.rank + i) % f.size;
        if (f.scounts[to] == 0 || f.ssize == 0) continue;
        rc = PMPI_Isend((const char *)f.sbuf + f.sdispls[to] * f.sext, f.scounts[to], f.stype, to,
                        AC_TAG_DATA, comm, &reqs[nreq]);
        if (rc != MPI_SUCCESS) goto out;
        nreq++;
    }
out:
    rc = ac_wait_pending(rc, nreq, reqs, stats);
    free(stats);
    free(reqs);
    free(f.copy);
    return rc;
}

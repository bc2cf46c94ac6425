/*
 * barrier_dissemination.c - dissemination barrier (Hensgen, Finkel and Manber 1988; MPICH's
 * barrier). In round k = 0 .. ceil(log2 p)-1 rank r sends a zero-byte token to r + 2^k and
 * waits for one from r - 2^k (mod p). After the last round every rank has heard, directly or
 * transitively, from every other, so none leaves before all have entered.
 *
 * Cost: ceil(log2 p) * alpha. Requirements: none; any process count (no pairing needed).
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"

int ac_barrier_dissemination(MPI_Comm comm, const ac_params *p)
{
    int rc, rank, size;
    (void)p;

    rc = PMPI_Comm_rank(comm, &rank);
    if (rc == MPI_SUCCESS) rc = PMPI_Comm_size(comm, &size);
    for (int dist = 1; rc == MPI_SUCCESS && dist < size; dist <<= 1)
        rc = PMPI_Sendrecv(NULL, 0, MPI_BYTE, (rank + dist) % size, AC_TAG_SYNC, NULL, 0,
                           MPI_BYTE, (rank - dist + size) % size, AC_TAG_SYNC, comm,
                           MPI_STATUS_IGNORE);
    return rc;
}

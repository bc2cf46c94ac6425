/*
 * allreduce_ring.c - ring allreduce: a ring reduce-scatter followed by a ring all-gather (the
 * bandwidth-optimal "ring" allreduce; Patarasuk and Yuan 2009, Thakur, Rabenseifner and Gropp
 * 2005 for the ring all-gather).
 *
 * The vector is cut into p blocks (sizes differ by at most one element; blocks are empty when
 * count < p). Reduce-scatter: in step s (s = 0 .. p-2) rank r sends its partial block
 * (r-s-1) mod p to r+1 and combines the partial block (r-s-2) mod p received from r-1 into its
 * own; after p-1 steps rank r holds block r fully reduced. All-gather: in step s rank r forwards
 * block (r-s) mod p to r+1 and receives block (r-s-1) mod p from r-1, straight into the result.
 * Each block is reduced in exactly one place, so every rank gets identical bits.
 *
 * Cost: 2(p-1)*alpha + 2((p-1)/p)*n*beta + ((p-1)/p)*n*gamma. A large-message algorithm.
 * Requirements: commutative op (block b is combined in the order b+1, b+2, ..., b around the
 * ring). Any process count: the ring needs no power of two.
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"

#include <stdlib.h>

int ac_allreduce_ring(const void *sbuf, void *rbuf, int count, MPI_Datatype dtype, MPI_Op op,
                      MPI_Comm comm, const ac_params *p)
{
    int rc, rank, size, next, prev, maxblock;
    int *counts = NULL, *displs = NULL;
    ac_tmp tmp = {0};
    char *res = rbuf;
    MPI_Aint extent = ac_extent(dtype);
    (void)p;

    if (count == 0) return MPI_SUCCESS;
    rc = PMPI_Comm_rank(comm, &rank);
    if (rc == MPI_SUCCESS) rc = PMPI_Comm_size(comm, &size);
    if (rc != MPI_SUCCESS) return rc;
    if (sbuf != MPI_IN_PLACE) {
        rc = ac_copy(sbuf, count, dtype, rbuf, count, dtype);
        if (rc != MPI_SUCCESS) return rc;
    }
    if (size == 1) return MPI_SUCCESS;

    counts = malloc((size_t)size * sizeof *counts);
    displs = malloc((size_t)(size + 1) * sizeof *displs);
    if (!counts || !displs) {
        rc = MPI_ERR_NO_MEM;
        goto out;
    }
    ac_even_blocks(count, size, counts, displs);
    maxblock = counts[0];
    rc = ac_tmp_alloc(&tmp, maxblock, dtype);
    if (rc != MPI_SUCCESS) goto out;
    next = (rank + 1) % size;
    prev = (rank + size - 1) % size;

    for (int s = 0; s < size - 1; s++) {
        int sb = (rank - s - 1 + 2 * size) % size;
        int rb = (rank - s - 2 + 2 * size) % size;
        rc = PMPI_Sendrecv(res + displs[sb] * extent, counts[sb], dtype, next, AC_TAG_DATA,
                           tmp.buf, counts[rb], dtype, prev, AC_TAG_DATA, comm,
                           MPI_STATUS_IGNORE);
        if (rc == MPI_SUCCESS)
            rc = ac_reduce_local(tmp.buf, res + displs[rb] * extent, counts[rb], dtype, op);
        if (rc != MPI_SUCCESS) goto out;
    }
    for (int s = 0; s < size - 1; s++) {
        int sb = (rank - s + size) % size;
        int rb = (rank - s - 1 + size) % size;
        rc = PMPI_Sendrecv(res + displs[sb] * extent, counts[sb], dtype, next, AC_TAG_DATA,
                           res + displs[rb] * extent, counts[rb], dtype, prev, AC_TAG_DATA, comm,
                           MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS) goto out;
    }
out:
    ac_tmp_free(&tmp);
    free(counts);
    free(displs);
    return rc;
}

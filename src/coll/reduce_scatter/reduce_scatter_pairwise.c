/*
 * reduce_scatter_pairwise.c - pairwise-exchange reduce-scatter (Thakur, Rabenseifner and Gropp
 * 2005: MPICH's algorithm for long messages and non-commutative ops).
 *
 * In step s = 1 .. p-1 rank r sends block (r+s) mod p of its input to rank r+s and receives
 * block r of rank r-s's input. The contributions arrive from ranks r-1, r-2, ..., 0, then
 * p-1, p-2, ..., r+1: two descending runs. Each run is folded as it arrives with the newcomer
 * as the left operand (low = x_s op low, high = x_s op high), and the result is
 * low op (x_r op high) = x_0 op x_1 op ... op x_(p-1): rank order, so any op is correct.
 *
 * Cost: (p-1) * alpha + ((p-1)/p) * n * beta + ((p-1)/p) * n * gamma (n = whole vector).
 * Bandwidth-optimal; a long-message algorithm. Requirements: none; any op, any process count.
 * MPI_IN_PLACE: the input is the whole vector in rbuf.
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"

#include <stdlib.h>

int ac_reduce_scatter_pairwise(const void *sbuf, void *rbuf, const int *rcounts,
                               MPI_Datatype dtype, MPI_Op op, MPI_Comm comm, const ac_params *p)
{
    int rc, rank, size, mycount;
    MPI_Aint *displs = NULL, extent = ac_extent(dtype);
    const char *in;
    ac_tmp low = {0}, high = {0}, incoming = {0};
    (void)p;

    rc = PMPI_Comm_rank(comm, &rank);
    if (rc == MPI_SUCCESS) rc = PMPI_Comm_size(comm, &size);
    if (rc != MPI_SUCCESS) return rc;
    in = sbuf == MPI_IN_PLACE ? rbuf : sbuf;
    mycount = rcounts[rank];
    displs = malloc((size_t)size * sizeof *displs);
    if (!displs) return MPI_ERR_NO_MEM;
    displs[0] = 0;
    for (int r = 1; r < size; r++) displs[r] = displs[r - 1] + rcounts[r - 1];
    rc = ac_tmp_alloc(&low, mycount, dtype);
    if (rc == MPI_SUCCESS) rc = ac_tmp_alloc(&high, mycount, dtype);
    if (rc == MPI_SUCCESS) rc = ac_tmp_alloc(&incoming, mycount, dtype);
    if (rc != MPI_SUCCESS) goto out;

    for (int s = 1; s < size; s++) {
        int to = (rank + s) % size, from = (rank - s + size) % size;
        int first_of_run = s == 1 || from == size - 1;
        char *acc = from < rank ? low.buf : high.buf;
        char *into = first_of_run ? acc : incoming.buf;
        rc = PMPI_Sendrecv(in + displs[to] * extent, rcounts[to], dtype, to, AC_TAG_DATA, into,
                           mycount, dtype, from, AC_TAG_DATA, comm, MPI_STATUS_IGNORE);
        if (rc == MPI_SUCCESS && !first_of_run)
            rc = ac_reduce_local(incoming.buf, acc, mycount, dtype, op);
        if (rc != MPI_SUCCESS) goto out;
    }

    /* result = low op (own op high); low is empty on rank 0, high on rank p-1 */
    if (rank < size - 1) {
        rc = ac_reduce_local(in + displs[rank] * extent, high.buf, mycount, dtype, op);
    } else {
        rc = ac_copy(in + displs[rank] * extent, mycount, dtype, high.buf, mycount, dtype);
    }
    if (rc == MPI_SUCCESS && rank > 0) rc = ac_reduce_local(low.buf, high.buf, mycount, dtype, op);
    if (rc == MPI_SUCCESS) rc = ac_copy(high.buf, mycount, dtype, rbuf, mycount, dtype);
out:
    ac_tmp_free(&low);
    ac_tmp_free(&high);
    ac_tmp_free(&incoming);
    free(displs);
    return rc;
}

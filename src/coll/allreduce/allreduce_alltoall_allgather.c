/*
 * allreduce_alltoall_allgather.c - allreduce as a reduce-scatter realised by an all-to-all
 * followed by an all-gather (STAR-MPI section 3.1, third type, "Rab2-(x, y)").
 *
 * The vector is cut into p blocks (sizes differ by at most one element; blocks are empty when
 * count < p). The all-to-all params->alltoallv (parameters params->inner2) sends block j of every
 * rank's input to rank j; rank j folds the p copies it received in rank order,
 * v0 op (v1 op (... op v(p-1))), into block j of the result, and the all-gather
 * params->allgatherv (parameters params->inner) distributes the reduced blocks in place. Each
 * block is reduced in exactly one place, so every rank gets identical bits, and non-commutative
 * ops are combined in rank order.
 *
 * Cost: the inner all-to-all of n/p bytes per pair (ring: (p-1)(alpha + (n/p)*beta)) plus
 * ((p-1)/p)*n*gamma plus the inner all-gather of n bytes in total (ring:
 * (p-1)*alpha + ((p-1)/p)*n*beta). Memory: n extra. A large-message algorithm.
 * Requirements: none. Any process count: the inner collectives handle non-powers of two.
 * Defaults (params NULL, or no inner collective given): the library's MPI_Alltoallv and
 * MPI_Allgatherv.
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"

#include <stdlib.h>

int ac_allreduce_alltoall_allgather(const void *sbuf, void *rbuf, int count, MPI_Datatype dtype,
                                    MPI_Op op, MPI_Comm comm, const ac_params *p)
{
    int rc, rank, size, mine;
    int *counts = NULL, *displs = NULL, *rcounts = NULL, *rdispls = NULL;
    ac_tmp parts = {0};
    char *res = rbuf;
    MPI_Aint extent = ac_extent(dtype);
    ac_allgatherv_fn *allgatherv = p && p->allgatherv ? p->allgatherv : ac_allgatherv_native;
    const ac_params *inner = p && p->allgatherv ? p->inner : NULL;
    ac_alltoallv_fn *alltoallv = p && p->alltoallv ? p->alltoallv : ac_alltoallv_native;
    const ac_params *inner2 = p && p->alltoallv ? p->inner2 : NULL;
    const void *input = sbuf == MPI_IN_PLACE ? rbuf : sbuf;

    if (count == 0) return MPI_SUCCESS;
    rc = PMPI_Comm_rank(comm, &rank);
    if (rc == MPI_SUCCESS) rc = PMPI_Comm_size(comm, &size);
    if (rc != MPI_SUCCESS) return rc;
    counts = malloc((size_t)size * sizeof *counts);
    displs = malloc((size_t)(size + 1) * sizeof *displs);
    rcounts = malloc((size_t)size * sizeof *rcounts);
    rdispls = malloc((size_t)size * sizeof *rdispls);
    if (!counts || !displs || !rcounts || !rdispls) {
        rc = MPI_ERR_NO_MEM;
        goto out;
    }
    ac_even_blocks(count, size, counts, displs);
    mine = counts[rank];
    for (int i = 0; i < size; i++) {
        rcounts[i] = mine;
        rdispls[i] = i * mine;
    }
    rc = ac_tmp_alloc(&parts, (MPI_Aint)size * mine, dtype);
    if (rc != MPI_SUCCESS) goto out;

    /* Reduce-scatter: block `rank` of every rank's input, then a fold right to left
     * (MPI_Reduce_local's first operand is the left one) into the result's block `rank`. */
    rc = alltoallv(input, counts, displs, dtype, parts.buf, rcounts, rdispls, dtype, comm, inner2);
    if (rc == MPI_SUCCESS)
        rc = ac_copy(parts.buf + (MPI_Aint)(size - 1) * mine * extent, mine, dtype,
                     res + displs[rank] * extent, mine, dtype);
    for (int i = size - 2; i >= 0 && rc == MPI_SUCCESS; i--)
        rc = ac_reduce_local(parts.buf + (MPI_Aint)i * mine * extent, res + displs[rank] * extent,
                             mine, dtype, op);
    if (rc != MPI_SUCCESS) goto out;

    rc = allgatherv(MPI_IN_PLACE, 0, dtype, rbuf, counts, displs, dtype, comm, inner);
out:
    ac_tmp_free(&parts);
    free(counts);
    free(displs);
    free(rcounts);
    free(rdispls);
    return rc;
}

/*
 * allreduce_allgather.c - allreduce as an all-gather of every rank's whole vector followed by a
 * local reduction (STAR-MPI section 3.1, first type of allreduce algorithms).
 *
 * Every rank gathers the p input vectors (p*count elements, in a temporary buffer) with the
 * inner all-gather params->allgatherv (parameters params->inner), then folds them locally in rank
 * order: v0 op (v1 op (... op v(p-1))). Every rank computes the same fold on the same data, so
 * every rank gets identical bits, and non-commutative ops are combined in rank order.
 *
 * Cost: that of the inner all-gather of p*n bytes in total (ring: (p-1)(alpha + n*beta); Bruck
 * or recursive doubling: lg(p)*alpha + (p-1)*n*beta) plus (p-1)*n*gamma of local reduction on
 * every rank; memory p*n. A small-message algorithm.
 * Requirements: size*count must fit in an int (the inner all-gather's displacements).
 * Any process count: the inner all-gathers handle non-powers of two.
 * Defaults (params NULL or without an inner all-gather): the library's MPI_Allgatherv.
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"

#include <stdlib.h>

int ac_allreduce_allgather(const void *sbuf, void *rbuf, int count, MPI_Datatype dtype, MPI_Op op,
                           MPI_Comm comm, const ac_params *p)
{
    int rc, size;
    int *counts = NULL, *displs = NULL;
    ac_tmp all = {0};
    MPI_Aint extent = ac_extent(dtype);
    ac_allgatherv_fn *allgatherv = p && p->allgatherv ? p->allgatherv : ac_allgatherv_native;
    const ac_params *inner = p && p->allgatherv ? p->inner : NULL;
    const void *input = sbuf == MPI_IN_PLACE ? rbuf : sbuf;

    if (count == 0) return MPI_SUCCESS;
    rc = PMPI_Comm_size(comm, &size);
    if (rc != MPI_SUCCESS) return rc;
    counts = malloc((size_t)size * sizeof *counts);
    displs = malloc((size_t)size * sizeof *displs);
    if (!counts || !displs) {
        rc = MPI_ERR_NO_MEM;
        goto out;
    }
    rc = ac_tmp_alloc(&all, (MPI_Aint)size * count, dtype);
    if (rc != MPI_SUCCESS) goto out;
    for (int i = 0; i < size; i++) {
        counts[i] = count;
        displs[i] = i * count;
    }
    rc = allgatherv(input, count, dtype, all.buf, counts, displs, dtype, comm, inner);
    if (rc != MPI_SUCCESS) goto out;

    /* Fold right to left: MPI_Reduce_local's first operand is the left one. */
    rc = ac_copy(all.buf + (MPI_Aint)(size - 1) * count * extent, count, dtype, rbuf, count,
                 dtype);
    for (int i = size - 2; i >= 0 && rc == MPI_SUCCESS; i--)
        rc = ac_reduce_local(all.buf + (MPI_Aint)i * count * extent, rbuf, count, dtype, op);
out:
    ac_tmp_free(&all);
    free(counts);
    free(displs);
    return rc;
}

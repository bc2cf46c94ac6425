/*
 * reduce_scatter_reduce_then_scatter.c - reduce-scatter as a reduce to rank 0 followed by a
 * scatterv from rank 0 (the MPI standard's reference definition; MPICH's fallback).
 *
 * The whole vector is reduced to rank 0 with the tree reduce engine on its default binomial
 * tree (ac_reduce_tree: operands in rank order for non-commutative ops). Rank 0 then scatters
 * the blocks down a binomial tree on the ranks themselves: the subtree of rank r is
 * [r, r + 2^k) (2^k its lowest set bit, clipped at p), whose blocks are contiguous in the
 * vector, so each tree edge carries one contiguous range of elements. Every block is reduced
 * once, at rank 0.
 *
 * Cost: reduce ceil(log2 p) * (alpha + n*beta + n*gamma), scatter ceil(log2 p) * alpha +
 * ((p-1)/p) * n * beta (n = whole vector). Simple, memory-light at non-root ranks.
 * Requirements: none; any op, any process count. MPI_IN_PLACE: the input is the whole vector
 * in rbuf.
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"

#include <stdlib.h>

/* Binomial scatterv of the blocks `all` (significant at rank 0) into rbuf. */
static int scatter_blocks(const char *all, void *rbuf, const int *rcounts,
                          const MPI_Aint *displs, MPI_Datatype dtype, int rank, int size,
                          MPI_Comm comm)
{
    int rc = MPI_SUCCESS, lowbit, subtree, mask = 1;
    MPI_Aint extent = ac_extent(dtype);
    ac_tmp tmp = {0};
    const char *mine = all;

    lowbit = rank == 0 ? size : rank & -rank;
    while (mask < lowbit) mask <<= 1;
    subtree = lowbit < size - rank ? lowbit : size - rank;
    if (rank != 0) {
        int parent = rank - lowbit;
        MPI_Aint n = displs[rank + subtree] - displs[rank];
        if (subtree == 1)
            return PMPI_Recv(rbuf, rcounts[rank], dtype, parent, AC_TAG_DATA, comm,
                             MPI_STATUS_IGNORE);
        rc = ac_tmp_alloc(&tmp, n, dtype);
        if (rc == MPI_SUCCESS)
            rc = PMPI_Recv(tmp.buf, (int)n, dtype, parent, AC_TAG_DATA, comm, MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS) goto out;
        mine = tmp.buf;
    }
    /* mine holds blocks rank .. rank+subtree-1, starting at displs[rank] */
    for (mask >>= 1; mask > 0; mask >>= 1) {
        int child = rank + mask, end;
        if (mask >= subtree) continue;
        end = child + mask < rank + subtree ? child + mask : rank + subtree;
        rc = PMPI_Send(mine + (displs[child] - displs[rank]) * extent,
                       (int)(displs[end] - displs[child]), dtype, child, AC_TAG_DATA, comm);
        if (rc != MPI_SUCCESS) goto out;
    }
    rc = ac_copy(mine, rcounts[rank], dtype, rbuf, rcounts[rank], dtype);
out:
    ac_tmp_free(&tmp);
    return rc;
}

int ac_reduce_scatter_reduce_then_scatter(const void *sbuf, void *rbuf, const int *rcounts,
                                          MPI_Datatype dtype, MPI_Op op, MPI_Comm comm,
                                          const ac_params *p)
{
    int rc, rank, size;
    MPI_Aint *displs = NULL, total;
    ac_tmp all = {0};
    (void)p;

    rc = PMPI_Comm_rank(comm, &rank);
    if (rc == MPI_SUCCESS) rc = PMPI_Comm_size(comm, &size);
    if (rc != MPI_SUCCESS) return rc;
    displs = malloc((size_t)(size + 1) * sizeof *displs);
    if (!displs) return MPI_ERR_NO_MEM;
    displs[0] = 0;
    for (int r = 0; r < size; r++) displs[r + 1] = displs[r] + rcounts[r];
    total = displs[size];
    if (total == 0) goto out;

    if (rank == 0) {
        rc = ac_tmp_alloc(&all, total, dtype);
        if (rc != MPI_SUCCESS) goto out;
    }
    rc = ac_reduce_tree(sbuf == MPI_IN_PLACE ? rbuf : sbuf, all.buf, (int)total, dtype, op, 0,
                        comm, NULL);
    if (rc == MPI_SUCCESS)
        rc = scatter_blocks(all.buf, rbuf, rcounts, displs, dtype, rank, size, comm);
out:
    ac_tmp_free(&all);
    free(displs);
    return rc;
}

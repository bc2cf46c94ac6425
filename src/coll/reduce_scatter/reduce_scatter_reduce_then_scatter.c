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
#include "coll/common/sched.h"

#include <stdlib.h>

/* The binomial scatterv of the reduced vector `all` (rank 0's) to the blocks' ranks: a round
 * receiving this rank's subtree from its parent, then a round per child's subtree sent, then
 * the copy of its own block. */
static int scatter_blocks(ac_sched *s, const char *all, void *rbuf, const int *rcounts,
                          const MPI_Aint *displs, MPI_Datatype dtype)
{
    int rank = s->rank, size = s->size, lowbit, subtree, mask = 1;
    MPI_Aint extent = ac_extent(dtype);
    const char *mine = all;

    lowbit = rank == 0 ? size : rank & -rank;
    while (mask < lowbit) mask <<= 1;
    subtree = lowbit < size - rank ? lowbit : size - rank;
    if (rank != 0) {
        int parent = rank - lowbit;
        MPI_Aint n = displs[rank + subtree] - displs[rank];
        if (subtree == 1) {
            ac_sched_recv(s, rbuf, rcounts[rank], dtype, parent);
            ac_sched_round(s);
            return ac_sched_error(s);
        }
        char *tmp = ac_sched_tmp(s, n, dtype);
        ac_sched_recv(s, tmp, (int)n, dtype, parent);
        ac_sched_round(s);
        mine = tmp;
    }
    /* mine holds blocks rank .. rank+subtree-1, starting at displs[rank] */
    for (mask >>= 1; mask > 0; mask >>= 1) {
        int child = rank + mask, end;
        if (mask >= subtree) continue;
        end = child + mask < rank + subtree ? child + mask : rank + subtree;
        ac_sched_send(s, mine + (displs[child] - displs[rank]) * extent,
                      (int)(displs[end] - displs[child]), dtype, child);
        ac_sched_round(s);
    }
    ac_sched_copy(s, mine, rcounts[rank], dtype, rbuf, rcounts[rank], dtype);
    return ac_sched_error(s);
}

int ac_reduce_scatter_reduce_then_scatter_schedule(ac_sched *s, const void *sbuf, void *rbuf,
                                                   const int *rcounts, MPI_Datatype dtype,
                                                   MPI_Op op, const ac_params *p)
{
    int rc = MPI_SUCCESS, size = s->size;
    MPI_Aint *displs, total;
    (void)p;

    displs = malloc((size_t)(size + 1) * sizeof *displs);
    if (!displs) return MPI_ERR_NO_MEM;
    displs[0] = 0;
    for (int r = 0; r < size; r++) displs[r + 1] = displs[r] + rcounts[r];
    total = displs[size];
    if (total > 0) {
        char *all = s->rank == 0 ? ac_sched_tmp(s, total, dtype) : NULL;
        rc = ac_reduce_tree_schedule(s, sbuf == MPI_IN_PLACE ? rbuf : sbuf, all, (int)total,
                                     dtype, op, 0, NULL);
        if (rc == MPI_SUCCESS) rc = scatter_blocks(s, all, rbuf, rcounts, displs, dtype);
    }
    free(displs);
    return rc != MPI_SUCCESS ? rc : ac_sched_error(s);
}

AC_REDUCE_SCATTER_BY_SCHEDULE(reduce_then_scatter)

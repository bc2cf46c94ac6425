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
 * Written as a schedule (common/sched.h): the inner all-gather's (inner.c), then the fold as
 * local steps; the blocking call runs it, nonblocking and persistent calls progress it where
 * the inner all-gather is written as one.
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"
#include "coll/common/sched.h"

int ac_allreduce_allgather_schedule(ac_sched *s, const void *sbuf, void *rbuf, int count,
                                    MPI_Datatype dtype, MPI_Op op, const ac_params *p)
{
    int rc, size = s->size, *counts, *displs;
    MPI_Aint extent = ac_extent(dtype);
    const void *input = sbuf == MPI_IN_PLACE ? rbuf : sbuf;
    char *all;

    if (count == 0) return ac_sched_error(s);
    counts = ac_sched_tmp(s, size, MPI_INT);
    displs = ac_sched_tmp(s, size, MPI_INT);
    all = ac_sched_tmp(s, (MPI_Aint)size * count, dtype);
    if (!counts || !displs || !all) return ac_sched_error(s);
    for (int i = 0; i < size; i++) {
        counts[i] = count;
        displs[i] = i * count;
    }
    rc = ac_allreduce_inner_allgatherv(s, p, input, count, dtype, all, counts, displs, dtype);
    if (rc != MPI_SUCCESS) return rc;
    ac_sched_round(s); /* the fold after the all-gather's last messages */

    /* Fold right to left: MPI_Reduce_local's first operand is the left one. */
    ac_sched_copy(s, all + (MPI_Aint)(size - 1) * count * extent, count, dtype, rbuf, count,
                  dtype);
    for (int i = size - 2; i >= 0; i--)
        ac_sched_reduce(s, all + (MPI_Aint)i * count * extent, rbuf, count, dtype, op);
    return ac_sched_error(s);
}

AC_ALLREDUCE_BY_SCHEDULE(allgather)

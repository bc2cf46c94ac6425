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
 * Written as a schedule (common/sched.h): the inner all-to-all's (inner.c), the fold as local
 * steps, the inner all-gather's; the blocking call runs it, nonblocking and persistent calls
 * progress it where both inner phases are written as schedules.
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"
#include "coll/common/sched.h"

int ac_allreduce_alltoall_allgather_schedule(ac_sched *s, const void *sbuf, void *rbuf,
                                             int count, MPI_Datatype dtype, MPI_Op op,
                                             const ac_params *p)
{
    int rc, rank = s->rank, size = s->size, mine;
    int *counts, *displs, *rcounts, *rdispls;
    char *res = rbuf, *parts;
    MPI_Aint extent = ac_extent(dtype);
    const void *input = sbuf == MPI_IN_PLACE ? rbuf : sbuf;

    if (count == 0) return ac_sched_error(s);
    counts = ac_sched_tmp(s, size, MPI_INT);
    displs = ac_sched_tmp(s, size + 1, MPI_INT);
    rcounts = ac_sched_tmp(s, size, MPI_INT);
    rdispls = ac_sched_tmp(s, size, MPI_INT);
    if (!counts || !displs || !rcounts || !rdispls) return ac_sched_error(s);
    ac_even_blocks(count, size, counts, displs);
    mine = counts[rank];
    for (int i = 0; i < size; i++) {
        rcounts[i] = mine;
        rdispls[i] = i * mine;
    }
    /* NULL where this rank's block is empty (nothing is moved or combined then) */
    parts = ac_sched_tmp(s, (MPI_Aint)size * mine, dtype);

    /* Reduce-scatter: block `rank` of every rank's input, then a fold right to left
     * (MPI_Reduce_local's first operand is the left one) into the result's block `rank`. */
    rc = ac_allreduce_inner_alltoallv(s, p, input, counts, displs, dtype, parts, rcounts, rdispls,
                                      dtype);
    if (rc != MPI_SUCCESS) return rc;
    ac_sched_round(s); /* the fold after the all-to-all's last messages */
    ac_sched_copy(s, parts + (MPI_Aint)(size - 1) * mine * extent, mine, dtype,
                  res + displs[rank] * extent, mine, dtype);
    for (int i = size - 2; i >= 0; i--)
        ac_sched_reduce(s, parts + (MPI_Aint)i * mine * extent, res + displs[rank] * extent, mine,
                        dtype, op);
    rc = ac_allreduce_inner_allgatherv(s, p, MPI_IN_PLACE, 0, dtype, rbuf, counts, displs, dtype);
    return rc != MPI_SUCCESS ? rc : ac_sched_error(s);
}

AC_ALLREDUCE_BY_SCHEDULE(alltoall_allgather)

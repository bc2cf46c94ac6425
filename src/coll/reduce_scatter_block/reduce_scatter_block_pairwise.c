/*
 * reduce_scatter_block_pairwise.c - reduce-scatter with equal blocks by the pairwise reduce-
 * scatter engine (src/coll/reduce_scatter/reduce_scatter_pairwise.c, whose header gives the
 * algorithm, its cost and its source): p-1 pairwise block exchanges, each rank folding the
 * contributions to its block in rank order.
 *
 * It runs the engine with equal blocks (uniform.c).
 */
#include "coll/algorithms.h"
#include "coll/common/sched.h"

int ac_reduce_scatter_block_pairwise_schedule(ac_sched *s, const void *sbuf, void *rbuf,
                                              int rcount, MPI_Datatype dtype, MPI_Op op,
                                              const ac_params *p)
{
    return ac_reduce_scatter_block_uniform(ac_reduce_scatter_pairwise_schedule, s, sbuf, rbuf,
                                           rcount, dtype, op, p);
}

AC_REDUCE_SCATTER_BLOCK_BY_SCHEDULE(pairwise)

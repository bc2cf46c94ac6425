/*
 * reduce_scatter_block_reduce_then_scatter.c - reduce-scatter with equal blocks by the
 * reduce_then_scatter reduce-scatter engine
 * (src/coll/reduce_scatter/reduce_scatter_reduce_then_scatter.c, whose header gives the algorithm,
 * its cost and its source): a reduce to rank 0 (binomial, operands in rank order) then a binomial
 * scatter of the blocks.
 *
 * It runs the engine with equal blocks (uniform.c).
 */
#include "coll/algorithms.h"
#include "coll/common/sched.h"

int ac_reduce_scatter_block_reduce_then_scatter_schedule(ac_sched *s, const void *sbuf, void *rbuf,
                                                         int rcount, MPI_Datatype dtype, MPI_Op op,
                                                         const ac_params *p)
{
    return ac_reduce_scatter_block_uniform(ac_reduce_scatter_reduce_then_scatter_schedule, s, sbuf, rbuf,
                                           rcount, dtype, op, p);
}

AC_REDUCE_SCATTER_BLOCK_BY_SCHEDULE(reduce_then_scatter)

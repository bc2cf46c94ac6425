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

int ac_reduce_scatter_block_reduce_then_scatter(const void *sbuf, void *rbuf, int rcount,
                                                MPI_Datatype dtype, MPI_Op op, MPI_Comm comm,
                                                const ac_params *p)
{
    return ac_reduce_scatter_block_uniform(ac_reduce_scatter_reduce_then_scatter, sbuf, rbuf,
                                           rcount, dtype, op, comm, p);
}

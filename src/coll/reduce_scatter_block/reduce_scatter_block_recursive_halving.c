/*
 * reduce_scatter_block_recursive_halving.c - reduce-scatter with equal blocks by the
 * recursive_halving reduce-scatter engine
 * (src/coll/reduce_scatter/reduce_scatter_recursive_halving.c, whose header gives the algorithm,
 * its cost and its source): recursive halving of the vector (commutative ops; an extra step when p
 * is not a power of two).
 *
 * It runs the engine with equal blocks (uniform.c).
 */
#include "coll/algorithms.h"
#include "coll/common/sched.h"

int ac_reduce_scatter_block_recursive_halving_schedule(ac_sched *s, const void *sbuf, void *rbuf,
                                                       int rcount, MPI_Datatype dtype, MPI_Op op,
                                                       const ac_params *p)
{
    return ac_reduce_scatter_block_uniform(ac_reduce_scatter_recursive_halving_schedule, s, sbuf, rbuf,
                                           rcount, dtype, op, p);
}

AC_REDUCE_SCATTER_BLOCK_BY_SCHEDULE(recursive_halving)

/*
 * reduce_scatter_block_reduce_then_scatter.c - reduce-scatter with equal blocks by the
 * reduce_then_scatter reduce-scatter engine
 * (src/coll/reduce_scatter/reduce_scatter_reduce_then_scatter.c, whose header gives the algorithm,
 * its cost and its source): a reduce to rank 0 (binomial, operands in rank order) then a binomial
 * scatter of the blocks.
 *
 * The block size is the same on every rank, so this builds the count vector (rcount for every
 * rank) and runs the engine. Requirements, process counts and MPI_IN_PLACE (the input is the
 * whole vector in rbuf) are those of the engine.
 */
#include "coll/algorithms.h"

#include <stdlib.h>

int ac_reduce_scatter_block_reduce_then_scatter(const void *sbuf, void *rbuf, int rcount,
                                                MPI_Datatype dtype, MPI_Op op, MPI_Comm comm,
                                                const ac_params *p)
{
    int rc, size, *rcounts;

    rc = PMPI_Comm_size(comm, &size);
    if (rc != MPI_SUCCESS) return rc;
    rcounts = malloc((size_t)size * sizeof *rcounts);
    if (!rcounts) return MPI_ERR_NO_MEM;
    for (int r = 0; r < size; r++) rcounts[r] = rcount;
    rc = ac_reduce_scatter_reduce_then_scatter(sbuf, rbuf, rcounts, dtype, op, comm, p);
    free(rcounts);
    return rc;
}

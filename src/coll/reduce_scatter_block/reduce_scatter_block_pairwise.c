/*
 * reduce_scatter_block_pairwise.c - reduce-scatter with equal blocks by the pairwise reduce-
 * scatter engine (src/coll/reduce_scatter/reduce_scatter_pairwise.c, whose header gives the
 * algorithm, its cost and its source): p-1 pairwise block exchanges, each rank folding the
 * contributions to its block in rank order.
 *
 * The block size is the same on every rank, so this builds the count vector (rcount for every
 * rank) and runs the engine. Requirements, process counts and MPI_IN_PLACE (the input is the
 * whole vector in rbuf) are those of the engine.
 */
#include "coll/algorithms.h"

#include <stdlib.h>

int ac_reduce_scatter_block_pairwise(const void *sbuf, void *rbuf, int rcount, MPI_Datatype dtype,
                                     MPI_Op op, MPI_Comm comm, const ac_params *p)
{
    int rc, size, *rcounts;

    rc = PMPI_Comm_size(comm, &size);
    if (rc != MPI_SUCCESS) return rc;
    rcounts = malloc((size_t)size * sizeof *rcounts);
    if (!rcounts) return MPI_ERR_NO_MEM;
    for (int r = 0; r < size; r++) rcounts[r] = rcount;
    rc = ac_reduce_scatter_pairwise(sbuf, rbuf, rcounts, dtype, op, comm, p);
    free(rcounts);
    return rc;
}

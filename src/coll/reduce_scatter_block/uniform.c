/*
 * uniform.c - the reduce_scatter_block algorithms are the reduce_scatter engines
 * (src/coll/reduce_scatter/) with equal blocks: rcounts[i] = rcount for every rank.
 * Requirements, process counts and MPI_IN_PLACE (the input is the whole vector in rbuf) are
 * those of the engine.
 */
#include "coll/algorithms.h"

#include <stdlib.h>

int ac_reduce_scatter_block_uniform(ac_reduce_scatter_fn *engine, const void *sbuf, void *rbuf,
                                    int rcount, MPI_Datatype dtype, MPI_Op op, MPI_Comm comm,
                                    const ac_params *p)
{
    int rc, size, *rcounts;

    rc = PMPI_Comm_size(comm, &size);
    if (rc != MPI_SUCCESS) return rc;
    rcounts = malloc((size_t)size * sizeof *rcounts);
    if (!rcounts) return MPI_ERR_NO_MEM;
    for (int r = 0; r < size; r++)
        rcounts[r] = rcount;
    rc = engine(sbuf, rbuf, rcounts, dtype, op, comm, p);
    free(rcounts);
    return rc;
}

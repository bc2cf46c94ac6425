/*
 * reduce_scatter_block.c - MPI_Reduce_scatter_block and MPI_Reduce_scatter_block_c.
 */
#include "intercept/intercept.h"

int ac_reduce_scatter_block_at(const void *caller, const void *sbuf, void *rbuf, int rcount,
                               MPI_Datatype dtype, MPI_Op op, MPI_Comm comm)
{
    ac_comm *c;
    if (rcount < 0 || dtype == MPI_DATATYPE_NULL || op == MPI_OP_NULL) {
        ac_count_passthrough(comm, AC_REDUCE_SCATTER_BLOCK, AC_PASS_ARGUMENTS);
        return PMPI_Reduce_scatter_block(sbuf, rbuf, rcount, dtype, op, comm);
    }
    c = ac_enter(comm, AC_REDUCE_SCATTER_BLOCK);
    if (!c) return PMPI_Reduce_scatter_block(sbuf, rbuf, rcount, dtype, op, comm);
    ac_call call = ac_call_make(c, AC_REDUCE_SCATTER_BLOCK);
    call.count = rcount * c->size;
    ac_call_set_op(&call, op);
    call.bytes = ac_signature_bytes((MPI_Aint)rcount * c->size, dtype);
    const ac_algorithm *alg = ac_select(c, &call, caller);
    double start = ac_now();
    int rc = alg->fn.reduce_scatter_block(sbuf, rbuf, rcount, dtype, op, c->pcomm, alg->params);
    ac_observe(c, &call, alg, start);
    return rc;
}

int MPI_Reduce_scatter_block(const void *sbuf, void *rbuf, int rcount, MPI_Datatype dtype,
                             MPI_Op op, MPI_Comm comm)
{
    return ac_reduce_scatter_block_at(AC_CALLER, sbuf, rbuf, rcount, dtype, op, comm);
}

#if MPI_VERSION >= 4
int MPI_Reduce_scatter_block_c(const void *sbuf, void *rbuf, MPI_Count rcount, MPI_Datatype dtype,
                               MPI_Op op, MPI_Comm comm)
{
    int n;
    if (!ac_count_fits(rcount, &n)) {
        ac_count_passthrough(comm, AC_REDUCE_SCATTER_BLOCK, AC_PASS_LARGE_COUNT);
        return PMPI_Reduce_scatter_block_c(sbuf, rbuf, rcount, dtype, op, comm);
    }
    return ac_reduce_scatter_block_at(AC_CALLER, sbuf, rbuf, n, dtype, op, comm);
}
#endif

/*
 * reduce.c - MPI_Reduce and MPI_Reduce_c.
 */
#include "intercept/intercept.h"

int ac_reduce_at(const void *caller, const void *sbuf, void *rbuf, int count, MPI_Datatype dtype,
                 MPI_Op op, int root, MPI_Comm comm)
{
    ac_comm *c;
    if (count < 0 || dtype == MPI_DATATYPE_NULL || op == MPI_OP_NULL || !ac_root_ok(comm, root)) {
        ac_count_passthrough(comm, AC_REDUCE, AC_PASS_ARGUMENTS);
        return PMPI_Reduce(sbuf, rbuf, count, dtype, op, root, comm);
    }
    c = ac_enter(comm, AC_REDUCE);
    if (!c) return PMPI_Reduce(sbuf, rbuf, count, dtype, op, root, comm);
    ac_call call;
    ac_call_reduction(&call, c, AC_REDUCE, count, dtype, op);
    const ac_algorithm *alg = ac_select(c, &call, caller);
    double start = ac_now();
    int rc = alg->fn.reduce(sbuf, rbuf, count, dtype, op, root, c->pcomm, alg->params);
    ac_observe(c, &call, alg, start, rc);
    return rc;
}

int MPI_Reduce(const void *sbuf, void *rbuf, int count, MPI_Datatype dtype, MPI_Op op, int root,
               MPI_Comm comm)
{
    return ac_reduce_at(AC_CALLER, sbuf, rbuf, count, dtype, op, root, comm);
}

#if MPI_VERSION >= 4
int MPI_Reduce_c(const void *sbuf, void *rbuf, MPI_Count count, MPI_Datatype dtype, MPI_Op op,
                 int root, MPI_Comm comm)
{
    int n;
    if (!ac_count_fits(count, &n)) {
        ac_count_passthrough(comm, AC_REDUCE, AC_PASS_LARGE_COUNT);
        return PMPI_Reduce_c(sbuf, rbuf, count, dtype, op, root, comm);
    }
    return ac_reduce_at(AC_CALLER, sbuf, rbuf, n, dtype, op, root, comm);
}
#endif

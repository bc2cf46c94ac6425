/*
 * reduce_scatter.c - MPI_Reduce_scatter and MPI_Reduce_scatter_c.
 */
#include "intercept/intercept.h"

#include <stdlib.h>

int ac_reduce_scatter_at(const void *caller, const void *sbuf, void *rbuf, const int rcounts[],
                         MPI_Datatype dtype, MPI_Op op, MPI_Comm comm)
{
    ac_comm *c;
    if (rcounts == NULL || dtype == MPI_DATATYPE_NULL || op == MPI_OP_NULL) {
        ac_count_passthrough(comm, AC_REDUCE_SCATTER, AC_PASS_ARGUMENTS);
        return PMPI_Reduce_scatter(sbuf, rbuf, rcounts, dtype, op, comm);
    }
    c = ac_enter(comm, AC_REDUCE_SCATTER);
    if (!c) return PMPI_Reduce_scatter(sbuf, rbuf, rcounts, dtype, op, comm);
    long total = 0;
    for (int i = 0; i < c->size; i++)
        total += rcounts[i];
    ac_call call;
    ac_call_reduction(&call, c, AC_REDUCE_SCATTER, total, dtype, op);
    const ac_algorithm *alg = ac_select(c, &call, caller);
    double start = ac_now();
    int rc = alg->fn.reduce_scatter(sbuf, rbuf, rcounts, dtype, op, c->pcomm, alg->params);
    ac_observe(c, &call, alg, start, rc);
    return rc;
}

int MPI_Reduce_scatter(const void *sbuf, void *rbuf, const int rcounts[], MPI_Datatype dtype,
                       MPI_Op op, MPI_Comm comm)
{
    return ac_reduce_scatter_at(AC_CALLER, sbuf, rbuf, rcounts, dtype, op, comm);
}

#if MPI_VERSION >= 4
int MPI_Reduce_scatter_c(const void *sbuf, void *rbuf, const MPI_Count rcounts[],
                         MPI_Datatype dtype, MPI_Op op, MPI_Comm comm)
{
    int size = ac_intra_size(comm), rc, *n = NULL;
    if (size == 0 || !ac_counts_fit(rcounts, size, &n)) {
        ac_count_passthrough(comm, AC_REDUCE_SCATTER, AC_PASS_LARGE_COUNT);
        return PMPI_Reduce_scatter_c(sbuf, rbuf, rcounts, dtype, op, comm);
    }
    rc = ac_reduce_scatter_at(AC_CALLER, sbuf, rbuf, n, dtype, op, comm);
    free(n);
    return rc;
}
#endif

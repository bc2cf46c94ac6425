/*
 * allreduce.c - MPI_Allreduce and MPI_Allreduce_c.
 */
#include "intercept/intercept.h"

int ac_allreduce_at(const void *caller, const void *sbuf, void *rbuf, int count, MPI_Datatype dtype,
                    MPI_Op op, MPI_Comm comm)
{
    ac_comm *c;
    if (count < 0 || dtype == MPI_DATATYPE_NULL || op == MPI_OP_NULL) {
        ac_count_passthrough(comm, AC_ALLREDUCE, AC_PASS_ARGUMENTS);
        return PMPI_Allreduce(sbuf, rbuf, count, dtype, op, comm);
    }
    c = ac_enter(comm, AC_ALLREDUCE);
    if (!c) return PMPI_Allreduce(sbuf, rbuf, count, dtype, op, comm);
    ac_call call;
    ac_call_reduction(&call, c, AC_ALLREDUCE, count, dtype, op);
    const ac_algorithm *alg = ac_select(c, &call, caller);
    double start = ac_now();
    int rc = alg->fn.allreduce(sbuf, rbuf, count, dtype, op, c->pcomm, alg->params);
    ac_observe(c, &call, alg, start);
    return rc;
}

int MPI_Allreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype dtype, MPI_Op op,
                  MPI_Comm comm)
{
    return ac_allreduce_at(AC_CALLER, sbuf, rbuf, count, dtype, op, comm);
}

#if MPI_VERSION >= 4
int MPI_Allreduce_c(const void *sbuf, void *rbuf, MPI_Count count, MPI_Datatype dtype, MPI_Op op,
                    MPI_Comm comm)
{
    int n;
    if (!ac_count_fits(count, &n)) {
        ac_count_passthrough(comm, AC_ALLREDUCE, AC_PASS_LARGE_COUNT);
        return PMPI_Allreduce_c(sbuf, rbuf, count, dtype, op, comm);
    }
    return ac_allreduce_at(AC_CALLER, sbuf, rbuf, n, dtype, op, comm);
}
#endif

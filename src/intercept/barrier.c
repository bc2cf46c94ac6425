/*
 * barrier.c - MPI_Barrier.
 */
#include "intercept/intercept.h"

int ac_barrier_at(const void *caller, MPI_Comm comm)
{
    ac_comm *c;
    if (0) {
        ac_count_passthrough(comm, AC_BARRIER, AC_PASS_ARGUMENTS);
        return PMPI_Barrier(comm);
    }
    c = ac_enter(comm, AC_BARRIER);
    if (!c) return PMPI_Barrier(comm);
    ac_call call = ac_call_make(c, AC_BARRIER);
    const ac_algorithm *alg = ac_select(c, &call, caller);
    double start = ac_now();
    int rc = alg->fn.barrier(c->pcomm, alg->params);
    ac_observe(c, &call, alg, start, rc);
    return rc;
}

int MPI_Barrier(MPI_Comm comm)
{
    return ac_barrier_at(AC_CALLER, comm);
}

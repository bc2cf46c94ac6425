/*
 * bcast.c - MPI_Bcast and MPI_Bcast_c.
 */
#include "intercept/intercept.h"

int ac_bcast_at(const void *caller, void *buf, int count, MPI_Datatype dtype, int root,
                MPI_Comm comm)
{
    ac_comm *c;
    if (count < 0 || dtype == MPI_DATATYPE_NULL || !ac_root_ok(comm, root)) {
        ac_count_passthrough(comm, AC_BCAST, AC_PASS_ARGUMENTS);
        return PMPI_Bcast(buf, count, dtype, root, comm);
    }
    c = ac_enter(comm, AC_BCAST);
    if (!c) return PMPI_Bcast(buf, count, dtype, root, comm);
    ac_call call = ac_call_make(c, AC_BCAST);
    /* not the count: ranks may describe the message with different datatypes (the root 1 x a
     * contiguous type of 16 ints, the others 16 x MPI_INT); only its signature's size is equal
     * on every rank */
    call.bytes = ac_signature_bytes(count, dtype);
    const ac_algorithm *alg = ac_select(c, &call, caller);
    double start = ac_now();
    int rc = alg->fn.bcast(buf, count, dtype, root, c->pcomm, alg->params);
    ac_observe(c, &call, alg, start, rc);
    return rc;
}

int MPI_Bcast(void *buf, int count, MPI_Datatype dtype, int root, MPI_Comm comm)
{
    return ac_bcast_at(AC_CALLER, buf, count, dtype, root, comm);
}

#if MPI_VERSION >= 4
int MPI_Bcast_c(void *buf, MPI_Count count, MPI_Datatype dtype, int root, MPI_Comm comm)
{
    int n;
    if (!ac_count_fits(count, &n)) {
        ac_count_passthrough(comm, AC_BCAST, AC_PASS_LARGE_COUNT);
        return PMPI_Bcast_c(buf, count, dtype, root, comm);
    }
    return ac_bcast_at(AC_CALLER, buf, n, dtype, root, comm);
}
#endif

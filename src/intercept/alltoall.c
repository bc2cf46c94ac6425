/*
 * alltoall.c - MPI_Alltoall and MPI_Alltoall_c.
 */
#include "intercept/intercept.h"

int ac_alltoall_at(const void *caller, const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                   int rcount, MPI_Datatype rtype, MPI_Comm comm)
{
    ac_comm *c;
    if (rcount < 0 || rtype == MPI_DATATYPE_NULL ||
        (sbuf != MPI_IN_PLACE && (scount < 0 || stype == MPI_DATATYPE_NULL))) {
        ac_count_passthrough(comm, AC_ALLTOALL, AC_PASS_ARGUMENTS);
        return PMPI_Alltoall(sbuf, scount, stype, rbuf, rcount, rtype, comm);
    }
    c = ac_enter(comm, AC_ALLTOALL);
    if (!c) return PMPI_Alltoall(sbuf, scount, stype, rbuf, rcount, rtype, comm);
    ac_call call = ac_call_make(c, AC_ALLTOALL);
    call.bytes = ac_signature_bytes(rcount, rtype);
    const ac_algorithm *alg = ac_select(c, &call, caller);
    double start = ac_now();
    int rc = alg->fn.alltoall(sbuf, scount, stype, rbuf, rcount, rtype, c->pcomm, alg->params);
    ac_observe(c, &call, alg, start);
    return rc;
}

int MPI_Alltoall(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                 MPI_Datatype rtype, MPI_Comm comm)
{
    return ac_alltoall_at(AC_CALLER, sbuf, scount, stype, rbuf, rcount, rtype, comm);
}

#if MPI_VERSION >= 4
int MPI_Alltoall_c(const void *sbuf, MPI_Count scount, MPI_Datatype stype, void *rbuf,
                   MPI_Count rcount, MPI_Datatype rtype, MPI_Comm comm)
{
    int ns = 0, nr;
    if ((sbuf != MPI_IN_PLACE && !ac_count_fits(scount, &ns)) || !ac_count_fits(rcount, &nr)) {
        ac_count_passthrough(comm, AC_ALLTOALL, AC_PASS_LARGE_COUNT);
        return PMPI_Alltoall_c(sbuf, scount, stype, rbuf, rcount, rtype, comm);
    }
    return ac_alltoall_at(AC_CALLER, sbuf, ns, stype, rbuf, nr, rtype, comm);
}
#endif

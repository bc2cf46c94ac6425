/*
 * allgatherv.c - MPI_Allgatherv and MPI_Allgatherv_c.
 */
#include "intercept/intercept.h"

#include <stdlib.h>

int ac_allgatherv_at(const void *caller, const void *sbuf, int scount, MPI_Datatype stype,
                     void *rbuf, const int rcounts[], const int displs[], MPI_Datatype rtype,
                     MPI_Comm comm)
{
    ac_comm *c;
    if (rcounts == NULL || displs == NULL || rtype == MPI_DATATYPE_NULL ||
        (sbuf != MPI_IN_PLACE && (scount < 0 || stype == MPI_DATATYPE_NULL))) {
        ac_count_passthrough(comm, AC_ALLGATHERV, AC_PASS_ARGUMENTS);
        return PMPI_Allgatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm);
    }
    c = ac_enter(comm, AC_ALLGATHERV);
    if (!c) return PMPI_Allgatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm);
    ac_call call = ac_call_make(c, AC_ALLGATHERV);
    call.bytes = ac_counts_bytes(rcounts, c->size, rtype);
    const ac_algorithm *alg = ac_select(c, &call, caller);
    double start = ac_now();
    int rc = alg->fn.allgatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype, c->pcomm,
                                alg->params);
    ac_observe(c, &call, alg, start, rc);
    return rc;
}

int MPI_Allgatherv(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                   const int rcounts[], const int displs[], MPI_Datatype rtype, MPI_Comm comm)
{
    return ac_allgatherv_at(AC_CALLER, sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm);
}

#if MPI_VERSION >= 4
int MPI_Allgatherv_c(const void *sbuf, MPI_Count scount, MPI_Datatype stype, void *rbuf,
                     const MPI_Count rcounts[], const MPI_Aint displs[], MPI_Datatype rtype,
                     MPI_Comm comm)
{
    int size = ac_intra_size(comm), rc, ns = 0, *nr = NULL, *nd = NULL;
    if (size == 0 || (sbuf != MPI_IN_PLACE && !ac_count_fits(scount, &ns)) ||
        !ac_counts_fit(rcounts, size, &nr) || !ac_displs_fit(displs, size, &nd)) {
        free(nr);
        ac_count_passthrough(comm, AC_ALLGATHERV, AC_PASS_LARGE_COUNT);
        return PMPI_Allgatherv_c(sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm);
    }
    rc = ac_allgatherv_at(AC_CALLER, sbuf, ns, stype, rbuf, nr, nd, rtype, comm);
    free(nr);
    free(nd);
    return rc;
}
#endif

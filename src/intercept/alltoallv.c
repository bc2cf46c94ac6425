/*
 * alltoallv.c - MPI_Alltoallv and MPI_Alltoallv_c.
 */
#include "intercept/intercept.h"

#include <stdlib.h>

int ac_alltoallv_at(const void *caller, const void *sbuf, const int scounts[], const int sdispls[],
                    MPI_Datatype stype, void *rbuf, const int rcounts[], const int rdispls[],
                    MPI_Datatype rtype, MPI_Comm comm)
{
    ac_comm *c;
    if (rcounts == NULL || rdispls == NULL || rtype == MPI_DATATYPE_NULL ||
        (sbuf != MPI_IN_PLACE &&
         (scounts == NULL || sdispls == NULL || stype == MPI_DATATYPE_NULL))) {
        ac_count_passthrough(comm, AC_ALLTOALLV, AC_PASS_ARGUMENTS);
        return PMPI_Alltoallv(sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, comm);
    }
    c = ac_enter(comm, AC_ALLTOALLV);
    if (!c)
        return PMPI_Alltoallv(sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, comm);
    ac_call call = ac_call_make(c, AC_ALLTOALLV);
    call.bytes = ac_counts_bytes(rcounts, c->size, rtype);
    const ac_algorithm *alg = ac_select(c, &call, caller);
    double start = ac_now();
    int rc = alg->fn.alltoallv(sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype,
                               c->pcomm, alg->params);
    ac_observe(c, &call, alg, start, rc);
    return rc;
}

int MPI_Alltoallv(const void *sbuf, const int scounts[], const int sdispls[], MPI_Datatype stype,
                  void *rbuf, const int rcounts[], const int rdispls[], MPI_Datatype rtype,
                  MPI_Comm comm)
{
    return ac_alltoallv_at(AC_CALLER, sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype,
                           comm);
}

#if MPI_VERSION >= 4
int MPI_Alltoallv_c(const void *sbuf, const MPI_Count scounts[], const MPI_Aint sdispls[],
                    MPI_Datatype stype, void *rbuf, const MPI_Count rcounts[],
                    const MPI_Aint rdispls[], MPI_Datatype rtype, MPI_Comm comm)
{
    int size = ac_intra_size(comm), rc = MPI_SUCCESS, *ns = NULL, *nsd = NULL, *nr = NULL,
        *nrd = NULL;
    int fits = size > 0 && ac_counts_fit(rcounts, size, &nr) && ac_displs_fit(rdispls, size, &nrd);
    if (fits && sbuf != MPI_IN_PLACE)
        fits = ac_counts_fit(scounts, size, &ns) && ac_displs_fit(sdispls, size, &nsd);
    if (fits) rc = ac_alltoallv_at(AC_CALLER, sbuf, ns, nsd, stype, rbuf, nr, nrd, rtype, comm);
    free(ns);
    free(nsd);
    free(nr);
    free(nrd);
    if (fits) return rc;
    ac_count_passthrough(comm, AC_ALLTOALLV, AC_PASS_LARGE_COUNT);
    return PMPI_Alltoallv_c(sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, comm);
}
#endif

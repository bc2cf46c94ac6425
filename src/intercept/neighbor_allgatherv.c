/*
 * neighbor_allgatherv.c - MPI_Neighbor_allgatherv and MPI_Neighbor_allgatherv_c.
 */
#include "intercept/intercept.h"

#include <stdlib.h>

int ac_neighbor_allgatherv_at(const void *caller, const void *sbuf, int scount, MPI_Datatype stype,
                              void *rbuf, const int rcounts[], const int displs[],
                              MPI_Datatype rtype, MPI_Comm comm)
{
    ac_neighbors *nb;
    ac_call call;
    ac_comm *c = NULL;
    if (scount >= 0 && stype != MPI_DATATYPE_NULL)
        c = ac_enter_neighbor(comm, AC_NEIGHBOR_ALLGATHERV, sbuf, &nb, &call);
    else
        ac_count_passthrough(comm, AC_NEIGHBOR_ALLGATHERV, AC_PASS_ARGUMENTS);
    if (c && (!ac_blocks_ok(rcounts, NULL, rtype, nb->indegree) || (nb->indegree > 0 && !displs))) {
        ac_count_passthrough(comm, AC_NEIGHBOR_ALLGATHERV, AC_PASS_ARGUMENTS);
        c = NULL;
    }
    if (!c)
        return PMPI_Neighbor_allgatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm);
    call.bytes = ac_counts_bytes(rcounts, nb->indegree, rtype);
    const ac_algorithm *alg = ac_select(c, &call, caller);
    double start = ac_now();
    int rc = alg->fn.neighbor_allgatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype,
                                         c->pcomm, alg->params);
    ac_observe(c, &call, alg, start, rc);
    return rc;
}

int MPI_Neighbor_allgatherv(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                            const int rcounts[], const int displs[], MPI_Datatype rtype,
                            MPI_Comm comm)
{
    return ac_neighbor_allgatherv_at(AC_CALLER, sbuf, scount, stype, rbuf, rcounts, displs, rtype,
                                     comm);
}

#if MPI_VERSION >= 4
int MPI_Neighbor_allgatherv_c(const void *sbuf, MPI_Count scount, MPI_Datatype stype, void *rbuf,
                              const MPI_Count rcounts[], const MPI_Aint displs[],
                              MPI_Datatype rtype, MPI_Comm comm)
{
    int indegree, outdegree, ns, *nr = NULL, *nd = NULL, rc = MPI_SUCCESS;
    int fits = ac_neighbor_degrees(comm, &indegree, &outdegree) && ac_count_fits(scount, &ns) &&
               ac_counts_fit(rcounts, indegree, &nr) && ac_displs_fit(displs, indegree, &nd);
    if (fits) rc = ac_neighbor_allgatherv_at(AC_CALLER, sbuf, ns, stype, rbuf, nr, nd, rtype, comm);
    free(nr);
    free(nd);
    if (fits) return rc;
    ac_count_passthrough(comm, AC_NEIGHBOR_ALLGATHERV, AC_PASS_LARGE_COUNT);
    return PMPI_Neighbor_allgatherv_c(sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm);
}
#endif

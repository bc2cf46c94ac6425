/*
 * neighbor_alltoallv.c - MPI_Neighbor_alltoallv and MPI_Neighbor_alltoallv_c.
 */
#include "intercept/intercept.h"

#include <stdlib.h>

int ac_neighbor_alltoallv_at(const void *caller, const void *sbuf, const int scounts[],
                             const int sdispls[], MPI_Datatype stype, void *rbuf,
                             const int rcounts[], const int rdispls[], MPI_Datatype rtype,
                             MPI_Comm comm)
{
    ac_neighbors *nb;
    ac_call call;
    ac_comm *c = ac_enter_neighbor(comm, AC_NEIGHBOR_ALLTOALLV, sbuf, &nb, &call);
    if (c && (!ac_blocks_ok(scounts, NULL, stype, nb->outdegree) ||
              !ac_blocks_ok(rcounts, NULL, rtype, nb->indegree) ||
              (nb->outdegree > 0 && !sdispls) || (nb->indegree > 0 && !rdispls))) {
        ac_count_passthrough(comm, AC_NEIGHBOR_ALLTOALLV, AC_PASS_ARGUMENTS);
        c = NULL;
    }
    if (!c)
        return PMPI_Neighbor_alltoallv(sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype,
                                       comm);
    call.bytes = ac_counts_bytes(rcounts, nb->indegree, rtype);
    const ac_algorithm *alg = ac_select(c, &call, caller);
    double start = ac_now();
    int rc = alg->fn.neighbor_alltoallv(sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls,
                                        rtype, c->pcomm, alg->params);
    ac_observe(c, &call, alg, start, rc);
    return rc;
}

int MPI_Neighbor_alltoallv(const void *sbuf, const int scounts[], const int sdispls[],
                           MPI_Datatype stype, void *rbuf, const int rcounts[], const int rdispls[],
                           MPI_Datatype rtype, MPI_Comm comm)
{
    return ac_neighbor_alltoallv_at(AC_CALLER, sbuf, scounts, sdispls, stype, rbuf, rcounts,
                                    rdispls, rtype, comm);
}

#if MPI_VERSION >= 4
int MPI_Neighbor_alltoallv_c(const void *sbuf, const MPI_Count scounts[], const MPI_Aint sdispls[],
                             MPI_Datatype stype, void *rbuf, const MPI_Count rcounts[],
                             const MPI_Aint rdispls[], MPI_Datatype rtype, MPI_Comm comm)
{
    int indegree, outdegree, rc = MPI_SUCCESS, *ns = NULL, *nsd = NULL, *nr = NULL, *nrd = NULL;
    int fits = ac_neighbor_degrees(comm, &indegree, &outdegree) &&
               ac_counts_fit(scounts, outdegree, &ns) && ac_displs_fit(sdispls, outdegree, &nsd) &&
               ac_counts_fit(rcounts, indegree, &nr) && ac_displs_fit(rdispls, indegree, &nrd);
    if (fits)
        rc = ac_neighbor_alltoallv_at(AC_CALLER, sbuf, ns, nsd, stype, rbuf, nr, nrd, rtype, comm);
    free(ns);
    free(nsd);
    free(nr);
    free(nrd);
    if (fits) return rc;
    ac_count_passthrough(comm, AC_NEIGHBOR_ALLTOALLV, AC_PASS_LARGE_COUNT);
    return PMPI_Neighbor_alltoallv_c(sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype,
                                     comm);
}
#endif

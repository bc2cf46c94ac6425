/*
 * neighbor_alltoallw.c - MPI_Neighbor_alltoallw and MPI_Neighbor_alltoallw_c.
 */
#include "intercept/intercept.h"

#include <stdlib.h>

int ac_neighbor_alltoallw_at(const void *caller, const void *sbuf, const int scounts[],
                             const MPI_Aint sdispls[], const MPI_Datatype stypes[], void *rbuf,
                             const int rcounts[], const MPI_Aint rdispls[],
                             const MPI_Datatype rtypes[], MPI_Comm comm)
{
    ac_neighbors *nb;
    ac_call call;
    ac_comm *c = ac_enter_neighbor(comm, AC_NEIGHBOR_ALLTOALLW, sbuf, &nb, &call);
    if (c && (!ac_blocks_ok(scounts, stypes, MPI_DATATYPE_NULL, nb->outdegree) ||
              !ac_blocks_ok(rcounts, rtypes, MPI_DATATYPE_NULL, nb->indegree) ||
              (nb->outdegree > 0 && !sdispls) || (nb->indegree > 0 && !rdispls))) {
        ac_count_passthrough(comm, AC_NEIGHBOR_ALLTOALLW, AC_PASS_ARGUMENTS);
        c = NULL;
    }
    if (!c)
        return PMPI_Neighbor_alltoallw(sbuf, scounts, sdispls, stypes, rbuf, rcounts, rdispls,
                                       rtypes, comm);
    call.bytes = 0;
    for (int j = 0; j < nb->indegree; j++)
        call.bytes += ac_signature_bytes(rcounts[j], rtypes[j]);
    const ac_algorithm *alg = ac_select(c, &call, caller);
    double start = ac_now();
    int rc = alg->fn.neighbor_alltoallw(sbuf, scounts, sdispls, stypes, rbuf, rcounts, rdispls,
                                        rtypes, c->pcomm, alg->params);
    ac_observe(c, &call, alg, start, rc);
    return rc;
}

int MPI_Neighbor_alltoallw(const void *sbuf, const int scounts[], const MPI_Aint sdispls[],
                           const MPI_Datatype stypes[], void *rbuf, const int rcounts[],
                           const MPI_Aint rdispls[], const MPI_Datatype rtypes[], MPI_Comm comm)
{
    return ac_neighbor_alltoallw_at(AC_CALLER, sbuf, scounts, sdispls, stypes, rbuf, rcounts,
                                    rdispls, rtypes, comm);
}

#if MPI_VERSION >= 4
int MPI_Neighbor_alltoallw_c(const void *sbuf, const MPI_Count scounts[], const MPI_Aint sdispls[],
                             const MPI_Datatype stypes[], void *rbuf, const MPI_Count rcounts[],
                             const MPI_Aint rdispls[], const MPI_Datatype rtypes[], MPI_Comm comm)
{
    int indegree, outdegree, rc = MPI_SUCCESS, *ns = NULL, *nr = NULL;
    int fits = ac_neighbor_degrees(comm, &indegree, &outdegree) &&
               ac_counts_fit(scounts, outdegree, &ns) && ac_counts_fit(rcounts, indegree, &nr);
    if (fits)
        rc = ac_neighbor_alltoallw_at(AC_CALLER, sbuf, ns, sdispls, stypes, rbuf, nr, rdispls,
                                      rtypes, comm);
    free(ns);
    free(nr);
    if (fits) return rc;
    ac_count_passthrough(comm, AC_NEIGHBOR_ALLTOALLW, AC_PASS_LARGE_COUNT);
    return PMPI_Neighbor_alltoallw_c(sbuf, scounts, sdispls, stypes, rbuf, rcounts, rdispls, rtypes,
                                     comm);
}
#endif

/*
 * ialltoallv.c - MPI_Ialltoallv and MPI_Alltoallv_init: run by the layer where selection names
 * an alltoallv written as a schedule (ac_request_make: the one AUTOCOLL_ALLTOALLV forces, the
 * table's rule, or under a learning strategy a race) on a communicator where the layer may
 * (ac_request_comm); otherwise passed to the library, counted as seen. The counts and
 * displacements are read when the schedule is built (at each start of a racing request): MPI
 * forbids changing them while the request lives. The large-count forms (MPI_Count and MPI_Aint
 * arrays) are passed on (seen.c). As iallgatherv.c.
 */
#include "coll/algorithms.h"
#include "intercept/intercept.h"
#include "intercept/requests.h"

static int build(ac_sched *s, const ac_algorithm *alg, const void *args)
{
    const ac_alltoallv_args *a = args;
    return alg->sched.alltoallv(s, a->sbuf, a->scounts, a->sdispls, a->stype, a->rbuf,
                                a->rcounts, a->rdispls, a->rtype, alg->params);
}

/* A persistent request's library collective (requests.h, ac_request_library_fn). */
#if MPI_VERSION >= 4 && !AUTOCOLL_SIMULATED
static int library(const ac_algorithm *native, const void *args, MPI_Comm comm, MPI_Request *req)
{
    const ac_alltoallv_args *a = args;
    (void)native;
    return PMPI_Alltoallv_init(a->sbuf, a->scounts, a->sdispls, a->stype, a->rbuf, a->rcounts,
                               a->rdispls, a->rtype, comm, MPI_INFO_NULL, req);
}
#else
#define library NULL
#endif

/* The layer's request for the call, in *request with its outcome in *rc: 1; 0: not the
 * layer's, counted as seen (pass it on). */
static int layer_request(ac_seen_kind kind, int persistent, const ac_alltoallv_args *a,
                         MPI_Comm comm, MPI_Request *request, int *rc)
{
    int valid = a->rcounts && a->rdispls && a->rtype != MPI_DATATYPE_NULL &&
                (a->sbuf == MPI_IN_PLACE ||
                 (a->scounts && a->sdispls && a->stype != MPI_DATATYPE_NULL));
    ac_comm *c = valid ? ac_request_comm(comm, request) : NULL;
    if (c) {
        ac_call call = ac_call_make(c, AC_ALLTOALLV);
        call.bytes = ac_counts_bytes(a->rcounts, c->size, a->rtype);
        MPI_Datatype types[2] = {a->sbuf == MPI_IN_PLACE ? MPI_DATATYPE_NULL : a->stype,
                                 a->rtype};
        if (ac_request_make(c, &call, kind, persistent, build, persistent ? library : NULL, a,
                            sizeof *a, types, 2, request, rc))
            return 1;
    }
    if (ac_seen_on()) ac_seen_passed(kind, comm, -1.0, ac_request_why(valid, c));
    return 0;
}

int MPI_Ialltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                   MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                   const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                   MPI_Request *request)
{
    int rc;
    ac_alltoallv_args a = {sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                           recvtype};
    if (layer_request(AC_SEEN_IALLTOALLV, 0, &a, comm, request, &rc)) return rc;
    return PMPI_Ialltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                           recvtype, comm, request);
}

#if MPI_VERSION >= 4 && !AUTOCOLL_SIMULATED
int MPI_Alltoallv_init(const void *sendbuf, const int sendcounts[], const int sdispls[],
                       MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                       const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                       MPI_Request *request)
{
    int rc;
    ac_alltoallv_args a = {sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                           recvtype};
    if (layer_request(AC_SEEN_ALLTOALLV_INIT, 1, &a, comm, request, &rc)) return rc;
    return PMPI_Alltoallv_init(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                               rdispls, recvtype, comm, info, request);
}
#endif

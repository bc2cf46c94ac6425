/*
 * iallgatherv.c - MPI_Iallgatherv and MPI_Allgatherv_init: run by the layer where selection
 * names an allgatherv written as a schedule (ac_request_make: the one AUTOCOLL_ALLGATHERV
 * forces, the table's rule, or under a learning strategy a race) on a communicator where the
 * layer may (ac_request_comm); otherwise passed to the library, counted as seen (the send bytes;
 * none in place). The counts and displacements are read when the schedule is built (at each
 * start of a racing request): MPI forbids changing them while the request lives. The
 * large-count forms (MPI_Count and MPI_Aint arrays) are passed on (seen.c). As iallreduce.c.
 */
#include "coll/algorithms.h"
#include "intercept/intercept.h"
#include "intercept/requests.h"


static int build(ac_sched *s, const ac_algorithm *alg, const void *args)
{
    const ac_allgatherv_args *a = args;
    return alg->sched.allgatherv(s, a->sbuf, a->scount, a->stype, a->rbuf, a->rcounts,
                                 a->displs, a->rtype, alg->params);
}

/* A persistent request's library collective (requests.h, ac_request_library_fn). */
#if MPI_VERSION >= 4 && !AUTOCOLL_SIMULATED
static int library(const ac_algorithm *native, const void *args, MPI_Comm comm, MPI_Request *req)
{
    const ac_allgatherv_args *a = args;
    (void)native;
    return PMPI_Allgatherv_init(a->sbuf, a->scount, a->stype, a->rbuf, a->rcounts, a->displs,
                                a->rtype, comm, MPI_INFO_NULL, req);
}
#else
#define library NULL
#endif

/* The layer's request for the call, in *request with its outcome in *rc: 1; 0: not the
 * layer's, counted as seen (pass it on). */
static int layer_request(ac_seen_kind kind, int persistent, const void *sbuf, int scount,
                         MPI_Datatype stype, void *rbuf, const int rcounts[],
                         const int displs[], MPI_Datatype rtype, MPI_Comm comm,
                         MPI_Request *request, int *rc)
{
    int valid = rcounts && displs && rtype != MPI_DATATYPE_NULL &&
                (sbuf == MPI_IN_PLACE || (scount >= 0 && stype != MPI_DATATYPE_NULL));
    ac_comm *c = valid ? ac_request_comm(comm, request) : NULL;
    if (c) {
        ac_call call = ac_call_make(c, AC_ALLGATHERV);
        call.bytes = ac_counts_bytes(rcounts, c->size, rtype);
        ac_allgatherv_args a = {sbuf, sbuf == MPI_IN_PLACE ? 0 : scount, stype, rbuf, rcounts,
                             displs, rtype};
        MPI_Datatype types[2] = {sbuf == MPI_IN_PLACE ? MPI_DATATYPE_NULL : stype, rtype};
        if (ac_request_make(c, &call, kind, persistent, build, persistent ? library : NULL, &a,
                            sizeof a, types, 2, request, rc))
            return 1;
    }
    if (ac_seen_on())
        ac_seen_passed(kind, comm, sbuf == MPI_IN_PLACE ? -1.0 : ac_seen_bytes(scount, stype),
                       ac_request_why(valid, c));
    return 0;
}

int MPI_Iallgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                    const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                    MPI_Comm comm, MPI_Request *request)
{
    int rc;
    if (layer_request(AC_SEEN_IALLGATHERV, 0, sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                      displs, recvtype, comm, request, &rc))
        return rc;
    return PMPI_Iallgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype,
                            comm, request);
}

#if MPI_VERSION >= 4 && !AUTOCOLL_SIMULATED
int MPI_Allgatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                        void *recvbuf, const int recvcounts[], const int displs[],
                        MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                        MPI_Request *request)
{
    int rc;
    if (layer_request(AC_SEEN_ALLGATHERV_INIT, 1, sendbuf, sendcount, sendtype, recvbuf,
                      recvcounts, displs, recvtype, comm, request, &rc))
        return rc;
    return PMPI_Allgatherv_init(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                                recvtype, comm, info, request);
}
#endif

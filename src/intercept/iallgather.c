/*
 * iallgather.c - MPI_Iallgather and MPI_Allgather_init, and their large-count forms: run by the
 * layer where selection names an allgather written as a schedule (ac_request_make: the one
 * AUTOCOLL_ALLGATHER forces, the table's rule, or under a learning strategy a race) on a
 * communicator where the layer may (ac_request_comm); otherwise passed to the library, counted
 * as seen (the send bytes; none in place). As iallreduce.c.
 */
#include "coll/algorithms.h"
#include "intercept/intercept.h"
#include "intercept/requests.h"


static int build(ac_sched *s, const ac_algorithm *alg, const void *args)
{
    const ac_allgather_args *a = args;
    return alg->sched.allgather(s, a->sbuf, a->scount, a->stype, a->rbuf, a->rcount, a->rtype,
                                alg->params);
}

/* The layer's request for the call, in *request with its outcome in *rc: 1; 0: not the
 * layer's, counted as seen (pass it on). */
static int layer_request(ac_seen_kind kind, int persistent, const void *sbuf, long scount,
                         MPI_Datatype stype, void *rbuf, long rcount, MPI_Datatype rtype,
                         MPI_Comm comm, MPI_Request *request, int *rc)
{
    int valid = rcount >= 0 && rcount <= INT_MAX && rtype != MPI_DATATYPE_NULL &&
                (sbuf == MPI_IN_PLACE ||
                 (scount >= 0 && scount <= INT_MAX && stype != MPI_DATATYPE_NULL));
    ac_comm *c = valid ? ac_request_comm(comm, request) : NULL;
    if (c) {
        ac_call call = ac_call_make(c, AC_ALLGATHER);
        call.bytes = ac_signature_bytes(rcount, rtype);
        ac_allgather_args a = {sbuf, sbuf == MPI_IN_PLACE ? 0 : (int)scount, stype, rbuf,
                            (int)rcount, rtype};
        if (ac_request_make(c, &call, kind, persistent, build, &a, sizeof a, request, rc))
            return 1;
    }
    if (ac_seen_on())
        ac_seen(kind, comm, sbuf == MPI_IN_PLACE ? -1.0 : ac_seen_bytes(scount, stype));
    return 0;
}

int MPI_Iallgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                   int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    int rc;
    if (layer_request(AC_SEEN_IALLGATHER, 0, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                      recvtype, comm, request, &rc))
        return rc;
    return PMPI_Iallgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                           request);
}

#if MPI_VERSION >= 4 && !AUTOCOLL_SIMULATED
int MPI_Iallgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                     void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                     MPI_Request *request)
{
    int rc;
    if (layer_request(AC_SEEN_IALLGATHER_C, 0, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                      recvtype, comm, request, &rc))
        return rc;
    return PMPI_Iallgather_c(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                             request);
}

int MPI_Allgather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                       int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                       MPI_Request *request)
{
    int rc;
    if (layer_request(AC_SEEN_ALLGATHER_INIT, 1, sendbuf, sendcount, sendtype, recvbuf,
                      recvcount, recvtype, comm, request, &rc))
        return rc;
    return PMPI_Allgather_init(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                               info, request);
}

int MPI_Allgather_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                         void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                         MPI_Info info, MPI_Request *request)
{
    int rc;
    if (layer_request(AC_SEEN_ALLGATHER_INIT_C, 1, sendbuf, sendcount, sendtype, recvbuf,
                      recvcount, recvtype, comm, request, &rc))
        return rc;
    return PMPI_Allgather_init_c(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                                 info, request);
}
#endif

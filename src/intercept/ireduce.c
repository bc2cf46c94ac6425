/*
 * ireduce.c - MPI_Ireduce and MPI_Reduce_init, and their large-count forms (where the count
 * fits an int).
 *
 * The layer runs one when selection names an algorithm written as a schedule that applies to
 * the call (ac_select_nonblocking: the one AUTOCOLL_REDUCE forces, or the table's rule; under a
 * learning strategy a race: native and the tree instances), on a communicator the layer already
 * keeps state for (ac_request_comm), outside MPI_THREAD_MULTIPLE, with arguments MPI accepts (a
 * count of zero or more, a datatype, an op, a root of the communicator); its request is the
 * layer's (requests.h). Every other call goes to the library, counted as seen. Count, datatype,
 * op and root are the same on every rank (MPI requires it), so all ranks run the same schedule
 * or all pass the call on.
 */
#include "coll/algorithms.h"
#include "intercept/intercept.h"
#include "intercept/requests.h"

#include <limits.h>

static int build(ac_sched *s, const ac_algorithm *alg, const void *args)
{
    const ac_reduce_args *a = args;
    return alg->sched.reduce(s, a->sbuf, a->rbuf, a->count, a->dtype, a->op, a->root,
                             alg->params);
}

/* A persistent request's library collective (requests.h, ac_request_library_fn). */
#if MPI_VERSION >= 4 && !AUTOCOLL_SIMULATED
static int library(const ac_algorithm *native, const void *args, MPI_Comm comm, MPI_Request *req)
{
    const ac_reduce_args *a = args;
    (void)native;
    return PMPI_Reduce_init(a->sbuf, a->rbuf, a->count, a->dtype, a->op, a->root, comm,
                            MPI_INFO_NULL, req);
}
#else
#define library NULL
#endif

/* The layer's request for the call, in *request with its outcome in *rc: 1; 0: not the
 * layer's, counted as seen (pass it on). */
static int layer_request(ac_seen_kind kind, int persistent, const void *sbuf, void *rbuf,
                         long long count, MPI_Datatype dtype, MPI_Op op, int root, MPI_Comm comm,
                         MPI_Request *request, int *rc)
{
    int valid = count >= 0 && count <= INT_MAX && dtype != MPI_DATATYPE_NULL && op != MPI_OP_NULL;
    ac_comm *c = valid ? ac_request_comm(comm, request) : NULL;
    valid = valid && (!c || ac_root_ok(comm, root)); /* an intercommunicator's: its own roots */
    if (c && valid) {
        ac_call call;
        ac_call_reduction(&call, c, AC_REDUCE, (long)count, dtype, op);
        ac_reduce_args a = {sbuf, rbuf, (int)count, dtype, op, root};
        if (ac_request_make(c, &call, kind, persistent, build, persistent ? library : NULL, &a,
                            sizeof a, &dtype, 1, request, rc))
            return 1;
    }
    if (ac_seen_on())
        ac_seen_passed(kind, comm, ac_seen_bytes(count, dtype), ac_request_why(valid, c));
    return 0;
}

int MPI_Ireduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                int root, MPI_Comm comm, MPI_Request *request)
{
    int rc;
    if (layer_request(AC_SEEN_IREDUCE, 0, sendbuf, recvbuf, count, datatype, op, root, comm,
                      request, &rc))
        return rc;
    return PMPI_Ireduce(sendbuf, recvbuf, count, datatype, op, root, comm, request);
}

#if MPI_VERSION >= 4 && !AUTOCOLL_SIMULATED
int MPI_Ireduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                  MPI_Op op, int root, MPI_Comm comm, MPI_Request *request)
{
    int rc;
    if (layer_request(AC_SEEN_IREDUCE_C, 0, sendbuf, recvbuf, count, datatype, op, root, comm,
                      request, &rc))
        return rc;
    return PMPI_Ireduce_c(sendbuf, recvbuf, count, datatype, op, root, comm, request);
}

int MPI_Reduce_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                    MPI_Op op, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    int rc;
    if (layer_request(AC_SEEN_REDUCE_INIT, 1, sendbuf, recvbuf, count, datatype, op, root, comm,
                      request, &rc))
        return rc;
    return PMPI_Reduce_init(sendbuf, recvbuf, count, datatype, op, root, comm, info, request);
}

int MPI_Reduce_init_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                      MPI_Op op, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    int rc;
    if (layer_request(AC_SEEN_REDUCE_INIT_C, 1, sendbuf, recvbuf, count, datatype, op, root,
                      comm, request, &rc))
        return rc;
    return PMPI_Reduce_init_c(sendbuf, recvbuf, count, datatype, op, root, comm, info, request);
}
#endif

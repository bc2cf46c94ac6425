/*
 * ibcast.c - MPI_Ibcast and MPI_Bcast_init, and their large-count forms (where the count fits
 * an int).
 *
 * The layer runs one when selection names an algorithm written as a schedule that applies to
 * the call (ac_select_nonblocking: the one AUTOCOLL_BCAST forces, or the table's rule; under a
 * learning strategy a race: native and the unsegmented trees), on a communicator the layer
 * already keeps state for (ac_request_comm), outside MPI_THREAD_MULTIPLE, with arguments MPI
 * accepts (a count of zero or more, a datatype, a root of the communicator); its request is the
 * layer's (requests.h). Every other call goes to the library, counted as seen. The call's bytes
 * are its type signature's, equal on every rank (ranks may describe the message with
 * different datatypes), so all ranks run the same schedule or all pass the call on.
 */
#include "coll/algorithms.h"
#include "intercept/intercept.h"
#include "intercept/requests.h"

#include <limits.h>

static int build(ac_sched *s, const ac_algorithm *alg, const void *args)
{
    const ac_bcast_args *a = args;
    return alg->sched.bcast(s, a->buf, a->count, a->dtype, a->root, alg->params);
}

/* A persistent request's library collective (requests.h, ac_request_library_fn). */
#if MPI_VERSION >= 4 && !AUTOCOLL_SIMULATED
static int library(const ac_algorithm *native, const void *args, MPI_Comm comm, MPI_Request *req)
{
    const ac_bcast_args *a = args;
    (void)native;
    return PMPI_Bcast_init(a->buf, a->count, a->dtype, a->root, comm, MPI_INFO_NULL, req);
}
#else
#define library NULL
#endif

/* The layer's request for the call, in *request with its outcome in *rc: 1; 0: not the
 * layer's, counted as seen (pass it on). */
static int layer_request(ac_seen_kind kind, int persistent, void *buf, long long count,
                         MPI_Datatype dtype, int root, MPI_Comm comm, MPI_Request *request,
                         int *rc)
{
    int valid = count >= 0 && count <= INT_MAX && dtype != MPI_DATATYPE_NULL;
    ac_comm *c = valid ? ac_request_comm(comm, request) : NULL;
    valid = valid && (!c || ac_root_ok(comm, root)); /* an intercommunicator's: its own roots */
    if (c && valid) {
        ac_call call = ac_call_make(c, AC_BCAST);
        call.bytes = ac_signature_bytes(count, dtype);
        ac_bcast_args a = {buf, (int)count, dtype, root};
        if (ac_request_make(c, &call, kind, persistent, build, persistent ? library : NULL, &a,
                            sizeof a, &dtype, 1, request, rc))
            return 1;
    }
    if (ac_seen_on())
        ac_seen_passed(kind, comm, ac_seen_bytes(count, dtype), ac_request_why(valid, c));
    return 0;
}

int MPI_Ibcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
               MPI_Request *request)
{
    int rc;
    if (layer_request(AC_SEEN_IBCAST, 0, buffer, count, datatype, root, comm, request, &rc))
        return rc;
    return PMPI_Ibcast(buffer, count, datatype, root, comm, request);
}

#if MPI_VERSION >= 4 && !AUTOCOLL_SIMULATED
int MPI_Ibcast_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm,
                 MPI_Request *request)
{
    int rc;
    if (layer_request(AC_SEEN_IBCAST_C, 0, buffer, count, datatype, root, comm, request, &rc))
        return rc;
    return PMPI_Ibcast_c(buffer, count, datatype, root, comm, request);
}

int MPI_Bcast_init(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
                   MPI_Info info, MPI_Request *request)
{
    int rc;
    if (layer_request(AC_SEEN_BCAST_INIT, 1, buffer, count, datatype, root, comm, request, &rc))
        return rc;
    return PMPI_Bcast_init(buffer, count, datatype, root, comm, info, request);
}

int MPI_Bcast_init_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int root,
                     MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    int rc;
    if (layer_request(AC_SEEN_BCAST_INIT_C, 1, buffer, count, datatype, root, comm, request,
                      &rc))
        return rc;
    return PMPI_Bcast_init_c(buffer, count, datatype, root, comm, info, request);
}
#endif

/*
 * ibarrier.c - MPI_Ibarrier and MPI_Barrier_init: run by the layer where selection names a
 * barrier written as a schedule (ac_request_make: the one AUTOCOLL_BARRIER forces, the table's
 * rule, or under a learning strategy a race) on a communicator where the layer may
 * (ac_request_comm); otherwise passed to the library, counted as seen. As iallreduce.c.
 */
#include "intercept/intercept.h"
#include "intercept/requests.h"

static int build(ac_sched *s, const ac_algorithm *alg, const void *args)
{
    (void)args;
    return alg->sched.barrier(s, alg->params);
}

/* A persistent request's library collective (requests.h, ac_request_library_fn). */
#if MPI_VERSION >= 4 && !AUTOCOLL_SIMULATED
static int library(const ac_algorithm *native, const void *args, MPI_Comm comm, MPI_Request *req)
{
    (void)native, (void)args;
    return PMPI_Barrier_init(comm, MPI_INFO_NULL, req);
}
#else
#define library NULL
#endif

/* The layer's request for the call, in *request with its outcome in *rc: 1; 0: not the
 * layer's, counted as seen (pass it on). */
static int layer_request(ac_seen_kind kind, int persistent, MPI_Comm comm, MPI_Request *request,
                         int *rc)
{
    ac_comm *c = ac_request_comm(comm, request);
    if (c) {
        ac_call call = ac_call_make(c, AC_BARRIER);
        if (ac_request_make(c, &call, kind, persistent, build, persistent ? library : NULL, NULL,
                            0, NULL, 0, request, rc))
            return 1;
    }
    if (ac_seen_on()) ac_seen_passed(kind, comm, 0.0, ac_request_why(1, c));
    return 0;
}

int MPI_Ibarrier(MPI_Comm comm, MPI_Request *request)
{
    int rc;
    if (layer_request(AC_SEEN_IBARRIER, 0, comm, request, &rc)) return rc;
    return PMPI_Ibarrier(comm, request);
}

#if MPI_VERSION >= 4 && !AUTOCOLL_SIMULATED
int MPI_Barrier_init(MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    int rc;
    if (layer_request(AC_SEEN_BARRIER_INIT, 1, comm, request, &rc)) return rc;
    return PMPI_Barrier_init(comm, info, request);
}
#endif

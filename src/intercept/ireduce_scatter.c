/*
 * ireduce_scatter.c - MPI_Ireduce_scatter, MPI_Reduce_scatter_init, MPI_Ireduce_scatter_block,
 * MPI_Reduce_scatter_block_init, and the large-count forms of the block ones (where the count
 * fits an int; those of the v form, arrays of MPI_Count, pass through, counted).
 *
 * The layer runs one when selection names an algorithm written as a schedule that applies to
 * the call (ac_select_nonblocking: the one AUTOCOLL_REDUCE_SCATTER or
 * AUTOCOLL_REDUCE_SCATTER_BLOCK forces, or the table's rule; under a learning strategy a race:
 * native, reduce_then_scatter, pairwise, recursive_halving), on a communicator the layer already
 * keeps state for (ac_request_comm), outside MPI_THREAD_MULTIPLE, with arguments MPI accepts;
 * its request is the layer's (requests.h). Every other call goes to the library, counted as
 * seen. The call's facts (the whole vector's count and bytes, the op) are those of the
 * blocking call, equal on every rank (MPI requires equal counts, datatype and op), so all ranks
 * run the same schedule or all pass the call on. The receive counts are read when a schedule is
 * built (at each start of a racing request): MPI forbids changing them while the call is in
 * flight (and for a persistent request's life).
 */
#include "coll/algorithms.h"
#include "intercept/intercept.h"
#include "intercept/requests.h"

#include <limits.h>

static int build(ac_sched *s, const ac_algorithm *alg, const void *args)
{
    const ac_reduce_scatter_args *a = args;
    if (alg->collective == AC_REDUCE_SCATTER_BLOCK)
        return alg->sched.reduce_scatter_block(s, a->sbuf, a->rbuf, a->rcount, a->dtype, a->op,
                                               alg->params);
    return alg->sched.reduce_scatter(s, a->sbuf, a->rbuf, a->rcounts, a->dtype, a->op,
                                     alg->params);
}

/* A persistent request's library collective (requests.h, ac_request_library_fn). */
#if MPI_VERSION >= 4 && !AUTOCOLL_SIMULATED
static int library(const ac_algorithm *native, const void *args, MPI_Comm comm, MPI_Request *req)
{
    const ac_reduce_scatter_args *a = args;
    if (native->collective == AC_REDUCE_SCATTER_BLOCK)
        return PMPI_Reduce_scatter_block_init(a->sbuf, a->rbuf, a->rcount, a->dtype, a->op, comm,
                                              MPI_INFO_NULL, req);
    return PMPI_Reduce_scatter_init(a->sbuf, a->rbuf, a->rcounts, a->dtype, a->op, comm,
                                    MPI_INFO_NULL, req);
}
#else
#define library NULL
#endif

/* The layer's request for the call (reduce_scatter's rcounts, or with `block`
 * reduce_scatter_block's rcount for every rank), in *request with its outcome in *rc: 1; 0: not
 * the layer's, counted as seen (pass it on). */
static int layer_request(ac_seen_kind kind, int persistent, int block, const void *sbuf,
                         void *rbuf, const int *rcounts, long long rcount, MPI_Datatype dtype,
                         MPI_Op op, MPI_Comm comm, MPI_Request *request, int *rc)
{
    int valid = dtype != MPI_DATATYPE_NULL && op != MPI_OP_NULL &&
                (block ? rcount >= 0 && rcount <= INT_MAX : rcounts != NULL);
    ac_comm *c = valid ? ac_request_comm(comm, request) : NULL;
    if (c) {
        long long total = block ? rcount * c->size : 0;
        for (int i = 0; !block && i < c->size; i++)
            total += rcounts[i];
        ac_call call;
        ac_call_reduction(&call, c, block ? AC_REDUCE_SCATTER_BLOCK : AC_REDUCE_SCATTER,
                          (long)total, dtype, op);
        ac_reduce_scatter_args a = {sbuf, rbuf, block ? NULL : rcounts, block ? (int)rcount : 0,
                                    dtype, op};
        if (ac_request_make(c, &call, kind, persistent, build, persistent ? library : NULL, &a,
                            sizeof a, &dtype, 1, request, rc))
            return 1;
    }
    if (ac_seen_on())
        ac_seen_passed(kind, comm, block ? ac_seen_bytes(rcount, dtype) : -1.0,
                       ac_request_why(valid, c));
    return 0;
}

int MPI_Ireduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                        MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    int rc;
    if (layer_request(AC_SEEN_IREDUCE_SCATTER, 0, 0, sendbuf, recvbuf, recvcounts, 0, datatype,
                      op, comm, request, &rc))
        return rc;
    return PMPI_Ireduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op, comm, request);
}

int MPI_Ireduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                              MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                              MPI_Request *request)
{
    int rc;
    if (layer_request(AC_SEEN_IREDUCE_SCATTER_BLOCK, 0, 1, sendbuf, recvbuf, NULL, recvcount,
                      datatype, op, comm, request, &rc))
        return rc;
    return PMPI_Ireduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, comm, request);
}

#if MPI_VERSION >= 4 && !AUTOCOLL_SIMULATED
int MPI_Ireduce_scatter_block_c(const void *sendbuf, void *recvbuf, MPI_Count recvcount,
                                MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                MPI_Request *request)
{
    int rc;
    if (layer_request(AC_SEEN_IREDUCE_SCATTER_BLOCK_C, 0, 1, sendbuf, recvbuf, NULL, recvcount,
                      datatype, op, comm, request, &rc))
        return rc;
    return PMPI_Ireduce_scatter_block_c(sendbuf, recvbuf, recvcount, datatype, op, comm, request);
}

int MPI_Reduce_scatter_init(const void *sendbuf, void *recvbuf, const int recvcounts[],
                            MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                            MPI_Request *request)
{
    int rc;
    if (layer_request(AC_SEEN_REDUCE_SCATTER_INIT, 1, 0, sendbuf, recvbuf, recvcounts, 0,
                      datatype, op, comm, request, &rc))
        return rc;
    return PMPI_Reduce_scatter_init(sendbuf, recvbuf, recvcounts, datatype, op, comm, info,
                                    request);
}

int MPI_Reduce_scatter_block_init(const void *sendbuf, void *recvbuf, int recvcount,
                                  MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                                  MPI_Request *request)
{
    int rc;
    if (layer_request(AC_SEEN_REDUCE_SCATTER_BLOCK_INIT, 1, 1, sendbuf, recvbuf, NULL, recvcount,
                      datatype, op, comm, request, &rc))
        return rc;
    return PMPI_Reduce_scatter_block_init(sendbuf, recvbuf, recvcount, datatype, op, comm, info,
                                          request);
}

int MPI_Reduce_scatter_block_init_c(const void *sendbuf, void *recvbuf, MPI_Count recvcount,
                                    MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                    MPI_Info info, MPI_Request *request)
{
    int rc;
    if (layer_request(AC_SEEN_REDUCE_SCATTER_BLOCK_INIT_C, 1, 1, sendbuf, recvbuf, NULL,
                      recvcount, datatype, op, comm, request, &rc))
        return rc;
    return PMPI_Reduce_scatter_block_init_c(sendbuf, recvbuf, recvcount, datatype, op, comm,
                                            info, request);
}
#endif

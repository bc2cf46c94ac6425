/*
 * blocks_request.c - the layer's request for the nonblocking and persistent collectives of one
 * block from every rank, allgather and alltoall (requests.h, ac_request_blocks; their MPI
 * functions: iallgather.c, ialltoall.c): run by the layer where selection names an algorithm
 * written as a schedule (ac_request_make: the one AUTOCOLL_ALLGATHER or AUTOCOLL_ALLTOALL
 * forces, the table's rule, or under a learning strategy a race) on a communicator where the
 * layer may (ac_request_comm); otherwise counted as seen and passed to the library.
 */
#include "coll/algorithms.h"
#include "intercept/intercept.h"
#include "intercept/requests.h"

#include <limits.h>

/* The two collectives' arguments and schedules have one shape. */
static int build(ac_sched *s, const ac_algorithm *alg, const void *args)
{
    const ac_allgather_args *a = args;
    ac_allgather_sched_fn *fn =
        alg->collective == AC_ALLGATHER ? alg->sched.allgather : alg->sched.alltoall;
    return fn(s, a->sbuf, a->scount, a->stype, a->rbuf, a->rcount, a->rtype, alg->params);
}

int ac_request_blocks(ac_collective coll, ac_seen_kind kind, int persistent, const void *sbuf,
                      long long scount, MPI_Datatype stype, void *rbuf, long long rcount,
                      MPI_Datatype rtype, MPI_Comm comm, MPI_Request *request, int *rc)
{
    int valid = rcount >= 0 && rcount <= INT_MAX && rtype != MPI_DATATYPE_NULL &&
                (sbuf == MPI_IN_PLACE ||
                 (scount >= 0 && scount <= INT_MAX && stype != MPI_DATATYPE_NULL));
    ac_comm *c = valid ? ac_request_comm(comm, request) : NULL;
    if (c) {
        ac_call call = ac_call_make(c, coll);
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

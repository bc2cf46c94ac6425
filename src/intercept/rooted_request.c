/*
 * rooted_request.c - the nonblocking and persistent rooted collectives of one block per rank,
 * gather and scatter: MPI_Igather, MPI_Gather_init, MPI_Iscatter, MPI_Scatter_init and their
 * large-count forms (where the significant counts fit an int). Run by the layer where selection
 * names an algorithm written as a schedule (ac_request_make: the one AUTOCOLL_GATHER or
 * AUTOCOLL_SCATTER forces, the table's rule, or under a learning strategy a race: native and
 * the tree instances) on a communicator where the layer may (ac_request_comm), with the
 * arguments significant at this rank valid (rooted_blocks.c, ac_rooted_significant); otherwise
 * counted as seen (as before the layer ran them: gather's send bytes, scatter's receive bytes,
 * none in place) and passed to the library. The call's bytes are one block's type signature, which MPI
 * requires equal on every rank, so all ranks run the same schedule or all pass the call on.
 */
#include "coll/algorithms.h"
#include "intercept/intercept.h"
#include "intercept/requests.h"

#include <limits.h>

/* The two collectives' arguments and schedules have one shape. */
static int build(ac_sched *s, const ac_algorithm *alg, const void *args)
{
    const ac_rooted_args *a = args;
    ac_gather_sched_fn *fn = alg->collective == AC_GATHER ? alg->sched.gather : alg->sched.scatter;
    return fn(s, a->sbuf, a->scount, a->stype, a->rbuf, a->rcount, a->rtype, a->root,
              alg->params);
}

/* A persistent request's library collective (requests.h, ac_request_library_fn); NULL where
 * the layer must not use it, and a race leaves native out. MPICH 4.0's persistent gather never
 * delivers the root's own block, and its persistent scatter fails in MPI_Wait ("Invalid
 * communicator") on 3 ranks (seen with 4.0.2: docs/native-libraries.md). */
#if defined(MPICH_NUMVERSION) && MPICH_NUMVERSION < 40100000
#define BROKEN_PERSISTENT_ROOTED 1
#else
#define BROKEN_PERSISTENT_ROOTED 0
#endif
#if MPI_VERSION >= 4 && !AUTOCOLL_SIMULATED
static int library(const ac_algorithm *native, const void *args, MPI_Comm comm, MPI_Request *req)
{
    const ac_rooted_args *a = args;
    if (native->collective == AC_GATHER)
        return PMPI_Gather_init(a->sbuf, a->scount, a->stype, a->rbuf, a->rcount, a->rtype,
                                a->root, comm, MPI_INFO_NULL, req);
    return PMPI_Scatter_init(a->sbuf, a->scount, a->stype, a->rbuf, a->rcount, a->rtype, a->root,
                             comm, MPI_INFO_NULL, req);
}
#else
#define library NULL
#endif

/* A significant count and type MPI accepts (and the layer's int holds). */
static int valid_side(int significant, long long count, MPI_Datatype type)
{
    return !significant || (count >= 0 && count <= INT_MAX && type != MPI_DATATYPE_NULL);
}

/* The layer's request for the call, in *request with its outcome in *rc: 1; 0: not the
 * layer's, counted as seen (pass it on). */
static int layer_request(ac_collective coll, ac_seen_kind kind, int persistent, const void *sbuf,
                         long long scount, MPI_Datatype stype, void *rbuf, long long rcount,
                         MPI_Datatype rtype, int root, MPI_Comm comm, MPI_Request *request,
                         int *rc)
{
    int send, receive, at_root = ac_rooted_significant(coll, comm, root, sbuf, rbuf, &send,
                                                       &receive);
    int valid = at_root >= 0 && valid_side(send, scount, stype) &&
                valid_side(receive, rcount, rtype);
    ac_comm *c = valid ? ac_request_comm(comm, request) : NULL;
    if (c) {
        ac_call call = ac_call_make(c, coll);
        /* one block, from a side significant here: its signature is every rank's */
        call.bytes = send ? ac_signature_bytes(scount, stype) : ac_signature_bytes(rcount, rtype);
        ac_rooted_args a = {sbuf,          send ? (int)scount : 0, stype, rbuf,
                            receive ? (int)rcount : 0, rtype, root};
        int usable = persistent && !BROKEN_PERSISTENT_ROOTED;
        MPI_Datatype types[2] = {send ? stype : MPI_DATATYPE_NULL,
                                 receive ? rtype : MPI_DATATYPE_NULL};
        if (ac_request_make(c, &call, kind, persistent, build, usable ? library : NULL, &a,
                            sizeof a, types, 2, request, rc))
            return 1;
    }
    if (ac_seen_on()) {
        int gather = coll == AC_GATHER;
        const void *own = gather ? sbuf : rbuf;
        ac_seen_passed(kind, comm,
                       own == MPI_IN_PLACE ? -1.0
                                           : gather ? ac_seen_bytes(scount, stype)
                                                    : ac_seen_bytes(rcount, rtype),
                       ac_request_why(valid, c));
    }
    return 0;
}

/* The MPI functions of collective `coll` (gather, scatter; Coll and COLL its other spellings):
 * the layer's request where layer_request makes one, else the library's call. MPI_I<coll>,
 * and (ROOTED_MPI4) MPI_I<coll>_c, MPI_<Coll>_init and MPI_<Coll>_init_c. */
#define ROOTED_FUNCTION(COLL, KIND, persistent, name, T, info, info_arg)                        \
    int name(const void *sendbuf, T sendcount, MPI_Datatype sendtype, void *recvbuf,          \
             T recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm info,                \
             MPI_Request *request)                                                            \
    {                                                                                         \
        int rc;                                                                               \
        if (layer_request(AC_##COLL, AC_SEEN_##KIND, persistent, sendbuf, sendcount,          \
                          sendtype, recvbuf, recvcount, recvtype, root, comm, request, &rc))  \
            return rc;                                                                        \
        return P##name(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,      \
                       comm info_arg, request);                                               \
    }
#define NO_INFO
#define WITH_INFO , MPI_Info info
#define PASS_INFO , info
#define ROOTED_MPI3(coll, COLL)                                                                 \
    ROOTED_FUNCTION(COLL, I##COLL, 0, MPI_I##coll, int, NO_INFO, NO_INFO)
#define ROOTED_MPI4(coll, Coll, COLL)                                                           \
    ROOTED_FUNCTION(COLL, I##COLL##_C, 0, MPI_I##coll##_c, MPI_Count, NO_INFO, NO_INFO)       \
    ROOTED_FUNCTION(COLL, COLL##_INIT, 1, MPI_##Coll##_init, int, WITH_INFO, PASS_INFO)       \
    ROOTED_FUNCTION(COLL, COLL##_INIT_C, 1, MPI_##Coll##_init_c, MPI_Count, WITH_INFO,        \
                    PASS_INFO)

ROOTED_MPI3(gather, GATHER)
ROOTED_MPI3(scatter, SCATTER)
#if MPI_VERSION >= 4 && !AUTOCOLL_SIMULATED
ROOTED_MPI4(gather, Gather, GATHER)
ROOTED_MPI4(scatter, Scatter, SCATTER)
#endif

/*
 * blocks_request.c - the nonblocking and persistent collectives of one block from every rank or
 * neighbour, allgather and alltoall and their neighbourhood forms: MPI_Iallgather,
 * MPI_Allgather_init, MPI_Ialltoall, MPI_Alltoall_init, MPI_Ineighbor_allgather,
 * MPI_Neighbor_allgather_init, MPI_Ineighbor_alltoall, MPI_Neighbor_alltoall_init and their
 * large-count forms (where the counts fit an int). Run by the layer where selection names an
 * algorithm written as a schedule (ac_request_make: the one AUTOCOLL_<COLL> forces, the table's
 * rule, or under a learning strategy a race) on a communicator where the layer may
 * (ac_request_comm; a neighbourhood call's: a Cartesian or distributed-graph one, not in place,
 * ac_request_neighbor_comm); otherwise counted as seen (the send bytes; none in place) and
 * passed to the library.
 */
#include "coll/algorithms.h"
#include "intercept/intercept.h"
#include "intercept/requests.h"

#include <limits.h>

/* The four collectives' arguments and schedules have one shape. */
static int build(ac_sched *s, const ac_algorithm *alg, const void *args)
{
    const ac_blocks_args *a = args;
    ac_allgather_sched_fn *fn = alg->collective == AC_ALLGATHER   ? alg->sched.allgather
                                : alg->collective == AC_ALLTOALL  ? alg->sched.alltoall
                                : alg->collective == AC_NEIGHBOR_ALLGATHER
                                    ? alg->sched.neighbor_allgather
                                    : alg->sched.neighbor_alltoall;
    return fn(s, a->sbuf, a->scount, a->stype, a->rbuf, a->rcount, a->rtype, alg->params);
}

/* A persistent request's library collective (requests.h, ac_request_library_fn); NULL where
 * the layer must not use it, and a race leaves native out. MPICH 4.0's persistent allgather
 * delivers no other rank's block from its second start on (seen with 4.0.2:
 * docs/native-libraries.md). */
#if defined(MPICH_NUMVERSION) && MPICH_NUMVERSION < 40100000
#define BROKEN_PERSISTENT_ALLGATHER 1
#else
#define BROKEN_PERSISTENT_ALLGATHER 0
#endif
#if MPI_VERSION >= 4 && !AUTOCOLL_SIMULATED
static int library(const ac_algorithm *native, const void *args, MPI_Comm comm, MPI_Request *req)
{
    const ac_blocks_args *a = args;
    switch (native->collective) {
    case AC_ALLGATHER:
        return PMPI_Allgather_init(a->sbuf, a->scount, a->stype, a->rbuf, a->rcount, a->rtype,
                                   comm, MPI_INFO_NULL, req);
    case AC_ALLTOALL:
        return PMPI_Alltoall_init(a->sbuf, a->scount, a->stype, a->rbuf, a->rcount, a->rtype,
                                  comm, MPI_INFO_NULL, req);
    case AC_NEIGHBOR_ALLGATHER:
        return PMPI_Neighbor_allgather_init(a->sbuf, a->scount, a->stype, a->rbuf, a->rcount,
                                            a->rtype, comm, MPI_INFO_NULL, req);
    default:
        return PMPI_Neighbor_alltoall_init(a->sbuf, a->scount, a->stype, a->rbuf, a->rcount,
                                           a->rtype, comm, MPI_INFO_NULL, req);
    }
}
#else
#define library NULL
#endif

int ac_request_blocks(ac_collective coll, ac_seen_kind kind, int persistent, const void *sbuf,
                      long long scount, MPI_Datatype stype, void *rbuf, long long rcount,
                      MPI_Datatype rtype, MPI_Comm comm, MPI_Request *request, int *rc)
{
    int valid = rcount >= 0 && rcount <= INT_MAX && rtype != MPI_DATATYPE_NULL &&
                (sbuf == MPI_IN_PLACE ||
                 (scount >= 0 && scount <= INT_MAX && stype != MPI_DATATYPE_NULL));
    int neighbor = ac_collective_neighborhood(coll);
    valid = valid && !(neighbor && sbuf == MPI_IN_PLACE); /* MPI has no in place for them */
    ac_topology topology = AC_TOPOLOGY_NONE;
    ac_comm *c = !valid    ? NULL
                 : neighbor ? ac_request_neighbor_comm(comm, sbuf, request, &topology)
                            : ac_request_comm(comm, request);
    if (c) {
        ac_call call = ac_call_make(c, coll);
        call.topology = topology; /* the window (call.window): blocking calls only */
        int usable = persistent && !(BROKEN_PERSISTENT_ALLGATHER && coll == AC_ALLGATHER);
        call.bytes = ac_signature_bytes(rcount, rtype);
        ac_blocks_args a = {sbuf, sbuf == MPI_IN_PLACE ? 0 : (int)scount, stype, rbuf,
                            (int)rcount, rtype};
        MPI_Datatype types[2] = {sbuf == MPI_IN_PLACE ? MPI_DATATYPE_NULL : stype, rtype};
        if (ac_request_make(c, &call, kind, persistent, build, usable ? library : NULL, &a,
                            sizeof a, types, 2, request, rc))
            return 1;
    }
    if (ac_seen_on())
        ac_seen_passed(kind, comm, sbuf == MPI_IN_PLACE ? -1.0 : ac_seen_bytes(scount, stype),
                       ac_request_why(valid, c));
    return 0;
}

/* The MPI functions of collective `coll` (allgather, alltoall; Coll and COLL its other
 * spellings): the layer's request where ac_request_blocks makes one, else the library's call.
 * MPI_I<coll>, and (BLOCKS_MPI4) MPI_I<coll>_c, MPI_<Coll>_init and MPI_<Coll>_init_c. */
#define BLOCKS_FUNCTION(COLL, KIND, persistent, name, T, info, info_arg)                        \
    int name(const void *sendbuf, T sendcount, MPI_Datatype sendtype, void *recvbuf,          \
             T recvcount, MPI_Datatype recvtype, MPI_Comm comm info, MPI_Request *request)    \
    {                                                                                         \
        int rc;                                                                               \
        if (ac_request_blocks(AC_##COLL, AC_SEEN_##KIND, persistent, sendbuf, sendcount,      \
                              sendtype, recvbuf, recvcount, recvtype, comm, request, &rc))    \
            return rc;                                                                        \
        return P##name(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,            \
                       comm info_arg, request);                                               \
    }
#define NO_INFO
#define WITH_INFO , MPI_Info info
#define PASS_INFO , info
#define BLOCKS_MPI3(coll, COLL)                                                                 \
    BLOCKS_FUNCTION(COLL, I##COLL, 0, MPI_I##coll, int, NO_INFO, NO_INFO)
#define BLOCKS_MPI4(coll, Coll, COLL)                                                           \
    BLOCKS_FUNCTION(COLL, I##COLL##_C, 0, MPI_I##coll##_c, MPI_Count, NO_INFO, NO_INFO)       \
    BLOCKS_FUNCTION(COLL, COLL##_INIT, 1, MPI_##Coll##_init, int, WITH_INFO, PASS_INFO)       \
    BLOCKS_FUNCTION(COLL, COLL##_INIT_C, 1, MPI_##Coll##_init_c, MPI_Count, WITH_INFO,        \
                    PASS_INFO)

BLOCKS_MPI3(allgather, ALLGATHER)
BLOCKS_MPI3(alltoall, ALLTOALL)
BLOCKS_MPI3(neighbor_allgather, NEIGHBOR_ALLGATHER)
BLOCKS_MPI3(neighbor_alltoall, NEIGHBOR_ALLTOALL)
#if MPI_VERSION >= 4 && !AUTOCOLL_SIMULATED
BLOCKS_MPI4(allgather, Allgather, ALLGATHER)
BLOCKS_MPI4(alltoall, Alltoall, ALLTOALL)
BLOCKS_MPI4(neighbor_allgather, Neighbor_allgather, NEIGHBOR_ALLGATHER)
BLOCKS_MPI4(neighbor_alltoall, Neighbor_alltoall, NEIGHBOR_ALLTOALL)
#endif

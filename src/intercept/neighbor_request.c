/*
 * neighbor_request.c - the nonblocking and persistent neighbourhood collectives of many blocks:
 * MPI_Ineighbor_allgatherv, _alltoallv, _alltoallw and their persistent forms
 * MPI_Neighbor_<coll>_init (MPI-4 libraries; those of one block an edge, allgather and alltoall,
 * are blocks_request.c's). Run by the layer where
 * selection names an algorithm written as a schedule (ac_request_make: the one
 * AUTOCOLL_NEIGHBOR_<COLL> forces, the table's rule, or under a learning strategy a race of
 * isend_irecv, sendrecv_pair on a Cartesian communicator, and the library's own) on a
 * Cartesian or distributed-graph communicator where the layer may (ac_request_comm); otherwise
 * counted as seen and passed to the library. The neighbours the schedule reads are local
 * (ac_neighbors_lists); the one-sided engine, whose window is made at a blocking call and whose
 * fences no schedule can progress, is blocking only. The v and w forms' _c variants (MPI_Count
 * and MPI_Aint arrays) pass through, counted (seen.c). The counts, displacements and datatypes
 * are read when the schedule is built (at each start of a racing request): MPI forbids changing
 * them while the request lives.
 */
#include "coll/algorithms.h"
#include "coll/common/neighbor.h"
#include "intercept/intercept.h"
#include "intercept/requests.h"

#include <limits.h>
#include <stdlib.h>

#define PERSISTENT_LIBRARY (MPI_VERSION >= 4 && !AUTOCOLL_SIMULATED)

/* ac_request_make for the call of `coll` on c: 1 when the layer runs it (its outcome in *rc). */
static int make(ac_comm *c, ac_collective coll, ac_topology t, size_t bytes, ac_seen_kind kind,
                int persistent, ac_request_build_fn *build, ac_request_library_fn *library,
                const void *args, size_t argsize, const MPI_Datatype *types, int ntypes,
                MPI_Request *request, int *rc)
{
    ac_call call = ac_call_make(c, coll);
    call.topology = t;
    call.window = 0; /* the one-sided engine is blocking only */
    call.bytes = bytes;
    return ac_request_make(c, &call, kind, persistent, build, persistent ? library : NULL, args,
                           argsize, types, ntypes, request, rc);
}

/* ---- allgatherv ---------------------------------------------------------------------------- */

static int build_allgatherv(ac_sched *s, const ac_algorithm *alg, const void *args)
{
    const ac_allgatherv_args *a = args;
    return alg->sched.neighbor_allgatherv(s, a->sbuf, a->scount, a->stype, a->rbuf, a->rcounts,
                                          a->displs, a->rtype, alg->params);
}

#if PERSISTENT_LIBRARY
static int library_allgatherv(const ac_algorithm *native, const void *args, MPI_Comm comm,
                              MPI_Request *req)
{
    const ac_allgatherv_args *a = args;
    (void)native;
    return PMPI_Neighbor_allgatherv_init(a->sbuf, a->scount, a->stype, a->rbuf, a->rcounts,
                                         a->displs, a->rtype, comm, MPI_INFO_NULL, req);
}
#else
#define library_allgatherv NULL
#endif

static int request_allgatherv(ac_seen_kind kind, int persistent, const ac_allgatherv_args *a,
                              MPI_Comm comm, MPI_Request *request, int *rc)
{
    int in = 0, out = 0;
    int valid = a->scount >= 0 && a->stype != MPI_DATATYPE_NULL && a->sbuf != MPI_IN_PLACE;
    ac_topology t;
    ac_comm *c = valid ? ac_request_neighbor_comm(comm, a->sbuf, request, &t) : NULL;
    if (c)
        valid = ac_neighbor_degrees(comm, &in, &out) &&
                ac_blocks_ok(a->rcounts, NULL, a->rtype, in) && (in == 0 || a->displs);
    if (c && valid) {
        MPI_Datatype types[2] = {a->stype, a->rtype};
        if (make(c, AC_NEIGHBOR_ALLGATHERV, t, ac_counts_bytes(a->rcounts, in, a->rtype), kind,
                 persistent, build_allgatherv, library_allgatherv, a, sizeof *a, types, 2,
                 request, rc))
            return 1;
    }
    if (ac_seen_on())
        ac_seen_passed(kind, comm,
                       a->sbuf == MPI_IN_PLACE ? -1.0 : ac_seen_bytes(a->scount, a->stype),
                       ac_request_why(valid, c));
    return 0;
}

int MPI_Ineighbor_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                             void *recvbuf, const int recvcounts[], const int displs[],
                             MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    int rc;
    ac_allgatherv_args a = {sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype};
    if (request_allgatherv(AC_SEEN_INEIGHBOR_ALLGATHERV, 0, &a, comm, request, &rc)) return rc;
    return PMPI_Ineighbor_allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                                     recvtype, comm, request);
}

#if PERSISTENT_LIBRARY
int MPI_Neighbor_allgatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                 void *recvbuf, const int recvcounts[], const int displs[],
                                 MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                 MPI_Request *request)
{
    int rc;
    ac_allgatherv_args a = {sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype};
    if (request_allgatherv(AC_SEEN_NEIGHBOR_ALLGATHERV_INIT, 1, &a, comm, request, &rc))
        return rc;
    return PMPI_Neighbor_allgatherv_init(sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                                         displs, recvtype, comm, info, request);
}
#endif

/* ---- alltoallv ----------------------------------------------------------------------------- */

static int build_alltoallv(ac_sched *s, const ac_algorithm *alg, const void *args)
{
    const ac_alltoallv_args *a = args;
    return alg->sched.neighbor_alltoallv(s, a->sbuf, a->scounts, a->sdispls, a->stype, a->rbuf,
                                         a->rcounts, a->rdispls, a->rtype, alg->params);
}

#if PERSISTENT_LIBRARY
static int library_alltoallv(const ac_algorithm *native, const void *args, MPI_Comm comm,
                             MPI_Request *req)
{
    const ac_alltoallv_args *a = args;
    (void)native;
    return PMPI_Neighbor_alltoallv_init(a->sbuf, a->scounts, a->sdispls, a->stype, a->rbuf,
                                        a->rcounts, a->rdispls, a->rtype, comm, MPI_INFO_NULL,
                                        req);
}
#else
#define library_alltoallv NULL
#endif

static int request_alltoallv(ac_seen_kind kind, int persistent, const ac_alltoallv_args *a,
                             MPI_Comm comm, MPI_Request *request, int *rc)
{
    int in = 0, out = 0, valid = a->sbuf != MPI_IN_PLACE;
    ac_topology t;
    ac_comm *c = valid ? ac_request_neighbor_comm(comm, a->sbuf, request, &t) : NULL;
    if (c)
        valid = ac_neighbor_degrees(comm, &in, &out) &&
                ac_blocks_ok(a->scounts, NULL, a->stype, out) && (out == 0 || a->sdispls) &&
                ac_blocks_ok(a->rcounts, NULL, a->rtype, in) && (in == 0 || a->rdispls);
    if (c && valid) {
        MPI_Datatype types[2] = {a->stype, a->rtype};
        if (make(c, AC_NEIGHBOR_ALLTOALLV, t, ac_counts_bytes(a->rcounts, in, a->rtype), kind,
                 persistent, build_alltoallv, library_alltoallv, a, sizeof *a, types, 2, request,
                 rc))
            return 1;
    }
    if (ac_seen_on()) ac_seen_passed(kind, comm, -1.0, ac_request_why(valid, c));
    return 0;
}

int MPI_Ineighbor_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                            MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                            const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                            MPI_Request *request)
{
    int rc;
    ac_alltoallv_args a = {sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                           recvtype};
    if (request_alltoallv(AC_SEEN_INEIGHBOR_ALLTOALLV, 0, &a, comm, request, &rc)) return rc;
    return PMPI_Ineighbor_alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                                    rdispls, recvtype, comm, request);
}

#if PERSISTENT_LIBRARY
int MPI_Neighbor_alltoallv_init(const void *sendbuf, const int sendcounts[], const int sdispls[],
                                MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                                const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                                MPI_Info info, MPI_Request *request)
{
    int rc;
    ac_alltoallv_args a = {sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                           recvtype};
    if (request_alltoallv(AC_SEEN_NEIGHBOR_ALLTOALLV_INIT, 1, &a, comm, request, &rc)) return rc;
    return PMPI_Neighbor_alltoallv_init(sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                                        recvcounts, rdispls, recvtype, comm, info, request);
}
#endif

/* ---- alltoallw ----------------------------------------------------------------------------- */

static int build_alltoallw(ac_sched *s, const ac_algorithm *alg, const void *args)
{
    const ac_neighbor_alltoallw_args *a = args;
    return alg->sched.neighbor_alltoallw(s, a->sbuf, a->scounts, a->sdispls, a->stypes, a->rbuf,
                                         a->rcounts, a->rdispls, a->rtypes, alg->params);
}

#if PERSISTENT_LIBRARY
static int library_alltoallw(const ac_algorithm *native, const void *args, MPI_Comm comm,
                             MPI_Request *req)
{
    const ac_neighbor_alltoallw_args *a = args;
    (void)native;
    return PMPI_Neighbor_alltoallw_init(a->sbuf, a->scounts, a->sdispls, a->stypes, a->rbuf,
                                        a->rcounts, a->rdispls, a->rtypes, comm, MPI_INFO_NULL,
                                        req);
}
#else
#define library_alltoallw NULL
#endif

/* The request holds every datatype of the call (ac_request_make: the application may free
 * them once it has started). */
static int request_alltoallw(ac_seen_kind kind, int persistent,
                             const ac_neighbor_alltoallw_args *a, MPI_Comm comm,
                             MPI_Request *request, int *rc)
{
    int in = 0, out = 0, valid = a->sbuf != MPI_IN_PLACE;
    ac_topology t;
    ac_comm *c = valid ? ac_request_neighbor_comm(comm, a->sbuf, request, &t) : NULL;
    if (c)
        valid = ac_neighbor_degrees(comm, &in, &out) &&
                ac_blocks_ok(a->scounts, a->stypes, MPI_DATATYPE_NULL, out) &&
                (out == 0 || a->sdispls) &&
                ac_blocks_ok(a->rcounts, a->rtypes, MPI_DATATYPE_NULL, in) &&
                (in == 0 || a->rdispls);
    if (c && valid) {
        MPI_Datatype *types = malloc(sizeof(MPI_Datatype) * (size_t)(in + out + 1));
        if (!types) {
            *rc = MPI_ERR_NO_MEM; /* loud: passing it on alone would leave the others waiting */
            return 1;
        }
        size_t bytes = 0;
        for (int k = 0; k < out; k++)
            types[k] = a->stypes[k];
        for (int j = 0; j < in; j++) {
            types[out + j] = a->rtypes[j];
            bytes += ac_signature_bytes(a->rcounts[j], a->rtypes[j]);
        }
        int made = make(c, AC_NEIGHBOR_ALLTOALLW, t, bytes, kind, persistent, build_alltoallw,
                        library_alltoallw, a, sizeof *a, types, in + out, request, rc);
        free(types);
        if (made) return 1;
    }
    if (ac_seen_on()) ac_seen_passed(kind, comm, -1.0, ac_request_why(valid, c));
    return 0;
}

int MPI_Ineighbor_alltoallw(const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                            const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                            const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                            MPI_Comm comm, MPI_Request *request)
{
    int rc;
    ac_neighbor_alltoallw_args a = {sendbuf, sendcounts, sdispls, sendtypes,
                                    recvbuf, recvcounts, rdispls, recvtypes};
    if (request_alltoallw(AC_SEEN_INEIGHBOR_ALLTOALLW, 0, &a, comm, request, &rc)) return rc;
    return PMPI_Ineighbor_alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts,
                                    rdispls, recvtypes, comm, request);
}

#if PERSISTENT_LIBRARY
int MPI_Neighbor_alltoallw_init(const void *sendbuf, const int sendcounts[],
                                const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                                void *recvbuf, const int recvcounts[], const MPI_Aint rdispls[],
                                const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info,
                                MPI_Request *request)
{
    int rc;
    ac_neighbor_alltoallw_args a = {sendbuf, sendcounts, sdispls, sendtypes,
                                    recvbuf, recvcounts, rdispls, recvtypes};
    if (request_alltoallw(AC_SEEN_NEIGHBOR_ALLTOALLW_INIT, 1, &a, comm, request, &rc)) return rc;
    return PMPI_Neighbor_alltoallw_init(sendbuf, sendcounts, sdispls, sendtypes, recvbuf,
                                        recvcounts, rdispls, recvtypes, comm, info, request);
}
#endif

/*
 * fortran.c - the Fortran entry points of the blocking collectives, MPI_INIT, MPI_INIT_THREAD
 * and MPI_FINALIZE, and the Fortran sentinels, for Open MPI only (fortran.h says why and how;
 * mpi_f08's MPI_Init, MPI_Init_thread, MPI_Finalize and MPI_Barrier are taken earlier by
 * fortran_f08.c). MPICH's mpif.h and `use mpi` bindings call MPI_*, which the C wrappers catch:
 * this file is not built there.
 */
#include "intercept/fortran.h"
#include "intercept/intercept.h"

#include <dlfcn.h>
#include <mpi.h>
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>

/* The signatures of Open MPI's ompi_<name>_f (ompi/mpi/fortran/mpif-h/prototypes_mpi.h). */
typedef void f_init(MPI_Fint *ierr);
typedef void f_init_thread(MPI_Fint *required, MPI_Fint *provided, MPI_Fint *ierr);
typedef void f_finalize(MPI_Fint *ierr);
typedef void f_allgather(char *sbuf, MPI_Fint *scount, MPI_Fint *stype, char *rbuf,
                         MPI_Fint *rcount, MPI_Fint *rtype, MPI_Fint *comm, MPI_Fint *ierr);
typedef void f_allgatherv(char *sbuf, MPI_Fint *scount, MPI_Fint *stype, char *rbuf,
                          MPI_Fint *rcounts, MPI_Fint *displs, MPI_Fint *rtype, MPI_Fint *comm,
                          MPI_Fint *ierr);
typedef void f_allreduce(char *sbuf, char *rbuf, MPI_Fint *count, MPI_Fint *dtype, MPI_Fint *op,
                         MPI_Fint *comm, MPI_Fint *ierr);
typedef void f_alltoall(char *sbuf, MPI_Fint *scount, MPI_Fint *stype, char *rbuf, MPI_Fint *rcount,
                        MPI_Fint *rtype, MPI_Fint *comm, MPI_Fint *ierr);
typedef void f_alltoallv(char *sbuf, MPI_Fint *scounts, MPI_Fint *sdispls, MPI_Fint *stype,
                         char *rbuf, MPI_Fint *rcounts, MPI_Fint *rdispls, MPI_Fint *rtype,
                         MPI_Fint *comm, MPI_Fint *ierr);
typedef void f_barrier(MPI_Fint *comm, MPI_Fint *ierr);
typedef void f_bcast(char *buf, MPI_Fint *count, MPI_Fint *dtype, MPI_Fint *root, MPI_Fint *comm,
                     MPI_Fint *ierr);
typedef void f_gather(char *sbuf, MPI_Fint *scount, MPI_Fint *stype, char *rbuf, MPI_Fint *rcount,
                      MPI_Fint *rtype, MPI_Fint *root, MPI_Fint *comm, MPI_Fint *ierr);
typedef void f_reduce(char *sbuf, char *rbuf, MPI_Fint *count, MPI_Fint *dtype, MPI_Fint *op,
                      MPI_Fint *root, MPI_Fint *comm, MPI_Fint *ierr);
typedef void f_reduce_scatter(char *sbuf, char *rbuf, MPI_Fint *rcounts, MPI_Fint *dtype,
                              MPI_Fint *op, MPI_Fint *comm, MPI_Fint *ierr);
typedef void f_reduce_scatter_block(char *sbuf, char *rbuf, MPI_Fint *rcount, MPI_Fint *dtype,
                                    MPI_Fint *op, MPI_Fint *comm, MPI_Fint *ierr);
typedef void f_scatter(char *sbuf, MPI_Fint *scount, MPI_Fint *stype, char *rbuf, MPI_Fint *rcount,
                       MPI_Fint *rtype, MPI_Fint *root, MPI_Fint *comm, MPI_Fint *ierr);
typedef void f_neighbor_alltoallw(char *sbuf, MPI_Fint *scounts, MPI_Aint *sdispls,
                                  MPI_Fint *stypes, char *rbuf, MPI_Fint *rcounts,
                                  MPI_Aint *rdispls, MPI_Fint *rtypes, MPI_Fint *comm,
                                  MPI_Fint *ierr);

/* Fortran's MPI_IN_PLACE, MPI_BOTTOM, MPI_STATUS_IGNORE and MPI_STATUSES_IGNORE are the
 * addresses of common blocks defined by Open MPI's libraries, under any of the four manglings;
 * looked up once, absent ones stay NULL. */
enum { IN_PLACE, BOTTOM, STATUS_IGNORE, STATUSES_IGNORE, SENTINELS };
static const char *const sentinel_names[SENTINELS][4] = {
    {"mpi_fortran_in_place_", "mpi_fortran_in_place", "mpi_fortran_in_place__",
     "MPI_FORTRAN_IN_PLACE"},
    {"mpi_fortran_bottom_", "mpi_fortran_bottom", "mpi_fortran_bottom__", "MPI_FORTRAN_BOTTOM"},
    {"mpi_fortran_status_ignore_", "mpi_fortran_status_ignore", "mpi_fortran_status_ignore__",
     "MPI_FORTRAN_STATUS_IGNORE"},
    {"mpi_fortran_statuses_ignore_", "mpi_fortran_statuses_ignore",
     "mpi_fortran_statuses_ignore__", "MPI_FORTRAN_STATUSES_IGNORE"},
};
static void *sentinel_addrs[SENTINELS][4];
static pthread_once_t sentinels_once = PTHREAD_ONCE_INIT;

static void sentinels_lookup(void)
{
    for (int s = 0; s < SENTINELS; s++)
        for (int i = 0; i < 4; i++)
            sentinel_addrs[s][i] = dlsym(RTLD_DEFAULT, sentinel_names[s][i]);
}

static int is_sentinel(const void *arg, int sentinel)
{
    pthread_once(&sentinels_once, sentinels_lookup);
    for (int i = 0; i < 4; i++)
        if (sentinel_addrs[sentinel][i] && arg == sentinel_addrs[sentinel][i]) return 1;
    return 0;
}

void *ac_f_buf(char *buf)
{
    return is_sentinel(buf, BOTTOM) ? MPI_BOTTOM : buf;
}

void *ac_f_buf_in_place(char *buf)
{
    return is_sentinel(buf, IN_PLACE) ? MPI_IN_PLACE : ac_f_buf(buf);
}

MPI_Fint *ac_f_status(MPI_Fint *status)
{
    return is_sentinel(status, STATUS_IGNORE) ? NULL : status;
}

MPI_Fint *ac_f_statuses(MPI_Fint *statuses)
{
    return is_sentinel(statuses, STATUSES_IGNORE) ? NULL : statuses;
}

MPI_Datatype *ac_f_types(const MPI_Fint *types, int n)
{
    MPI_Datatype *out = malloc(sizeof *out * (size_t)(n > 0 ? n : 1));
    for (int i = 0; out && i < n; i++)
        out[i] = PMPI_Type_f2c(types[i]);
    return out;
}

f_init ompi_init_f;
void ompi_init_f(MPI_Fint *ierr)
{
    ac_f_set_ierr(ierr, MPI_Init(NULL, NULL));
}
F_ALIASES(f_init, init, INIT)

f_init_thread ompi_init_thread_f;
void ompi_init_thread_f(MPI_Fint *required, MPI_Fint *provided, MPI_Fint *ierr)
{
    int c_provided = MPI_THREAD_SINGLE;
    int rc = MPI_Init_thread(NULL, NULL, (int)*required, &c_provided);
    if (rc == MPI_SUCCESS) *provided = (MPI_Fint)c_provided;
    ac_f_set_ierr(ierr, rc);
}
F_ALIASES(f_init_thread, init_thread, INIT_THREAD)

f_finalize ompi_finalize_f;
void ompi_finalize_f(MPI_Fint *ierr)
{
    ac_f_set_ierr(ierr, MPI_Finalize());
}
F_ALIASES(f_finalize, finalize, FINALIZE)

f_allgather ompi_allgather_f;
void ompi_allgather_f(char *sbuf, MPI_Fint *scount, MPI_Fint *stype, char *rbuf, MPI_Fint *rcount,
                      MPI_Fint *rtype, MPI_Fint *comm, MPI_Fint *ierr)
{
    ac_f_set_ierr(ierr,
             ac_allgather_at(AC_CALLER, ac_f_buf_in_place(sbuf), *scount, PMPI_Type_f2c(*stype),
                             ac_f_buf(rbuf), *rcount, PMPI_Type_f2c(*rtype), PMPI_Comm_f2c(*comm)));
}
F_ALIASES(f_allgather, allgather, ALLGATHER)

f_allgatherv ompi_allgatherv_f;
void ompi_allgatherv_f(char *sbuf, MPI_Fint *scount, MPI_Fint *stype, char *rbuf, MPI_Fint *rcounts,
                       MPI_Fint *displs, MPI_Fint *rtype, MPI_Fint *comm, MPI_Fint *ierr)
{
    ac_f_set_ierr(ierr, ac_allgatherv_at(AC_CALLER, ac_f_buf_in_place(sbuf), *scount, PMPI_Type_f2c(*stype),
                                    ac_f_buf(rbuf), rcounts, displs, PMPI_Type_f2c(*rtype),
                                    PMPI_Comm_f2c(*comm)));
}
F_ALIASES(f_allgatherv, allgatherv, ALLGATHERV)

f_allreduce ompi_allreduce_f;
void ompi_allreduce_f(char *sbuf, char *rbuf, MPI_Fint *count, MPI_Fint *dtype, MPI_Fint *op,
                      MPI_Fint *comm, MPI_Fint *ierr)
{
    ac_f_set_ierr(ierr, ac_allreduce_at(AC_CALLER, ac_f_buf_in_place(sbuf), ac_f_buf(rbuf), *count,
                                   PMPI_Type_f2c(*dtype), PMPI_Op_f2c(*op), PMPI_Comm_f2c(*comm)));
}
F_ALIASES(f_allreduce, allreduce, ALLREDUCE)

f_alltoall ompi_alltoall_f;
void ompi_alltoall_f(char *sbuf, MPI_Fint *scount, MPI_Fint *stype, char *rbuf, MPI_Fint *rcount,
                     MPI_Fint *rtype, MPI_Fint *comm, MPI_Fint *ierr)
{
    ac_f_set_ierr(ierr,
             ac_alltoall_at(AC_CALLER, ac_f_buf_in_place(sbuf), *scount, PMPI_Type_f2c(*stype),
                            ac_f_buf(rbuf), *rcount, PMPI_Type_f2c(*rtype), PMPI_Comm_f2c(*comm)));
}
F_ALIASES(f_alltoall, alltoall, ALLTOALL)

f_alltoallv ompi_alltoallv_f;
void ompi_alltoallv_f(char *sbuf, MPI_Fint *scounts, MPI_Fint *sdispls, MPI_Fint *stype, char *rbuf,
                      MPI_Fint *rcounts, MPI_Fint *rdispls, MPI_Fint *rtype, MPI_Fint *comm,
                      MPI_Fint *ierr)
{
    ac_f_set_ierr(ierr, ac_alltoallv_at(AC_CALLER, ac_f_buf_in_place(sbuf), scounts, sdispls,
                                   PMPI_Type_f2c(*stype), ac_f_buf(rbuf), rcounts, rdispls,
                                   PMPI_Type_f2c(*rtype), PMPI_Comm_f2c(*comm)));
}
F_ALIASES(f_alltoallv, alltoallv, ALLTOALLV)

f_barrier ompi_barrier_f;
void ompi_barrier_f(MPI_Fint *comm, MPI_Fint *ierr)
{
    ac_f_set_ierr(ierr, ac_barrier_at(AC_CALLER, PMPI_Comm_f2c(*comm)));
}
F_ALIASES(f_barrier, barrier, BARRIER)

f_bcast ompi_bcast_f;
void ompi_bcast_f(char *buf, MPI_Fint *count, MPI_Fint *dtype, MPI_Fint *root, MPI_Fint *comm,
                  MPI_Fint *ierr)
{
    ac_f_set_ierr(ierr, ac_bcast_at(AC_CALLER, ac_f_buf(buf), *count, PMPI_Type_f2c(*dtype), *root,
                               PMPI_Comm_f2c(*comm)));
}
F_ALIASES(f_bcast, bcast, BCAST)

f_gather ompi_gather_f;
void ompi_gather_f(char *sbuf, MPI_Fint *scount, MPI_Fint *stype, char *rbuf, MPI_Fint *rcount,
                   MPI_Fint *rtype, MPI_Fint *root, MPI_Fint *comm, MPI_Fint *ierr)
{
    ac_f_set_ierr(ierr, ac_gather_at(AC_CALLER, ac_f_buf_in_place(sbuf), *scount, PMPI_Type_f2c(*stype),
                                ac_f_buf(rbuf), *rcount, PMPI_Type_f2c(*rtype), *root,
                                PMPI_Comm_f2c(*comm)));
}
F_ALIASES(f_gather, gather, GATHER)

f_reduce ompi_reduce_f;
void ompi_reduce_f(char *sbuf, char *rbuf, MPI_Fint *count, MPI_Fint *dtype, MPI_Fint *op,
                   MPI_Fint *root, MPI_Fint *comm, MPI_Fint *ierr)
{
    ac_f_set_ierr(ierr,
             ac_reduce_at(AC_CALLER, ac_f_buf_in_place(sbuf), ac_f_buf(rbuf), *count,
                          PMPI_Type_f2c(*dtype), PMPI_Op_f2c(*op), *root, PMPI_Comm_f2c(*comm)));
}
F_ALIASES(f_reduce, reduce, REDUCE)

f_reduce_scatter ompi_reduce_scatter_f;
void ompi_reduce_scatter_f(char *sbuf, char *rbuf, MPI_Fint *rcounts, MPI_Fint *dtype, MPI_Fint *op,
                           MPI_Fint *comm, MPI_Fint *ierr)
{
    ac_f_set_ierr(ierr,
             ac_reduce_scatter_at(AC_CALLER, ac_f_buf_in_place(sbuf), ac_f_buf(rbuf), rcounts,
                                  PMPI_Type_f2c(*dtype), PMPI_Op_f2c(*op), PMPI_Comm_f2c(*comm)));
}
F_ALIASES(f_reduce_scatter, reduce_scatter, REDUCE_SCATTER)

f_reduce_scatter_block ompi_reduce_scatter_block_f;
void ompi_reduce_scatter_block_f(char *sbuf, char *rbuf, MPI_Fint *rcount, MPI_Fint *dtype,
                                 MPI_Fint *op, MPI_Fint *comm, MPI_Fint *ierr)
{
    ac_f_set_ierr(ierr, ac_reduce_scatter_block_at(AC_CALLER, ac_f_buf_in_place(sbuf), ac_f_buf(rbuf), *rcount,
                                              PMPI_Type_f2c(*dtype), PMPI_Op_f2c(*op),
                                              PMPI_Comm_f2c(*comm)));
}
F_ALIASES(f_reduce_scatter_block, reduce_scatter_block, REDUCE_SCATTER_BLOCK)

f_scatter ompi_scatter_f;
void ompi_scatter_f(char *sbuf, MPI_Fint *scount, MPI_Fint *stype, char *rbuf, MPI_Fint *rcount,
                    MPI_Fint *rtype, MPI_Fint *root, MPI_Fint *comm, MPI_Fint *ierr)
{
    ac_f_set_ierr(ierr, ac_scatter_at(AC_CALLER, ac_f_buf(sbuf), *scount, PMPI_Type_f2c(*stype),
                                 ac_f_buf_in_place(rbuf), *rcount, PMPI_Type_f2c(*rtype), *root,
                                 PMPI_Comm_f2c(*comm)));
}
F_ALIASES(f_scatter, scatter, SCATTER)

/* The neighbourhood collectives: the same argument lists as allgather, allgatherv, alltoall and
 * alltoallv (no MPI_IN_PLACE there: the C wrapper passes it to the library, which rejects it);
 * alltoallw's displacements are INTEGER(KIND=MPI_ADDRESS_KIND) and its datatypes arrays of
 * handles, converted here. */
f_allgather ompi_neighbor_allgather_f;
void ompi_neighbor_allgather_f(char *sbuf, MPI_Fint *scount, MPI_Fint *stype, char *rbuf,
                               MPI_Fint *rcount, MPI_Fint *rtype, MPI_Fint *comm, MPI_Fint *ierr)
{
    ac_f_set_ierr(ierr, ac_neighbor_allgather_at(AC_CALLER, ac_f_buf_in_place(sbuf), *scount,
                                            PMPI_Type_f2c(*stype), ac_f_buf(rbuf), *rcount,
                                            PMPI_Type_f2c(*rtype), PMPI_Comm_f2c(*comm)));
}
F_ALIASES(f_allgather, neighbor_allgather, NEIGHBOR_ALLGATHER)

f_allgatherv ompi_neighbor_allgatherv_f;
void ompi_neighbor_allgatherv_f(char *sbuf, MPI_Fint *scount, MPI_Fint *stype, char *rbuf,
                                MPI_Fint *rcounts, MPI_Fint *displs, MPI_Fint *rtype,
                                MPI_Fint *comm, MPI_Fint *ierr)
{
    ac_f_set_ierr(ierr, ac_neighbor_allgatherv_at(AC_CALLER, ac_f_buf_in_place(sbuf), *scount,
                                             PMPI_Type_f2c(*stype), ac_f_buf(rbuf), rcounts, displs,
                                             PMPI_Type_f2c(*rtype), PMPI_Comm_f2c(*comm)));
}
F_ALIASES(f_allgatherv, neighbor_allgatherv, NEIGHBOR_ALLGATHERV)

f_alltoall ompi_neighbor_alltoall_f;
void ompi_neighbor_alltoall_f(char *sbuf, MPI_Fint *scount, MPI_Fint *stype, char *rbuf,
                              MPI_Fint *rcount, MPI_Fint *rtype, MPI_Fint *comm, MPI_Fint *ierr)
{
    ac_f_set_ierr(ierr, ac_neighbor_alltoall_at(AC_CALLER, ac_f_buf_in_place(sbuf), *scount,
                                           PMPI_Type_f2c(*stype), ac_f_buf(rbuf), *rcount,
                                           PMPI_Type_f2c(*rtype), PMPI_Comm_f2c(*comm)));
}
F_ALIASES(f_alltoall, neighbor_alltoall, NEIGHBOR_ALLTOALL)

f_alltoallv ompi_neighbor_alltoallv_f;
void ompi_neighbor_alltoallv_f(char *sbuf, MPI_Fint *scounts, MPI_Fint *sdispls, MPI_Fint *stype,
                               char *rbuf, MPI_Fint *rcounts, MPI_Fint *rdispls, MPI_Fint *rtype,
                               MPI_Fint *comm, MPI_Fint *ierr)
{
    ac_f_set_ierr(ierr, ac_neighbor_alltoallv_at(AC_CALLER, ac_f_buf_in_place(sbuf), scounts, sdispls,
                                            PMPI_Type_f2c(*stype), ac_f_buf(rbuf), rcounts, rdispls,
                                            PMPI_Type_f2c(*rtype), PMPI_Comm_f2c(*comm)));
}
F_ALIASES(f_alltoallv, neighbor_alltoallv, NEIGHBOR_ALLTOALLV)

f_neighbor_alltoallw ompi_neighbor_alltoallw_f;
void ompi_neighbor_alltoallw_f(char *sbuf, MPI_Fint *scounts, MPI_Aint *sdispls, MPI_Fint *stypes,
                               char *rbuf, MPI_Fint *rcounts, MPI_Aint *rdispls, MPI_Fint *rtypes,
                               MPI_Fint *comm, MPI_Fint *ierr)
{
    MPI_Comm c_comm = PMPI_Comm_f2c(*comm);
    int indegree, outdegree;
    ac_neighbor_degrees(c_comm, &indegree, &outdegree); /* 0, 0: no topology, the library's */
    MPI_Datatype *cs = ac_f_types(stypes, outdegree), *cr = ac_f_types(rtypes, indegree);
    int rc = cs && cr ? ac_neighbor_alltoallw_at(AC_CALLER, ac_f_buf_in_place(sbuf), scounts, sdispls,
                                                 cs, ac_f_buf(rbuf), rcounts, rdispls, cr, c_comm)
                      : MPI_ERR_NO_MEM;
    free(cs);
    free(cr);
    ac_f_set_ierr(ierr, rc);
}
F_ALIASES(f_neighbor_alltoallw, neighbor_alltoallw, NEIGHBOR_ALLTOALLW)

/* The blocking collectives the layer counts and passes on (seen.c): the C wrappers count them.
 * alltoallw's datatypes are arrays of handles, one per rank of the (remote) group, converted
 * here; with MPI_IN_PLACE the send arguments are ignored (and may be shorter). */
typedef void f_gatherv(char *sbuf, MPI_Fint *scount, MPI_Fint *stype, char *rbuf, MPI_Fint *rcounts,
                       MPI_Fint *displs, MPI_Fint *rtype, MPI_Fint *root, MPI_Fint *comm,
                       MPI_Fint *ierr);
typedef void f_scatterv(char *sbuf, MPI_Fint *scounts, MPI_Fint *displs, MPI_Fint *stype,
                        char *rbuf, MPI_Fint *rcount, MPI_Fint *rtype, MPI_Fint *root,
                        MPI_Fint *comm, MPI_Fint *ierr);
typedef void f_alltoallw(char *sbuf, MPI_Fint *scounts, MPI_Fint *sdispls, MPI_Fint *stypes,
                         char *rbuf, MPI_Fint *rcounts, MPI_Fint *rdispls, MPI_Fint *rtypes,
                         MPI_Fint *comm, MPI_Fint *ierr);
typedef void f_scan(char *sbuf, char *rbuf, MPI_Fint *count, MPI_Fint *dtype, MPI_Fint *op,
                    MPI_Fint *comm, MPI_Fint *ierr);

f_gatherv ompi_gatherv_f;
void ompi_gatherv_f(char *sbuf, MPI_Fint *scount, MPI_Fint *stype, char *rbuf, MPI_Fint *rcounts,
                    MPI_Fint *displs, MPI_Fint *rtype, MPI_Fint *root, MPI_Fint *comm, MPI_Fint *ierr)
{
    ac_f_set_ierr(ierr, MPI_Gatherv(ac_f_buf_in_place(sbuf), *scount, PMPI_Type_f2c(*stype),
                                    ac_f_buf(rbuf), rcounts, displs, PMPI_Type_f2c(*rtype), *root,
                                    PMPI_Comm_f2c(*comm)));
}
F_ALIASES(f_gatherv, gatherv, GATHERV)

f_scatterv ompi_scatterv_f;
void ompi_scatterv_f(char *sbuf, MPI_Fint *scounts, MPI_Fint *displs, MPI_Fint *stype, char *rbuf,
                     MPI_Fint *rcount, MPI_Fint *rtype, MPI_Fint *root, MPI_Fint *comm,
                     MPI_Fint *ierr)
{
    ac_f_set_ierr(ierr, MPI_Scatterv(ac_f_buf(sbuf), scounts, displs, PMPI_Type_f2c(*stype),
                                     ac_f_buf_in_place(rbuf), *rcount, PMPI_Type_f2c(*rtype),
                                     *root, PMPI_Comm_f2c(*comm)));
}
F_ALIASES(f_scatterv, scatterv, SCATTERV)

int ac_f_peers(MPI_Comm comm)
{
    int inter = 0, n = 0;
    if (comm == MPI_COMM_NULL || PMPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS) return 0;
    if ((inter ? PMPI_Comm_remote_size(comm, &n) : PMPI_Comm_size(comm, &n)) != MPI_SUCCESS)
        return 0;
    return n;
}

f_alltoallw ompi_alltoallw_f;
void ompi_alltoallw_f(char *sbuf, MPI_Fint *scounts, MPI_Fint *sdispls, MPI_Fint *stypes, char *rbuf,
                      MPI_Fint *rcounts, MPI_Fint *rdispls, MPI_Fint *rtypes, MPI_Fint *comm,
                      MPI_Fint *ierr)
{
    MPI_Comm c_comm = PMPI_Comm_f2c(*comm);
    int n = ac_f_peers(c_comm);
    void *c_sbuf = ac_f_buf_in_place(sbuf);
    MPI_Datatype *cs = c_sbuf == MPI_IN_PLACE ? NULL : ac_f_types(stypes, n);
    MPI_Datatype *cr = ac_f_types(rtypes, n);
    int rc = (cs || c_sbuf == MPI_IN_PLACE) && cr
                 ? MPI_Alltoallw(c_sbuf, scounts, sdispls, cs, ac_f_buf(rbuf), rcounts, rdispls,
                                 cr, c_comm)
                 : MPI_ERR_NO_MEM;
    free(cs);
    free(cr);
    ac_f_set_ierr(ierr, rc);
}
F_ALIASES(f_alltoallw, alltoallw, ALLTOALLW)

f_scan ompi_scan_f;
void ompi_scan_f(char *sbuf, char *rbuf, MPI_Fint *count, MPI_Fint *dtype, MPI_Fint *op,
                 MPI_Fint *comm, MPI_Fint *ierr)
{
    ac_f_set_ierr(ierr, MPI_Scan(ac_f_buf_in_place(sbuf), ac_f_buf(rbuf), *count,
                                 PMPI_Type_f2c(*dtype), PMPI_Op_f2c(*op), PMPI_Comm_f2c(*comm)));
}
F_ALIASES(f_scan, scan, SCAN)

f_scan ompi_exscan_f;
void ompi_exscan_f(char *sbuf, char *rbuf, MPI_Fint *count, MPI_Fint *dtype, MPI_Fint *op,
                   MPI_Fint *comm, MPI_Fint *ierr)
{
    ac_f_set_ierr(ierr, MPI_Exscan(ac_f_buf_in_place(sbuf), ac_f_buf(rbuf), *count,
                                   PMPI_Type_f2c(*dtype), PMPI_Op_f2c(*op), PMPI_Comm_f2c(*comm)));
}
F_ALIASES(f_scan, exscan, EXSCAN)

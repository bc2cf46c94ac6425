/*
 * fortran_nonblocking.c - the Fortran entry points of the nonblocking collectives, for Open MPI
 * only (fortran.h says why and how; mpi_f08's MPI_Ibarrier is fortran_f08.c's). Each calls our C
 * wrapper, which runs the call with a repository schedule or passes it on, counted either way,
 * and returns the request as a Fortran handle. Open MPI 4.1 has no persistent collectives.
 *
 * Datatype arrays (alltoallw's) are converted into arrays freed on return, as Open MPI's own
 * bindings do: the library and the layer's schedules read them only while the call builds its
 * request.
 */
#include "intercept/fortran.h"
#include "intercept/intercept.h"

#include <mpi.h>
#include <stdlib.h>

/* The signatures of Open MPI's ompi_i<name>_f (ompi/mpi/fortran/mpif-h/prototypes_mpi.h). */
typedef void f_ibarrier(MPI_Fint *comm, MPI_Fint *request, MPI_Fint *ierr);
typedef void f_ibcast(char *buf, MPI_Fint *count, MPI_Fint *dtype, MPI_Fint *root, MPI_Fint *comm,
                      MPI_Fint *request, MPI_Fint *ierr);
typedef void f_iallreduce(char *sbuf, char *rbuf, MPI_Fint *count, MPI_Fint *dtype, MPI_Fint *op,
                          MPI_Fint *comm, MPI_Fint *request, MPI_Fint *ierr);
typedef void f_ireduce(char *sbuf, char *rbuf, MPI_Fint *count, MPI_Fint *dtype, MPI_Fint *op,
                       MPI_Fint *root, MPI_Fint *comm, MPI_Fint *request, MPI_Fint *ierr);
typedef void f_iallgather(char *sbuf, MPI_Fint *scount, MPI_Fint *stype, char *rbuf,
                          MPI_Fint *rcount, MPI_Fint *rtype, MPI_Fint *comm, MPI_Fint *request,
                          MPI_Fint *ierr);
typedef void f_iallgatherv(char *sbuf, MPI_Fint *scount, MPI_Fint *stype, char *rbuf,
                           MPI_Fint *rcounts, MPI_Fint *displs, MPI_Fint *rtype, MPI_Fint *comm,
                           MPI_Fint *request, MPI_Fint *ierr);
typedef void f_ialltoallv(char *sbuf, MPI_Fint *scounts, MPI_Fint *sdispls, MPI_Fint *stype,
                          char *rbuf, MPI_Fint *rcounts, MPI_Fint *rdispls, MPI_Fint *rtype,
                          MPI_Fint *comm, MPI_Fint *request, MPI_Fint *ierr);
typedef void f_ialltoallw(char *sbuf, MPI_Fint *scounts, MPI_Fint *sdispls, MPI_Fint *stypes,
                          char *rbuf, MPI_Fint *rcounts, MPI_Fint *rdispls, MPI_Fint *rtypes,
                          MPI_Fint *comm, MPI_Fint *request, MPI_Fint *ierr);
typedef void f_igather(char *sbuf, MPI_Fint *scount, MPI_Fint *stype, char *rbuf,
                       MPI_Fint *rcount, MPI_Fint *rtype, MPI_Fint *root, MPI_Fint *comm,
                       MPI_Fint *request, MPI_Fint *ierr);
typedef void f_igatherv(char *sbuf, MPI_Fint *scount, MPI_Fint *stype, char *rbuf,
                        MPI_Fint *rcounts, MPI_Fint *displs, MPI_Fint *rtype, MPI_Fint *root,
                        MPI_Fint *comm, MPI_Fint *request, MPI_Fint *ierr);
typedef void f_iscatterv(char *sbuf, MPI_Fint *scounts, MPI_Fint *displs, MPI_Fint *stype,
                         char *rbuf, MPI_Fint *rcount, MPI_Fint *rtype, MPI_Fint *root,
                         MPI_Fint *comm, MPI_Fint *request, MPI_Fint *ierr);
typedef void f_ireduce_scatter(char *sbuf, char *rbuf, MPI_Fint *rcounts, MPI_Fint *dtype,
                               MPI_Fint *op, MPI_Fint *comm, MPI_Fint *request, MPI_Fint *ierr);
typedef void f_ineighbor_alltoallw(char *sbuf, MPI_Fint *scounts, MPI_Aint *sdispls,
                                   MPI_Fint *stypes, char *rbuf, MPI_Fint *rcounts,
                                   MPI_Aint *rdispls, MPI_Fint *rtypes, MPI_Fint *comm,
                                   MPI_Fint *request, MPI_Fint *ierr);

/* The outcome of a call that made *c_request: ierr, and the request as a Fortran handle. (A
 * pointer, read here: the call in finish's argument list runs before finish, but C leaves the
 * order of the arguments' evaluation open, so a request passed by value may be read before.) */
static void finish(int rc, const MPI_Request *c_request, MPI_Fint *request, MPI_Fint *ierr)
{
    if (rc == MPI_SUCCESS) *request = PMPI_Request_c2f(*c_request);
    ac_f_set_ierr(ierr, rc);
}

f_ibarrier ompi_ibarrier_f;
void ompi_ibarrier_f(MPI_Fint *comm, MPI_Fint *request, MPI_Fint *ierr)
{
    MPI_Request r = MPI_REQUEST_NULL;
    finish(MPI_Ibarrier(PMPI_Comm_f2c(*comm), &r), &r, request, ierr);
}
F_ALIASES(f_ibarrier, ibarrier, IBARRIER)

f_ibcast ompi_ibcast_f;
void ompi_ibcast_f(char *buf, MPI_Fint *count, MPI_Fint *dtype, MPI_Fint *root, MPI_Fint *comm,
                   MPI_Fint *request, MPI_Fint *ierr)
{
    MPI_Request r = MPI_REQUEST_NULL;
    finish(MPI_Ibcast(ac_f_buf(buf), *count, PMPI_Type_f2c(*dtype), *root, PMPI_Comm_f2c(*comm),
                      &r),
           &r, request, ierr);
}
F_ALIASES(f_ibcast, ibcast, IBCAST)

f_iallreduce ompi_iallreduce_f;
void ompi_iallreduce_f(char *sbuf, char *rbuf, MPI_Fint *count, MPI_Fint *dtype, MPI_Fint *op,
                       MPI_Fint *comm, MPI_Fint *request, MPI_Fint *ierr)
{
    MPI_Request r = MPI_REQUEST_NULL;
    finish(MPI_Iallreduce(ac_f_buf_in_place(sbuf), ac_f_buf(rbuf), *count, PMPI_Type_f2c(*dtype),
                          PMPI_Op_f2c(*op), PMPI_Comm_f2c(*comm), &r),
           &r, request, ierr);
}
F_ALIASES(f_iallreduce, iallreduce, IALLREDUCE)

f_ireduce ompi_ireduce_f;
void ompi_ireduce_f(char *sbuf, char *rbuf, MPI_Fint *count, MPI_Fint *dtype, MPI_Fint *op,
                    MPI_Fint *root, MPI_Fint *comm, MPI_Fint *request, MPI_Fint *ierr)
{
    MPI_Request r = MPI_REQUEST_NULL;
    finish(MPI_Ireduce(ac_f_buf_in_place(sbuf), ac_f_buf(rbuf), *count, PMPI_Type_f2c(*dtype),
                       PMPI_Op_f2c(*op), *root, PMPI_Comm_f2c(*comm), &r),
           &r, request, ierr);
}
F_ALIASES(f_ireduce, ireduce, IREDUCE)

f_iallgather ompi_iallgather_f;
void ompi_iallgather_f(char *sbuf, MPI_Fint *scount, MPI_Fint *stype, char *rbuf, MPI_Fint *rcount,
                       MPI_Fint *rtype, MPI_Fint *comm, MPI_Fint *request, MPI_Fint *ierr)
{
    MPI_Request r = MPI_REQUEST_NULL;
    finish(MPI_Iallgather(ac_f_buf_in_place(sbuf), *scount, PMPI_Type_f2c(*stype), ac_f_buf(rbuf),
                          *rcount, PMPI_Type_f2c(*rtype), PMPI_Comm_f2c(*comm), &r),
           &r, request, ierr);
}
F_ALIASES(f_iallgather, iallgather, IALLGATHER)

f_iallgatherv ompi_iallgatherv_f;
void ompi_iallgatherv_f(char *sbuf, MPI_Fint *scount, MPI_Fint *stype, char *rbuf,
                        MPI_Fint *rcounts, MPI_Fint *displs, MPI_Fint *rtype, MPI_Fint *comm,
                        MPI_Fint *request, MPI_Fint *ierr)
{
    MPI_Request r = MPI_REQUEST_NULL;
    finish(MPI_Iallgatherv(ac_f_buf_in_place(sbuf), *scount, PMPI_Type_f2c(*stype),
                           ac_f_buf(rbuf), rcounts, displs, PMPI_Type_f2c(*rtype),
                           PMPI_Comm_f2c(*comm), &r),
           &r, request, ierr);
}
F_ALIASES(f_iallgatherv, iallgatherv, IALLGATHERV)

f_iallgather ompi_ialltoall_f;
void ompi_ialltoall_f(char *sbuf, MPI_Fint *scount, MPI_Fint *stype, char *rbuf, MPI_Fint *rcount,
                      MPI_Fint *rtype, MPI_Fint *comm, MPI_Fint *request, MPI_Fint *ierr)
{
    MPI_Request r = MPI_REQUEST_NULL;
    finish(MPI_Ialltoall(ac_f_buf_in_place(sbuf), *scount, PMPI_Type_f2c(*stype), ac_f_buf(rbuf),
                         *rcount, PMPI_Type_f2c(*rtype), PMPI_Comm_f2c(*comm), &r),
           &r, request, ierr);
}
F_ALIASES(f_iallgather, ialltoall, IALLTOALL)

f_ialltoallv ompi_ialltoallv_f;
void ompi_ialltoallv_f(char *sbuf, MPI_Fint *scounts, MPI_Fint *sdispls, MPI_Fint *stype,
                       char *rbuf, MPI_Fint *rcounts, MPI_Fint *rdispls, MPI_Fint *rtype,
                       MPI_Fint *comm, MPI_Fint *request, MPI_Fint *ierr)
{
    MPI_Request r = MPI_REQUEST_NULL;
    finish(MPI_Ialltoallv(ac_f_buf_in_place(sbuf), scounts, sdispls, PMPI_Type_f2c(*stype),
                          ac_f_buf(rbuf), rcounts, rdispls, PMPI_Type_f2c(*rtype),
                          PMPI_Comm_f2c(*comm), &r),
           &r, request, ierr);
}
F_ALIASES(f_ialltoallv, ialltoallv, IALLTOALLV)

f_ialltoallw ompi_ialltoallw_f;
void ompi_ialltoallw_f(char *sbuf, MPI_Fint *scounts, MPI_Fint *sdispls, MPI_Fint *stypes,
                       char *rbuf, MPI_Fint *rcounts, MPI_Fint *rdispls, MPI_Fint *rtypes,
                       MPI_Fint *comm, MPI_Fint *request, MPI_Fint *ierr)
{
    MPI_Comm c_comm = PMPI_Comm_f2c(*comm);
    int n = ac_f_peers(c_comm);
    void *c_sbuf = ac_f_buf_in_place(sbuf);
    MPI_Datatype *cs = c_sbuf == MPI_IN_PLACE ? NULL : ac_f_types(stypes, n);
    MPI_Datatype *cr = ac_f_types(rtypes, n);
    MPI_Request r = MPI_REQUEST_NULL;
    int rc = (cs || c_sbuf == MPI_IN_PLACE) && cr
                 ? MPI_Ialltoallw(c_sbuf, scounts, sdispls, cs, ac_f_buf(rbuf), rcounts, rdispls,
                                  cr, c_comm, &r)
                 : MPI_ERR_NO_MEM;
    free(cs);
    free(cr);
    finish(rc, &r, request, ierr);
}
F_ALIASES(f_ialltoallw, ialltoallw, IALLTOALLW)

f_igather ompi_igather_f;
void ompi_igather_f(char *sbuf, MPI_Fint *scount, MPI_Fint *stype, char *rbuf, MPI_Fint *rcount,
                    MPI_Fint *rtype, MPI_Fint *root, MPI_Fint *comm, MPI_Fint *request,
                    MPI_Fint *ierr)
{
    MPI_Request r = MPI_REQUEST_NULL;
    finish(MPI_Igather(ac_f_buf_in_place(sbuf), *scount, PMPI_Type_f2c(*stype), ac_f_buf(rbuf),
                       *rcount, PMPI_Type_f2c(*rtype), *root, PMPI_Comm_f2c(*comm), &r),
           &r, request, ierr);
}
F_ALIASES(f_igather, igather, IGATHER)

f_igatherv ompi_igatherv_f;
void ompi_igatherv_f(char *sbuf, MPI_Fint *scount, MPI_Fint *stype, char *rbuf, MPI_Fint *rcounts,
                     MPI_Fint *displs, MPI_Fint *rtype, MPI_Fint *root, MPI_Fint *comm,
                     MPI_Fint *request, MPI_Fint *ierr)
{
    MPI_Request r = MPI_REQUEST_NULL;
    finish(MPI_Igatherv(ac_f_buf_in_place(sbuf), *scount, PMPI_Type_f2c(*stype), ac_f_buf(rbuf),
                        rcounts, displs, PMPI_Type_f2c(*rtype), *root, PMPI_Comm_f2c(*comm), &r),
           &r, request, ierr);
}
F_ALIASES(f_igatherv, igatherv, IGATHERV)

/* Scatter's receive buffer is the one that may be MPI_IN_PLACE (at the root). */
f_igather ompi_iscatter_f;
void ompi_iscatter_f(char *sbuf, MPI_Fint *scount, MPI_Fint *stype, char *rbuf, MPI_Fint *rcount,
                     MPI_Fint *rtype, MPI_Fint *root, MPI_Fint *comm, MPI_Fint *request,
                     MPI_Fint *ierr)
{
    MPI_Request r = MPI_REQUEST_NULL;
    finish(MPI_Iscatter(ac_f_buf(sbuf), *scount, PMPI_Type_f2c(*stype), ac_f_buf_in_place(rbuf),
                        *rcount, PMPI_Type_f2c(*rtype), *root, PMPI_Comm_f2c(*comm), &r),
           &r, request, ierr);
}
F_ALIASES(f_igather, iscatter, ISCATTER)

f_iscatterv ompi_iscatterv_f;
void ompi_iscatterv_f(char *sbuf, MPI_Fint *scounts, MPI_Fint *displs, MPI_Fint *stype,
                      char *rbuf, MPI_Fint *rcount, MPI_Fint *rtype, MPI_Fint *root,
                      MPI_Fint *comm, MPI_Fint *request, MPI_Fint *ierr)
{
    MPI_Request r = MPI_REQUEST_NULL;
    finish(MPI_Iscatterv(ac_f_buf(sbuf), scounts, displs, PMPI_Type_f2c(*stype),
                         ac_f_buf_in_place(rbuf), *rcount, PMPI_Type_f2c(*rtype), *root,
                         PMPI_Comm_f2c(*comm), &r),
           &r, request, ierr);
}
F_ALIASES(f_iscatterv, iscatterv, ISCATTERV)

f_ireduce_scatter ompi_ireduce_scatter_f;
void ompi_ireduce_scatter_f(char *sbuf, char *rbuf, MPI_Fint *rcounts, MPI_Fint *dtype,
                            MPI_Fint *op, MPI_Fint *comm, MPI_Fint *request, MPI_Fint *ierr)
{
    MPI_Request r = MPI_REQUEST_NULL;
    finish(MPI_Ireduce_scatter(ac_f_buf_in_place(sbuf), ac_f_buf(rbuf), rcounts,
                               PMPI_Type_f2c(*dtype), PMPI_Op_f2c(*op), PMPI_Comm_f2c(*comm), &r),
           &r, request, ierr);
}
F_ALIASES(f_ireduce_scatter, ireduce_scatter, IREDUCE_SCATTER)

/* The same argument list as iallreduce's (a count for each rank's block, or the whole). */
f_iallreduce ompi_ireduce_scatter_block_f;
void ompi_ireduce_scatter_block_f(char *sbuf, char *rbuf, MPI_Fint *rcount, MPI_Fint *dtype,
                                  MPI_Fint *op, MPI_Fint *comm, MPI_Fint *request, MPI_Fint *ierr)
{
    MPI_Request r = MPI_REQUEST_NULL;
    finish(MPI_Ireduce_scatter_block(ac_f_buf_in_place(sbuf), ac_f_buf(rbuf), *rcount,
                                     PMPI_Type_f2c(*dtype), PMPI_Op_f2c(*op), PMPI_Comm_f2c(*comm),
                                     &r),
           &r, request, ierr);
}
F_ALIASES(f_iallreduce, ireduce_scatter_block, IREDUCE_SCATTER_BLOCK)

f_iallreduce ompi_iscan_f;
void ompi_iscan_f(char *sbuf, char *rbuf, MPI_Fint *count, MPI_Fint *dtype, MPI_Fint *op,
                  MPI_Fint *comm, MPI_Fint *request, MPI_Fint *ierr)
{
    MPI_Request r = MPI_REQUEST_NULL;
    finish(MPI_Iscan(ac_f_buf_in_place(sbuf), ac_f_buf(rbuf), *count, PMPI_Type_f2c(*dtype),
                     PMPI_Op_f2c(*op), PMPI_Comm_f2c(*comm), &r),
           &r, request, ierr);
}
F_ALIASES(f_iallreduce, iscan, ISCAN)

f_iallreduce ompi_iexscan_f;
void ompi_iexscan_f(char *sbuf, char *rbuf, MPI_Fint *count, MPI_Fint *dtype, MPI_Fint *op,
                    MPI_Fint *comm, MPI_Fint *request, MPI_Fint *ierr)
{
    MPI_Request r = MPI_REQUEST_NULL;
    finish(MPI_Iexscan(ac_f_buf_in_place(sbuf), ac_f_buf(rbuf), *count, PMPI_Type_f2c(*dtype),
                       PMPI_Op_f2c(*op), PMPI_Comm_f2c(*comm), &r),
           &r, request, ierr);
}
F_ALIASES(f_iallreduce, iexscan, IEXSCAN)

/* The nonblocking neighbourhood collectives (no MPI_IN_PLACE there: the C wrapper passes it to
 * the library, which rejects it); alltoallw's displacements are INTEGER(KIND=MPI_ADDRESS_KIND)
 * and its datatypes arrays of handles, converted here. */
f_iallgather ompi_ineighbor_allgather_f;
void ompi_ineighbor_allgather_f(char *sbuf, MPI_Fint *scount, MPI_Fint *stype, char *rbuf,
                                MPI_Fint *rcount, MPI_Fint *rtype, MPI_Fint *comm,
                                MPI_Fint *request, MPI_Fint *ierr)
{
    MPI_Request r = MPI_REQUEST_NULL;
    finish(MPI_Ineighbor_allgather(ac_f_buf_in_place(sbuf), *scount, PMPI_Type_f2c(*stype),
                                   ac_f_buf(rbuf), *rcount, PMPI_Type_f2c(*rtype),
                                   PMPI_Comm_f2c(*comm), &r),
           &r, request, ierr);
}
F_ALIASES(f_iallgather, ineighbor_allgather, INEIGHBOR_ALLGATHER)

f_iallgatherv ompi_ineighbor_allgatherv_f;
void ompi_ineighbor_allgatherv_f(char *sbuf, MPI_Fint *scount, MPI_Fint *stype, char *rbuf,
                                 MPI_Fint *rcounts, MPI_Fint *displs, MPI_Fint *rtype,
                                 MPI_Fint *comm, MPI_Fint *request, MPI_Fint *ierr)
{
    MPI_Request r = MPI_REQUEST_NULL;
    finish(MPI_Ineighbor_allgatherv(ac_f_buf_in_place(sbuf), *scount, PMPI_Type_f2c(*stype),
                                    ac_f_buf(rbuf), rcounts, displs, PMPI_Type_f2c(*rtype),
                                    PMPI_Comm_f2c(*comm), &r),
           &r, request, ierr);
}
F_ALIASES(f_iallgatherv, ineighbor_allgatherv, INEIGHBOR_ALLGATHERV)

f_iallgather ompi_ineighbor_alltoall_f;
void ompi_ineighbor_alltoall_f(char *sbuf, MPI_Fint *scount, MPI_Fint *stype, char *rbuf,
                               MPI_Fint *rcount, MPI_Fint *rtype, MPI_Fint *comm,
                               MPI_Fint *request, MPI_Fint *ierr)
{
    MPI_Request r = MPI_REQUEST_NULL;
    finish(MPI_Ineighbor_alltoall(ac_f_buf_in_place(sbuf), *scount, PMPI_Type_f2c(*stype),
                                  ac_f_buf(rbuf), *rcount, PMPI_Type_f2c(*rtype),
                                  PMPI_Comm_f2c(*comm), &r),
           &r, request, ierr);
}
F_ALIASES(f_iallgather, ineighbor_alltoall, INEIGHBOR_ALLTOALL)

f_ialltoallv ompi_ineighbor_alltoallv_f;
void ompi_ineighbor_alltoallv_f(char *sbuf, MPI_Fint *scounts, MPI_Fint *sdispls, MPI_Fint *stype,
                                char *rbuf, MPI_Fint *rcounts, MPI_Fint *rdispls, MPI_Fint *rtype,
                                MPI_Fint *comm, MPI_Fint *request, MPI_Fint *ierr)
{
    MPI_Request r = MPI_REQUEST_NULL;
    finish(MPI_Ineighbor_alltoallv(ac_f_buf_in_place(sbuf), scounts, sdispls,
                                   PMPI_Type_f2c(*stype), ac_f_buf(rbuf), rcounts, rdispls,
                                   PMPI_Type_f2c(*rtype), PMPI_Comm_f2c(*comm), &r),
           &r, request, ierr);
}
F_ALIASES(f_ialltoallv, ineighbor_alltoallv, INEIGHBOR_ALLTOALLV)

f_ineighbor_alltoallw ompi_ineighbor_alltoallw_f;
void ompi_ineighbor_alltoallw_f(char *sbuf, MPI_Fint *scounts, MPI_Aint *sdispls, MPI_Fint *stypes,
                                char *rbuf, MPI_Fint *rcounts, MPI_Aint *rdispls, MPI_Fint *rtypes,
                                MPI_Fint *comm, MPI_Fint *request, MPI_Fint *ierr)
{
    MPI_Comm c_comm = PMPI_Comm_f2c(*comm);
    int indegree, outdegree;
    ac_neighbor_degrees(c_comm, &indegree, &outdegree); /* 0, 0: no topology, the library's */
    MPI_Datatype *cs = ac_f_types(stypes, outdegree), *cr = ac_f_types(rtypes, indegree);
    MPI_Request r = MPI_REQUEST_NULL;
    int rc = cs && cr ? MPI_Ineighbor_alltoallw(ac_f_buf_in_place(sbuf), scounts, sdispls, cs,
                                                ac_f_buf(rbuf), rcounts, rdispls, cr, c_comm, &r)
                      : MPI_ERR_NO_MEM;
    free(cs);
    free(cr);
    finish(rc, &r, request, ierr);
}
F_ALIASES(f_ineighbor_alltoallw, ineighbor_alltoallw, INEIGHBOR_ALLTOALLW)

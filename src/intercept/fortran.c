/*
 * fortran.c - the Fortran entry points of the collectives, MPI_INIT, MPI_INIT_THREAD and
 * MPI_FINALIZE, for Open MPI only (CMakeLists.txt compiles this file for Open MPI builds).
 *
 * Open MPI's Fortran library (libmpi_mpifh) calls PMPI_* directly, so the C wrappers never see
 * a Fortran call. Each Fortran routine there is a strong symbol ompi_<name>_f with four weak
 * aliases, one per name mangling (mpi_<name>, mpi_<name>_, mpi_<name>__, MPI_<NAME>): `include
 * 'mpif.h'` and `use mpi` programs call the mangled names, and the mpi_f08 module
 * (libmpi_usempif08) calls ompi_<name>_f through its PLT. Defining all five here, in a library
 * loaded before Open MPI's, catches the three Fortran interfaces (mpi_f08's MPI_Init,
 * MPI_Init_thread, MPI_Finalize and MPI_Barrier are taken earlier by fortran_f08.c).
 *
 * Each entry point converts the handles (f2c), maps the addresses of Fortran's MPI_IN_PLACE and
 * MPI_BOTTOM (common blocks of Open MPI) to the C constants, and calls our C wrapper, so that the
 * same selection and accounting happen as for a C call. MPICH's mpif.h and `use mpi` bindings call
 * MPI_*, which the C wrappers catch, and its Fortran constants are other symbols: this file is
 * not built there.
 *
 * Fortran INTEGER arrays (counts, displacements) are passed as they are: MPI_Fint is int.
 */
#include "intercept/intercept.h"

#include <dlfcn.h>
#include <mpi.h>
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>

_Static_assert(sizeof(MPI_Fint) == sizeof(int), "Fortran INTEGER arrays are passed as int arrays");

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

/* Fortran's MPI_IN_PLACE and MPI_BOTTOM are the addresses of common blocks defined by Open MPI's
 * libraries, under any of the four manglings; looked up once, absent ones stay NULL. */
static const char *const in_place_names[4] = {"mpi_fortran_in_place_", "mpi_fortran_in_place",
                                              "mpi_fortran_in_place__", "MPI_FORTRAN_IN_PLACE"};
static const char *const bottom_names[4] = {"mpi_fortran_bottom_", "mpi_fortran_bottom",
                                            "mpi_fortran_bottom__", "MPI_FORTRAN_BOTTOM"};
static void *in_place_addrs[4];
static void *bottom_addrs[4];
static pthread_once_t sentinels_once = PTHREAD_ONCE_INIT;

static void sentinels_lookup(void)
{
    for (int i = 0; i < 4; i++) {
        in_place_addrs[i] = dlsym(RTLD_DEFAULT, in_place_names[i]);
        bottom_addrs[i] = dlsym(RTLD_DEFAULT, bottom_names[i]);
    }
}

static int is_sentinel(const void *buf, void *const addrs[4])
{
    pthread_once(&sentinels_once, sentinels_lookup);
    for (int i = 0; i < 4; i++)
        if (addrs[i] && buf == addrs[i]) return 1;
    return 0;
}

/* A buffer argument that may be MPI_BOTTOM. */
static void *c_buf(char *buf)
{
    return is_sentinel(buf, bottom_addrs) ? MPI_BOTTOM : buf;
}

/* A buffer argument that may be MPI_IN_PLACE or MPI_BOTTOM. */
static void *c_buf_in_place(char *buf)
{
    return is_sentinel(buf, in_place_addrs) ? MPI_IN_PLACE : c_buf(buf);
}

static void set_ierr(MPI_Fint *ierr, int rc)
{
    if (ierr) *ierr = (MPI_Fint)rc;
}

/* The four aliases of ompi_<name>_f (of type `type`), one per name mangling: mpi_<name>,
 * mpi_<name>_, mpi_<name>__ and MPI_<NAME>. */
#define F_ALIASES(type, name, NAME)                                                            \
    type mpi_##name __attribute__((alias("ompi_" #name "_f")));                                \
    type mpi_##name##_ __attribute__((alias("ompi_" #name "_f")));                             \
    type mpi_##name##__ __attribute__((alias("ompi_" #name "_f")));                            \
    type MPI_##NAME __attribute__((alias("ompi_" #name "_f")));

f_init ompi_init_f;
void ompi_init_f(MPI_Fint *ierr)
{
    set_ierr(ierr, MPI_Init(NULL, NULL));
}
F_ALIASES(f_init, init, INIT)

f_init_thread ompi_init_thread_f;
void ompi_init_thread_f(MPI_Fint *required, MPI_Fint *provided, MPI_Fint *ierr)
{
    int c_provided = MPI_THREAD_SINGLE;
    int rc = MPI_Init_thread(NULL, NULL, (int)*required, &c_provided);
    if (rc == MPI_SUCCESS) *provided = (MPI_Fint)c_provided;
    set_ierr(ierr, rc);
}
F_ALIASES(f_init_thread, init_thread, INIT_THREAD)

f_finalize ompi_finalize_f;
void ompi_finalize_f(MPI_Fint *ierr)
{
    set_ierr(ierr, MPI_Finalize());
}
F_ALIASES(f_finalize, finalize, FINALIZE)

f_allgather ompi_allgather_f;
void ompi_allgather_f(char *sbuf, MPI_Fint *scount, MPI_Fint *stype, char *rbuf, MPI_Fint *rcount,
                      MPI_Fint *rtype, MPI_Fint *comm, MPI_Fint *ierr)
{
    set_ierr(ierr,
             ac_allgather_at(AC_CALLER, c_buf_in_place(sbuf), *scount, PMPI_Type_f2c(*stype),
                             c_buf(rbuf), *rcount, PMPI_Type_f2c(*rtype), PMPI_Comm_f2c(*comm)));
}
F_ALIASES(f_allgather, allgather, ALLGATHER)

f_allgatherv ompi_allgatherv_f;
void ompi_allgatherv_f(char *sbuf, MPI_Fint *scount, MPI_Fint *stype, char *rbuf, MPI_Fint *rcounts,
                       MPI_Fint *displs, MPI_Fint *rtype, MPI_Fint *comm, MPI_Fint *ierr)
{
    set_ierr(ierr, ac_allgatherv_at(AC_CALLER, c_buf_in_place(sbuf), *scount, PMPI_Type_f2c(*stype),
                                    c_buf(rbuf), rcounts, displs, PMPI_Type_f2c(*rtype),
                                    PMPI_Comm_f2c(*comm)));
}
F_ALIASES(f_allgatherv, allgatherv, ALLGATHERV)

f_allreduce ompi_allreduce_f;
void ompi_allreduce_f(char *sbuf, char *rbuf, MPI_Fint *count, MPI_Fint *dtype, MPI_Fint *op,
                      MPI_Fint *comm, MPI_Fint *ierr)
{
    set_ierr(ierr, ac_allreduce_at(AC_CALLER, c_buf_in_place(sbuf), c_buf(rbuf), *count,
                                   PMPI_Type_f2c(*dtype), PMPI_Op_f2c(*op), PMPI_Comm_f2c(*comm)));
}
F_ALIASES(f_allreduce, allreduce, ALLREDUCE)

f_alltoall ompi_alltoall_f;
void ompi_alltoall_f(char *sbuf, MPI_Fint *scount, MPI_Fint *stype, char *rbuf, MPI_Fint *rcount,
                     MPI_Fint *rtype, MPI_Fint *comm, MPI_Fint *ierr)
{
    set_ierr(ierr,
             ac_alltoall_at(AC_CALLER, c_buf_in_place(sbuf), *scount, PMPI_Type_f2c(*stype),
                            c_buf(rbuf), *rcount, PMPI_Type_f2c(*rtype), PMPI_Comm_f2c(*comm)));
}
F_ALIASES(f_alltoall, alltoall, ALLTOALL)

f_alltoallv ompi_alltoallv_f;
void ompi_alltoallv_f(char *sbuf, MPI_Fint *scounts, MPI_Fint *sdispls, MPI_Fint *stype, char *rbuf,
                      MPI_Fint *rcounts, MPI_Fint *rdispls, MPI_Fint *rtype, MPI_Fint *comm,
                      MPI_Fint *ierr)
{
    set_ierr(ierr, ac_alltoallv_at(AC_CALLER, c_buf_in_place(sbuf), scounts, sdispls,
                                   PMPI_Type_f2c(*stype), c_buf(rbuf), rcounts, rdispls,
                                   PMPI_Type_f2c(*rtype), PMPI_Comm_f2c(*comm)));
}
F_ALIASES(f_alltoallv, alltoallv, ALLTOALLV)

f_barrier ompi_barrier_f;
void ompi_barrier_f(MPI_Fint *comm, MPI_Fint *ierr)
{
    set_ierr(ierr, ac_barrier_at(AC_CALLER, PMPI_Comm_f2c(*comm)));
}
F_ALIASES(f_barrier, barrier, BARRIER)

f_bcast ompi_bcast_f;
void ompi_bcast_f(char *buf, MPI_Fint *count, MPI_Fint *dtype, MPI_Fint *root, MPI_Fint *comm,
                  MPI_Fint *ierr)
{
    set_ierr(ierr, ac_bcast_at(AC_CALLER, c_buf(buf), *count, PMPI_Type_f2c(*dtype), *root,
                               PMPI_Comm_f2c(*comm)));
}
F_ALIASES(f_bcast, bcast, BCAST)

f_gather ompi_gather_f;
void ompi_gather_f(char *sbuf, MPI_Fint *scount, MPI_Fint *stype, char *rbuf, MPI_Fint *rcount,
                   MPI_Fint *rtype, MPI_Fint *root, MPI_Fint *comm, MPI_Fint *ierr)
{
    set_ierr(ierr, ac_gather_at(AC_CALLER, c_buf_in_place(sbuf), *scount, PMPI_Type_f2c(*stype),
                                c_buf(rbuf), *rcount, PMPI_Type_f2c(*rtype), *root,
                                PMPI_Comm_f2c(*comm)));
}
F_ALIASES(f_gather, gather, GATHER)

f_reduce ompi_reduce_f;
void ompi_reduce_f(char *sbuf, char *rbuf, MPI_Fint *count, MPI_Fint *dtype, MPI_Fint *op,
                   MPI_Fint *root, MPI_Fint *comm, MPI_Fint *ierr)
{
    set_ierr(ierr,
             ac_reduce_at(AC_CALLER, c_buf_in_place(sbuf), c_buf(rbuf), *count,
                          PMPI_Type_f2c(*dtype), PMPI_Op_f2c(*op), *root, PMPI_Comm_f2c(*comm)));
}
F_ALIASES(f_reduce, reduce, REDUCE)

f_reduce_scatter ompi_reduce_scatter_f;
void ompi_reduce_scatter_f(char *sbuf, char *rbuf, MPI_Fint *rcounts, MPI_Fint *dtype, MPI_Fint *op,
                           MPI_Fint *comm, MPI_Fint *ierr)
{
    set_ierr(ierr,
             ac_reduce_scatter_at(AC_CALLER, c_buf_in_place(sbuf), c_buf(rbuf), rcounts,
                                  PMPI_Type_f2c(*dtype), PMPI_Op_f2c(*op), PMPI_Comm_f2c(*comm)));
}
F_ALIASES(f_reduce_scatter, reduce_scatter, REDUCE_SCATTER)

f_reduce_scatter_block ompi_reduce_scatter_block_f;
void ompi_reduce_scatter_block_f(char *sbuf, char *rbuf, MPI_Fint *rcount, MPI_Fint *dtype,
                                 MPI_Fint *op, MPI_Fint *comm, MPI_Fint *ierr)
{
    set_ierr(ierr, ac_reduce_scatter_block_at(AC_CALLER, c_buf_in_place(sbuf), c_buf(rbuf), *rcount,
                                              PMPI_Type_f2c(*dtype), PMPI_Op_f2c(*op),
                                              PMPI_Comm_f2c(*comm)));
}
F_ALIASES(f_reduce_scatter_block, reduce_scatter_block, REDUCE_SCATTER_BLOCK)

f_scatter ompi_scatter_f;
void ompi_scatter_f(char *sbuf, MPI_Fint *scount, MPI_Fint *stype, char *rbuf, MPI_Fint *rcount,
                    MPI_Fint *rtype, MPI_Fint *root, MPI_Fint *comm, MPI_Fint *ierr)
{
    set_ierr(ierr, ac_scatter_at(AC_CALLER, c_buf(sbuf), *scount, PMPI_Type_f2c(*stype),
                                 c_buf_in_place(rbuf), *rcount, PMPI_Type_f2c(*rtype), *root,
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
    set_ierr(ierr, ac_neighbor_allgather_at(AC_CALLER, c_buf_in_place(sbuf), *scount,
                                            PMPI_Type_f2c(*stype), c_buf(rbuf), *rcount,
                                            PMPI_Type_f2c(*rtype), PMPI_Comm_f2c(*comm)));
}
F_ALIASES(f_allgather, neighbor_allgather, NEIGHBOR_ALLGATHER)

f_allgatherv ompi_neighbor_allgatherv_f;
void ompi_neighbor_allgatherv_f(char *sbuf, MPI_Fint *scount, MPI_Fint *stype, char *rbuf,
                                MPI_Fint *rcounts, MPI_Fint *displs, MPI_Fint *rtype,
                                MPI_Fint *comm, MPI_Fint *ierr)
{
    set_ierr(ierr, ac_neighbor_allgatherv_at(AC_CALLER, c_buf_in_place(sbuf), *scount,
                                             PMPI_Type_f2c(*stype), c_buf(rbuf), rcounts, displs,
                                             PMPI_Type_f2c(*rtype), PMPI_Comm_f2c(*comm)));
}
F_ALIASES(f_allgatherv, neighbor_allgatherv, NEIGHBOR_ALLGATHERV)

f_alltoall ompi_neighbor_alltoall_f;
void ompi_neighbor_alltoall_f(char *sbuf, MPI_Fint *scount, MPI_Fint *stype, char *rbuf,
                              MPI_Fint *rcount, MPI_Fint *rtype, MPI_Fint *comm, MPI_Fint *ierr)
{
    set_ierr(ierr, ac_neighbor_alltoall_at(AC_CALLER, c_buf_in_place(sbuf), *scount,
                                           PMPI_Type_f2c(*stype), c_buf(rbuf), *rcount,
                                           PMPI_Type_f2c(*rtype), PMPI_Comm_f2c(*comm)));
}
F_ALIASES(f_alltoall, neighbor_alltoall, NEIGHBOR_ALLTOALL)

f_alltoallv ompi_neighbor_alltoallv_f;
void ompi_neighbor_alltoallv_f(char *sbuf, MPI_Fint *scounts, MPI_Fint *sdispls, MPI_Fint *stype,
                               char *rbuf, MPI_Fint *rcounts, MPI_Fint *rdispls, MPI_Fint *rtype,
                               MPI_Fint *comm, MPI_Fint *ierr)
{
    set_ierr(ierr, ac_neighbor_alltoallv_at(AC_CALLER, c_buf_in_place(sbuf), scounts, sdispls,
                                            PMPI_Type_f2c(*stype), c_buf(rbuf), rcounts, rdispls,
                                            PMPI_Type_f2c(*rtype), PMPI_Comm_f2c(*comm)));
}
F_ALIASES(f_alltoallv, neighbor_alltoallv, NEIGHBOR_ALLTOALLV)

/* n Fortran datatype handles as C handles (a fresh array: free it); NULL without memory. */
static MPI_Datatype *c_types(const MPI_Fint *types, int n)
{
    MPI_Datatype *out = malloc(sizeof *out * (size_t)(n > 0 ? n : 1));
    for (int i = 0; out && i < n; i++)
        out[i] = PMPI_Type_f2c(types[i]);
    return out;
}

f_neighbor_alltoallw ompi_neighbor_alltoallw_f;
void ompi_neighbor_alltoallw_f(char *sbuf, MPI_Fint *scounts, MPI_Aint *sdispls, MPI_Fint *stypes,
                               char *rbuf, MPI_Fint *rcounts, MPI_Aint *rdispls, MPI_Fint *rtypes,
                               MPI_Fint *comm, MPI_Fint *ierr)
{
    MPI_Comm c_comm = PMPI_Comm_f2c(*comm);
    int indegree, outdegree;
    ac_neighbor_degrees(c_comm, &indegree, &outdegree); /* 0, 0: no topology, the library's */
    MPI_Datatype *cs = c_types(stypes, outdegree), *cr = c_types(rtypes, indegree);
    int rc = cs && cr ? ac_neighbor_alltoallw_at(AC_CALLER, c_buf_in_place(sbuf), scounts, sdispls,
                                                 cs, c_buf(rbuf), rcounts, rdispls, cr, c_comm)
                      : MPI_ERR_NO_MEM;
    free(cs);
    free(cr);
    set_ierr(ierr, rc);
}
F_ALIASES(f_neighbor_alltoallw, neighbor_alltoallw, NEIGHBOR_ALLTOALLW)

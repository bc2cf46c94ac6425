/*
 * fortran_comm_create.c - the Fortran forms of the blocking communicator constructors
 * (MPI_COMM_DUP, _DUP_WITH_INFO, _SPLIT, _SPLIT_TYPE, _CREATE, _CREATE_GROUP, MPI_CART_CREATE,
 * MPI_CART_SUB, MPI_GRAPH_CREATE, MPI_DIST_GRAPH_CREATE, _ADJACENT, MPI_INTERCOMM_MERGE, and
 * MPI-4's MPI_COMM_CREATE_FROM_GROUP from MPICH's mpi_f08) that call the library's C constructor
 * directly, so that the new communicator's state is made in its constructor as a C program's is
 * (comm_create.c): without it, a nonblocking or persistent
 * collective on such a communicator passes to the library (the report's "why": communicator)
 * until a blocking collective has made the state.
 *
 * Which bindings call PMPI_* (objdump -d of the libraries, docs/native-libraries.md):
 *  - Open MPI 4.1's mpif.h and `use mpi` (libmpi_mpifh: ompi_<name>_f and its four aliases,
 *    fortran.h), all twelve;
 *  - the mpi_f08 bindings (mpi_<name>_f08_): MPICH 4's all twelve; Open MPI 4.1's the topology
 *    constructors and MPI_Intercomm_merge (through pmpi_<name>_), its others through
 *    ompi_<name>_f, which catches them first (the second ac_comm_constructed finds the state
 *    made and does nothing).
 * MPICH's mpif.h and `use mpi` bindings call MPI_* (the C wrappers). Not built under SimGrid.
 *
 * Each entry point calls the library's own Fortran routine of the same name (the next
 * definition after this library's: dlsym RTLD_NEXT), which converts every argument as it
 * always does (LOGICAL arrays, MPI_UNWEIGHTED, MPI_WEIGHTS_EMPTY, TYPE(MPI_Comm)), then makes
 * the state of the communicator it returned (a Fortran handle, an INTEGER or a TYPE(MPI_Comm)
 * of one INTEGER, f2c). The arguments are passed on as they came (addresses); ierror is always
 * given to the library (mpi_f08's is OPTIONAL: NULL where absent) and copied back where asked.
 *
 * MPI_COMM_IDUP (the same bindings) is the C wrapper's (comm_create.c), its arguments converted
 * here: its request is the layer's where the layer makes the new communicator's state when it
 * completes (ac_request_idup), which the library's Fortran routine would not give.
 */
#include "intercept/fortran.h"
#include "intercept/requests.h"

#include <dlfcn.h>
#include <mpi.h>
#include <stdio.h>

#if defined(OPEN_MPI) || defined(MPICH_VERSION)

/* The library's routine `symbol`, the definition after ours; NULL (said on stderr) where none. */
static void *library_routine(const char *symbol)
{
    void *routine = dlsym(RTLD_NEXT, symbol);
    if (!routine)
        fprintf(stderr, "autocoll: %s: no definition in the MPI library after this one (%s)\n",
                symbol, dlerror());
    return routine;
}

/* After the library's routine returned rc and the Fortran handle *newcomm. */
static void constructed(MPI_Fint rc, const MPI_Fint *newcomm, MPI_Fint *ierr)
{
    ac_comm_constructed(rc, rc == MPI_SUCCESS ? PMPI_Comm_f2c(*newcomm) : MPI_COMM_NULL);
    ac_f_set_ierr(ierr, rc);
}

/* One entry point `symbol`, whose arguments are `args` (addresses, as Fortran passes them),
 * then newcomm and ierr. */
#define PARAMS(...) (__VA_ARGS__, MPI_Fint *newcomm, MPI_Fint *ierr)
#define ARGS(...) (__VA_ARGS__, newcomm, &rc)
#define ENTRY(symbol, params, args)                                                            \
    void symbol PARAMS params;                                                                 \
    void symbol PARAMS params                                                                  \
    {                                                                                          \
        void(*library) PARAMS params = library_routine(#symbol);                               \
        MPI_Fint rc = MPI_ERR_INTERN;                                                          \
        if (library) library ARGS args;                                                        \
        constructed(rc, newcomm, ierr);                                                        \
    }

/* The constructors: name, NAME, the arguments before newcomm. */
#define CONSTRUCTORS(X)                                                                        \
    X(comm_dup, COMM_DUP, (void *comm), (comm))                                                \
    X(comm_dup_with_info, COMM_DUP_WITH_INFO, (void *comm, void *info), (comm, info))          \
    X(comm_split, COMM_SPLIT, (void *comm, void *color, void *key), (comm, color, key))        \
    X(comm_split_type, COMM_SPLIT_TYPE, (void *comm, void *type, void *key, void *info),       \
      (comm, type, key, info))                                                                 \
    X(comm_create, COMM_CREATE, (void *comm, void *group), (comm, group))                      \
    X(comm_create_group, COMM_CREATE_GROUP, (void *comm, void *group, void *tag),              \
      (comm, group, tag))                                                                      \
    X(cart_create, CART_CREATE,                                                                \
      (void *comm, void *ndims, void *dims, void *periods, void *reorder),                     \
      (comm, ndims, dims, periods, reorder))                                                   \
    X(cart_sub, CART_SUB, (void *comm, void *remain_dims), (comm, remain_dims))                \
    X(graph_create, GRAPH_CREATE,                                                              \
      (void *comm, void *nnodes, void *index, void *edges, void *reorder),                     \
      (comm, nnodes, index, edges, reorder))                                                   \
    X(dist_graph_create, DIST_GRAPH_CREATE,                                                    \
      (void *comm, void *n, void *sources, void *degrees, void *destinations, void *weights,  \
       void *info, void *reorder),                                                             \
      (comm, n, sources, degrees, destinations, weights, info, reorder))                       \
    X(dist_graph_create_adjacent, DIST_GRAPH_CREATE_ADJACENT,                                  \
      (void *comm, void *indegree, void *sources, void *sourceweights, void *outdegree,        \
       void *destinations, void *destweights, void *info, void *reorder),                      \
      (comm, indegree, sources, sourceweights, outdegree, destinations, destweights, info,    \
       reorder))                                                                               \
    X(intercomm_merge, INTERCOMM_MERGE, (void *intercomm, void *high), (intercomm, high))

/* mpi_f08 (both libraries). */
#define F08_ENTRY(name, NAME, params, args) ENTRY(mpi_##name##_f08_, params, args)
CONSTRUCTORS(F08_ENTRY)

#if MPI_VERSION >= 4
/* MPI-4's MPI_COMM_CREATE_FROM_GROUP(group, stringtag, info, errhandler, newcomm, ierror)
 * (MPICH's mpi_f08 calls the library directly; its mpif.h and `use mpi` call the C wrapper):
 * stringtag is CHARACTER(LEN=*), whose length gfortran passes after every argument, ierror's
 * place included (size_t), and which the library's routine gets as it came. */
void mpi_comm_create_from_group_f08_(void *group, void *stringtag, void *info, void *errhandler,
                                     MPI_Fint *newcomm, MPI_Fint *ierr, size_t stringtag_len);
void mpi_comm_create_from_group_f08_(void *group, void *stringtag, void *info, void *errhandler,
                                     MPI_Fint *newcomm, MPI_Fint *ierr, size_t stringtag_len)
{
    void (*library)(void *, void *, void *, void *, MPI_Fint *, MPI_Fint *, size_t) =
        library_routine("mpi_comm_create_from_group_f08_");
    MPI_Fint rc = MPI_ERR_INTERN;
    if (library) library(group, stringtag, info, errhandler, newcomm, &rc, stringtag_len);
    constructed(rc, newcomm, ierr);
}
#endif

/* MPI_COMM_IDUP(comm, newcomm, request, ierror), the handles INTEGERs (or TYPE(MPI_Comm) and
 * TYPE(MPI_Request) of one INTEGER): the C wrapper's. */
static void comm_idup(const MPI_Fint *comm, MPI_Fint *newcomm, MPI_Fint *request, MPI_Fint *ierr)
{
    MPI_Comm c_newcomm = MPI_COMM_NULL;
    MPI_Request c_request = MPI_REQUEST_NULL;
    int rc = MPI_Comm_idup(PMPI_Comm_f2c(*comm), &c_newcomm, &c_request);
    if (rc == MPI_SUCCESS) {
        *newcomm = PMPI_Comm_c2f(c_newcomm);
        *request = PMPI_Request_c2f(c_request);
    }
    ac_f_set_ierr(ierr, rc);
}

void mpi_comm_idup_f08_(const MPI_Fint *comm, MPI_Fint *newcomm, MPI_Fint *request,
                        MPI_Fint *ierr);
void mpi_comm_idup_f08_(const MPI_Fint *comm, MPI_Fint *newcomm, MPI_Fint *request,
                        MPI_Fint *ierr)
{
    comm_idup(comm, newcomm, request, ierr);
}

#ifdef OPEN_MPI
/* mpif.h and `use mpi` (Open MPI): ompi_<name>_f and its aliases. */
#define OMPI_ENTRY(name, NAME, params, args)                                                   \
    ENTRY(ompi_##name##_f, params, args)                                                       \
    typedef void f_##name PARAMS params;                                                       \
    F_ALIASES(f_##name, name, NAME)
CONSTRUCTORS(OMPI_ENTRY)

void ompi_comm_idup_f(const MPI_Fint *comm, MPI_Fint *newcomm, MPI_Fint *request,
                      MPI_Fint *ierr);
void ompi_comm_idup_f(const MPI_Fint *comm, MPI_Fint *newcomm, MPI_Fint *request,
                      MPI_Fint *ierr)
{
    comm_idup(comm, newcomm, request, ierr);
}
typedef void f_comm_idup(const MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *);
F_ALIASES(f_comm_idup, comm_idup, COMM_IDUP)
#endif

#endif

/*
 * fortran.h - what the Fortran entry points share: fortran.c (the blocking collectives, MPI_INIT,
 * MPI_FINALIZE), fortran_nonblocking.c (the nonblocking collectives) and fortran_requests.c (the
 * calls that complete requests or block in point-to-point traffic), built for Open MPI only
 * (CMakeLists.txt), and fortran_f08.c (built for both libraries).
 *
 * Open MPI's Fortran library (libmpi_mpifh) calls PMPI_* directly, so the C wrappers never see
 * a Fortran call. Each Fortran routine there is a strong symbol ompi_<name>_f with four weak
 * aliases, one per name mangling (mpi_<name>, mpi_<name>_, mpi_<name>__, MPI_<NAME>): `include
 * 'mpif.h'` and `use mpi` programs call the mangled names, and the mpi_f08 module
 * (libmpi_usempif08) calls most ompi_<name>_f through its PLT. Defining all five in a library
 * loaded before Open MPI's catches the three Fortran interfaces. Each entry point converts the
 * handles (f2c, and c2f for the handles it returns), maps Fortran's MPI_IN_PLACE, MPI_BOTTOM,
 * MPI_STATUS_IGNORE and MPI_STATUSES_IGNORE (addresses of common blocks of Open MPI) to the C
 * constants, and calls our C wrapper, so that the same selection, progress and accounting
 * happen as for a C call.
 *
 * Fortran INTEGER arrays (counts, displacements, handles under MPICH) are passed as they are:
 * MPI_Fint is int. A Fortran status is the C MPI_Status's bytes as INTEGERs under both
 * libraries (MPI_Status_c2f copies them).
 */
#ifndef AUTOCOLL_FORTRAN_H
#define AUTOCOLL_FORTRAN_H

#include <mpi.h>

_Static_assert(sizeof(MPI_Fint) == sizeof(int), "Fortran INTEGER arrays are passed as int arrays");

/* The INTEGERs of one Fortran status (MPI_STATUS_SIZE). */
#define AC_F_STATUS_INTS (sizeof(MPI_Status) / sizeof(MPI_Fint))

static inline void ac_f_set_ierr(MPI_Fint *ierr, int rc)
{
    if (ierr) *ierr = (MPI_Fint)rc;
}

/* A Fortran LOGICAL: gfortran's .TRUE. is 1 (Open MPI and MPICH are configured so). */
static inline MPI_Fint ac_f_logical(int flag)
{
    return flag ? 1 : 0;
}

/* The four aliases of ompi_<name>_f (of type `type`), one per name mangling: mpi_<name>,
 * mpi_<name>_, mpi_<name>__ and MPI_<NAME>. */
#define F_ALIASES(type, name, NAME)                                                            \
    type mpi_##name __attribute__((alias("ompi_" #name "_f")));                                \
    type mpi_##name##_ __attribute__((alias("ompi_" #name "_f")));                             \
    type mpi_##name##__ __attribute__((alias("ompi_" #name "_f")));                            \
    type MPI_##NAME __attribute__((alias("ompi_" #name "_f")));

#if defined(OPEN_MPI) || defined(MPICH_VERSION)
/* The calls that complete requests, probe or receive, from Fortran's arguments, by our C wrappers
 * (fortran_requests.c): handles converted both ways, a status or statuses argument NULL for
 * MPI_STATUS_IGNORE or MPI_STATUSES_IGNORE, LOGICAL flags, 1-based indices; MPI's error code. */
int ac_f_wait(MPI_Fint *request, MPI_Fint *status);
int ac_f_test(MPI_Fint *request, MPI_Fint *flag, MPI_Fint *status);
int ac_f_request_get_status(MPI_Fint request, MPI_Fint *flag, MPI_Fint *status);
int ac_f_request_free(MPI_Fint *request);
int ac_f_start(MPI_Fint *request);
int ac_f_startall(MPI_Fint count, MPI_Fint *requests);
int ac_f_waitall(MPI_Fint count, MPI_Fint *requests, MPI_Fint *statuses);
int ac_f_testall(MPI_Fint count, MPI_Fint *requests, MPI_Fint *flag, MPI_Fint *statuses);
int ac_f_waitany(MPI_Fint count, MPI_Fint *requests, MPI_Fint *index, MPI_Fint *status);
int ac_f_testany(MPI_Fint count, MPI_Fint *requests, MPI_Fint *index, MPI_Fint *flag,
                 MPI_Fint *status);
int ac_f_waitsome(MPI_Fint incount, MPI_Fint *requests, MPI_Fint *outcount, MPI_Fint *indices,
                  MPI_Fint *statuses);
int ac_f_testsome(MPI_Fint incount, MPI_Fint *requests, MPI_Fint *outcount, MPI_Fint *indices,
                  MPI_Fint *statuses);
int ac_f_probe(MPI_Fint source, MPI_Fint tag, MPI_Fint comm, MPI_Fint *status);
int ac_f_mprobe(MPI_Fint source, MPI_Fint tag, MPI_Fint comm, MPI_Fint *message,
                MPI_Fint *status);
/* MPI_TYPE_FREE and MPI_OP_FREE by our C wrappers (free_handles.c). */
int ac_f_type_free(MPI_Fint *type);
int ac_f_op_free(MPI_Fint *op);
#endif

#ifdef OPEN_MPI
/* A buffer argument that may be Fortran's MPI_BOTTOM, as C's. */
void *ac_f_buf(char *buf);
/* ... that may also be MPI_IN_PLACE. */
void *ac_f_buf_in_place(char *buf);
/* A status argument, NULL where it is Fortran's MPI_STATUS_IGNORE (mpi_f08's is the same common
 * block under Open MPI); a statuses argument, NULL where it is MPI_STATUSES_IGNORE. */
MPI_Fint *ac_f_status(MPI_Fint *status);
MPI_Fint *ac_f_statuses(MPI_Fint *statuses);
/* n Fortran datatype handles as C handles (a fresh array: free it); NULL without memory. */
MPI_Datatype *ac_f_types(const MPI_Fint *types, int n);
/* The number of ranks a datatype array of an all-to-all call on comm names: its size, or its
 * remote group's on an intercommunicator; 0 for a handle that is not a communicator's. */
int ac_f_peers(MPI_Comm comm);
#endif

#endif

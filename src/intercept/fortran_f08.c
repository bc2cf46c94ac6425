/*
 * fortran_f08.c - the mpi_f08 entry points without a choice buffer: MPI_Init, MPI_Init_thread,
 * MPI_Finalize, MPI_Barrier, MPI_Ibarrier, MPI_Barrier_init, the calls that complete requests
 * and probe, MPI_Type_free and MPI_Op_free (built for both MPI libraries; all but the first four
 * not under SimGrid).
 *
 * MPICH 4's mpi_f08 bindings pass the routines with buffers (MPI_Allreduce, ...) through C
 * descriptor wrappers that call MPI_* (or MPI_*_c), which the C wrappers catch; but these four
 * call PMPI_Init, PMPI_Init_thread, PMPI_Finalize and PMPI_Barrier directly, so without this file
 * a `use mpi_f08` program under MPICH never initialises or reports the layer and its barriers are
 * not seen. Open MPI's mpi_f08 library exports the same four symbols with the same arguments (it
 * would reach fortran.c's ompi_*_f); defining them here sends the call to the same C wrapper, so
 * every call is still counted once under either library.
 *
 * Arguments as gfortran passes them: TYPE(MPI_Comm) by reference (its one INTEGER component),
 * INTEGER by reference, and an absent OPTIONAL ierror as NULL.
 */
#include "intercept/fortran.h"

#include <mpi.h>
#include <stddef.h>

void mpi_init_f08_(MPI_Fint *ierror);
void mpi_init_thread_f08_(MPI_Fint *required, MPI_Fint *provided, MPI_Fint *ierror);
void mpi_finalize_f08_(MPI_Fint *ierror);
void mpi_barrier_f08_(MPI_Fint *comm, MPI_Fint *ierror);

void mpi_init_f08_(MPI_Fint *ierror)
{
    int rc = MPI_Init(NULL, NULL);
    ac_f_set_ierr(ierror, rc);
}

void mpi_init_thread_f08_(MPI_Fint *required, MPI_Fint *provided, MPI_Fint *ierror)
{
    int c_provided = MPI_THREAD_SINGLE;
    int rc = MPI_Init_thread(NULL, NULL, (int)*required, &c_provided);
    if (rc == MPI_SUCCESS) *provided = (MPI_Fint)c_provided;
    ac_f_set_ierr(ierror, rc);
}

void mpi_finalize_f08_(MPI_Fint *ierror)
{
    int rc = MPI_Finalize();
    ac_f_set_ierr(ierror, rc);
}

void mpi_barrier_f08_(MPI_Fint *comm, MPI_Fint *ierror)
{
    int rc = MPI_Barrier(PMPI_Comm_f2c(*comm));
    ac_f_set_ierr(ierror, rc);
}

/* The calls that complete requests and the probes: MPICH's mpi_f08 calls PMPI_Wait*, PMPI_Test*,
 * PMPI_Request_get_status, PMPI_Request_free, PMPI_Start*, PMPI_Probe, PMPI_Mprobe and
 * PMPI_Ibarrier directly (a nonblocking collective the layer runs would be called complete at
 * once, before it ran), Open MPI's the mpif.h routines pmpi_test_ ... that fortran_requests.c
 * cannot take; these send them to the C wrappers (fortran_requests.c, fortran.h). A
 * TYPE(MPI_Status) is the C MPI_Status's bytes under both libraries; MPI_STATUS_IGNORE and
 * MPI_STATUSES_IGNORE are MPICH's MPI_F08_STATUS(ES)_IGNORE, Open MPI's mpif.h sentinels. */
#if defined(OPEN_MPI) || defined(MPICH_VERSION)
#ifdef OPEN_MPI
#define f08_status ac_f_status
#define f08_statuses ac_f_statuses
#else
_Static_assert(sizeof(MPI_F08_status) == sizeof(MPI_Status), "an f08 status is a C status");

static MPI_Fint *f08_status(MPI_Fint *status)
{
    return (void *)status == (void *)MPI_F08_STATUS_IGNORE ? NULL : status;
}

static MPI_Fint *f08_statuses(MPI_Fint *statuses)
{
    return (void *)statuses == (void *)MPI_F08_STATUSES_IGNORE ? NULL : statuses;
}
#endif

void mpi_wait_f08_(MPI_Fint *request, MPI_Fint *status, MPI_Fint *ierror);
void mpi_test_f08_(MPI_Fint *request, MPI_Fint *flag, MPI_Fint *status, MPI_Fint *ierror);
void mpi_request_get_status_f08_(MPI_Fint *request, MPI_Fint *flag, MPI_Fint *status,
                                 MPI_Fint *ierror);
void mpi_request_free_f08_(MPI_Fint *request, MPI_Fint *ierror);
void mpi_start_f08_(MPI_Fint *request, MPI_Fint *ierror);
void mpi_startall_f08_(MPI_Fint *count, MPI_Fint *requests, MPI_Fint *ierror);
void mpi_waitall_f08_(MPI_Fint *count, MPI_Fint *requests, MPI_Fint *statuses, MPI_Fint *ierror);
void mpi_testall_f08_(MPI_Fint *count, MPI_Fint *requests, MPI_Fint *flag, MPI_Fint *statuses,
                      MPI_Fint *ierror);
void mpi_waitany_f08_(MPI_Fint *count, MPI_Fint *requests, MPI_Fint *index, MPI_Fint *status,
                      MPI_Fint *ierror);
void mpi_testany_f08_(MPI_Fint *count, MPI_Fint *requests, MPI_Fint *index, MPI_Fint *flag,
                      MPI_Fint *status, MPI_Fint *ierror);
void mpi_waitsome_f08_(MPI_Fint *incount, MPI_Fint *requests, MPI_Fint *outcount,
                       MPI_Fint *indices, MPI_Fint *statuses, MPI_Fint *ierror);
void mpi_testsome_f08_(MPI_Fint *incount, MPI_Fint *requests, MPI_Fint *outcount,
                       MPI_Fint *indices, MPI_Fint *statuses, MPI_Fint *ierror);
void mpi_probe_f08_(MPI_Fint *source, MPI_Fint *tag, MPI_Fint *comm, MPI_Fint *status,
                    MPI_Fint *ierror);
void mpi_mprobe_f08_(MPI_Fint *source, MPI_Fint *tag, MPI_Fint *comm, MPI_Fint *message,
                     MPI_Fint *status, MPI_Fint *ierror);
void mpi_ibarrier_f08_(MPI_Fint *comm, MPI_Fint *request, MPI_Fint *ierror);
void mpi_type_free_f08_(MPI_Fint *type, MPI_Fint *ierror);
void mpi_op_free_f08_(MPI_Fint *op, MPI_Fint *ierror);

void mpi_wait_f08_(MPI_Fint *request, MPI_Fint *status, MPI_Fint *ierror)
{
    ac_f_set_ierr(ierror, ac_f_wait(request, f08_status(status)));
}

void mpi_test_f08_(MPI_Fint *request, MPI_Fint *flag, MPI_Fint *status, MPI_Fint *ierror)
{
    ac_f_set_ierr(ierror, ac_f_test(request, flag, f08_status(status)));
}

void mpi_request_get_status_f08_(MPI_Fint *request, MPI_Fint *flag, MPI_Fint *status,
                                 MPI_Fint *ierror)
{
    ac_f_set_ierr(ierror, ac_f_request_get_status(*request, flag, f08_status(status)));
}

void mpi_request_free_f08_(MPI_Fint *request, MPI_Fint *ierror)
{
    ac_f_set_ierr(ierror, ac_f_request_free(request));
}

void mpi_start_f08_(MPI_Fint *request, MPI_Fint *ierror)
{
    ac_f_set_ierr(ierror, ac_f_start(request));
}

void mpi_startall_f08_(MPI_Fint *count, MPI_Fint *requests, MPI_Fint *ierror)
{
    ac_f_set_ierr(ierror, ac_f_startall(*count, requests));
}

void mpi_waitall_f08_(MPI_Fint *count, MPI_Fint *requests, MPI_Fint *statuses, MPI_Fint *ierror)
{
    ac_f_set_ierr(ierror, ac_f_waitall(*count, requests, f08_statuses(statuses)));
}

void mpi_testall_f08_(MPI_Fint *count, MPI_Fint *requests, MPI_Fint *flag, MPI_Fint *statuses,
                      MPI_Fint *ierror)
{
    ac_f_set_ierr(ierror, ac_f_testall(*count, requests, flag, f08_statuses(statuses)));
}

void mpi_waitany_f08_(MPI_Fint *count, MPI_Fint *requests, MPI_Fint *index, MPI_Fint *status,
                      MPI_Fint *ierror)
{
    ac_f_set_ierr(ierror, ac_f_waitany(*count, requests, index, f08_status(status)));
}

void mpi_testany_f08_(MPI_Fint *count, MPI_Fint *requests, MPI_Fint *index, MPI_Fint *flag,
                      MPI_Fint *status, MPI_Fint *ierror)
{
    ac_f_set_ierr(ierror, ac_f_testany(*count, requests, index, flag, f08_status(status)));
}

void mpi_waitsome_f08_(MPI_Fint *incount, MPI_Fint *requests, MPI_Fint *outcount,
                       MPI_Fint *indices, MPI_Fint *statuses, MPI_Fint *ierror)
{
    ac_f_set_ierr(ierror,
                  ac_f_waitsome(*incount, requests, outcount, indices, f08_statuses(statuses)));
}

void mpi_testsome_f08_(MPI_Fint *incount, MPI_Fint *requests, MPI_Fint *outcount,
                       MPI_Fint *indices, MPI_Fint *statuses, MPI_Fint *ierror)
{
    ac_f_set_ierr(ierror,
                  ac_f_testsome(*incount, requests, outcount, indices, f08_statuses(statuses)));
}

void mpi_probe_f08_(MPI_Fint *source, MPI_Fint *tag, MPI_Fint *comm, MPI_Fint *status,
                    MPI_Fint *ierror)
{
    ac_f_set_ierr(ierror, ac_f_probe(*source, *tag, *comm, f08_status(status)));
}

void mpi_mprobe_f08_(MPI_Fint *source, MPI_Fint *tag, MPI_Fint *comm, MPI_Fint *message,
                     MPI_Fint *status, MPI_Fint *ierror)
{
    ac_f_set_ierr(ierror, ac_f_mprobe(*source, *tag, *comm, message, f08_status(status)));
}

/* MPICH's mpi_f08 calls PMPI_Type_free and PMPI_Op_free: a handle a request of the layer holds
 * must only be marked (free_handles.c). */
void mpi_type_free_f08_(MPI_Fint *type, MPI_Fint *ierror)
{
    ac_f_set_ierr(ierror, ac_f_type_free(type));
}

void mpi_op_free_f08_(MPI_Fint *op, MPI_Fint *ierror)
{
    ac_f_set_ierr(ierror, ac_f_op_free(op));
}

void mpi_ibarrier_f08_(MPI_Fint *comm, MPI_Fint *request, MPI_Fint *ierror)
{
    MPI_Request r = MPI_REQUEST_NULL;
    int rc = MPI_Ibarrier(PMPI_Comm_f2c(*comm), &r);
    if (rc == MPI_SUCCESS) *request = PMPI_Request_c2f(r);
    ac_f_set_ierr(ierror, rc);
}

#if MPI_VERSION >= 4
void mpi_barrier_init_f08_(MPI_Fint *comm, MPI_Fint *info, MPI_Fint *request, MPI_Fint *ierror);

void mpi_barrier_init_f08_(MPI_Fint *comm, MPI_Fint *info, MPI_Fint *request, MPI_Fint *ierror)
{
    MPI_Request r = MPI_REQUEST_NULL;
    int rc = MPI_Barrier_init(PMPI_Comm_f2c(*comm), PMPI_Info_f2c(*info), &r);
    if (rc == MPI_SUCCESS) *request = PMPI_Request_c2f(r);
    ac_f_set_ierr(ierror, rc);
}
#endif
#endif /* OPEN_MPI || MPICH_VERSION */

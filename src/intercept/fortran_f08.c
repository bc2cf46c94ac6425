/*
 * fortran_f08.c - the mpi_f08 entry points without a choice buffer: MPI_Init, MPI_Init_thread,
 * MPI_Finalize and MPI_Barrier (built for both MPI libraries).
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
#include <mpi.h>
#include <stddef.h>

void mpi_init_f08_(MPI_Fint *ierror);
void mpi_init_thread_f08_(MPI_Fint *required, MPI_Fint *provided, MPI_Fint *ierror);
void mpi_finalize_f08_(MPI_Fint *ierror);
void mpi_barrier_f08_(MPI_Fint *comm, MPI_Fint *ierror);

void mpi_init_f08_(MPI_Fint *ierror)
{
    int rc = MPI_Init(NULL, NULL);
    if (ierror) *ierror = (MPI_Fint)rc;
}

void mpi_init_thread_f08_(MPI_Fint *required, MPI_Fint *provided, MPI_Fint *ierror)
{
    int c_provided = MPI_THREAD_SINGLE;
    int rc = MPI_Init_thread(NULL, NULL, (int)*required, &c_provided);
    if (rc == MPI_SUCCESS) *provided = (MPI_Fint)c_provided;
    if (ierror) *ierror = (MPI_Fint)rc;
}

void mpi_finalize_f08_(MPI_Fint *ierror)
{
    int rc = MPI_Finalize();
    if (ierror) *ierror = (MPI_Fint)rc;
}

void mpi_barrier_f08_(MPI_Fint *comm, MPI_Fint *ierror)
{
    int rc = MPI_Barrier(PMPI_Comm_f2c(*comm));
    if (ierror) *ierror = (MPI_Fint)rc;
}

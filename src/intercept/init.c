/*
 * init.c - MPI_Init, MPI_Init_thread and MPI_Finalize: set up the layer after the library,
 * report and release before it finalizes.
 */
#include "core/state.h"

#include <mpi.h>

int MPI_Init(int *argc, char ***argv)
{
    int rc = PMPI_Init(argc, argv);
    if (rc == MPI_SUCCESS) ac_init();
    return rc;
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    int rc = PMPI_Init_thread(argc, argv, required, provided);
    if (rc == MPI_SUCCESS) ac_init();
    return rc;
}

int MPI_Finalize(void)
{
    ac_finalize();
    return PMPI_Finalize();
}

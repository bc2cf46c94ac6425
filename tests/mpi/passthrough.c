/*
 * passthrough.c - calls the layer must hand to the MPI library untouched: collectives on an
 * intercommunicator, and invalid arguments (the library's own error must reach the caller),
 * blocking and nonblocking.
 * Prints "passthrough: ok" when the results and error codes are as MPI defines them.
 *
 *   passthrough [--invalid]   --invalid also makes the invalid-argument calls. Debian's
 *                             MPICH 4.0.2 does not check arguments (a negative count crashes
 *                             it natively), so the tests pass --invalid under Open MPI only.
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    int rank, size, errors = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    /* Intercommunicator between even and odd ranks. */
    MPI_Comm local, inter;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &local);
    MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, rank % 2 ? 0 : 1, 99, &inter);
    int mine = rank, sum = -1, remote_size;
    MPI_Comm_remote_size(inter, &remote_size);
    MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, inter);
    /* Intercommunicator allreduce: the sum over the other group. */
    int expected = 0;
    for (int r = 0; r < size; r++)
        if (r % 2 != rank % 2) expected += r;
    errors += sum != expected;
    MPI_Barrier(inter);

    /* Invalid arguments: the library's error code comes back. */
    if (argc > 1 && strcmp(argv[1], "--invalid") == 0) {
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
        int rc = MPI_Allreduce(&mine, &sum, -1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        errors += rc == MPI_SUCCESS;
        rc = MPI_Bcast(&mine, 1, MPI_INT, size + 5, MPI_COMM_WORLD);
        errors += rc == MPI_SUCCESS;
        /* nonblocking: the layer would run them (under a learning strategy), not with these */
        MPI_Request req = MPI_REQUEST_NULL;
        rc = MPI_Iallreduce(&mine, &sum, -1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req);
        errors += rc == MPI_SUCCESS;
        rc = MPI_Ibcast(&mine, 1, MPI_INT, size + 5, MPI_COMM_WORLD, &req);
        errors += rc == MPI_SUCCESS;
        int block[64];
        rc = MPI_Ialltoall(block, -1, MPI_INT, block, 1, MPI_INT, MPI_COMM_WORLD, &req);
        errors += rc == MPI_SUCCESS;
    }

    MPI_Comm_free(&inter);
    MPI_Comm_free(&local);
    int all;
    MPI_Allreduce(&errors, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) printf("passthrough: %s\n", all ? "WRONG" : "ok");
    MPI_Finalize();
    return all != 0;
}

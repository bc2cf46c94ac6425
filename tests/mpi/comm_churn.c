/*
 * comm_churn.c - creates, uses and frees many communicators. The layer's private duplicate of
 * each must be freed with it: MPICH has about 2048 communicator context ids, so a leak makes
 * this fail there ("too many communicators"). The communicators alternate between a
 * duplicate of MPI_COMM_WORLD and halves of it, so that a freed communicator's handle, reused
 * by the next one, must not bring back the freed one's state (state.c's per-thread shortcut).
 */
#include <mpi.h>
#include <stdio.h>

#define ROUNDS 3000

int main(int argc, char **argv)
{
    int rank, errors = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (int i = 0; i < ROUNDS; i++) {
        MPI_Comm c;
        int one = 1, sum = 0, size;
        if (i % 2)
            MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &c);
        else
            MPI_Comm_dup(MPI_COMM_WORLD, &c);
        MPI_Comm_size(c, &size);
        MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, c);
        errors += sum != size;
        MPI_Comm_free(&c);
    }
    if (rank == 0) printf("comm_churn: %d rounds, %s\n", ROUNDS, errors ? "WRONG" : "ok");
    MPI_Finalize();
    return errors != 0;
}

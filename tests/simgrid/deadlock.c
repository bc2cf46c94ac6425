/*
 * deadlock.c - a program that deadlocks on purpose: every rank receives from its right-hand
 * neighbour before it sends anything. SMPI 3.32 reports "Deadlock detected" and still exits 0;
 * `autocoll simgrid run` must fail it (tests/tools/test_simgrid.py).
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size, value = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Recv(&value, 1, MPI_INT, (rank + 1) % size, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(&value, 1, MPI_INT, (rank + size - 1) % size, 0, MPI_COMM_WORLD);
    printf("deadlock: rank %d was not expected to get here\n", rank);
    MPI_Finalize();
    return 0;
}

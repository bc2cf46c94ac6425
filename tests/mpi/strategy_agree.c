/*
 * strategy_agree.c - a program that tempts a tuner to let ranks diverge: the same collective
 * reached from different call sites on odd and even ranks, and local timings skewed (rank 0
 * often arrives late, so the others measure long waits; the last rank computes before some
 * calls). Under a run-time strategy every rank must still run the same algorithm at every call:
 * the test compares the per-rank reports (AUTOCOLL_REPORT=...%r...). Results are checked too.
 *
 *   strategy_agree [iterations]   (default 400)
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define N 256

static void pause_us(long us)
{
    struct timespec t = {0, us * 1000};
    nanosleep(&t, NULL);
}

int main(int argc, char **argv)
{
    int rank, size, errors = 0, iterations = argc > 1 ? atoi(argv[1]) : 400;
    MPI_Comm half;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
    double *x = malloc(sizeof(double) * N), *y = malloc(sizeof(double) * N);
    int *a = malloc(sizeof(int) * 8 * (size_t)size), *b = malloc(sizeof(int) * 8 * (size_t)size);
    for (int it = 0; it < iterations; it++) {
        for (int i = 0; i < N; i++) x[i] = rank + i;
        if (rank == 0 && it % 7 == 0) pause_us(300);
        if (rank == size - 1 && it % 3 == 0) pause_us(100);
        /* the same collective from two call sites */
        if (rank % 2)
            MPI_Allreduce(x, y, N, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        else
            MPI_Allreduce(x, y, N, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        for (int i = 0; i < N; i++) errors += y[i] != (double)size * i + (double)size * (size - 1) / 2;
        for (int j = 0; j < 8 * size; j++) a[j] = rank * 1000 + j;
        MPI_Alltoall(a, 8, MPI_INT, b, 8, MPI_INT, half);
        int hsize, hrank;
        MPI_Comm_size(half, &hsize);
        MPI_Comm_rank(half, &hrank);
        for (int j = 0; j < hsize; j++)
            for (int k = 0; k < 8; k++) {
                /* rank of half-member j in world: j * 2 + rank % 2 */
                int src = j * 2 + rank % 2;
                errors += b[8 * j + k] != src * 1000 + 8 * hrank + k;
            }
    }
    MPI_Comm_free(&half);
    int all;
    MPI_Allreduce(&errors, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) printf("strategy_agree: %d iterations, %s\n", iterations, all ? "WRONG" : "ok");
    free(x);
    free(y);
    free(a);
    free(b);
    MPI_Finalize();
    return all != 0;
}

/*
 * table_calls.c - calls of a few collectives and message sizes for the configuration-table
 * tests (tests/tools/test_table.py): world allreduce of 8, 128 and 8192 doubles (64 B, 1 KiB,
 * 64 KiB), allgather of 64 doubles per rank (512 B) and bcast of 128 doubles (1 KiB) from
 * rank 0, each `iterations` times, results checked exactly.
 *
 *   table_calls [iterations]   (default 20)
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int check_allreduce(int n, int rank, int size)
{
    double *x = malloc(sizeof *x * (size_t)n), *y = malloc(sizeof *y * (size_t)n);
    int bad = !x || !y;
    for (int i = 0; !bad && i < n; i++)
        x[i] = (double)((rank + 1) * (i % 97));
    if (!bad) MPI_Allreduce(x, y, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    /* sum over ranks of (rank + 1) * (i % 97): small integers, exact in any order */
    for (int i = 0; !bad && i < n; i++)
        bad = y[i] != (double)(size * (size + 1) / 2 * (i % 97));
    free(x);
    free(y);
    return bad;
}

static int check_allgather(int n, int rank, int size)
{
    double *x = malloc(sizeof *x * (size_t)n), *y = malloc(sizeof *y * (size_t)n * (size_t)size);
    int bad = !x || !y;
    for (int i = 0; !bad && i < n; i++)
        x[i] = (double)(rank * 1000 + i);
    if (!bad) MPI_Allgather(x, n, MPI_DOUBLE, y, n, MPI_DOUBLE, MPI_COMM_WORLD);
    for (int r = 0; !bad && r < size; r++)
        for (int i = 0; !bad && i < n; i++)
            bad = y[r * n + i] != (double)(r * 1000 + i);
    free(x);
    free(y);
    return bad;
}

static int check_bcast(int n, int rank)
{
    double *x = malloc(sizeof *x * (size_t)n);
    int bad = !x;
    for (int i = 0; !bad && i < n; i++)
        x[i] = rank == 0 ? (double)(i * 3) : -1.0;
    if (!bad) MPI_Bcast(x, n, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    for (int i = 0; !bad && i < n; i++)
        bad = x[i] != (double)(i * 3);
    free(x);
    return bad;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size, iterations = argc > 1 ? atoi(argv[1]) : 20, bad = 0, all = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int it = 0; it < iterations; it++) {
        bad += check_allreduce(8, rank, size);
        bad += check_allreduce(128, rank, size);
        bad += check_allreduce(8192, rank, size);
        bad += check_allgather(64, rank, size);
        bad += check_bcast(128, rank);
    }
    MPI_Allreduce(&bad, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) printf("table_calls: %d iterations, %s\n", iterations, all ? "WRONG" : "ok");
    MPI_Finalize();
    return all != 0;
}

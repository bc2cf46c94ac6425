/*
 * strategy_agree.c - a program that tempts a tuner to let ranks diverge, and its call-site
 * tracking to split them:
 *   - world allreduce of N doubles from two sites every rank shares: site A every iteration,
 *     site B every third (a period of 4 calls: A B A A): two contexts, tuned apart;
 *   - world allreduce of N/2 doubles from a site chosen by rank parity (ranks disagree: one
 *     site-less context);
 *   - world allreduce of N/4 doubles where one rank now and then calls from another site than
 *     the others (a misprediction, then a disagreement: site-less);
 *   - alltoall on odd/even halves;
 * and local timings skewed (rank 0 often arrives late, so the others measure long waits; the
 * last rank computes before some calls). Under a run-time strategy every rank must still run
 * the same algorithm at every call: the test compares the per-rank reports
 * (AUTOCOLL_REPORT=...%r...). Results are checked too.
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

/* Distinct call sites: each function calls MPI_Allreduce from its own instruction (noipa: not
 * inlined, and not folded into one by identical code folding). */
__attribute__((noipa)) static void allreduce_site_a(double *x, double *y, int n, MPI_Comm comm)
{
    MPI_Allreduce(x, y, n, MPI_DOUBLE, MPI_SUM, comm);
    __asm__ volatile("" ::: "memory"); /* no tail call: the return address stays here */
}

__attribute__((noipa)) static void allreduce_site_b(double *x, double *y, int n, MPI_Comm comm)
{
    MPI_Allreduce(x, y, n, MPI_DOUBLE, MPI_SUM, comm);
    __asm__ volatile("" ::: "memory");
}

static int check_sum(const double *y, int n, int size)
{
    int errors = 0;
    for (int i = 0; i < n; i++)
        errors += y[i] != (double)size * i + (double)size * (size - 1) / 2;
    return errors;
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
        for (int i = 0; i < N; i++)
            x[i] = rank + i;
        if (rank == 0 && it % 7 == 0) pause_us(300);
        if (rank == size - 1 && it % 3 == 0) pause_us(100);
        /* one size from two sites on every rank: A every iteration, B every third */
        allreduce_site_a(x, y, N, MPI_COMM_WORLD);
        errors += check_sum(y, N, size);
        if (it % 3 == 0) {
            allreduce_site_b(x, y, N, MPI_COMM_WORLD);
            errors += check_sum(y, N, size);
        }
        /* another size from a site that depends on the rank */
        if (rank % 2)
            allreduce_site_a(x, y, N / 2, MPI_COMM_WORLD);
        else
            allreduce_site_b(x, y, N / 2, MPI_COMM_WORLD);
        errors += check_sum(y, N / 2, size);
        /* a third size: the last rank wanders to site B now and then */
        if (rank == size - 1 && size > 1 && it > 50 && it % 37 == 0)
            allreduce_site_b(x, y, N / 4, MPI_COMM_WORLD);
        else
            allreduce_site_a(x, y, N / 4, MPI_COMM_WORLD);
        errors += check_sum(y, N / 4, size);
        for (int j = 0; j < 8 * size; j++)
            a[j] = rank * 1000 + j;
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

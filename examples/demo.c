/*
 * demo.c - an ordinary MPI program (it knows nothing of autocoll): iterations of allreduce,
 * alltoall, allgather, bcast and reduce on a split communicator and MPI_COMM_WORLD, checking
 * every result against its closed form. Rank 0 prints a checksum of everything it received, so
 * a run under the layer can be compared with a native run, and the time of its iterations
 * (MPI_Wtime on rank 0 between two barriers; simulated time under SMPI).
 *
 *   mpirun -n 4 -x LD_PRELOAD=build/openmpi/libautocoll.so -x AUTOCOLL_REPORT=stderr demo [ITERATIONS]
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define N 1024
#define ITERATIONS 50 /* default */

static unsigned long checksum;

static void mix(const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) checksum = (checksum ^ b[i]) * 1099511628211ul;
}

static int run(MPI_Comm comm, int iteration)
{
    int rank, size, errors = 0;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    double *x = malloc(sizeof(double) * N), *sum = malloc(sizeof(double) * N);
    int *a2a_in = malloc(sizeof(int) * 16 * (size_t)size), *a2a_out = malloc(sizeof(int) * 16 * (size_t)size);
    int *ag = malloc(sizeof(int) * 4 * (size_t)size), mine[4], bc[64], red[8], red_in[8];

    for (int i = 0; i < N; i++) x[i] = rank + i + iteration;
    MPI_Allreduce(x, sum, N, MPI_DOUBLE, MPI_SUM, comm);
    for (int i = 0; i < N; i++)
        errors += sum[i] != (double)size * (i + iteration) + (double)size * (size - 1) / 2;

    for (int j = 0; j < size; j++)
        for (int k = 0; k < 16; k++) a2a_in[16 * j + k] = 1000 * rank + 10 * j + k;
    MPI_Alltoall(a2a_in, 16, MPI_INT, a2a_out, 16, MPI_INT, comm);
    for (int j = 0; j < size; j++)
        for (int k = 0; k < 16; k++) errors += a2a_out[16 * j + k] != 1000 * j + 10 * rank + k;

    for (int k = 0; k < 4; k++) mine[k] = rank * 4 + k + iteration;
    MPI_Allgather(mine, 4, MPI_INT, ag, 4, MPI_INT, comm);
    for (int j = 0; j < 4 * size; j++) errors += ag[j] != j + iteration;

    for (int k = 0; k < 64; k++) bc[k] = rank == size - 1 ? k * iteration : -1;
    MPI_Bcast(bc, 64, MPI_INT, size - 1, comm);
    for (int k = 0; k < 64; k++) errors += bc[k] != k * iteration;

    for (int k = 0; k < 8; k++) red_in[k] = rank + k;
    MPI_Reduce(red_in, red, 8, MPI_INT, MPI_MAX, 0, comm);
    if (rank == 0)
        for (int k = 0; k < 8; k++) errors += red[k] != size - 1 + k;

    mix(sum, sizeof(double) * N);
    mix(a2a_out, sizeof(int) * 16 * (size_t)size);
    mix(ag, sizeof(int) * 4 * (size_t)size);
    mix(bc, sizeof bc);
    free(x);
    free(sum);
    free(a2a_in);
    free(a2a_out);
    free(ag);
    return errors;
}

int main(int argc, char **argv)
{
    int rank, errors = 0, all_errors = 0; /* set on rank 0, which carries the exit status */
    int iterations = argc > 1 ? atoi(argv[1]) : ITERATIONS;
    MPI_Comm half;
    MPI_Init(&argc, &argv);
    if (iterations < 1) {
        fprintf(stderr, "usage: demo [ITERATIONS >= 1]\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
    MPI_Barrier(MPI_COMM_WORLD);
    double start = MPI_Wtime();
    for (int it = 0; it < iterations; it++) {
        errors += run(MPI_COMM_WORLD, it);
        errors += run(half, it);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    double seconds = MPI_Wtime() - start;
    MPI_Comm_free(&half);
    MPI_Reduce(&errors, &all_errors, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("demo: %s (%d wrong values), checksum %016lx\n", all_errors ? "WRONG RESULTS" : "results correct",
               all_errors, checksum);
    if (rank == 0) printf("demo: %d iterations in %.6f s\n", iterations, seconds);
    MPI_Finalize();
    return all_errors ? 1 : 0;
}

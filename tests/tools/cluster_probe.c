/* cluster_probe: the MPI program of tests/tools/test_cluster.py (the emulated cluster).
 *
 * Every rank reports its host name; then MPI_Alltoall of `bytes` per rank (bytes/size to each
 * rank) runs `iterations` times after one warm-up, each time with data that depends on the
 * sender, the receiver and the iteration, checked on receipt; then a 4-byte MPI_Allreduce runs
 * `iterations` times (its time shows whether idle ranks busy-poll the shared cores).
 * Rank 0 prints one JSON line: hosts, the median seconds of each and the error count.
 *   cluster_probe [bytes (default 1048576)] [iterations (default 5)]
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *values, int n)
{
    qsort(values, n, sizeof *values, compare_doubles);
    return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

/* The value of int `i` of the block that `from` sends to `to` in iteration `iteration`. */
static int pattern(int from, int to, int iteration, int i)
{
    return ((from * 131 + to) * 7919 + iteration * 104729 + i) & 0x7fffffff;
}

/* Times `iterations` checked alltoalls (plus one warm-up); returns the errors seen here. */
static long time_alltoall(int rank, int size, int block_ints, int iterations, double *times)
{
    int *send = malloc((size_t)block_ints * size * sizeof *send);
    int *recv = malloc((size_t)block_ints * size * sizeof *recv);
    long errors = 0;
    for (int it = -1; it < iterations; it++) {
        for (int to = 0; to < size; to++)
            for (int i = 0; i < block_ints; i++)
                send[(size_t)to * block_ints + i] = pattern(rank, to, it, i);
        MPI_Barrier(MPI_COMM_WORLD);
        double start = MPI_Wtime();
        MPI_Alltoall(send, block_ints, MPI_INT, recv, block_ints, MPI_INT, MPI_COMM_WORLD);
        double seconds = MPI_Wtime() - start;
        MPI_Allreduce(MPI_IN_PLACE, &seconds, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        if (it >= 0)
            times[it] = seconds;
        for (int from = 0; from < size; from++)
            for (int i = 0; i < block_ints; i++)
                errors += recv[(size_t)from * block_ints + i] != pattern(from, rank, it, i);
    }
    free(send);
    free(recv);
    return errors;
}

/* Times `iterations` 4-byte allreduces (plus one warm-up); returns the errors seen here. */
static long time_allreduce(int size, int iterations, double *times)
{
    long errors = 0;
    for (int it = -1; it < iterations; it++) {
        int one = 1, sum = 0;
        MPI_Barrier(MPI_COMM_WORLD);
        double start = MPI_Wtime();
        MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        double seconds = MPI_Wtime() - start;
        MPI_Allreduce(MPI_IN_PLACE, &seconds, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        if (it >= 0)
            times[it] = seconds;
        errors += sum != size;
    }
    return errors;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    long bytes = argc > 1 ? atol(argv[1]) : 1048576;
    int iterations = argc > 2 ? atoi(argv[2]) : 5;
    int block_ints = (int)(bytes / size / (long)sizeof(int));
    if (block_ints < 1 || iterations < 1) {
        if (rank == 0)
            fprintf(stderr, "cluster_probe: bad arguments (bytes >= 4 x ranks, iterations >= 1)\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }

    char host[64] = {0};
    gethostname(host, sizeof host - 1);
    char *hosts = rank == 0 ? malloc(sizeof host * size) : NULL;
    MPI_Gather(host, sizeof host, MPI_CHAR, hosts, sizeof host, MPI_CHAR, 0, MPI_COMM_WORLD);

    double *alltoall_times = malloc(sizeof(double) * iterations);
    double *allreduce_times = malloc(sizeof(double) * iterations);
    long errors = time_alltoall(rank, size, block_ints, iterations, alltoall_times);
    errors += time_allreduce(size, iterations, allreduce_times);
    MPI_Allreduce(MPI_IN_PLACE, &errors, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);

    if (rank == 0) {
        printf("{\"ranks\": %d, \"block_bytes\": %ld, \"hosts\": [", size,
               (long)block_ints * (long)sizeof(int));
        for (int r = 0; r < size; r++)
            printf("%s\"%s\"", r ? ", " : "", hosts + r * sizeof host);
        printf("], \"alltoall_seconds\": %.6f, \"allreduce_seconds\": %.6f, \"errors\": %ld}\n",
               median(alltoall_times, iterations), median(allreduce_times, iterations), errors);
        free(hosts);
    }
    free(alltoall_times);
    free(allreduce_times);
    MPI_Finalize();
    return errors != 0;
}

/*
 * osu_collective.c - the latency of one native collective as the OSU micro-benchmarks measure it
 * (osu_allreduce, osu_bcast, osu_alltoall, osu_allgather): for each message size, `warmup`
 * untimed calls, then `iterations` calls, each after an MPI_Barrier and timed on every rank
 * around the call alone; a rank's latency is its mean, and the figure is the mean of the ranks'
 * latencies (OSU's "Avg Latency"), with the smallest and largest rank's beside it.
 *
 *   osu_collective [--iterations 100] [--warmup 10] allreduce|bcast|alltoall|allgather BYTES...
 *
 * BYTES as OSU counts them: the whole vector of an allreduce (MPI_FLOAT, MPI_SUM, BYTES / 4
 * elements) and of a bcast (MPI_CHAR, root 0), the block each rank sends to each other rank in
 * an alltoall and the block each rank contributes to an allgather (MPI_CHAR). Output (rank 0):
 * a header line starting with '#', then a line per size: the size, the average, smallest and
 * largest latency in microseconds.
 *
 * Plain MPI on MPI_COMM_WORLD, linked without autocoll: under SMPI it measures the native
 * selector on the platform's model (platforms/README.md, "Validation"); at many ranks and large
 * sizes run it with SMPI's shared malloc (`autocoll simgrid run --shared-malloc`): the times stay
 * right, the data does not, so nothing is checked. Exit status 0, 1 on an MPI error, 2 on bad
 * arguments.
 */
#include "bench_args.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROG "osu_collective"
#define EXIT_USAGE 2
#define MAX_SIZES 64

/* One call of `collective` ("allreduce", "bcast", "alltoall" or "allgather") of `bytes`. */
static int collective_call(const char *collective, char *send, char *recv, long bytes)
{
    if (strcmp(collective, "allreduce") == 0)
        return MPI_Allreduce(send, recv, (int)(bytes / 4), MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
    if (strcmp(collective, "bcast") == 0)
        return MPI_Bcast(send, (int)bytes, MPI_CHAR, 0, MPI_COMM_WORLD);
    if (strcmp(collective, "allgather") == 0)
        return MPI_Allgather(send, (int)bytes, MPI_CHAR, recv, (int)bytes, MPI_CHAR,
                             MPI_COMM_WORLD);
    return MPI_Alltoall(send, (int)bytes, MPI_CHAR, recv, (int)bytes, MPI_CHAR, MPI_COMM_WORLD);
}

int main(int argc, char **argv)
{
    long iterations = 100, warmup = 10, sizes[MAX_SIZES], largest = 0;
    int nsizes = 0, rank, size, status = 0;
    const char *collective = NULL;
    char *send = NULL, *recv = NULL;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    /* Every rank has the same arguments: every rank reaches the same verdict. */
    for (int i = 1; i < argc && status == 0; i++) {
        int option = bench_loop_option(argc, argv, &i, &iterations, &warmup);
        if (option) {
            if (option < 0) status = EXIT_USAGE;
        } else if (!collective) {
            collective = argv[i];
            if (strcmp(collective, "allreduce") && strcmp(collective, "bcast") &&
                strcmp(collective, "alltoall") && strcmp(collective, "allgather"))
                status = EXIT_USAGE;
        } else if (nsizes == MAX_SIZES || (sizes[nsizes] = bench_parse_size(argv[i])) < 0) {
            status = EXIT_USAGE;
        } else {
            if (sizes[nsizes] > largest) largest = sizes[nsizes];
            nsizes++;
        }
    }
    if (status == 0 && nsizes == 0) status = EXIT_USAGE;
    if (status) {
        if (rank == 0)
            fprintf(stderr,
                    "usage: " PROG " [--iterations N>0] [--warmup N] "
                    "allreduce|bcast|alltoall|allgather BYTES [BYTES...] "
                    "(at most %d sizes, K or M allowed)\n",
                    MAX_SIZES);
        goto done;
    }

    /* An alltoall's and an allgather's buffers hold a block for every rank. */
    int per_rank = strcmp(collective, "alltoall") == 0 || strcmp(collective, "allgather") == 0;
    size_t buffer = (size_t)largest * (per_rank ? (size_t)size : 1);
    send = malloc(buffer + 1);
    recv = malloc(buffer + 1);
    if (!send || !recv) {
        fprintf(stderr, PROG ": rank %d: out of memory for %zu bytes\n", rank, buffer);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    memset(send, 1, buffer + 1);

    if (rank == 0)
        printf("# %s on %d ranks\n# %12s %14s %14s %14s\n", collective, size, "bytes", "avg_us",
               "min_us", "max_us");
    for (int s = 0; s < nsizes && status == 0; s++) {
        double total = 0;
        int rc = MPI_SUCCESS;
        for (long i = -warmup; i < iterations && rc == MPI_SUCCESS; i++) {
            MPI_Barrier(MPI_COMM_WORLD);
            double start = MPI_Wtime();
            rc = collective_call(collective, send, recv, sizes[s]);
            if (i >= 0) total += MPI_Wtime() - start;
        }
        if (rc != MPI_SUCCESS) {
            fprintf(stderr, PROG ": rank %d: MPI error %d at %ld bytes\n", rank, rc, sizes[s]);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        double mine = total / iterations, sum, least, most;
        MPI_Reduce(&mine, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
        MPI_Reduce(&mine, &least, 1, MPI_DOUBLE, MPI_MIN, 0, MPI_COMM_WORLD);
        MPI_Reduce(&mine, &most, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
        if (rank == 0) {
            printf("  %12ld %14.3f %14.3f %14.3f\n", sizes[s], 1e6 * sum / size, 1e6 * least,
                   1e6 * most);
            fflush(stdout);
        }
    }

done:
    free(recv);
    free(send);
    MPI_Finalize();
    return status;
}

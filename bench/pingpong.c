/*
 * pingpong.c - point-to-point latency and bandwidth between ranks 0 and 1: for each message
 * size, rank 0 sends a message to rank 1 and rank 1 sends it back (one round trip), `warmup`
 * untimed round trips, then `iterations` round trips each timed on rank 0 with MPI_Wtime.
 *
 *   pingpong [--iterations 100] [--warmup 10] BYTES [BYTES...]
 *
 * BYTES is an integer, optionally with K or M (1024 and 1048576 bytes): `pingpong 8 4M`.
 * Output (rank 0): a header line starting with '#', then one line per size in the order given:
 * the size in bytes, the one-way latency in microseconds (half the median round trip) and the
 * bandwidth in MB/s (10^6 bytes per second: the size over the one-way latency).
 *
 * Plain MPI (MPI_Send and MPI_Recv on MPI_COMM_WORLD, tag 0, MPI_BYTE), linked without
 * autocoll, so it measures the MPI library underneath or, under SimGrid's SMPI, the platform's
 * network model (MPI_Wtime is simulated time there); platforms/README.md lists every platform's:
 *
 *   autocoll simgrid run --platform one-switch-gbe -n 2 build/simgrid/bench/pingpong 8 4M
 *   autocoll simgrid run --platform one-switch-gbe -n 2 --ppn 2 build/simgrid/bench/pingpong 8 4M
 *
 * The first gives the modelled times between two nodes, the second between two ranks of one
 * node. Ranks other than 0 and 1 only wait in the final barrier.
 *
 * Rank 1 sends back what it received and rank 0 compares the last message returned with the
 * one it sent: a mismatch is a failure. Exit status 0, 1 on a failure, 2 on bad arguments or
 * fewer than 2 ranks.
 */
#include "bench_args.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROG "pingpong"
#define EXIT_USAGE 2
#define MAX_SIZES 64

/* One round trip of `bytes` between ranks 0 and 1. */
static int round_trip(int rank, char *out, char *in, long bytes)
{
    int count = (int)bytes, rc = MPI_SUCCESS;
    if (rank == 0) {
        rc = MPI_Send(out, count, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
        if (rc == MPI_SUCCESS)
            rc = MPI_Recv(in, count, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (rank == 1) {
        rc = MPI_Recv(in, count, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (rc == MPI_SUCCESS) rc = MPI_Send(in, count, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
    }
    return rc;
}

int main(int argc, char **argv)
{
    long iterations = 100, warmup = 10, sizes[MAX_SIZES], largest = 0;
    int nsizes = 0, rank, size, status = 0;
    char *out = NULL, *in = NULL;
    double *times = NULL;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    /* Every rank has the same arguments: every rank reaches the same verdict. */
    for (int i = 1; i < argc && status == 0; i++) {
        int option = bench_loop_option(argc, argv, &i, &iterations, &warmup);
        if (option) {
            if (option < 0) status = EXIT_USAGE;
        } else if (nsizes == MAX_SIZES || (sizes[nsizes] = bench_parse_size(argv[i])) < 0) {
            status = EXIT_USAGE;
        } else {
            if (sizes[nsizes] > largest) largest = sizes[nsizes];
            nsizes++;
        }
    }
    if (status == 0 && (nsizes == 0 || size < 2)) status = EXIT_USAGE;
    if (status) {
        if (rank == 0)
            fprintf(stderr,
                    "usage: " PROG " [--iterations N>0] [--warmup N] BYTES [BYTES...] "
                    "(at most %d sizes, each below 2 GiB, K or M allowed; at least 2 ranks)\n",
                    MAX_SIZES);
        goto done;
    }

    out = malloc((size_t)largest + 1);
    in = malloc((size_t)largest + 1);
    times = malloc((size_t)iterations * sizeof *times);
    if (!out || !in || !times) {
        fprintf(stderr, PROG ": rank %d: out of memory for %ld bytes\n", rank, largest);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    for (long i = 0; i < largest; i++) out[i] = (char)(i * 7 + 1);

    if (rank == 0) printf("# %12s %16s %16s\n", "bytes", "latency_us", "bandwidth_MB/s");
    for (int s = 0; s < nsizes; s++) {
        long bytes = sizes[s];
        int rc = MPI_SUCCESS;
        memset(in, 0, (size_t)bytes + 1);
        for (long i = 0; i < warmup && rc == MPI_SUCCESS; i++)
            rc = round_trip(rank, out, in, bytes);
        for (long i = 0; i < iterations && rc == MPI_SUCCESS; i++) {
            double start = MPI_Wtime();
            rc = round_trip(rank, out, in, bytes);
            times[i] = MPI_Wtime() - start;
        }
        if (rc != MPI_SUCCESS) {
            fprintf(stderr, PROG ": rank %d: MPI error %d at %ld bytes\n", rank, rc, bytes);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        if (rank != 0) continue;
        if (memcmp(in, out, (size_t)bytes) != 0) {
            fprintf(stderr, PROG ": %ld bytes: the message came back changed\n", bytes);
            status = 1;
            continue; /* rank 1 goes on with the next size */
        }
        double one_way = bench_median(times, iterations) / 2;
        printf("  %12ld %16.3f %16.3f\n", bytes, 1e6 * one_way,
               one_way > 0 ? bytes / one_way / 1e6 : 0.0);
        fflush(stdout);
    }
    /* Rank 0's verdict reaches the others, so that all ranks exit with the same status. */
    MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);

done:
    free(times);
    free(in);
    free(out);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return status;
}

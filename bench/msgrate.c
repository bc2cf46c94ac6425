/*
 * msgrate.c - the fan-out of one rank: rank 0 sends one small message to each of K other ranks
 * (MPI_Isend to ranks 1..K, then MPI_Waitall), each of them receives it (MPI_Recv). Ping-pong
 * cannot tell how a message's host overhead splits between sender and receiver (LogGP's o_s and
 * o_r: only their sum shows); this can: the sender's time grows with K by its per-message cost.
 *
 *   msgrate [--iterations 20] [--warmup 2] [--bytes 8] K [K...]
 *
 * Every iteration starts at one instant on every rank: the ranks agree on the latest of their
 * clocks (an allreduce, untimed) and each sleeps until 10 ms after it, as `autocoll_bench --sync
 * clock` does; this needs a clock shared by the ranks (MPI_WTIME_IS_GLOBAL: SMPI's simulated
 * time). Output (rank 0): a header line starting with '#', then a line per K in the order given:
 *
 *   receivers      K
 *   sender_us      median time rank 0 spends from the start to the end of its MPI_Waitall
 *   per_message_us sender_us / K: the sender's cost per message
 *   rate_M/s       K / sender_us: messages per second (millions) one core sends
 *   last_us        median time from the start until the last receiver has its message
 *
 * Plain MPI on MPI_COMM_WORLD, linked without autocoll: under SMPI it measures the platform's
 * model (platforms/README.md, "Validation"):
 *
 *   autocoll simgrid run --platform fat-tree-ib -n 256 build/simgrid/bench/msgrate 1 8 64 255
 *
 * Each receiver checks the message it got. Exit status 0, 1 on a failure, 2 on bad arguments,
 * K larger than the ranks allow, or a clock that is not global.
 */
#include "bench_args.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define PROG "msgrate"
#define EXIT_USAGE 2
#define MAX_COUNTS 64
#define CLOCK_MARGIN 1e-2 /* seconds from the agreed clock to the start of an iteration */

/* Every rank sleeps until CLOCK_MARGIN after the latest clock of all; returns that instant. */
static double common_start(void)
{
    double now = MPI_Wtime(), start;
    MPI_Allreduce(&now, &start, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    start += CLOCK_MARGIN;
    double wait = start - MPI_Wtime();
    if (wait > 0) {
        struct timespec ts = {.tv_sec = (time_t)wait};
        ts.tv_nsec = (long)((wait - (double)ts.tv_sec) * 1e9);
        nanosleep(&ts, NULL);
    }
    return start;
}

/* One fan-out to ranks 1..k; returns the time, from `start`, at which this rank was done
 * (negative on a wrong message). Ranks above k take no part. */
static double fan_out(int rank, int k, char *buf, MPI_Request *requests, int bytes, double start)
{
    if (rank == 0) {
        for (int r = 1; r <= k; r++)
            MPI_Isend(buf, bytes, MPI_BYTE, r, 0, MPI_COMM_WORLD, &requests[r - 1]);
        /* One wait a request: GCC 12 takes MPICH's MPI_STATUSES_IGNORE, (MPI_Status *)1, for
         * an array of k statuses and stops the build (-Wstringop-overflow). */
        for (int r = 0; r < k; r++) MPI_Wait(&requests[r], MPI_STATUS_IGNORE);
    } else if (rank <= k) {
        memset(buf, 0, (size_t)bytes);
        MPI_Recv(buf, bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (int i = 0; i < bytes; i++)
            if (buf[i] != (char)(i * 7 + 1)) return -1;
    }
    return MPI_Wtime() - start;
}

int main(int argc, char **argv)
{
    long iterations = 20, warmup = 2, bytes = 8, counts[MAX_COUNTS];
    int ncounts = 0, rank, size, status = 0, flag = 0, *global = NULL;
    char *buf = NULL;
    MPI_Request *requests = NULL;
    double *sender = NULL, *last = NULL;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    /* Every rank has the same arguments: every rank reaches the same verdict. */
    for (int i = 1; i < argc && status == 0; i++) {
        int option = bench_loop_option(argc, argv, &i, &iterations, &warmup);
        if (option) {
            if (option < 0) status = EXIT_USAGE;
        } else if (strcmp(argv[i], "--bytes") == 0) {
            bytes = i + 1 < argc ? bench_parse_size(argv[++i]) : -1;
            if (bytes < 0) status = EXIT_USAGE;
        } else if (ncounts == MAX_COUNTS || (counts[ncounts] = bench_parse_count(argv[i])) < 1 ||
                   counts[ncounts] >= size) {
            status = EXIT_USAGE;
        } else {
            ncounts++;
        }
    }
    if (status == 0 && ncounts == 0) status = EXIT_USAGE;
    if (status) {
        if (rank == 0)
            fprintf(stderr,
                    "usage: " PROG " [--iterations N>0] [--warmup N] [--bytes B] K [K...] "
                    "(receivers, 1 <= K < ranks = %d; at most %d of them)\n",
                    size, MAX_COUNTS);
        goto done;
    }
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_WTIME_IS_GLOBAL, &global, &flag);
    if (!flag || !*global) {
        if (rank == 0)
            fprintf(stderr, PROG ": the ranks' clocks are not one clock (MPI_WTIME_IS_GLOBAL): "
                            "the fan-out cannot be timed from a common start\n");
        status = EXIT_USAGE;
        goto done;
    }

    buf = malloc((size_t)bytes + 1);
    requests = malloc((size_t)size * sizeof *requests);
    sender = malloc((size_t)iterations * sizeof *sender);
    last = malloc((size_t)iterations * sizeof *last);
    if (!buf || !requests || !sender || !last) {
        fprintf(stderr, PROG ": rank %d: out of memory\n", rank);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }

    if (rank == 0)
        printf("# %10s %12s %16s %12s %12s\n", "receivers", "sender_us", "per_message_us",
               "rate_M/s", "last_us");
    for (int c = 0; c < ncounts; c++) {
        int k = (int)counts[c], wrong = 0;
        for (long i = -warmup; i < iterations; i++) {
            if (rank == 0)
                for (long b = 0; b < bytes; b++) buf[b] = (char)(b * 7 + 1);
            double start = common_start();
            double mine = fan_out(rank, k, buf, requests, (int)bytes, start), latest;
            if (mine < 0) wrong = 1, mine = 0;
            /* Untimed: after the fan-out, outside the measured interval. */
            MPI_Reduce(&mine, &latest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
            if (i >= 0 && rank == 0) sender[i] = mine, last[i] = latest;
        }
        int any_wrong;
        MPI_Allreduce(&wrong, &any_wrong, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        if (any_wrong) {
            if (rank == 0) fprintf(stderr, PROG ": %d receivers: a message arrived changed\n", k);
            status = 1;
        }
        if (rank != 0) continue;
        double send = bench_median(sender, iterations);
        printf("  %10d %12.3f %16.3f %12.3f %12.3f\n", k, 1e6 * send, 1e6 * send / k,
               send > 0 ? k / send / 1e6 : 0.0, 1e6 * bench_median(last, iterations));
        fflush(stdout);
    }

done:
    free(last);
    free(sender);
    free(requests);
    free(buf);
    MPI_Finalize();
    return status;
}

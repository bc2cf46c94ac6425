/*
 * overlap.c - a pipelined-CG-like loop: each iteration starts an allreduce of BYTES (the dot
 * products of a pipelined Krylov solver), computes for COMPUTE microseconds (the stencil) and
 * waits for the allreduce; or, with --collective alltoall, an FFT-like one: an alltoall of BYTES
 * a block (a transpose) overlapped with the computation of another pencil; or, with --collective
 * neighbor_alltoall, a stencil's halo exchange: a neighbourhood alltoall of BYTES an edge on a
 * periodic 3-D Cartesian communicator over all ranks (MPI_Dims_create) overlapped with the
 * computation of the interior. The computation
 * is cut into SLICES with an MPI_Test after each of the first SLICES-1 (the progress a solver's
 * library gives its collective, as PETSc's pipelined solvers do between kernels); 1 slice: no
 * test, start then compute then wait.
 *
 *   overlap [--collective allreduce|alltoall|neighbor_alltoall] [--bytes B] [--compute US]
 *           [--slices K]
 *           [--iterations N] [--mode M]
 *
 * Modes: nonblocking (MPI_Iallreduce, MPI_Ialltoall or MPI_Ineighbor_alltoall, the default),
 * persistent (MPI_Allreduce_init, MPI_Alltoall_init or MPI_Neighbor_alltoall_init once, then
 * MPI_Start; MPI-4 libraries only), blocking (compute, then the blocking collective: no
 * overlap).
 * Computation is nanosleep: simulated time at no host cost under SMPI (docs/simgrid.md), real
 * time elsewhere. Every iteration starts at one instant: where the ranks share a clock
 * (MPI_WTIME_IS_GLOBAL: SMPI) they agree on the latest of their clocks (PMPI_Allreduce, untimed,
 * not the layer's) and each sleeps until 1 ms after it; elsewhere after an MPI_Barrier. Its time
 * is the slowest rank's from that start to its wait's return; the output is one line of JSON
 * with the median and the quartiles over the iterations after the first fifth:
 *
 *   {"collective": "allreduce", "bytes": 8, "compute_us": 50, "slices": 4,
 *    "mode": "nonblocking", "ranks": 16, "iterations": 100, "median_us": ..., "q1_us": ...,
 *    "q3_us": ...}
 *
 * Run natively, under LD_PRELOAD with AUTOCOLL_ALLREDUCE (AUTOCOLL_ALLTOALL,
 * AUTOCOLL_NEIGHBOR_ALLTOALL) forcing an algorithm written as a schedule (docs/nonblocking.md),
 * or linked with the SimGrid build (`autocoll simgrid run`; SMPI 3.32 has no neighbourhood
 * collectives of its own: the layer's run them there).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void sleep_seconds(double seconds)
{
    struct timespec ts = {.tv_sec = (time_t)seconds};
    ts.tv_nsec = (long)((seconds - (double)ts.tv_sec) * 1e9);
    if (ts.tv_sec > 0 || ts.tv_nsec > 0) nanosleep(&ts, NULL);
}

/* The iteration's start, at one instant on every rank (see above). */
static double start_together(int global_clock)
{
    if (!global_clock) {
        MPI_Barrier(MPI_COMM_WORLD);
        return MPI_Wtime();
    }
    double now = MPI_Wtime(), start;
    PMPI_Allreduce(&now, &start, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    start += 1e-3;
    now = MPI_Wtime();
    if (now < start) sleep_seconds(start - now);
    return start;
}

typedef enum { ALLREDUCE, ALLTOALL, NEIGHBOR_ALLTOALL } kind;

/* The blocking collective on comm: the allreduce of count doubles, or the alltoall (the
 * neighbourhood alltoall) of count a block. */
static void blocking_call(kind k, const double *x, double *y, int count, MPI_Comm comm)
{
    if (k == ALLTOALL)
        MPI_Alltoall(x, count, MPI_DOUBLE, y, count, MPI_DOUBLE, comm);
    else if (k == NEIGHBOR_ALLTOALL)
        MPI_Neighbor_alltoall(x, count, MPI_DOUBLE, y, count, MPI_DOUBLE, comm);
    else
        MPI_Allreduce(x, y, count, MPI_DOUBLE, MPI_SUM, comm);
}

/* ... its nonblocking form */
static void start_call(kind k, const double *x, double *y, int count, MPI_Comm comm,
                       MPI_Request *req)
{
    if (k == ALLTOALL)
        MPI_Ialltoall(x, count, MPI_DOUBLE, y, count, MPI_DOUBLE, comm, req);
    else if (k == NEIGHBOR_ALLTOALL)
        MPI_Ineighbor_alltoall(x, count, MPI_DOUBLE, y, count, MPI_DOUBLE, comm, req);
    else
        MPI_Iallreduce(x, y, count, MPI_DOUBLE, MPI_SUM, comm, req);
}

int main(int argc, char **argv)
{
    long bytes = 8;
    int compute_us = 50, slices = 1, iterations = 100, rank, size;
    const char *mode = "nonblocking", *collective = "allreduce";
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--bytes") == 0)
            bytes = atol(argv[i + 1]);
        else if (strcmp(argv[i], "--compute") == 0)
            compute_us = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--slices") == 0)
            slices = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--iterations") == 0)
            iterations = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--mode") == 0)
            mode = argv[i + 1];
        else if (strcmp(argv[i], "--collective") == 0)
            collective = argv[i + 1];
        else {
            if (rank == 0) fprintf(stderr, "overlap: unknown option %s\n", argv[i]);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
    }
    int persistent = strcmp(mode, "persistent") == 0, blocking = strcmp(mode, "blocking") == 0;
    kind k = strcmp(collective, "alltoall") == 0            ? ALLTOALL
             : strcmp(collective, "neighbor_alltoall") == 0 ? NEIGHBOR_ALLTOALL
                                                            : ALLREDUCE;
    if ((!persistent && !blocking && strcmp(mode, "nonblocking") != 0) || bytes < 8 ||
        (k == ALLREDUCE && strcmp(collective, "allreduce") != 0) ||
        slices < 1 || iterations < 5 || compute_us < 0) {
        if (rank == 0) fprintf(stderr, "overlap: bad arguments\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
#if MPI_VERSION < 4
    if (persistent) {
        if (rank == 0) fprintf(stderr, "overlap: persistent collectives need an MPI-4 library\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
#endif
    MPI_Comm comm = MPI_COMM_WORLD;
    int dims[3] = {0, 0, 0}, periods[3] = {1, 1, 1};
    if (k == NEIGHBOR_ALLTOALL) {
        MPI_Dims_create(size, 3, dims);
        MPI_Cart_create(MPI_COMM_WORLD, 3, dims, periods, 0, &comm);
    }
    /* count: a block's doubles */
    int count = (int)(bytes / 8), blocks = k == ALLTOALL ? size : k == NEIGHBOR_ALLTOALL ? 6 : 1;
    double *x = malloc(sizeof(double) * (size_t)count * blocks);
    double *y = malloc(sizeof(double) * (size_t)count * blocks);
    double *t = malloc(sizeof(double) * (size_t)iterations);
    for (int i = 0; i < count * blocks; i++)
        x[i] = rank + i;
    int *global = NULL, flag = 0;
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_WTIME_IS_GLOBAL, &global, &flag);
    int global_clock = flag && global && *global;
    MPI_Request req = MPI_REQUEST_NULL;
    /* a first blocking call: the layer keeps state for the communicator from there on */
    blocking_call(k, x, y, count, comm);
#if MPI_VERSION >= 4
    if (persistent && k == ALLTOALL)
        MPI_Alltoall_init(x, count, MPI_DOUBLE, y, count, MPI_DOUBLE, comm, MPI_INFO_NULL, &req);
    else if (persistent && k == NEIGHBOR_ALLTOALL)
        MPI_Neighbor_alltoall_init(x, count, MPI_DOUBLE, y, count, MPI_DOUBLE, comm,
                                   MPI_INFO_NULL, &req);
    else if (persistent)
        MPI_Allreduce_init(x, y, count, MPI_DOUBLE, MPI_SUM, comm, MPI_INFO_NULL, &req);
#endif
    for (int it = 0; it < iterations; it++) {
        double t0 = start_together(global_clock);
        if (blocking) {
            sleep_seconds(1e-6 * compute_us);
            blocking_call(k, x, y, count, comm);
        } else {
            if (persistent)
                MPI_Start(&req);
            else
                start_call(k, x, y, count, comm, &req);
            for (int s = 0; s < slices; s++) {
                /* the slices' lengths add up to compute_us exactly */
                int len = compute_us * (s + 1) / slices - compute_us * s / slices;
                if (len > 0) sleep_seconds(1e-6 * len);
                if (s + 1 < slices) {
                    int flag;
                    MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
                }
            }
            MPI_Wait(&req, MPI_STATUS_IGNORE);
        }
        t[it] = MPI_Wtime() - t0;
    }
    MPI_Allreduce(MPI_IN_PLACE, t, iterations, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
#if MPI_VERSION >= 4
    if (persistent) MPI_Request_free(&req);
#endif
    int skip = iterations / 5, n = iterations - skip;
    qsort(t + skip, (size_t)n, sizeof *t, cmp_double);
    if (rank == 0)
        printf("{\"collective\": \"%s\", \"bytes\": %ld, \"compute_us\": %d, \"slices\": %d, "
               "\"mode\": \"%s\", \"ranks\": %d, \"iterations\": %d, \"median_us\": %.4f, "
               "\"q1_us\": %.4f, \"q3_us\": %.4f}\n",
               collective, bytes, compute_us, slices, mode, size, iterations, 1e6 * t[skip + n / 2],
               1e6 * t[skip + n / 4], 1e6 * t[skip + (3 * n) / 4]);
    free(x);
    free(y);
    free(t);
    if (comm != MPI_COMM_WORLD) MPI_Comm_free(&comm);
    MPI_Finalize();
    return 0;
}

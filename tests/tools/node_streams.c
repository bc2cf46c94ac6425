/*
 * node_streams.c - pairs of ranks (2i sends to 2i + 1) each move 1 MiB as N messages of
 * 1 MiB / N bytes posted at once (MPI_Isend / MPI_Irecv, one MPI_Waitall), started together
 * after a barrier. Prints the time until the last receiver has its last message, in
 * microseconds: "pairs P messages N: T us". tests/tools/test_platforms.py runs it on simulated
 * nodes to see what bounds a pair (its cores) and a node (its memory).
 * Usage: node_streams SEGMENT_BYTES (a divisor of 1 MiB, at least 256); an even rank count.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size, seg = argc > 1 ? atoi(argv[1]) : 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (seg < 256 || (1 << 20) % seg != 0 || size % 2 != 0) {
        if (rank == 0)
            fprintf(stderr, "node_streams: SEGMENT_BYTES must divide 1 MiB, >= 256; even ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    int n = (1 << 20) / seg;
    char *buf = malloc(1 << 20);
    MPI_Request *req = malloc(sizeof *req * (size_t)n);
    if (!buf || !req) MPI_Abort(MPI_COMM_WORLD, 3);
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (int i = 0; i < n; i++) {
        if (rank % 2 == 0)
            MPI_Isend(buf + (size_t)i * seg, seg, MPI_BYTE, rank + 1, i, MPI_COMM_WORLD, &req[i]);
        else
            MPI_Irecv(buf + (size_t)i * seg, seg, MPI_BYTE, rank - 1, i, MPI_COMM_WORLD, &req[i]);
    }
    MPI_Waitall(n, req, MPI_STATUSES_IGNORE);
    double t = MPI_Wtime() - t0, last = 0.0;
    MPI_Reduce(&t, &last, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank == 0) printf("pairs %d messages %d: %.3f us\n", size / 2, n, last * 1e6);
    free(req);
    free(buf);
    MPI_Finalize();
    return 0;
}

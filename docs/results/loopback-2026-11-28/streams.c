/*
 * streams.c - rank 0 sends 1 MiB to rank 1 as N messages of 1 MiB / N bytes posted at once
 * (MPI_Isend / MPI_Irecv, one MPI_Waitall), started together after a barrier; rank 1 prints the
 * time until its last message arrived. On two ranks of one simulated node it shows how much a
 * pair moves through the node's loopback link when its messages travel side by side.
 * Usage: streams SEGMENT_BYTES (a divisor of 1 MiB, at least 256).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, seg = argc > 1 ? atoi(argv[1]) : 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (seg < 256 || (1 << 20) % seg != 0) {
        if (rank == 0) fprintf(stderr, "streams: SEGMENT_BYTES must divide 1 MiB, >= 256\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    int n = (1 << 20) / seg;
    char *buf = malloc(1 << 20);
    MPI_Request *req = malloc(sizeof *req * (size_t)n);
    MPI_Status *st = malloc(sizeof *st * (size_t)n);
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (int i = 0; i < n; i++) {
        if (rank == 0)
            MPI_Isend(buf + (size_t)i * seg, seg, MPI_BYTE, 1, i, MPI_COMM_WORLD, &req[i]);
        else if (rank == 1)
            MPI_Irecv(buf + (size_t)i * seg, seg, MPI_BYTE, 0, i, MPI_COMM_WORLD, &req[i]);
    }
    if (rank < 2) MPI_Waitall(n, req, st);
    double t = MPI_Wtime() - t0;
    if (rank == 1)
        printf("%d messages of %d B: %.2f us, %.2f GB/s\n", n, seg, t * 1e6, (1 << 20) / t / 1e9);
    free(st);
    free(req);
    free(buf);
    MPI_Finalize();
    return 0;
}

/*
 * neighbor_exchange.c - the time of one MPI_Neighbor_alltoall on a periodic Cartesian
 * communicator over all ranks (MPI_Dims_create), blocks of BYTES per neighbour. Plain MPI,
 * linked without autocoll: run natively, or with LD_PRELOAD=libautocoll.so and
 * AUTOCOLL_NEIGHBOR_ALLTOALL=<algorithm> to time one of the layer's (docs/neighbor.md); the
 * SimGrid build links the layer.
 *
 *   neighbor_exchange NDIMS BYTES ITERATIONS
 *
 * Prints "neighbor_exchange: <ndims>-D <dims> <bytes> B <seconds> s/call" (the slowest rank's
 * mean over ITERATIONS calls after 10 warm-up calls, each timed run started by a barrier).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int rank, size, dims[3] = {0, 0, 0}, periods[3] = {1, 1, 1};
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc != 4 || atoi(argv[1]) < 1 || atoi(argv[1]) > 3 || atoi(argv[2]) < 0 ||
        atoi(argv[3]) < 1) {
        if (rank == 0) fprintf(stderr, "usage: neighbor_exchange NDIMS(1-3) BYTES ITERATIONS\n");
        MPI_Finalize();
        return 2;
    }
    int ndims = atoi(argv[1]), bytes = atoi(argv[2]), iterations = atoi(argv[3]);
    MPI_Comm cart;
    MPI_Dims_create(size, ndims, dims);
    MPI_Cart_create(MPI_COMM_WORLD, ndims, dims, periods, 0, &cart);
    size_t total = (size_t)bytes * 2 * (size_t)ndims;
    char *sbuf = calloc(total + 1, 1), *rbuf = calloc(total + 1, 1);
    for (int i = 0; i < 10; i++)
        MPI_Neighbor_alltoall(sbuf, bytes, MPI_BYTE, rbuf, bytes, MPI_BYTE, cart);
    MPI_Barrier(cart);
    double start = MPI_Wtime();
    for (int i = 0; i < iterations; i++)
        MPI_Neighbor_alltoall(sbuf, bytes, MPI_BYTE, rbuf, bytes, MPI_BYTE, cart);
    double mean = (MPI_Wtime() - start) / iterations, slowest;
    slowest = mean; /* SMPI 3.32's MPI_Reduce aborts on one process ("Actor pid=-1 is gone") */
    if (size > 1) MPI_Reduce(&mean, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, cart);
    if (rank == 0)
        printf("neighbor_exchange: %d-D %dx%dx%d %d B %.9g s/call\n", ndims, dims[0],
               ndims > 1 ? dims[1] : 1, ndims > 2 ? dims[2] : 1, bytes, slowest);
    free(sbuf);
    free(rbuf);
    MPI_Comm_free(&cart);
    MPI_Finalize();
    return 0;
}

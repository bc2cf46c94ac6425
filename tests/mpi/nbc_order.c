/*
 * nbc_order.c - MPI-4 persistent collective requests started in different orders on different
 * ranks, which MPI allows (MPICH's test/mpi/coll/p_order does it with a bcast and a barrier):
 * four requests on MPI_COMM_WORLD (MPI_Allreduce_init of 100 ints, MPI_Barrier_init,
 * MPI_Alltoall_init of 1 int a block, MPI_Bcast_init of 100 ints from the last rank), started
 * 12 times, each rank in its own order that changes with the round (rotations of the four, one
 * way on even ranks and the other on odd ones), then completed by MPI_Waitall (or, every third
 * round, by MPI_Wait in the reverse of its start order); every result checked, then the
 * requests freed.
 *
 * Natively the library's own requests; under the layer with a learning strategy each request
 * races its candidates, the library's own among them (docs/nonblocking.md: the library's
 * persistent request is made at the initialisation, in one order everywhere, and started with
 * MPI_Start; started as a nonblocking collective at each start, two ranks would start the
 * library's collectives in different orders and hang).
 *
 * Prints "nbc_order: ok" and exits 0, or names the first failing check and exits 1. Without
 * MPI-4 persistent collectives it prints "nbc_order: no persistent collectives" and exits 0
 * (test_layer.py runs it under MPICH only).
 */
#include "nbc_common.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#if MPI_VERSION >= 4
enum { ROUNDS = 12, N = 100, K = 4 };

static void check(int ok, const char *what, int round)
{
    if (!ok && failures++ < 10)
        fprintf(stderr, "nbc_order: rank %d: FAILED %s (round %d)\n", rank, what, round);
}

int main(int argc, char **argv)
{
    nbc_start(&argc, &argv);
    int s[N], r[N], b[N], root = size - 1, *as = malloc(sizeof(int) * (size_t)size),
                    *ar = malloc(sizeof(int) * (size_t)size);
    MPI_Request q[K];
    MPI_Allreduce_init(s, r, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &q[0]);
    MPI_Barrier_init(MPI_COMM_WORLD, MPI_INFO_NULL, &q[1]);
    MPI_Alltoall_init(as, 1, MPI_INT, ar, 1, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL, &q[2]);
    MPI_Bcast_init(b, N, MPI_INT, root, MPI_COMM_WORLD, MPI_INFO_NULL, &q[3]);
    for (int round = 0; round < ROUNDS; round++) {
        fill(s, N, round);
        for (int d = 0; d < size; d++)
            as[d] = rank * 1000 + d * 10 + round, ar[d] = -1;
        for (int i = 0; i < N; i++)
            b[i] = rank == root ? i * 3 + round : -1;
        int order[K];
        for (int k = 0; k < K; k++)
            order[k] = rank % 2 ? (round + K - k) % K : (round + k) % K;
        for (int k = 0; k < K; k++)
            MPI_Start(&q[order[k]]);
        if (round % 3 == 2)
            for (int k = K - 1; k >= 0; k--)
                MPI_Wait(&q[order[k]], MPI_STATUS_IGNORE);
        else
            MPI_Waitall(K, q, statuses_ignore());
        check(sum_ok(r, N, round), "persistent allreduce", round);
        int ok = 1;
        for (int d = 0; d < size; d++)
            ok &= ar[d] == d * 1000 + rank * 10 + round;
        check(ok, "persistent alltoall", round);
        ok = 1;
        for (int i = 0; i < N; i++)
            ok &= b[i] == i * 3 + round;
        check(ok, "persistent bcast", round);
    }
    for (int k = 0; k < K; k++) {
        MPI_Request_free(&q[k]);
        check(q[k] == MPI_REQUEST_NULL, "MPI_Request_free nulls", k);
    }
    free(as);
    free(ar);
    return nbc_finish("nbc_order");
}
#else
int main(int argc, char **argv)
{
    nbc_start(&argc, &argv);
    if (rank == 0) printf("nbc_order: no persistent collectives\n");
    MPI_Finalize();
    return 0;
}
#endif

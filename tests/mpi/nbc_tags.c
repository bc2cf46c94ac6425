/*
 * nbc_tags.c - persistent requests that live while many nonblocking collectives run on the same
 * communicator (a solver's persistent allreduces, made once, among the nonblocking calls of its
 * iterations): K = 32 MPI_Allreduce_init of 64 ints, then 16384 - K MPI_Iallreduce of 64 ints,
 * each waited for; then the K persistent ones started together with K more MPI_Iallreduce (the
 * 16385th to 16416th nonblocking or persistent calls on the communicator), all completed by one
 * MPI_Waitall; every result checked.
 *
 * The layer tags each request's messages with its own tag on the private communicator. Taken
 * from one counter of 16384 tags (before 2026-11-27), the last K calls got the persistent
 * requests' tags, and with both in flight, messages of one matched the other's receives where
 * two ranks posted them in different orders: persistent requests now take their tags from a
 * range of their own (intercept/requests.c).
 *
 * Prints "nbc_tags: ok" and exits 0, or names the first failing check and exits 1. Without
 * MPI-4 persistent collectives it prints "nbc_tags: no persistent collectives" and exits 0.
 */
#include "nbc_common.h"

#include <mpi.h>
#include <stdio.h>

#if MPI_VERSION >= 4
enum { N = 64, CALLS = 16384, K = 32 };

static void check(int ok, const char *what, int k)
{
    if (!ok && failures++ < 10)
        fprintf(stderr, "nbc_tags: rank %d: FAILED %s %d\n", rank, what, k);
}

int main(int argc, char **argv)
{
    nbc_start(&argc, &argv);
    static int ps[K][N], pr[K][N], s[K][N], r[K][N];
    MPI_Request q[2 * K];
    for (int k = 0; k < K; k++)
        MPI_Allreduce_init(ps[k], pr[k], N, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL,
                           &q[k]);
    for (int call = K; call < CALLS; call++) {
        fill(s[0], N, call % 1000);
        MPI_Iallreduce(s[0], r[0], N, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &q[K]);
        MPI_Wait(&q[K], MPI_STATUS_IGNORE);
        check(sum_ok(r[0], N, call % 1000), "iallreduce", call);
    }
    for (int k = 0; k < K; k++) {
        fill(ps[k], N, k);
        fill(s[k], N, 500 + k);
        MPI_Start(&q[k]);
        MPI_Iallreduce(s[k], r[k], N, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &q[K + k]);
    }
    MPI_Waitall(2 * K, q, statuses_ignore());
    for (int k = 0; k < K; k++) {
        check(sum_ok(pr[k], N, k), "persistent allreduce", k);
        check(sum_ok(r[k], N, 500 + k), "iallreduce beside it", k);
        MPI_Request_free(&q[k]);
    }
    return nbc_finish("nbc_tags");
}
#else
int main(int argc, char **argv)
{
    nbc_start(&argc, &argv);
    if (rank == 0) printf("nbc_tags: no persistent collectives\n");
    MPI_Finalize();
    return 0;
}
#endif

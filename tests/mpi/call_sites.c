/*
 * call_sites.c - MPI_Allreduce from two lines of one function, for the report's names of call
 * sites (tests/tools/test_profile.py): built with debug information (call_sites), without
 * (call_sites_nodebug) and stripped (call_sites_stripped). Each call line carries a marker
 * comment the test finds to know the line the report must name. Results are checked.
 *
 *   call_sites [iterations]   (default 200)
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define N 64

/* Not inlined, so that the symbol containing the calls is this function. */
static __attribute__((noinline)) long exchange(int iterations, MPI_Comm comm)
{
    int rank, size;
    int mine[N], sum[N], ranks[2], maxima[2];
    long wrong = 0;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    for (int it = 0; it < iterations; it++) {
        for (int i = 0; i < N; i++)
            mine[i] = rank + i + it;
        MPI_Allreduce(mine, sum, N, MPI_INT, MPI_SUM, comm); /* call site: first */
        for (int i = 0; i < N; i++)
            wrong += sum[i] != size * (i + it) + size * (size - 1) / 2;
        ranks[0] = rank;
        ranks[1] = it - rank;
        MPI_Allreduce(ranks, maxima, 2, MPI_INT, MPI_MAX, comm); /* call site: second */
        wrong += maxima[0] != size - 1 || maxima[1] != it;
    }
    return wrong;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int iterations = argc > 1 ? atoi(argv[1]) : 200, rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    long wrong = exchange(iterations, MPI_COMM_WORLD), total = 0;
    MPI_Reduce(&wrong, &total, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("call_sites: %d iterations, %s\n", iterations, total ? "WRONG RESULTS" : "ok");
    MPI_Finalize();
    return total != 0;
}

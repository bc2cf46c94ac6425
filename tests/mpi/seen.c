/*
 * seen.c - the collectives the layer does not run (src/intercept/seen.c): each must reach the
 * library untouched (results checked) and be counted in the report's "seen". The calls, one
 * line each in the order tests/tools/test_layer.py expects them counted:
 *   MPI_Scan x2, MPI_Exscan x1, MPI_Gatherv x1, MPI_Scatterv x1, MPI_Alltoallw x1,
 *   MPI_Iallreduce x5 (8 B each), MPI_Ibcast x1 (16 B), MPI_Ibarrier x1, MPI_Ialltoall x1,
 *   and where the library is MPI-4 (MPICH here): MPI_Allreduce_init x1 started 3 times,
 *   MPI_Iallreduce_c x2.
 * Prints "seen: ok" when every result is what MPI defines.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int rank, size, errors = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int one = rank + 1, out = -1;
    for (int i = 0; i < 2; i++) { /* inclusive prefix sum of 1..rank+1 */
        MPI_Scan(&one, &out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        errors += out != (rank + 1) * (rank + 2) / 2;
    }
    out = -1;
    MPI_Exscan(&one, &out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    errors += rank > 0 && out != rank * (rank + 1) / 2;

    int *all = malloc(sizeof(int) * (size_t)size), *counts = malloc(sizeof(int) * (size_t)size),
        *displs = malloc(sizeof(int) * (size_t)size);
    MPI_Datatype *types = malloc(sizeof(MPI_Datatype) * (size_t)size);
    int *sbuf = malloc(sizeof(int) * (size_t)size), *rbuf = malloc(sizeof(int) * (size_t)size);
    int *wdispls = malloc(sizeof(int) * (size_t)size);
    for (int r = 0; r < size; r++) {
        counts[r] = 1;
        displs[r] = r;
        wdispls[r] = r * (int)sizeof(int);
        types[r] = MPI_INT;
        sbuf[r] = rank * 100 + r;
    }
    MPI_Gatherv(&rank, 1, MPI_INT, all, counts, displs, MPI_INT, 0, MPI_COMM_WORLD);
    for (int r = 0; rank == 0 && r < size; r++) errors += all[r] != r;
    int got = -1;
    for (int r = 0; r < size; r++) all[r] = 7 * r;
    MPI_Scatterv(all, counts, displs, MPI_INT, &got, 1, MPI_INT, 0, MPI_COMM_WORLD);
    errors += got != 7 * rank;
    MPI_Alltoallw(sbuf, counts, wdispls, types, rbuf, counts, wdispls, types, MPI_COMM_WORLD);
    for (int r = 0; r < size; r++) errors += rbuf[r] != r * 100 + rank;

    double x = 1.0;
    MPI_Request req[5];
    double sums[5];
    for (int i = 0; i < 5; i++)
        MPI_Iallreduce(&x, &sums[i], 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &req[i]);
    MPI_Status statuses[5]; /* not MPI_STATUSES_IGNORE: GCC 12 misreads MPICH's */
    MPI_Waitall(5, req, statuses);
    for (int i = 0; i < 5; i++) errors += sums[i] != size;
    int pair[4] = {rank == 0 ? 5 : 0, rank == 0 ? 6 : 0, 0, 0};
    MPI_Request r1;
    MPI_Ibcast(pair, 4, MPI_INT, 0, MPI_COMM_WORLD, &r1);
    MPI_Wait(&r1, MPI_STATUS_IGNORE);
    errors += pair[0] != 5 || pair[1] != 6;
    MPI_Ibarrier(MPI_COMM_WORLD, &r1);
    MPI_Wait(&r1, MPI_STATUS_IGNORE);
    MPI_Ialltoall(sbuf, 1, MPI_INT, rbuf, 1, MPI_INT, MPI_COMM_WORLD, &r1);
    MPI_Wait(&r1, MPI_STATUS_IGNORE);
    for (int r = 0; r < size; r++) errors += rbuf[r] != r * 100 + rank;

#if MPI_VERSION >= 4
    double sum = 0.0;
    MPI_Request p;
    MPI_Allreduce_init(&x, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &p);
    for (int i = 0; i < 3; i++) {
        sum = 0.0;
        MPI_Start(&p);
        MPI_Wait(&p, MPI_STATUS_IGNORE);
        errors += sum != size;
    }
    MPI_Request_free(&p);
    for (int i = 0; i < 2; i++) {
        MPI_Iallreduce_c(&x, &sum, (MPI_Count)1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &r1);
        MPI_Wait(&r1, MPI_STATUS_IGNORE);
        errors += sum != size;
    }
#endif
    free(all);
    free(counts);
    free(displs);
    free(types);
    free(sbuf);
    free(rbuf);
    free(wdispls);
    int total = 0;
    MPI_Allreduce(&errors, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) printf(total ? "seen: %d wrong results\n" : "seen: ok\n", total);
    MPI_Finalize();
    return total != 0;
}

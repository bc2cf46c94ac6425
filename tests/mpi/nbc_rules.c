/*
 * nbc_rules.c - MPI's progress and ordering rules for nonblocking (and, where the library is
 * MPI-4, persistent) collectives, checked under the layer as natively (issue 42 item 3;
 * tests/tools/test_layer.py runs it both ways under both MPIs, with a time limit: a deadlock
 * fails). Every case checks its results; the program prints "nbc_rules: ok" when all hold,
 * else one line per wrong case.
 *
 *  1. progress: rank 0 starts an MPI_Iallreduce, then blocks in MPI_Recv of a message that
 *     rank 1 sends synchronously (MPI_Ssend) before it starts the same collective; then both
 *     wait (MPI 4.1, 6.12: a nonblocking collective must not block the ranks that start it).
 *  2. several outstanding collectives on one communicator (Ibcast, Iallreduce, Ibarrier,
 *     Iallgather), started in one order on every rank, waited for in reverse order.
 *  3. a layer-run blocking collective between the start and the wait of a nonblocking one on
 *     the same communicator (MPI_Allreduce while an MPI_Ibcast is outstanding).
 *  4. an MPI_Test loop until completion.
 *  5. collective requests mixed with the program's own point-to-point requests in one
 *     MPI_Waitall, and completed one by one with MPI_Testany.
 *  6. (MPI-4) a persistent MPI_Allreduce_init started three times, then MPI_Request_free; a
 *     second one freed while never started.
 *  7. progress while a rank is blocked in an allreduce on another communicator that the
 *     others join only after their wait for a nonblocking one that needs the blocked rank's
 *     part;
 *  8. a nonblocking and a blocking collective on two communicators, started in different
 *     orders by different ranks.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int errors;

static void check(int ok, int rank, const char *what)
{
    if (!ok) {
        printf("nbc_rules: rank %d: %s wrong\n", rank, what);
        errors++;
    }
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int expect_sum = size * (size + 1) / 2; /* sum over ranks of rank + 1 */

    /* 1. progress across a point-to-point dependency */
    {
        int one = rank + 1, sum = 0, token = -1;
        MPI_Request r;
        if (rank == 0) {
            MPI_Iallreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r);
            if (size > 1) MPI_Recv(&token, 1, MPI_INT, 1, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else if (rank == 1) {
            token = 42;
            /* synchronous: completes only once rank 0, past its start, has posted the receive;
             * a start that blocked until every rank joined would hang here */
            MPI_Ssend(&token, 1, MPI_INT, 0, 7, MPI_COMM_WORLD);
            MPI_Iallreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r);
        } else {
            MPI_Iallreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r);
        }
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        check(sum == expect_sum, rank, "1. Iallreduce across a Send/Recv");
        check(rank != 0 || size == 1 || token == 42, rank, "1. the message");
    }

    /* 2. several outstanding, waited for in reverse order */
    {
        int b = rank == 0 ? 5 : -1, one = rank + 1, sum = 0;
        int *all = malloc(sizeof(int) * (size_t)size);
        MPI_Request r[4];
        MPI_Ibcast(&b, 1, MPI_INT, 0, MPI_COMM_WORLD, &r[0]);
        MPI_Iallreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r[1]);
        MPI_Ibarrier(MPI_COMM_WORLD, &r[2]);
        MPI_Iallgather(&rank, 1, MPI_INT, all, 1, MPI_INT, MPI_COMM_WORLD, &r[3]);
        for (int i = 3; i >= 0; i--)
            MPI_Wait(&r[i], MPI_STATUS_IGNORE);
        check(b == 5, rank, "2. Ibcast");
        check(sum == expect_sum, rank, "2. Iallreduce");
        for (int i = 0; i < size; i++)
            check(all[i] == i, rank, "2. Iallgather");
        free(all);
    }

    /* 3. a blocking collective the layer runs while a nonblocking one is outstanding */
    {
        double v[64], in[64], out[64];
        MPI_Request r;
        for (int i = 0; i < 64; i++) {
            v[i] = rank == 0 ? i : -1.0;
            in[i] = rank + i;
        }
        MPI_Ibcast(v, 64, MPI_DOUBLE, 0, MPI_COMM_WORLD, &r);
        MPI_Allreduce(in, out, 64, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        for (int i = 0; i < 64; i++) {
            check(v[i] == i, rank, "3. Ibcast");
            check(out[i] == (double)size * i + size * (size - 1) / 2.0, rank, "3. Allreduce");
        }
    }

    /* 4. a test loop */
    {
        int one = rank + 1, sum = 0, done = 0;
        long spins = 0;
        MPI_Request r;
        MPI_Iallreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r);
        while (!done) {
            MPI_Test(&r, &done, MPI_STATUS_IGNORE);
            spins++;
        }
        check(sum == expect_sum && r == MPI_REQUEST_NULL && spins > 0, rank, "4. Test loop");
    }

    /* 5. mixed with the program's own requests: Waitall, then Testany */
    {
        int to = (rank + 1) % size, from = (rank - 1 + size) % size;
        for (int round = 0; round < 2; round++) {
            int got = -1, sent = rank, one = rank + 1, sum = 0;
            MPI_Request r[3];
            MPI_Status st[3]; /* not MPI_STATUSES_IGNORE: MPICH's (MPI_Status *)1 trips gcc */
            MPI_Irecv(&got, 1, MPI_INT, from, 9, MPI_COMM_WORLD, &r[0]);
            MPI_Iallreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r[1]);
            MPI_Isend(&sent, 1, MPI_INT, to, 9, MPI_COMM_WORLD, &r[2]);
            if (round == 0) {
                MPI_Waitall(3, r, st);
            } else {
                int left = 3;
                while (left > 0) {
                    int index, flag;
                    MPI_Testany(3, r, &index, &flag, MPI_STATUS_IGNORE);
                    if (flag && index != MPI_UNDEFINED) left--;
                    if (flag && index == MPI_UNDEFINED) break;
                }
            }
            check(got == from, rank, round ? "5. Testany: the message" : "5. Waitall: the message");
            check(sum == expect_sum, rank, round ? "5. Testany: Iallreduce" : "5. Waitall: Iallreduce");
        }
    }

    /* 7. progress while blocked in a collective on another communicator: rank 0 starts an
     *    MPI_Iallreduce, then blocks in an allreduce on `other` that the other ranks join only
     *    once their wait for the Iallreduce has returned, which needs rank 0's part (the
     *    library's nonblocking collectives advance inside any call; under the layer this hung
     *    at 4 ranks until its blocking runs waited with its schedules: where the layer runs the
     *    blocking call as a schedule, docs/nonblocking.md);
     * 8. the same two collectives started in different orders on the two communicators: rank
     *    0 starts the Iallreduce before the blocking allreduce on `other`, the others after it
     *    (so a blocking call must not wait for the nonblocking ones to end first). */
    {
        enum { N = 1000 };
        static int in[N], out[N];
        MPI_Comm other;
        MPI_Comm_dup(MPI_COMM_WORLD, &other);
        for (int k = 0; k < 2; k++) {
            int x = rank + 1, y = 0, first = k == 0 || rank == 0;
            MPI_Request r;
            for (int i = 0; i < N; i++)
                in[i] = rank + i + k;
            if (first) MPI_Iallreduce(in, out, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r);
            if (k == 0 && rank != 0) MPI_Wait(&r, MPI_STATUS_IGNORE);
            MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, other);
            if (!first) MPI_Iallreduce(in, out, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r);
            if (k == 1 || rank == 0) MPI_Wait(&r, MPI_STATUS_IGNORE);
            int bad = 0;
            for (int i = 0; i < N; i++)
                bad += out[i] != size * (i + k) + size * (size - 1) / 2;
            check(!bad, rank, k == 0 ? "7. Iallreduce, a rank blocked in a collective"
                                     : "8. Iallreduce, started in another order");
            check(y == expect_sum, rank, "7, 8. Allreduce on another communicator");
        }
        MPI_Comm_free(&other);
    }

#if MPI_VERSION >= 4
    /* 6. persistent: started three times, then freed; another freed without a start */
    {
        int one = 0, sum = 0;
        MPI_Request p, never;
        MPI_Allreduce_init(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &p);
        for (int k = 1; k <= 3; k++) {
            one = rank * k;
            MPI_Start(&p);
            MPI_Wait(&p, MPI_STATUS_IGNORE);
            check(sum == k * size * (size - 1) / 2, rank, "6. a start of Allreduce_init");
        }
        MPI_Request_free(&p);
        check(p == MPI_REQUEST_NULL, rank, "6. Request_free");
        MPI_Allreduce_init(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL,
                           &never);
        MPI_Request_free(&never);
        check(never == MPI_REQUEST_NULL, rank, "6. Request_free of one never started");
    }
#endif

    int total = 0;
    MPI_Allreduce(&errors, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0 && total == 0) printf("nbc_rules: ok\n");
    MPI_Finalize();
    return total != 0;
}

/*
 * nbc_bcast.c - nonblocking and persistent bcasts as the layer runs them (AUTOCOLL_BCAST forcing
 * an algorithm written as a schedule, or a learning strategy racing them; natively, the
 * library's own): every result checked.
 *
 *  1. MPI_Ibcast of 0, 1 and 100 ints from every root, each waited for; and from the last rank
 *     into a strided type (every other int of 2 x 50) at the other ranks, the root sending 50
 *     contiguous ints (the same type signature); then 1 int with each rank in turn held up in
 *     MPI_Recv while the others wait (nbc_common.h, wait_behind_message);
 *  2. three outstanding (roots 0, size - 1 and size / 2) completed by MPI_Wait in reverse order,
 *     20 times (under a learning strategy: the race of the candidates and its agreement);
 *  3. one completed by an MPI_Test loop, and one by MPI_Waitall together with the
 *     application's own MPI_Isend/MPI_Irecv;
 *  4. MPI-4 (where the library has them): MPI_Bcast_init of 1000 ints (several segments of the
 *     pipelined trees) started 12 times with new data from root size - 1, then
 *     MPI_Request_free.
 *
 * Prints "nbc_bcast: ok" and exits 0, or names the first failing check and exits 1.
 */
#include "nbc_common.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { MAXN = 100 };

static void check(int ok, const char *what, int k)
{
    if (!ok && failures++ < 10)
        fprintf(stderr, "nbc_bcast: rank %d: FAILED %s (%d)\n", rank, what, k);
}

static int value(int root, int i, int salt)
{
    return root * 100000 + i * 7 + salt;
}

/* x holds the root's n values at the root, -1 elsewhere. */
static void prepare(int *x, int n, int root, int salt)
{
    for (int i = 0; i < n; i++)
        x[i] = rank == root ? value(root, i, salt) : -1;
}

static int bcast_ok(const int *x, int n, int root, int salt)
{
    for (int i = 0; i < n; i++)
        if (x[i] != value(root, i, salt)) return 0;
    return 1;
}

/* Each rank in turn held up in MPI_Recv while the others wait for an MPI_Ibcast of 1 int from
 * the rank before it (nbc_common.h, wait_behind_message). */
static void held_up(void)
{
    int x[1];
    for (int held = 0; held < size; held++) {
        int root = (held + size - 1) % size;
        prepare(x, 1, root, 40 + held);
        MPI_Request req;
        MPI_Ibcast(x, 1, MPI_INT, root, MPI_COMM_WORLD, &req);
        wait_behind_message(&req, held);
        check(bcast_ok(x, 1, root, 40 + held), "ibcast with a rank held up", held);
    }
}

static void waited(void)
{
    static const int counts[] = {0, 1, MAXN};
    int x[MAXN];
    for (int root = 0; root < size; root++)
        for (int c = 0; c < 3; c++) {
            int n = counts[c], salt = 10 * c + root;
            prepare(x, n, root, salt);
            MPI_Request req;
            MPI_Ibcast(x, n, MPI_INT, root, MPI_COMM_WORLD, &req);
            MPI_Wait(&req, MPI_STATUS_IGNORE);
            check(req == MPI_REQUEST_NULL && bcast_ok(x, n, root, salt), "ibcast", n);
        }
    /* a strided type at the receivers: every other int of 2 x 50 */
    MPI_Datatype strided;
    MPI_Type_vector(50, 1, 2, MPI_INT, &strided);
    MPI_Type_commit(&strided);
    int r[MAXN], root = size - 1;
    for (int i = 0; i < MAXN; i++)
        r[i] = rank == root && i < 50 ? value(root, i, 3) : -1;
    MPI_Request req;
    if (rank == root)
        MPI_Ibcast(r, 50, MPI_INT, root, MPI_COMM_WORLD, &req);
    else
        MPI_Ibcast(r, 1, strided, root, MPI_COMM_WORLD, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    int ok = 1;
    for (int i = 0; rank != root && i < 50; i++)
        ok &= r[2 * i] == value(root, i, 3) && r[2 * i + 1] == -1;
    check(ok, "ibcast into a strided type", 50);
    MPI_Type_free(&strided);
}

static void outstanding(void)
{
    int x[3][25], roots[3] = {0, size - 1, size / 2};
    for (int round = 0; round < 20; round++) {
        MPI_Request req[3];
        for (int k = 0; k < 3; k++) {
            int n = k == 1 ? 25 : 5;
            prepare(x[k], n, roots[k], round + k);
            MPI_Ibcast(x[k], n, MPI_INT, roots[k], MPI_COMM_WORLD, &req[k]);
        }
        for (int k = 2; k >= 0; k--)
            MPI_Wait(&req[k], MPI_STATUS_IGNORE);
        for (int k = 0; k < 3; k++)
            check(bcast_ok(x[k], k == 1 ? 25 : 5, roots[k], round + k), "outstanding ibcast",
                  round);
    }
}

static void tested_and_mixed(void)
{
    int x[MAXN], flag = 0;
    MPI_Request req;
    prepare(x, 37, 0, 5);
    MPI_Ibcast(x, 37, MPI_INT, 0, MPI_COMM_WORLD, &req);
    while (!flag)
        MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
    check(bcast_ok(x, 37, 0, 5), "ibcast by MPI_Test", 37);

    /* with the application's own messages in one MPI_Waitall: a ring of one int */
    int out = rank, in = -1;
    MPI_Request reqs[3];
    prepare(x, 60, size / 2, 6);
    MPI_Irecv(&in, 1, MPI_INT, (rank + size - 1) % size, 7, MPI_COMM_WORLD, &reqs[0]);
    MPI_Ibcast(x, 60, MPI_INT, size / 2, MPI_COMM_WORLD, &reqs[1]);
    MPI_Isend(&out, 1, MPI_INT, (rank + 1) % size, 7, MPI_COMM_WORLD, &reqs[2]);
    MPI_Waitall(3, reqs, statuses_ignore());
    check(bcast_ok(x, 60, size / 2, 6) && in == (rank + size - 1) % size,
          "ibcast in a Waitall with point-to-point", 60);
}

static void persistent(void)
{
#if MPI_VERSION >= 4
    enum { N = 1000 };
    int x[N], root = size - 1;
    MPI_Request req;
    MPI_Bcast_init(x, N, MPI_INT, root, MPI_COMM_WORLD, MPI_INFO_NULL, &req);
    for (int start = 0; start < 12; start++) {
        prepare(x, N, root, 50 + start);
        MPI_Start(&req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        check(req != MPI_REQUEST_NULL && bcast_ok(x, N, root, 50 + start), "bcast_init", start);
    }
    MPI_Request_free(&req);
    check(req == MPI_REQUEST_NULL, "request_free", 0);
#endif
}

int main(int argc, char **argv)
{
    nbc_start(&argc, &argv);
    waited();
    held_up();
    outstanding();
    tested_and_mixed();
    persistent();
    return nbc_finish("nbc_bcast");
}

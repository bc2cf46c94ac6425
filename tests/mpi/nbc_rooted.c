/*
 * nbc_rooted.c - nonblocking and persistent reduces, gathers and scatters as the layer runs them
 * (AUTOCOLL_REDUCE, AUTOCOLL_GATHER, AUTOCOLL_SCATTER forcing an algorithm written as a schedule,
 * or a learning strategy racing them; natively, the library's own): every result checked.
 *
 *  1. from every root: MPI_Ireduce (sum) of 0, 1, 100 and 1000 ints (1000: several segments of
 *     the pipelined trees), in place at the root for the last; MPI_Igather and MPI_Iscatter of
 *     the same block sizes, in place at the root for the last; each waited for;
 *  2. a non-commutative MPI_Ireduce (2x2 matrices multiplied in rank order) to the last rank;
 *     an MPI_Igather into a strided type at the root (every other int of 2 x 40) and an
 *     MPI_Iscatter into one at the other ranks, the other side contiguous (same signature);
 *  3. each rank in turn held up in MPI_Recv while the others wait for an MPI_Ireduce and an
 *     MPI_Igather (nbc_common.h, wait_behind_message);
 *  4. an Ireduce, an Igather and an Iscatter outstanding (roots 0, size - 1, size / 2) completed
 *     by MPI_Wait in reverse order, 20 times (under a learning strategy: the race of the
 *     candidates and its agreement);
 *  5. an Ireduce completed by an MPI_Test loop, and an Igather by MPI_Waitall together with the
 *     application's own MPI_Isend/MPI_Irecv;
 *  6. an MPI_Ireduce whose user op, and an MPI_Igather whose (duplicated) receive type the
 *     application frees before its wait, as MPI allows (MPICH's nonblocking2 and nonblocking3
 *     do it);
 *  7. MPI-4 (where the library has them): MPI_Reduce_init, MPI_Gather_init and MPI_Scatter_init
 *     of 300 ints started 12 times each with new data, then MPI_Request_free (the reduce only
 *     with --no-persistent-gather-scatter: MPICH 4.0.2's own persistent gather loses the root's
 *     block and its persistent scatter fails on 3 ranks, docs/native-libraries.md).
 *
 * Calls made, for p ranks: MPI_Ireduce and MPI_Igather 5p + 23 each, MPI_Iscatter 4p + 21;
 * under MPI-4, 12 starts of each persistent request.
 * Prints "nbc_rooted: ok" and exits 0, or names the first failing check and exits 1.
 */
#include "nbc_common.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { MAXN = 1000 };

static void check(int ok, const char *what, int k)
{
    if (!ok && failures++ < 10)
        fprintf(stderr, "nbc_rooted: rank %d: FAILED %s (%d)\n", rank, what, k);
}

/* Rank r's element i of a gather or scatter block: known everywhere. */
static int block_value(int r, int i, int salt)
{
    return r * 100000 + i * 7 + salt;
}

static int *ints(int n)
{
    int *x = malloc(sizeof(int) * (size_t)(n > 0 ? n : 1));
    if (!x) MPI_Abort(MPI_COMM_WORLD, 2);
    return x;
}

/* An Ireduce of n ints (sum) to root, waited for and checked; in place at the root with
 * `in_place`. */
static void reduce_one(int n, int root, int salt, int in_place)
{
    int *s = ints(n), *r = ints(n);
    fill(s, n, salt);
    for (int i = 0; i < n; i++)
        r[i] = rank == root && in_place ? s[i] : -1;
    MPI_Request req;
    MPI_Ireduce(in_place && rank == root ? MPI_IN_PLACE : s, r, n, MPI_INT, MPI_SUM, root,
                MPI_COMM_WORLD, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    check(req == MPI_REQUEST_NULL && (rank != root || sum_ok(r, n, salt)), "ireduce", n);
    free(s);
    free(r);
}

/* An Igather of n ints a rank to root, waited for and checked (in place at the root). */
static void gather_one(int n, int root, int salt, int in_place)
{
    int *s = ints(n), *r = ints(n * size);
    for (int i = 0; i < n; i++)
        s[i] = block_value(rank, i, salt);
    for (int i = 0; i < n * size; i++)
        r[i] = in_place && rank == root && i / n == root ? block_value(root, i % n, salt) : -1;
    MPI_Request req;
    MPI_Igather(in_place && rank == root ? MPI_IN_PLACE : s, n, MPI_INT, r, n, MPI_INT, root,
                MPI_COMM_WORLD, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    int ok = req == MPI_REQUEST_NULL;
    for (int i = 0; rank == root && i < n * size; i++)
        ok &= r[i] == block_value(i / n, i % n, salt);
    check(ok, "igather", n);
    free(s);
    free(r);
}

/* An Iscatter of n ints a rank from root, waited for and checked (in place at the root). */
static void scatter_one(int n, int root, int salt, int in_place)
{
    int *s = ints(n * size), *r = ints(n);
    for (int i = 0; i < n * size; i++)
        s[i] = rank == root ? block_value(i / n, i % n, salt) : -1;
    for (int i = 0; i < n; i++)
        r[i] = -1;
    MPI_Request req;
    MPI_Iscatter(s, n, MPI_INT, in_place && rank == root ? MPI_IN_PLACE : r, n, MPI_INT, root,
                 MPI_COMM_WORLD, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    int ok = req == MPI_REQUEST_NULL;
    for (int i = 0; !(in_place && rank == root) && i < n; i++)
        ok &= r[i] == block_value(rank, i, salt);
    check(ok, "iscatter", n);
    free(s);
    free(r);
}

static void waited(void)
{
    static const int counts[] = {0, 1, 100, MAXN};
    for (int root = 0; root < size; root++)
        for (int c = 0; c < 4; c++) {
            int n = counts[c], salt = 10 * c + root, in_place = c == 3;
            reduce_one(n, root, salt, in_place);
            gather_one(n, root, salt, in_place);
            scatter_one(n, root, salt, in_place);
        }
}

/* A non-commutative reduce; a gather and a scatter with a strided type on one side. */
static void typed(void)
{
    MPI_Op op;
    MPI_Datatype mat, strided;
    MPI_Op_create(matmul, 0, &op);
    MPI_Type_contiguous(4, MPI_INT, &mat);
    MPI_Type_commit(&mat);
    int m[4] = {1, rank + 1, 0, 1}, got[4] = {0}, want[4] = {1, 0, 0, 1}, root = size - 1;
    for (int k = 0; k < size; k++) /* [1 k+1; 0 1] products: [1 sum; 0 1] */
        want[1] += k + 1;
    MPI_Request req;
    MPI_Ireduce(m, got, 1, mat, op, root, MPI_COMM_WORLD, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    check(rank != root || memcmp(got, want, sizeof want) == 0, "non-commutative ireduce", 1);
    MPI_Type_free(&mat);
    MPI_Op_free(&op);

    /* every other int of 2 x 40, resized so that blocks follow each other every 80 ints */
    MPI_Datatype vec;
    MPI_Type_vector(40, 1, 2, MPI_INT, &vec);
    MPI_Type_create_resized(vec, 0, 80 * (MPI_Aint)sizeof(int), &strided);
    MPI_Type_commit(&strided);
    MPI_Type_free(&vec);
    int *s = ints(80 * size), *r = ints(80 * size);
    for (int i = 0; i < 40; i++)
        s[i] = block_value(rank, i, 9);
    for (int i = 0; i < 80 * size; i++)
        r[i] = -1;
    MPI_Igather(s, 40, MPI_INT, r, 1, strided, 0, MPI_COMM_WORLD, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    int ok = 1;
    for (int q = 0; rank == 0 && q < size; q++)
        for (int i = 0; i < 40; i++)
            ok &= r[80 * q + 2 * i] == block_value(q, i, 9) && r[80 * q + 2 * i + 1] == -1;
    check(ok, "igather into a strided type", 40);

    for (int i = 0; i < 40 * size; i++)
        s[i] = rank == root ? block_value(i / 40, i % 40, 8) : -1;
    for (int i = 0; i < 80; i++)
        r[i] = -1;
    if (rank == root)
        MPI_Iscatter(s, 40, MPI_INT, r, 40, MPI_INT, root, MPI_COMM_WORLD, &req);
    else
        MPI_Iscatter(s, 40, MPI_INT, r, 1, strided, root, MPI_COMM_WORLD, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    ok = 1;
    for (int i = 0; i < 40; i++)
        ok &= rank == root ? r[i] == block_value(root, i, 8)
                           : r[2 * i] == block_value(rank, i, 8) && r[2 * i + 1] == -1;
    check(ok, "iscatter into a strided type", 40);
    MPI_Type_free(&strided);
    free(s);
    free(r);
}

/* Each rank in turn held up in MPI_Recv while the others wait for an Ireduce, then an Igather,
 * to the rank before it. */
static void held_up(void)
{
    for (int held = 0; held < size; held++) {
        int root = (held + size - 1) % size, s[3], r[3], *g = ints(3 * size);
        MPI_Request req;
        fill(s, 3, 40 + held);
        MPI_Ireduce(s, r, 3, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD, &req);
        wait_behind_message(&req, held);
        check(rank != root || sum_ok(r, 3, 40 + held), "ireduce with a rank held up", held);
        for (int i = 0; i < 3; i++)
            s[i] = block_value(rank, i, held);
        MPI_Igather(s, 3, MPI_INT, g, 3, MPI_INT, root, MPI_COMM_WORLD, &req);
        wait_behind_message(&req, held);
        int ok = 1;
        for (int i = 0; rank == root && i < 3 * size; i++)
            ok &= g[i] == block_value(i / 3, i % 3, held);
        check(ok, "igather with a rank held up", held);
        free(g);
    }
}

static void outstanding(void)
{
    int roots[3] = {0, size - 1, size / 2};
    int *rs = ints(25), *rr = ints(25), *gs = ints(5), *gr = ints(5 * size);
    int *ss = ints(5 * size), *sr = ints(5);
    for (int round = 0; round < 20; round++) {
        MPI_Request req[3];
        fill(rs, 25, round);
        MPI_Ireduce(rs, rr, 25, MPI_INT, MPI_SUM, roots[0], MPI_COMM_WORLD, &req[0]);
        for (int i = 0; i < 5; i++)
            gs[i] = block_value(rank, i, round);
        MPI_Igather(gs, 5, MPI_INT, gr, 5, MPI_INT, roots[1], MPI_COMM_WORLD, &req[1]);
        for (int i = 0; i < 5 * size; i++)
            ss[i] = rank == roots[2] ? block_value(i / 5, i % 5, round + 1) : -1;
        MPI_Iscatter(ss, 5, MPI_INT, sr, 5, MPI_INT, roots[2], MPI_COMM_WORLD, &req[2]);
        for (int k = 2; k >= 0; k--)
            MPI_Wait(&req[k], MPI_STATUS_IGNORE);
        int ok = rank != roots[0] || sum_ok(rr, 25, round);
        for (int i = 0; rank == roots[1] && i < 5 * size; i++)
            ok &= gr[i] == block_value(i / 5, i % 5, round);
        for (int i = 0; i < 5; i++)
            ok &= sr[i] == block_value(rank, i, round + 1);
        check(ok, "outstanding ireduce, igather, iscatter", round);
    }
    free(rs);
    free(rr);
    free(gs);
    free(gr);
    free(ss);
    free(sr);
}

/* The sizes here are those of earlier calls (25 ints, 5 a rank): a learning strategy races at
 * most AUTOCOLL_MAX_SIZES (8) contexts a collective and communicator, and passes further sizes
 * to the library. */
static void tested_and_mixed(void)
{
    int s[25], r[25], flag = 0, root = size / 2;
    MPI_Request req;
    fill(s, 25, 5);
    MPI_Ireduce(s, r, 25, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD, &req);
    while (!flag)
        MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
    check(rank != root || sum_ok(r, 25, 5), "ireduce by MPI_Test", 25);

    /* with the application's own messages in one MPI_Waitall: a ring of one int */
    int out = rank, in = -1, *g = ints(5 * size), mine[5];
    MPI_Request reqs[3];
    for (int i = 0; i < 5; i++)
        mine[i] = block_value(rank, i, 6);
    MPI_Irecv(&in, 1, MPI_INT, (rank + size - 1) % size, 7, MPI_COMM_WORLD, &reqs[0]);
    MPI_Igather(mine, 5, MPI_INT, g, 5, MPI_INT, 0, MPI_COMM_WORLD, &reqs[1]);
    MPI_Isend(&out, 1, MPI_INT, (rank + 1) % size, 7, MPI_COMM_WORLD, &reqs[2]);
    MPI_Waitall(3, reqs, statuses_ignore());
    int ok = in == (rank + size - 1) % size;
    for (int i = 0; rank == 0 && i < 5 * size; i++)
        ok &= g[i] == block_value(i / 5, i % 5, 6);
    check(ok, "igather in a Waitall with point-to-point", 5);
    free(g);
}

/* A user op and a datatype freed while the calls that use them are in flight. */
static void int_sum(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    for (int i = 0; i < *len; i++)
        ((int *)inout)[i] += ((const int *)in)[i];
}

/* (the gather's size is an earlier call's, as above; the reduce's user op makes the eighth
 * reduce context) */
static void freed_before_wait(void)
{
    int s[8], r[8], root = size - 1, *g = ints(5 * size);
    MPI_Op op;
    MPI_Request req;
    MPI_Op_create(int_sum, 1, &op);
    fill(s, 8, 21);
    MPI_Ireduce(s, r, 8, MPI_INT, op, root, MPI_COMM_WORLD, &req);
    MPI_Op_free(&op);
    check(op == MPI_OP_NULL, "MPI_Op_free gives MPI_OP_NULL", 0);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    check(rank != root || sum_ok(r, 8, 21), "ireduce with its op freed before the wait", 8);

    MPI_Datatype type;
    MPI_Type_dup(MPI_INT, &type);
    for (int i = 0; i < 5; i++)
        s[i] = block_value(rank, i, 22);
    MPI_Igather(s, 5, MPI_INT, g, 5, type, 0, MPI_COMM_WORLD, &req);
    MPI_Type_free(&type);
    check(type == MPI_DATATYPE_NULL, "MPI_Type_free gives MPI_DATATYPE_NULL", 0);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    int ok = 1;
    for (int i = 0; rank == 0 && i < 5 * size; i++)
        ok &= g[i] == block_value(i / 5, i % 5, 22);
    check(ok, "igather with its type freed before the wait", 5);
    free(g);
}

static void persistent(int gather_scatter)
{
#if MPI_VERSION >= 4
    enum { N = 300 };
    int root = size - 1, *s = ints(N * size), *r = ints(N * size);
    MPI_Request req[3];
    int n = gather_scatter ? 3 : 1;
    MPI_Reduce_init(s, r, N, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD, MPI_INFO_NULL, &req[0]);
    if (gather_scatter) {
        MPI_Gather_init(s, N, MPI_INT, r, N, MPI_INT, root, MPI_COMM_WORLD, MPI_INFO_NULL,
                        &req[1]);
        MPI_Scatter_init(s, N, MPI_INT, r, N, MPI_INT, root, MPI_COMM_WORLD, MPI_INFO_NULL,
                         &req[2]);
    }
    for (int start = 0; start < 12; start++) {
        int salt = 50 + start, ok = 1;
        fill(s, N, salt);
        MPI_Start(&req[0]);
        MPI_Wait(&req[0], MPI_STATUS_IGNORE);
        check(req[0] != MPI_REQUEST_NULL && (rank != root || sum_ok(r, N, salt)), "reduce_init",
              start);
        if (!gather_scatter) continue;
        for (int i = 0; i < N; i++)
            s[i] = block_value(rank, i, salt);
        MPI_Start(&req[1]);
        MPI_Wait(&req[1], MPI_STATUS_IGNORE);
        for (int i = 0; rank == root && i < N * size; i++)
            ok &= r[i] == block_value(i / N, i % N, salt);
        check(ok, "gather_init", start);
        for (int i = 0; i < N * size; i++)
            s[i] = rank == root ? block_value(i / N, i % N, salt + 1) : -1;
        MPI_Start(&req[2]);
        MPI_Wait(&req[2], MPI_STATUS_IGNORE);
        ok = 1;
        for (int i = 0; i < N; i++)
            ok &= r[i] == block_value(rank, i, salt + 1);
        check(ok, "scatter_init", start);
    }
    for (int k = 0; k < n; k++) {
        MPI_Request_free(&req[k]);
        check(req[k] == MPI_REQUEST_NULL, "request_free", k);
    }
    free(s);
    free(r);
#else
    (void)gather_scatter;
#endif
}

int main(int argc, char **argv)
{
    nbc_start(&argc, &argv);
    waited();
    typed();
    held_up();
    outstanding();
    tested_and_mixed();
    freed_before_wait();
    persistent(!(argc > 1 && strcmp(argv[1], "--no-persistent-gather-scatter") == 0));
    return nbc_finish("nbc_rooted");
}

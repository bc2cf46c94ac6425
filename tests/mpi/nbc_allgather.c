/*
 * nbc_allgather.c - nonblocking and persistent allgathers and allgathervs as the layer runs them
 * (AUTOCOLL_ALLGATHER / AUTOCOLL_ALLGATHERV forcing an algorithm written as a schedule, or a
 * learning strategy racing them; natively, the library's own): every result checked.
 *
 *  1. MPI_Iallgather of 0, 1 and 100 ints a rank, in place and not, and of a strided type (every
 *     other int of 2 x 50), each waited for; then 1 int with each rank in turn held up in
 *     MPI_Recv while the others wait (nbc_common.h, wait_behind_message);
 *  2. three outstanding (two allgathers and an allgatherv) completed by MPI_Wait in reverse
 *     order, 26 times (under a learning strategy: the race of up to 12 candidates, twice each,
 *     and its agreement);
 *  3. MPI_Iallgatherv with uneven counts (rank r gives r + 1 ints, rank 0 none where p > 2),
 *     blocks in reverse order with holes, in place and not, by MPI_Test loops;
 *  4. MPI-4 (where the library has them): MPI_Allgather_init started 12 times with new input,
 *     MPI_Allgatherv_init started 3 times, MPI_Request_free (not with --no-persistent-allgather:
 *     MPICH 4.0.2's own MPI_Allgather_init delivers no other rank's block from its second start
 *     on, seen natively; docs/native-libraries.md).
 *
 * Prints "nbc_allgather: ok" and exits 0, or names the first failing check and exits 1.
 */
#include "nbc_common.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAXN = 100 };

static void check(int ok, const char *what, int k)
{
    if (!ok && failures++ < 10)
        fprintf(stderr, "nbc_allgather: rank %d: FAILED %s (%d)\n", rank, what, k);
}

/* Block of rank r, element i, call salt: known everywhere. */
static int value(int r, int i, int salt) { return r * 1000 + i * 7 + salt; }

static int blocks_ok(const int *x, int n, int salt)
{
    for (int r = 0; r < size; r++)
        for (int i = 0; i < n; i++)
            if (x[r * n + i] != value(r, i, salt)) return 0;
    return 1;
}

/* rbuf of size * n ints: filled with -1, and (in place) the own block. */
static void prepare(int *rbuf, int *sbuf, int n, int salt, int in_place)
{
    for (int i = 0; i < size * n; i++)
        rbuf[i] = -1;
    int *own = in_place ? rbuf + rank * n : sbuf;
    for (int i = 0; i < n; i++)
        own[i] = value(rank, i, salt);
}

/* Each rank in turn held up in MPI_Recv while the others wait for an MPI_Iallgather of 1 int
 * (nbc_common.h, wait_behind_message). */
static void held_up(void)
{
    int s[1], *r = malloc(sizeof(int) * (size_t)size);
    for (int held = 0; held < size; held++) {
        prepare(r, s, 1, 40 + held, 0);
        MPI_Request req;
        MPI_Iallgather(s, 1, MPI_INT, r, 1, MPI_INT, MPI_COMM_WORLD, &req);
        wait_behind_message(&req, held);
        check(blocks_ok(r, 1, 40 + held), "iallgather with a rank held up", held);
    }
    free(r);
}

static void waited(void)
{
    static const int counts[] = {0, 1, MAXN};
    int *s = malloc(sizeof(int) * MAXN), *r = malloc(sizeof(int) * (size_t)size * MAXN);
    for (int c = 0; c < 3; c++)
        for (int in_place = 0; in_place <= 1; in_place++) {
            int n = counts[c], salt = 10 * c + in_place;
            prepare(r, s, n, salt, in_place);
            MPI_Request req;
            MPI_Iallgather(in_place ? MPI_IN_PLACE : s, n, MPI_INT, r, n, MPI_INT, MPI_COMM_WORLD,
                           &req);
            MPI_Wait(&req, MPI_STATUS_IGNORE);
            check(req == MPI_REQUEST_NULL && blocks_ok(r, n, salt), "iallgather", n);
        }
    /* a strided receive type: every other int of 2 x 50 */
    MPI_Datatype strided;
    MPI_Type_vector(50, 1, 2, MPI_INT, &strided);
    MPI_Type_commit(&strided);
    int *w = malloc(sizeof(int) * (size_t)size * MAXN);
    for (int i = 0; i < size * MAXN; i++)
        w[i] = -1;
    for (int i = 0; i < 50; i++)
        s[i] = value(rank, i, 3);
    MPI_Request req;
    MPI_Datatype resized;
    MPI_Type_create_resized(strided, 0, 100 * (MPI_Aint)sizeof(int), &resized);
    MPI_Type_commit(&resized);
    MPI_Iallgather(s, 50, MPI_INT, w, 1, resized, MPI_COMM_WORLD, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    int ok = 1;
    for (int r = 0; r < size; r++)
        for (int i = 0; i < 50; i++)
            ok &= w[r * 100 + 2 * i] == value(r, i, 3) && w[r * 100 + 2 * i + 1] == -1;
    check(ok, "iallgather of a strided type", 50);
    MPI_Type_free(&resized);
    MPI_Type_free(&strided);
    free(w);
    free(s);
    free(r);
}

/* Rank r's count in the uneven allgatherv: r + 1, none for rank 0 where p > 2. */
static int vcount(int r) { return size > 2 && r == 0 ? 0 : r + 1; }

/* Counts and displacements: blocks in reverse rank order, a hole of one int after each. */
static int layout(int *counts, int *displs)
{
    int total = 0;
    for (int r = size - 1; r >= 0; r--) {
        counts[r] = vcount(r);
        displs[r] = total;
        total += counts[r] + 1;
    }
    return total;
}

static int v_ok(const int *x, const int *counts, const int *displs, int salt)
{
    for (int r = 0; r < size; r++) {
        for (int i = 0; i < counts[r]; i++)
            if (x[displs[r] + i] != value(r, i, salt)) return 0;
        if (x[displs[r] + counts[r]] != -1) return 0; /* the hole untouched */
    }
    return 1;
}

static void prepare_v(int *rbuf, int total, int *sbuf, const int *displs, int salt, int in_place)
{
    for (int i = 0; i < total; i++)
        rbuf[i] = -1;
    int *own = in_place ? rbuf + displs[rank] : sbuf;
    for (int i = 0; i < vcount(rank); i++)
        own[i] = value(rank, i, salt);
}

static void uneven(void)
{
    int *counts = malloc(sizeof(int) * (size_t)size), *displs = malloc(sizeof(int) * (size_t)size);
    int total = layout(counts, displs);
    int *s = malloc(sizeof(int) * (size_t)(size + 1)), *r = malloc(sizeof(int) * (size_t)total);
    for (int in_place = 0; in_place <= 1; in_place++) {
        int salt = 40 + in_place, flag = 0;
        prepare_v(r, total, s, displs, salt, in_place);
        MPI_Request req;
        MPI_Iallgatherv(in_place ? MPI_IN_PLACE : s, vcount(rank), MPI_INT, r, counts, displs,
                        MPI_INT, MPI_COMM_WORLD, &req);
        while (!flag)
            MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
        check(v_ok(r, counts, displs, salt), "iallgatherv", in_place);
    }
    free(s);
    free(r);
    free(counts);
    free(displs);
}

/* Rounds of outstanding calls: enough for a race of 12 candidates, twice each, and its
 * agreement in the 5- and 25-int contexts. */
enum { ROUNDS = 26 };

static void outstanding(void)
{
    int *counts = malloc(sizeof(int) * (size_t)size), *displs = malloc(sizeof(int) * (size_t)size);
    int total = layout(counts, displs);
    int s[2][MAXN], *r[2], sv[MAXN], *rv = malloc(sizeof(int) * (size_t)total);
    for (int k = 0; k < 2; k++)
        r[k] = malloc(sizeof(int) * (size_t)size * MAXN);
    for (int round = 0; round < ROUNDS; round++) {
        MPI_Request req[3];
        for (int k = 0; k < 2; k++) {
            prepare(r[k], s[k], 5 + 20 * k, round + k, 0);
            MPI_Iallgather(s[k], 5 + 20 * k, MPI_INT, r[k], 5 + 20 * k, MPI_INT, MPI_COMM_WORLD,
                           &req[k]);
        }
        prepare_v(rv, total, sv, displs, round + 2, 0);
        MPI_Iallgatherv(sv, vcount(rank), MPI_INT, rv, counts, displs, MPI_INT, MPI_COMM_WORLD,
                        &req[2]);
        for (int k = 2; k >= 0; k--)
            MPI_Wait(&req[k], MPI_STATUS_IGNORE);
        for (int k = 0; k < 2; k++)
            check(blocks_ok(r[k], 5 + 20 * k, round + k), "outstanding iallgather", round);
        check(v_ok(rv, counts, displs, round + 2), "outstanding iallgatherv", round);
    }
    for (int k = 0; k < 2; k++)
        free(r[k]);
    free(rv);
    free(counts);
    free(displs);
}

static void persistent(int allgather)
{
#if MPI_VERSION >= 4
    int s[MAXN] = {0}, *r = malloc(sizeof(int) * (size_t)size * MAXN);
    MPI_Request req;
    if (allgather) {
        MPI_Allgather_init(s, 30, MPI_INT, r, 30, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL, &req);
        for (int k = 0; k < 12; k++) {
            prepare(r, s, 30, 60 + k, 0);
            MPI_Start(&req);
            MPI_Wait(&req, MPI_STATUS_IGNORE);
            check(blocks_ok(r, 30, 60 + k), "persistent allgather", k);
        }
        MPI_Request_free(&req);
    }
    int *counts = malloc(sizeof(int) * (size_t)size), *displs = malloc(sizeof(int) * (size_t)size);
    int total = layout(counts, displs), sv[MAXN] = {0};
    int *rv = malloc(sizeof(int) * (size_t)total);
    MPI_Allgatherv_init(sv, vcount(rank), MPI_INT, rv, counts, displs, MPI_INT, MPI_COMM_WORLD,
                        MPI_INFO_NULL, &req);
    for (int k = 0; k < 3; k++) {
        prepare_v(rv, total, sv, displs, 80 + k, 0);
        MPI_Start(&req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        check(v_ok(rv, counts, displs, 80 + k), "persistent allgatherv", k);
    }
    MPI_Request_free(&req);
    free(rv);
    free(counts);
    free(displs);
    free(r);
#else
    (void)allgather;
#endif
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    waited();
    held_up();
    outstanding();
    uneven();
    persistent(!(argc > 1 && strcmp(argv[1], "--no-persistent-allgather") == 0));
    int all;
    MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0 && !all) printf("nbc_allgather: ok\n");
    MPI_Finalize();
    return all != 0;
}

/*
 * nbc_alltoall.c - nonblocking and persistent alltoalls and alltoallvs as the layer runs them
 * (AUTOCOLL_ALLTOALL / AUTOCOLL_ALLTOALLV forcing an algorithm written as a schedule, or a
 * learning strategy racing them; natively, the library's own): every result checked.
 *
 *  1. MPI_Ialltoall of 0, 1 and 100 ints a block, in place and not, and into a strided type
 *     (every other int of 2 x 50), each waited for; then 1 int a block with each rank in turn
 *     held up in MPI_Recv while the others wait (nbc_common.h, wait_behind_message);
 *  2. three outstanding (two alltoalls and an alltoallv) completed by MPI_Wait in reverse order,
 *     26 times (under a learning strategy: the race of the 12 candidates, twice each, and its
 *     agreement);
 *  3. MPI_Ialltoallv with uneven counts (zeros included), blocks in reverse order with holes,
 *     in place (symmetric counts) and not, by MPI_Test loops; and one completed by MPI_Waitall
 *     together with the application's own MPI_Isend/MPI_Irecv;
 *  4. MPI-4 (where the library has them): MPI_Alltoall_init started 12 times with new input,
 *     MPI_Alltoallv_init started 3 times, MPI_Request_free.
 *
 * Prints "nbc_alltoall: ok" and exits 0, or names the first failing check and exits 1.
 */
#include "nbc_common.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { MAXN = 100 };

static void check(int ok, const char *what, int k)
{
    if (!ok && failures++ < 10)
        fprintf(stderr, "nbc_alltoall: rank %d: FAILED %s (%d)\n", rank, what, k);
}

/* Element i of the block rank `from` sends rank `to`, call salt: known everywhere. */
static int value(int from, int to, int i, int salt)
{
    return from * 100000 + to * 1000 + i * 7 + salt;
}

/* sbuf (or, in place, rbuf) holds this rank's p blocks of n ints; rbuf is -1 otherwise. */
static void prepare(int *rbuf, int *sbuf, int n, int salt, int in_place)
{
    int *out = in_place ? rbuf : sbuf;
    for (int i = 0; i < size * n; i++)
        rbuf[i] = -1;
    for (int d = 0; d < size; d++)
        for (int i = 0; i < n; i++)
            out[d * n + i] = value(rank, d, i, salt);
}

static int blocks_ok(const int *x, int n, int salt)
{
    for (int r = 0; r < size; r++)
        for (int i = 0; i < n; i++)
            if (x[r * n + i] != value(r, rank, i, salt)) return 0;
    return 1;
}

static void waited(void)
{
    static const int counts[] = {0, 1, MAXN};
    int *s = malloc(sizeof(int) * (size_t)size * MAXN);
    int *r = malloc(sizeof(int) * (size_t)size * MAXN);
    for (int c = 0; c < 3; c++)
        for (int in_place = 0; in_place <= 1; in_place++) {
            int n = counts[c], salt = 10 * c + in_place;
            prepare(r, s, n, salt, in_place);
            MPI_Request req;
            MPI_Ialltoall(in_place ? MPI_IN_PLACE : s, n, MPI_INT, r, n, MPI_INT, MPI_COMM_WORLD,
                          &req);
            MPI_Wait(&req, MPI_STATUS_IGNORE);
            check(req == MPI_REQUEST_NULL && blocks_ok(r, n, salt), "ialltoall", n);
        }
    /* a strided receive type: every other int of 2 x 50 */
    MPI_Datatype strided, resized;
    MPI_Type_vector(50, 1, 2, MPI_INT, &strided);
    MPI_Type_create_resized(strided, 0, 100 * (MPI_Aint)sizeof(int), &resized);
    MPI_Type_commit(&resized);
    prepare(r, s, 50, 3, 0);
    for (int i = 0; i < size * MAXN; i++)
        r[i] = -1;
    MPI_Request req;
    MPI_Ialltoall(s, 50, MPI_INT, r, 1, resized, MPI_COMM_WORLD, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    int ok = 1;
    for (int from = 0; from < size; from++)
        for (int i = 0; i < 50; i++)
            ok &= r[from * 100 + 2 * i] == value(from, rank, i, 3) &&
                  r[from * 100 + 2 * i + 1] == -1;
    check(ok, "ialltoall into a strided type", 50);
    MPI_Type_free(&resized);
    MPI_Type_free(&strided);
    free(s);
    free(r);
}

/* Each rank in turn held up in MPI_Recv while the others wait for an MPI_Ialltoall of 1 int a
 * block (nbc_common.h, wait_behind_message). */
static void held_up(void)
{
    int *s = malloc(sizeof(int) * (size_t)size), *r = malloc(sizeof(int) * (size_t)size);
    for (int held = 0; held < size; held++) {
        prepare(r, s, 1, 40 + held, 0);
        MPI_Request req;
        MPI_Ialltoall(s, 1, MPI_INT, r, 1, MPI_INT, MPI_COMM_WORLD, &req);
        wait_behind_message(&req, held);
        check(blocks_ok(r, 1, 40 + held), "ialltoall with a rank held up", held);
    }
    free(s);
    free(r);
}

/* Ints rank `from` sends rank `to` in the uneven alltoallv: 0 to 3, zeros included; symmetric
 * (from, to and to, from the same) where `symmetric`, as in place needs. */
static int vcount(int from, int to, int symmetric)
{
    return symmetric ? (from + to) % 4 : (from + 2 * to) % 4;
}

/* One side's counts and displacements (of this rank's blocks to or from every rank): blocks in
 * reverse rank order, a hole of one int after each; the total ints. */
static int layout(int *counts, int *displs, int sending, int symmetric)
{
    int total = 0;
    for (int r = size - 1; r >= 0; r--) {
        counts[r] = sending ? vcount(rank, r, symmetric) : vcount(r, rank, symmetric);
        displs[r] = total;
        total += counts[r] + 1;
    }
    return total;
}

typedef struct {
    int sc[64], sd[64], rc[64], rd[64];
    int stotal, rtotal;
} vlayout;

static void vlayout_make(vlayout *v, int symmetric)
{
    v->stotal = layout(v->sc, v->sd, 1, symmetric);
    v->rtotal = layout(v->rc, v->rd, 0, symmetric);
}

/* rbuf -1 but (in place) the outgoing blocks, where the layouts agree; sbuf the outgoing blocks. */
static void prepare_v(const vlayout *v, int *rbuf, int *sbuf, int salt, int in_place)
{
    for (int i = 0; i < v->rtotal; i++)
        rbuf[i] = -1;
    for (int d = 0; d < size; d++)
        for (int i = 0; i < v->sc[d]; i++)
            (in_place ? rbuf : sbuf)[v->sd[d] + i] = value(rank, d, i, salt);
}

static int v_ok(const vlayout *v, const int *x, int salt)
{
    for (int r = 0; r < size; r++) {
        for (int i = 0; i < v->rc[r]; i++)
            if (x[v->rd[r] + i] != value(r, rank, i, salt)) return 0;
        if (x[v->rd[r] + v->rc[r]] != -1) return 0; /* the hole untouched */
    }
    return 1;
}

static void uneven(void)
{
    for (int in_place = 0; in_place <= 1; in_place++) {
        vlayout v;
        vlayout_make(&v, in_place);
        int *s = malloc(sizeof(int) * (size_t)(v.stotal + 1));
        int *r = malloc(sizeof(int) * (size_t)(v.rtotal + 1));
        int salt = 40 + in_place, flag = 0;
        prepare_v(&v, r, s, salt, in_place);
        MPI_Request req;
        MPI_Ialltoallv(in_place ? MPI_IN_PLACE : s, v.sc, v.sd, MPI_INT, r, v.rc, v.rd, MPI_INT,
                       MPI_COMM_WORLD, &req);
        while (!flag)
            MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
        check(v_ok(&v, r, salt), "ialltoallv", in_place);
        free(s);
        free(r);
    }
    /* with the application's own messages in one MPI_Waitall */
    vlayout v;
    vlayout_make(&v, 0);
    int *s = malloc(sizeof(int) * (size_t)(v.stotal + 1));
    int *r = malloc(sizeof(int) * (size_t)(v.rtotal + 1));
    int token = rank, got = -1;
    prepare_v(&v, r, s, 50, 0);
    MPI_Request req[3];
    MPI_Irecv(&got, 1, MPI_INT, (rank - 1 + size) % size, 5, MPI_COMM_WORLD, &req[0]);
    MPI_Ialltoallv(s, v.sc, v.sd, MPI_INT, r, v.rc, v.rd, MPI_INT, MPI_COMM_WORLD, &req[1]);
    MPI_Isend(&token, 1, MPI_INT, (rank + 1) % size, 5, MPI_COMM_WORLD, &req[2]);
    MPI_Waitall(3, req, statuses_ignore());
    check(v_ok(&v, r, 50) && got == (rank - 1 + size) % size, "ialltoallv in a Waitall", 0);
    free(s);
    free(r);
}

static void outstanding(void)
{
    vlayout v;
    vlayout_make(&v, 0);
    int *s[2], *r[2], *sv = malloc(sizeof(int) * (size_t)(v.stotal + 1));
    int *rv = malloc(sizeof(int) * (size_t)(v.rtotal + 1));
    for (int k = 0; k < 2; k++) {
        s[k] = malloc(sizeof(int) * (size_t)size * MAXN);
        r[k] = malloc(sizeof(int) * (size_t)size * MAXN);
    }
    for (int round = 0; round < 26; round++) {
        MPI_Request req[3];
        for (int k = 0; k < 2; k++) {
            prepare(r[k], s[k], 5 + 20 * k, round + k, 0);
            MPI_Ialltoall(s[k], 5 + 20 * k, MPI_INT, r[k], 5 + 20 * k, MPI_INT, MPI_COMM_WORLD,
                          &req[k]);
        }
        prepare_v(&v, rv, sv, round + 2, 0);
        MPI_Ialltoallv(sv, v.sc, v.sd, MPI_INT, rv, v.rc, v.rd, MPI_INT, MPI_COMM_WORLD, &req[2]);
        for (int k = 2; k >= 0; k--)
            MPI_Wait(&req[k], MPI_STATUS_IGNORE);
        for (int k = 0; k < 2; k++)
            check(blocks_ok(r[k], 5 + 20 * k, round + k), "outstanding ialltoall", round);
        check(v_ok(&v, rv, round + 2), "outstanding ialltoallv", round);
    }
    for (int k = 0; k < 2; k++) {
        free(s[k]);
        free(r[k]);
    }
    free(sv);
    free(rv);
}

static void persistent(void)
{
#if MPI_VERSION >= 4
    int *s = calloc((size_t)size * MAXN, sizeof(int));
    int *r = calloc((size_t)size * MAXN, sizeof(int));
    MPI_Request req;
    MPI_Alltoall_init(s, 30, MPI_INT, r, 30, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL, &req);
    for (int k = 0; k < 12; k++) {
        prepare(r, s, 30, 60 + k, 0);
        MPI_Start(&req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        check(blocks_ok(r, 30, 60 + k), "persistent alltoall", k);
    }
    MPI_Request_free(&req);
    vlayout v;
    vlayout_make(&v, 0);
    int *sv = calloc((size_t)v.stotal + 1, sizeof(int));
    int *rv = calloc((size_t)v.rtotal + 1, sizeof(int));
    MPI_Alltoallv_init(sv, v.sc, v.sd, MPI_INT, rv, v.rc, v.rd, MPI_INT, MPI_COMM_WORLD,
                       MPI_INFO_NULL, &req);
    for (int k = 0; k < 3; k++) {
        prepare_v(&v, rv, sv, 80 + k, 0);
        MPI_Start(&req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        check(v_ok(&v, rv, 80 + k), "persistent alltoallv", k);
    }
    MPI_Request_free(&req);
    free(sv);
    free(rv);
    free(s);
    free(r);
#endif
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size > 64) { /* the layouts' arrays */
        if (rank == 0) fprintf(stderr, "nbc_alltoall: at most 64 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    waited();
    held_up();
    outstanding();
    uneven();
    persistent();
    int all;
    MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0 && !all) printf("nbc_alltoall: ok\n");
    MPI_Finalize();
    return all != 0;
}

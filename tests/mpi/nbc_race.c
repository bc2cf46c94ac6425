/*
 * nbc_race.c - nonblocking allreduces and barriers of one context raced by a learning strategy
 * (AUTOCOLL_STRATEGY=race: the layer runs the context's first calls with its candidates in turn,
 * agrees on the fastest inside a later call's schedule and keeps it; docs/nonblocking.md), in the
 * patterns that make the agreement hard: every result is checked.
 *
 *   nbc_race sequential   12 MPI_Iallreduce of 1000 ints, each waited for before the next;
 *   nbc_race outstanding  6 waited for, then 3 outstanding (the agreement's call and two started
 *                         while it is in flight, which wait for its outcome), completed in reverse
 *                         order, then 3 waited for;
 *   nbc_race lacking      7 outstanding at once (the 7th carries an agreement no rank can make:
 *                         none has seen the others complete), completed by one MPI_Waitall, then
 *                         6 waited for (the first carries the agreement again);
 *   nbc_race mixed        two contexts (1000 ints and 3 ints) and a non-commutative user op (a
 *                         third, whose candidates lack the ring) interleaved, 3 outstanding at a
 *                         time, and 14 MPI_Ibarrier, half of them outstanding in pairs;
 *   nbc_race long         160 MPI_Iallreduce of 1000 ints, each waited for: the race, then the
 *                         monitor's windows (with AUTOCOLL_TEST_NBC_SLOW_FROM, a new race);
 *   nbc_race fresh        12 MPI_Iallreduce on each of a new MPI_Comm_dup and MPI_Cart_create
 *                         of MPI_COMM_WORLD, no blocking collective on either: both outstanding
 *                         each time (the layer makes a new communicator's state in its
 *                         constructor where it may run nonblocking collectives).
 *   nbc_race mesh         40 MPI_Iallreduce of 1000 ints, each waited for, 60 MPI_Allreduce of
 *                         1000 ints, 40 MPI_Iallreduce more: where the blocking race runs an
 *                         orthogonal instance, it makes the communicator's mesh, which lets the
 *                         orthogonal allreduces into the later nonblocking calls' candidate
 *                         list (a new context: requests.c, context_again).
 *
 * The layer makes MPI_COMM_WORLD's state at MPI_Init: its first nonblocking call races too.
 * Prints "nbc_race: ok" and exits 0, or names the first failing check and exits 1.
 */
#include "nbc_common.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { N = 1000, MAXOUT = 8 };

static void check(int ok, const char *what, int call)
{
    if (!ok && failures++ < 10)
        fprintf(stderr, "nbc_race: rank %d: FAILED %s (call %d)\n", rank, what, call);
}

/* Rank r's matrix [[1, r + salt], [0, 1]]: the product in rank order is [[1, sum], [0, 1]]. */
static void matrix(int *m, int salt)
{
    m[0] = 1, m[1] = rank + salt, m[2] = 0, m[3] = 1;
}

static int product_ok(const int *m, int salt)
{
    return m[0] == 1 && m[1] == size * (size - 1) / 2 + size * salt && m[2] == 0 && m[3] == 1;
}

/* Outstanding sum allreduces of n ints: started with salts, checked at completion. */
typedef struct {
    int send[MAXOUT][N], recv[MAXOUT][N], n[MAXOUT], salt[MAXOUT];
    MPI_Request req[MAXOUT];
} batch;

static void start_sum_on(batch *b, int i, int n, int salt, MPI_Comm comm)
{
    b->n[i] = n;
    b->salt[i] = salt;
    fill(b->send[i], n, salt);
    memset(b->recv[i], 0xff, sizeof b->recv[i]);
    MPI_Iallreduce(b->send[i], b->recv[i], n, MPI_INT, MPI_SUM, comm, &b->req[i]);
}

static void start_sum(batch *b, int i, int n, int salt)
{
    start_sum_on(b, i, n, salt, MPI_COMM_WORLD);
}

static void check_sum(const batch *b, int i, int call)
{
    check(sum_ok(b->recv[i], b->n[i], b->salt[i]), "allreduce sum", call);
}

/* `calls` allreduces of n ints, each waited for before the next; salts from `call`. */
static void waited(batch *b, int calls, int n, int *call)
{
    for (int k = 0; k < calls; k++, (*call)++) {
        start_sum(b, 0, n, *call);
        MPI_Wait(&b->req[0], MPI_STATUS_IGNORE);
        check(b->req[0] == MPI_REQUEST_NULL, "request freed by MPI_Wait", *call);
        check_sum(b, 0, *call);
    }
}

static void sequential(batch *b)
{
    int call = 0;
    waited(b, 12, N, &call);
}

static void long_run(batch *b)
{
    int call = 0;
    waited(b, 160, N, &call);
}

static void outstanding(batch *b)
{
    int call = 0;
    waited(b, 6, N, &call);
    for (int i = 0; i < 3; i++)
        start_sum(b, i, N, call + i);
    for (int i = 2; i >= 0; i--) {
        MPI_Wait(&b->req[i], MPI_STATUS_IGNORE);
        check_sum(b, i, call + i);
    }
    call += 3;
    waited(b, 3, N, &call);
}

static void lacking(batch *b)
{
    int call = 0;
    for (int i = 0; i < 7; i++)
        start_sum(b, i, N, i);
    MPI_Waitall(7, b->req, statuses_ignore());
    for (int i = 0; i < 7; i++)
        check_sum(b, i, i);
    call = 7;
    waited(b, 6, N, &call);
}

static void mixed(batch *b)
{
    MPI_Op op;
    MPI_Datatype mat;
    MPI_Op_create(matmul, 0, &op);
    MPI_Type_contiguous(4, MPI_INT, &mat);
    MPI_Type_commit(&mat);
    int m[4], prod[4];
    for (int k = 0; k < 14; k++) {
        start_sum(b, 0, N, k);
        start_sum(b, 1, 3, 2 * k);
        matrix(m, k);
        MPI_Request r;
        MPI_Iallreduce(m, prod, 1, mat, op, MPI_COMM_WORLD, &r);
        if (k % 2) {
            MPI_Waitall(2, b->req, statuses_ignore());
            MPI_Wait(&r, MPI_STATUS_IGNORE);
        } else {
            MPI_Wait(&r, MPI_STATUS_IGNORE);
            MPI_Wait(&b->req[1], MPI_STATUS_IGNORE);
            MPI_Wait(&b->req[0], MPI_STATUS_IGNORE);
        }
        check_sum(b, 0, k);
        check_sum(b, 1, k);
        check(product_ok(prod, k), "allreduce of a non-commutative op", k);
    }
    for (int k = 0; k < 14; k += 2) {
        MPI_Request two[2];
        MPI_Ibarrier(MPI_COMM_WORLD, &two[0]);
        MPI_Ibarrier(MPI_COMM_WORLD, &two[1]);
        MPI_Waitall(2, two, statuses_ignore());
        check(two[0] == MPI_REQUEST_NULL && two[1] == MPI_REQUEST_NULL, "barriers freed", k);
    }
    MPI_Type_free(&mat);
    MPI_Op_free(&op);
}

static void fresh(batch *b)
{
    MPI_Comm dup, cart;
    int dims[1] = {size}, periods[1] = {1};
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &cart); /* ranks as in the world */
    for (int k = 0; k < 12; k++) {
        start_sum_on(b, 0, N, k, dup);
        start_sum_on(b, 1, N, 2 * k, cart);
        MPI_Waitall(2, b->req, statuses_ignore());
        check_sum(b, 0, k);
        check_sum(b, 1, k);
    }
    MPI_Comm_free(&cart);
    MPI_Comm_free(&dup);
}

static void mesh(batch *b)
{
    int call = 0;
    waited(b, 40, N, &call);
    for (int k = 0; k < 60; k++, call++) { /* blocking: their race runs an orthogonal one */
        fill(b->send[0], N, call);
        MPI_Allreduce(b->send[0], b->recv[0], N, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        check(sum_ok(b->recv[0], N, call), "blocking allreduce sum", call);
    }
    waited(b, 40, N, &call);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    static const struct {
        const char *name;
        void (*run)(batch *);
    } scenarios[] = {{"sequential", sequential},
                     {"outstanding", outstanding},
                     {"lacking", lacking},
                     {"mixed", mixed},
                     {"fresh", fresh},
                     {"long", long_run},
                     {"mesh", mesh}};
    int which = -1;
    for (int i = 0; i < (int)(sizeof scenarios / sizeof scenarios[0]); i++)
        if (argc > 1 && !strcmp(argv[1], scenarios[i].name)) which = i;
    if (which < 0) {
        if (rank == 0)
            fprintf(stderr, "usage: nbc_race "
                            "sequential|outstanding|lacking|mixed|fresh|long|mesh\n");
        MPI_Finalize();
        return 2;
    }
    batch *b = malloc(sizeof *b);
    scenarios[which].run(b);
    free(b);
    int all;
    MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0 && !all) printf("nbc_race: ok\n");
    MPI_Finalize();
    return all != 0;
}

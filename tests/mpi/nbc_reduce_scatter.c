/*
 * nbc_reduce_scatter.c - nonblocking and persistent reduce-scatters as the layer runs them
 * (AUTOCOLL_REDUCE_SCATTER and AUTOCOLL_REDUCE_SCATTER_BLOCK forcing an algorithm written as a
 * schedule, or a learning strategy racing them; natively, the library's own): every result
 * checked.
 *
 *  1. MPI_Ireduce_scatter_block (sum) of 0, 1 and 100 ints a block, in place for the last;
 *     MPI_Ireduce_scatter with uneven counts (some zero), then in place; each waited for;
 *  2. a non-commutative MPI_Ireduce_scatter_block (2x2 matrices multiplied in rank order);
 *  3. each rank in turn held up in MPI_Recv while the others wait for an
 *     MPI_Ireduce_scatter_block (nbc_common.h, wait_behind_message);
 *  4. an MPI_Ireduce_scatter_block and an MPI_Ireduce_scatter outstanding, completed by MPI_Wait
 *     in reverse order, 20 times (under a learning strategy: the race of the candidates and its
 *     agreement);
 *  5. an MPI_Ireduce_scatter_block completed by an MPI_Test loop; one whose user op the
 *     application frees before its wait;
 *  6. MPI-4 (where the library has them): MPI_Reduce_scatter_block_init and
 *     MPI_Reduce_scatter_init started 12 times each with new data, then MPI_Request_free.
 *
 * Calls made, for p ranks: MPI_Ireduce_scatter_block p + 26 (1 of them non-commutative),
 * MPI_Ireduce_scatter 22; under MPI-4, 12 starts of each persistent request.
 * Prints "nbc_reduce_scatter: ok" and exits 0, or names the first failing check and exits 1.
 */
#include "nbc_common.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static void check(int ok, const char *what, int k)
{
    if (!ok && failures++ < 10)
        fprintf(stderr, "nbc_reduce_scatter: rank %d: FAILED %s (%d)\n", rank, what, k);
}

static int *ints(int n)
{
    int *x = malloc(sizeof(int) * (size_t)(n > 0 ? n : 1));
    if (!x) MPI_Abort(MPI_COMM_WORLD, 2);
    return x;
}

/* The receive counts of the uneven case: some zero. */
static int uneven(int i)
{
    return i % 3 == 1 ? 0 : 3 + i % 4;
}

/* x[0 .. n) of rank `owner`'s block of a vector filled by fill(v, total, salt) on every rank,
 * the block starting at element `first`: the sums are known (nbc_common.h, sum_ok shifted). */
static int block_ok(const int *x, int n, int first, int salt)
{
    return sum_ok(x, n, salt + first);
}

/* An Ireduce_scatter_block of n ints a block (sum), waited for and checked; in place with
 * `in_place` (the input is the whole vector in the receive buffer). */
static void block_one(int n, int salt, int in_place)
{
    int *s = ints(n * size), *r = ints(n * size);
    fill(s, n * size, salt);
    if (in_place) fill(r, n * size, salt);
    MPI_Request req;
    MPI_Ireduce_scatter_block(in_place ? MPI_IN_PLACE : s, r, n, MPI_INT, MPI_SUM,
                              MPI_COMM_WORLD, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    check(req == MPI_REQUEST_NULL && block_ok(r, n, n * rank, salt), "ireduce_scatter_block", n);
    free(s);
    free(r);
}

/* An Ireduce_scatter with uneven counts, waited for and checked (in place). */
static void uneven_one(int salt, int in_place)
{
    int *counts = ints(size), total = 0, first = 0;
    for (int i = 0; i < size; i++) {
        counts[i] = uneven(i);
        if (i < rank) first += counts[i];
        total += counts[i];
    }
    int *s = ints(total), *r = ints(total);
    fill(s, total, salt);
    if (in_place) fill(r, total, salt);
    MPI_Request req;
    MPI_Ireduce_scatter(in_place ? MPI_IN_PLACE : s, r, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD,
                        &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    check(req == MPI_REQUEST_NULL && block_ok(r, counts[rank], first, salt),
          "ireduce_scatter uneven", in_place);
    free(counts);
    free(s);
    free(r);
}

static void waited(void)
{
    static const int counts[] = {0, 1, 100};
    for (int c = 0; c < 3; c++)
        block_one(counts[c], 10 * c, c == 2);
    uneven_one(7, 0);
    uneven_one(8, 1);
}

/* The product of every rank's 2x2 matrix in rank order, each rank's block one matrix. */
static void non_commutative(void)
{
    MPI_Op op;
    MPI_Datatype mat;
    MPI_Op_create(matmul, 0, &op);
    MPI_Type_contiguous(4, MPI_INT, &mat);
    MPI_Type_commit(&mat);
    int *m = ints(4 * size), got[4] = {0}, want[4] = {1, 0, 0, 1};
    for (int b = 0; b < size; b++) { /* block b of rank r: [1 r+b+1; 0 1] */
        int mb[4] = {1, rank + b + 1, 0, 1};
        memcpy(m + 4 * b, mb, sizeof mb);
    }
    for (int k = 0; k < size; k++) /* products of [1 x; 0 1]: [1 sum x; 0 1] */
        want[1] += k + rank + 1;
    MPI_Request req;
    MPI_Ireduce_scatter_block(m, got, 1, mat, op, MPI_COMM_WORLD, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    check(memcmp(got, want, sizeof want) == 0, "non-commutative ireduce_scatter_block", 1);
    free(m);
    MPI_Type_free(&mat);
    MPI_Op_free(&op);
}

static void held_up(void)
{
    int *s = ints(3 * size), r[3];
    for (int held = 0; held < size; held++) {
        fill(s, 3 * size, 40 + held);
        MPI_Request req;
        MPI_Ireduce_scatter_block(s, r, 3, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req);
        wait_behind_message(&req, held);
        check(block_ok(r, 3, 3 * rank, 40 + held), "ireduce_scatter_block with a rank held up",
              held);
    }
    free(s);
}

static void outstanding(void)
{
    int *counts = ints(size), total = 0, first = 0;
    for (int i = 0; i < size; i++) {
        counts[i] = uneven(i);
        if (i < rank) first += counts[i];
        total += counts[i];
    }
    int *bs = ints(5 * size), br[5], *vs = ints(total), *vr = ints(total);
    for (int round = 0; round < 20; round++) {
        MPI_Request req[2];
        fill(bs, 5 * size, round);
        fill(vs, total, round + 1);
        MPI_Ireduce_scatter_block(bs, br, 5, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req[0]);
        MPI_Ireduce_scatter(vs, vr, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req[1]);
        MPI_Wait(&req[1], MPI_STATUS_IGNORE);
        MPI_Wait(&req[0], MPI_STATUS_IGNORE);
        check(block_ok(br, 5, 5 * rank, round) && block_ok(vr, counts[rank], first, round + 1),
              "outstanding ireduce_scatter_block and ireduce_scatter", round);
    }
    free(counts);
    free(bs);
    free(vs);
    free(vr);
}

static void int_sum(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    for (int i = 0; i < *len; i++)
        ((int *)inout)[i] += ((const int *)in)[i];
}

static void tested_and_freed(void)
{
    int *s = ints(37 * size), r[37], flag = 0;
    MPI_Request req;
    fill(s, 37 * size, 5);
    MPI_Ireduce_scatter_block(s, r, 37, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req);
    while (!flag)
        MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
    check(block_ok(r, 37, 37 * rank, 5), "ireduce_scatter_block by MPI_Test", 37);

    MPI_Op op;
    MPI_Op_create(int_sum, 1, &op);
    fill(s, 8 * size, 21);
    MPI_Ireduce_scatter_block(s, r, 8, MPI_INT, op, MPI_COMM_WORLD, &req);
    MPI_Op_free(&op);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    check(op == MPI_OP_NULL && block_ok(r, 8, 8 * rank, 21),
          "ireduce_scatter_block with its op freed before the wait", 8);
    free(s);
}

static void persistent(void)
{
#if MPI_VERSION >= 4
    enum { N = 300 };
    int *counts = ints(size), total = 0, first = 0;
    for (int i = 0; i < size; i++) {
        counts[i] = uneven(i);
        if (i < rank) first += counts[i];
        total += counts[i];
    }
    int *bs = ints(N * size), *br = ints(N), *vs = ints(total), *vr = ints(total);
    MPI_Request req[2];
    MPI_Reduce_scatter_block_init(bs, br, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL,
                                  &req[0]);
    MPI_Reduce_scatter_init(vs, vr, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL,
                            &req[1]);
    for (int start = 0; start < 12; start++) {
        fill(bs, N * size, 50 + start);
        fill(vs, total, 60 + start);
        MPI_Start(&req[0]);
        MPI_Wait(&req[0], MPI_STATUS_IGNORE);
        MPI_Start(&req[1]);
        MPI_Wait(&req[1], MPI_STATUS_IGNORE);
        check(req[0] != MPI_REQUEST_NULL && block_ok(br, N, N * rank, 50 + start),
              "reduce_scatter_block_init", start);
        check(block_ok(vr, counts[rank], first, 60 + start), "reduce_scatter_init", start);
    }
    for (int k = 0; k < 2; k++) {
        MPI_Request_free(&req[k]);
        check(req[k] == MPI_REQUEST_NULL, "request_free", k);
    }
    free(counts);
    free(bs);
    free(br);
    free(vs);
    free(vr);
#endif
}

int main(int argc, char **argv)
{
    nbc_start(&argc, &argv);
    waited();
    non_commutative();
    held_up();
    outstanding();
    tested_and_freed();
    persistent();
    return nbc_finish("nbc_reduce_scatter");
}

/*
 * nbc_idup.c - communicators made by MPI_Comm_idup (and MPI-4's MPI_Comm_idup_with_info) get
 * the layer's state when their request completes, so that their first nonblocking collectives
 * are the layer's, not passed to the library (intercept/requests.c, ac_request_idup):
 *
 *  1. MPI_Comm_idup of MPI_COMM_WORLD completed by MPI_Wait, then MPI_Iallreduce on the new
 *     communicator (37 ints, in place and not), then a blocking MPI_Allreduce on it;
 *  2. two duplicates outstanding at once, one of them of the communicator made in 1, with an
 *     MPI_Iallreduce on MPI_COMM_WORLD, completed by one MPI_Waitall in reverse order; then
 *     MPI_Iallreduce on both new ones;
 *  3. completed by an MPI_Test loop, the new communicator's first collective a blocking one;
 *  4. of a communicator split in two (odd and even ranks), completed by MPI_Waitany;
 *  5. a new communicator freed unused, then another duplicated and used (a handle that comes
 *     back must not find a stale state);
 *  6. MPI-4: MPI_Comm_idup_with_info;
 *  7. MPI-4: MPI_Comm_create_from_group of the world's group and of the even ranks' (a blocking
 *     constructor without a parent communicator, intercept/comm_create.c).
 *
 * Every MPI_Iallreduce is checked (the layer's report, read by test_layer.py, says how many the
 * layer ran: all of them, none passed for want of a communicator's state). Prints "nbc_idup: ok"
 * and exits 0, or names the first failing check and exits 1.
 */
#include "nbc_common.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { COUNT = 37 };

static void check(int ok, const char *what)
{
    if (!ok && failures++ < 10) fprintf(stderr, "nbc_idup: rank %d: FAILED %s\n", rank, what);
}

/* MPI_Iallreduce of COUNT ints on comm, in place and not, each checked. */
static void iallreduce_on(MPI_Comm comm, const char *what)
{
    int csize, crank;
    MPI_Comm_size(comm, &csize);
    MPI_Comm_rank(comm, &crank);
    for (int in_place = 0; in_place <= 1; in_place++) {
        int s[COUNT], r[COUNT], ok = 1;
        for (int i = 0; i < COUNT; i++)
            s[i] = r[i] = crank * 1000 + i;
        MPI_Request q;
        MPI_Iallreduce(in_place ? MPI_IN_PLACE : s, r, COUNT, MPI_INT, MPI_SUM, comm, &q);
        MPI_Wait(&q, MPI_STATUS_IGNORE);
        for (int i = 0; i < COUNT; i++)
            ok &= r[i] == 1000 * csize * (csize - 1) / 2 + csize * i;
        check(ok, what);
    }
}

static void allreduce_on(MPI_Comm comm, const char *what)
{
    int csize, one = 1, all = 0;
    MPI_Comm_size(comm, &csize);
    MPI_Allreduce(&one, &all, 1, MPI_INT, MPI_SUM, comm);
    check(all == csize, what);
}

int main(int argc, char **argv)
{
    nbc_start(&argc, &argv);

    /* 1 */
    MPI_Comm a, b, c;
    MPI_Request q[3];
    MPI_Comm_idup(MPI_COMM_WORLD, &a, &q[0]);
    MPI_Wait(&q[0], MPI_STATUS_IGNORE);
    check(q[0] == MPI_REQUEST_NULL, "MPI_Wait leaves MPI_REQUEST_NULL");
    iallreduce_on(a, "1: Iallreduce on an idup'd world");
    allreduce_on(a, "1: Allreduce on it");

    /* 2 */
    int s[COUNT], r[COUNT];
    fill(s, COUNT, 3);
    MPI_Comm_idup(MPI_COMM_WORLD, &b, &q[0]);
    MPI_Comm_idup(a, &c, &q[1]);
    MPI_Iallreduce(s, r, COUNT, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &q[2]);
    MPI_Request reversed[3] = {q[2], q[1], q[0]};
    MPI_Waitall(3, reversed, statuses_ignore());
    check(sum_ok(r, COUNT, 3), "2: Iallreduce on world beside two idups");
    iallreduce_on(b, "2: Iallreduce on the first of two");
    iallreduce_on(c, "2: Iallreduce on an idup of an idup");

    /* 3 */
    MPI_Comm d;
    int done = 0;
    MPI_Comm_idup(MPI_COMM_WORLD, &d, &q[0]);
    while (!done)
        MPI_Test(&q[0], &done, MPI_STATUS_IGNORE);
    allreduce_on(d, "3: Allreduce first");
    iallreduce_on(d, "3: then Iallreduce");

    /* 4 */
    MPI_Comm half, e;
    int index = -1;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
    MPI_Comm_idup(half, &e, &q[0]);
    MPI_Waitany(1, q, &index, MPI_STATUS_IGNORE);
    check(index == 0, "4: Waitany's index");
    iallreduce_on(e, "4: Iallreduce on an idup of a split");

    /* 5 */
    MPI_Comm f, g;
    MPI_Comm_idup(MPI_COMM_WORLD, &f, &q[0]);
    MPI_Wait(&q[0], MPI_STATUS_IGNORE);
    MPI_Comm_free(&f);
    MPI_Comm_idup(half, &g, &q[0]);
    MPI_Wait(&q[0], MPI_STATUS_IGNORE);
    iallreduce_on(g, "5: Iallreduce after a freed idup");

#if MPI_VERSION >= 4
    /* 6 */
    MPI_Comm h;
    MPI_Comm_idup_with_info(MPI_COMM_WORLD, MPI_INFO_NULL, &h, &q[0]);
    MPI_Wait(&q[0], MPI_STATUS_IGNORE);
    iallreduce_on(h, "6: Iallreduce on an idup_with_info");
    MPI_Comm_free(&h);

    /* 7 */
    MPI_Group world_group, evens;
    MPI_Comm from_world, from_evens;
    int size, first_even[1][3] = {{0, 0, 2}};
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    first_even[0][1] = size - 1;
    MPI_Comm_group(MPI_COMM_WORLD, &world_group);
    MPI_Group_range_incl(world_group, 1, first_even, &evens);
    MPI_Comm_create_from_group(world_group, "autocoll.nbc_idup.world", MPI_INFO_NULL,
                               MPI_ERRORS_ARE_FATAL, &from_world);
    iallreduce_on(from_world, "7: Iallreduce on a communicator from the world's group");
    if (rank % 2 == 0) {
        MPI_Comm_create_from_group(evens, "autocoll.nbc_idup.evens", MPI_INFO_NULL,
                                   MPI_ERRORS_ARE_FATAL, &from_evens);
        iallreduce_on(from_evens, "7: Iallreduce on a communicator from the even ranks' group");
        MPI_Comm_free(&from_evens);
    }
    MPI_Comm_free(&from_world);
    MPI_Group_free(&evens);
    MPI_Group_free(&world_group);
#endif

    MPI_Comm_free(&g);
    MPI_Comm_free(&e);
    MPI_Comm_free(&half);
    MPI_Comm_free(&d);
    MPI_Comm_free(&c);
    MPI_Comm_free(&b);
    MPI_Comm_free(&a);
    return nbc_finish("nbc_idup");
}

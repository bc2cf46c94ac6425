/*
 * shm_window.c - the shared-memory window of the shm algorithms (src/coll/common/shm.c): made on
 * a communicator's first use, one memory that every rank sees (what one rank writes before a
 * publish, every rank reads after it, through both halves), grown when a call needs more, freed
 * with the communicator; refused on one rank (AUTOCOLL_TEST_SHM_REFUSE's hook) it is refused on
 * every rank, for good on that communicator, and bcast `shm` then runs the library's bcast with
 * the same result. Run on 1 and 4 ranks of one machine. Prints "shm_window: ok" when every check
 * passed; exit status 1 otherwise.
 */
#include "coll/coll.h"
#include "coll/common/shm.h"

#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int failures;

static void check(int ok, const char *what, int rank)
{
    if (!ok) {
        fprintf(stderr, "shm_window: rank %d: %s\n", rank, what);
        failures++;
    }
}

/* Every rank writes its word of the next half; after the publish every rank reads all words. */
static void exchange(ac_shm *s, MPI_Comm comm, int rank, int size, int salt)
{
    int *half = (int *)ac_shm_next(s);
    half[rank] = 1000 * salt + rank;
    check(ac_shm_publish(s, comm) == MPI_SUCCESS, "publish", rank);
    for (int r = 0; r < size; r++)
        check(half[r] == 1000 * salt + r, "a word another rank wrote", rank);
}

/* 1 when every rank of comm has a window (`have`), 0 when none has; -1 when they disagree. */
static int agreed(int have, MPI_Comm comm)
{
    int all, any;
    MPI_Allreduce(&have, &all, 1, MPI_INT, MPI_MIN, comm);
    MPI_Allreduce(&have, &any, 1, MPI_INT, MPI_MAX, comm);
    return all == any ? all : -1;
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm a, b;
    MPI_Comm_dup(MPI_COMM_WORLD, &a);
    MPI_Comm_dup(MPI_COMM_WORLD, &b);

    ac_shm *s = NULL, *again = NULL;
    check(ac_shm_get(a, 4096, &s) == MPI_SUCCESS && agreed(s != NULL, a) == 1,
          "a window on every rank", rank);
    for (int i = 0; s && i < 6; i++) /* both halves, three times */
        exchange(s, a, rank, size, i + 1);
    check(ac_shm_get(a, 4096, &again) == MPI_SUCCESS && again == s, "the cached window", rank);
    check(ac_shm_get(a, 1 << 20, &s) == MPI_SUCCESS && agreed(s != NULL, a) == 1,
          "the window grown", rank);
    for (int i = 0; s && i < 4; i++)
        exchange(s, a, rank, size, i + 7);

    /* refused on the last rank: refused on every rank, and for good on that communicator */
    ac_coll_set_test_shm_refuse(size - 1);
    check(ac_shm_get(b, 4096, &s) == MPI_SUCCESS && agreed(s != NULL, b) == 0,
          "a window refused on one rank is refused on all", rank);
    ac_coll_set_test_shm_refuse(-1);
    check(ac_shm_get(b, 4096, &s) == MPI_SUCCESS && s == NULL, "refused for good", rank);
    int data[100];
    for (int i = 0; i < 100; i++)
        data[i] = rank == 1 % size ? 7 * i + 3 : -1;
    const ac_algorithm *bcast = ac_registry_find(AC_BCAST, "shm");
    check(bcast && bcast->fn.bcast(data, 100, MPI_INT, 1 % size, b, NULL) == MPI_SUCCESS,
          "bcast shm without a window", rank);
    for (int i = 0; i < 100; i++)
        check(data[i] == 7 * i + 3, "bcast shm without a window: the data", rank);

    MPI_Comm_free(&a); /* frees its window */
    MPI_Comm_free(&b);
    int total;
    MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) printf(total ? "shm_window: %d failures\n" : "shm_window: ok\n", total);
    MPI_Finalize();
    return total != 0;
}

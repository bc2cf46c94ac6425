/*
 * nbc_common.h - what the nonblocking collective tests share (nbc_layer.c, nbc_race.c,
 * nbc_bcast.c, ...): the rank and size of MPI_COMM_WORLD, the failures counted, sums whose result
 * is known, a non-commutative user op, a program's start and end (inline: a test uses what it
 * needs).
 */
#ifndef AUTOCOLL_TESTS_NBC_COMMON_H
#define AUTOCOLL_TESTS_NBC_COMMON_H

#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int rank, size, failures;

/* MPI_STATUSES_IGNORE through a call gcc cannot see into: its stringop-overflow check rejects the
 * constant with MPICH's mpi.h, and the wrappers must be tested with it. */
__attribute__((noinline, unused)) static MPI_Status *statuses_ignore(void)
{
    return MPI_STATUSES_IGNORE;
}

/* x[i] = rank * 1000 + i + salt on every rank: the sum is known */
static inline void fill(int *x, int n, int salt)
{
    for (int i = 0; i < n; i++)
        x[i] = rank * 1000 + i + salt;
}

static inline int sum_ok(const int *x, int n, int salt)
{
    for (int i = 0; i < n; i++)
        if (x[i] != 1000 * size * (size - 1) / 2 + size * (i + salt)) return 0;
    return 1;
}

/* 2x2 integer matrices, C = A * B row-major: not commutative */
static inline void matmul(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    int *a = in, *b = inout;
    for (int k = 0; k < *len; k++, a += 4, b += 4) {
        int c[4] = {a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3],
                    a[2] * b[0] + a[3] * b[2], a[2] * b[1] + a[3] * b[3]};
        memcpy(b, c, sizeof c);
    }
}

/* MPI's progress rule, with each rank in turn the one held up: every rank but `held` waits for
 * *req; then the next rank after `held` sends it a token, which `held` receives with MPI_Recv
 * before it waits for *req itself. So the others can complete the collective only if `held`'s
 * part advances while it sits in MPI_Recv (a schedule whose first round completes as it is
 * posted, its messages all from or to MPI_PROC_NULL, once left `held` blocked there for good:
 * the pair alltoall's last rank at 5 ranks). */
static inline void wait_behind_message(MPI_Request *req, int held)
{
    int token = held;
    if (size > 1 && rank == held) {
        MPI_Recv(&token, 1, MPI_INT, (held + 1) % size, 17, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (token != held) failures++;
    }
    MPI_Wait(req, MPI_STATUS_IGNORE);
    if (size > 1 && rank == (held + 1) % size)
        MPI_Send(&token, 1, MPI_INT, held, 17, MPI_COMM_WORLD);
}

/* The start of a test program: MPI initialised, rank and size of MPI_COMM_WORLD set. */
static inline void nbc_start(int *argc, char ***argv)
{
    MPI_Init(argc, argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
}

/* The end of a test program: every rank's failures summed, "<name>: ok" printed by rank 0
 * where there were none, MPI finalised; main's exit status. */
static inline int nbc_finish(const char *name)
{
    int all;
    MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0 && all == 0) printf("%s: ok\n", name);
    MPI_Finalize();
    return all != 0;
}

#endif

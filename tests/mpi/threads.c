/*
 * threads.c - the layer under MPI_THREAD_MULTIPLE: several threads per rank, each on its own
 * communicator (duplicated in order on the main thread, so every rank pairs them alike), call
 * collectives from more call sites than the layer's site cache holds (SITES > 256) and make
 * and free a communicator of their own every iteration (the private state's creation and
 * deletion, the attribute cache). Every result is checked. Under ThreadSanitizer
 * (AUTOCOLL_TSAN, scripts/test) a report of a race in the layer fails the run.
 *
 *   threads [threads [iterations]]   (default 3 threads, 3 iterations)
 *
 * Prints "threads: N checks, F failed" on rank 0; exits 1 if any check failed.
 */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define MAX_THREADS 8
#define SITES 320
#define N 4
/* Communicators made, used and freed per thread and iteration: with 3 threads and 3 iterations
 * more than the 16 freed ones the report keeps whole, so that freed communicators are folded
 * (core/state.c) while other threads run. */
#define CHURN 8

typedef struct worker {
    int index;
    int iterations;
    MPI_Comm comm;
    long checks, failed;
} worker;

/* Which site ran last: a store after each call keeps the compiler from merging the SITES
 * calls into one (each must be a call instruction of its own: a call site). */
static _Thread_local volatile int last_site;

/* One MPI_Allreduce from call site `k` of SITES. */
static __attribute__((noinline)) int allreduce_at(int k, const int *in, int *out, MPI_Comm comm)
{
    int rc = MPI_ERR_OTHER;
#define SITE(k)                                                                                 \
    case (k):                                                                                   \
        rc = MPI_Allreduce(in, out, N, MPI_INT, MPI_SUM, comm);                                 \
        last_site = (k);                                                                        \
        break;
#define SITE4(k) SITE(k) SITE(k + 1) SITE(k + 2) SITE(k + 3)
#define SITE16(k) SITE4(k) SITE4(k + 4) SITE4(k + 8) SITE4(k + 12)
#define SITE64(k) SITE16(k) SITE16(k + 16) SITE16(k + 32) SITE16(k + 48)
    switch (k) {
        SITE64(0)
        SITE64(64)
        SITE64(128)
        SITE64(192)
        SITE64(256)
    }
    return rc;
}

static void check(worker *w, int ok)
{
    w->checks++;
    w->failed += !ok;
}

/* Every site once, then a few again and again (a repeating pattern: the layer learns and
 * predicts it), an 8-byte broadcast, then CHURN communicators of this iteration's own. */
static void *work(void *arg)
{
    worker *w = arg;
    int rank, size;
    MPI_Comm_rank(w->comm, &rank);
    MPI_Comm_size(w->comm, &size);
    for (int it = 0; it < w->iterations; it++) {
        int in[N], out[N];
        for (int k = 0; k < SITES + 64; k++) {
            int site = k < SITES ? k : k % 4;
            for (int i = 0; i < N; i++)
                in[i] = (rank + 1) * (site + i + 1) + w->index;
            int rc = allreduce_at(site, in, out, w->comm);
            int ok = rc == MPI_SUCCESS;
            for (int i = 0; i < N; i++)
                ok &= out[i] == size * (size + 1) / 2 * (site + i + 1) + size * w->index;
            check(w, ok);
        }
        double value[1] = {rank == 0 ? 1000.0 * w->index + it : -1.0};
        check(w, MPI_Bcast(value, 1, MPI_DOUBLE, 0, w->comm) == MPI_SUCCESS &&
                     value[0] == 1000.0 * w->index + it);
        for (int c = 0; c < CHURN; c++) {
            MPI_Comm churn;
            if (MPI_Comm_dup(w->comm, &churn) != MPI_SUCCESS) {
                check(w, 0);
                continue;
            }
            for (int k = 0; k < 8; k++) {
                int one = rank + k, sum = 0;
                check(w, MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, churn) == MPI_SUCCESS &&
                             sum == size * (size - 1) / 2 + size * k);
            }
            MPI_Comm_free(&churn);
        }
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int provided, rank;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (provided < MPI_THREAD_MULTIPLE) {
        if (rank == 0) fprintf(stderr, "threads: the MPI library gives no MPI_THREAD_MULTIPLE\n");
        MPI_Finalize();
        return 1;
    }
    int nthreads = argc > 1 ? atoi(argv[1]) : 3, iterations = argc > 2 ? atoi(argv[2]) : 3;
    if (nthreads < 1 || nthreads > MAX_THREADS) nthreads = 3;
    worker w[MAX_THREADS];
    pthread_t tid[MAX_THREADS];
    for (int t = 0; t < nthreads; t++) {
        w[t] = (worker){.index = t, .iterations = iterations};
        MPI_Comm_dup(MPI_COMM_WORLD, &w[t].comm);
    }
    for (int t = 0; t < nthreads; t++)
        pthread_create(&tid[t], NULL, work, &w[t]);
    long checks = 0, failed = 0;
    for (int t = 0; t < nthreads; t++) {
        pthread_join(tid[t], NULL);
        checks += w[t].checks;
        failed += w[t].failed;
        MPI_Comm_free(&w[t].comm);
    }
    long mine[2] = {checks, failed}, all[2];
    MPI_Reduce(mine, all, 2, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0) printf("threads: %ld checks, %ld failed\n", all[0], all[1]);
    MPI_Finalize();
    return rank == 0 && all[1] ? 1 : 0;
}

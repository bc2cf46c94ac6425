/*
 * comm_memory.c - memory per communicator made, used and freed (issue 41, item 4): codes that
 * make a communicator per solve run for days, so what the layer keeps of a freed communicator
 * must be bounded. Each cycle duplicates MPI_COMM_WORLD, runs an allreduce from two call sites
 * and a bcast on it, and frees it. The resident set size (/proc/self/statm) is read after
 * `warmup` cycles and again after `cycles` more; the program prints the growth per cycle, which
 * the test (tests/tools/test_memory.py) compares with the same run without the layer. `calls`
 * repeats the first allreduce, so that a strategy that learns has something to keep.
 *   comm_memory [cycles [warmup [calls]]]
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static long rss_bytes(void)
{
    long pages = 0, resident = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (!f) return -1;
    if (fscanf(f, "%ld %ld", &pages, &resident) != 2) resident = -1;
    fclose(f);
    return resident < 0 ? -1 : resident * sysconf(_SC_PAGESIZE);
}

static int cycle(long calls)
{
    MPI_Comm c;
    int size, one = 1, sum = 0, other = 0, root = 7;
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    MPI_Comm_size(c, &size);
    for (long i = 0; i < calls; i++)
        MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, c);
    MPI_Allreduce(&one, &other, 1, MPI_INT, MPI_SUM, c); /* a second call site */
    MPI_Bcast(&root, 1, MPI_INT, 0, c);
    MPI_Comm_free(&c);
    return sum != size || other != size || root != 7;
}

int main(int argc, char **argv)
{
    int rank, errors = 0;
    long cycles = argc > 1 ? atol(argv[1]) : 2000, warmup = argc > 2 ? atol(argv[2]) : 500,
         calls = argc > 3 ? atol(argv[3]) : 1;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (long i = 0; i < warmup; i++)
        errors += cycle(calls);
    long before = rss_bytes();
    for (long i = 0; i < cycles; i++)
        errors += cycle(calls);
    long after = rss_bytes();
    long mine[2] = {after - before, errors}, most[2];
    MPI_Reduce(mine, most, 2, MPI_LONG, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("comm_memory: %ld cycles, rss growth %.1f bytes/cycle, %s\n", cycles,
               (double)most[0] / (double)cycles, most[1] ? "WRONG" : "ok");
    MPI_Finalize();
    return errors != 0;
}

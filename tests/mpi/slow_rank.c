/*
 * slow_rank.c - adaptation to a transient: a run-time strategy must move away from the
 * algorithms that route data through a rank while that rank is slow, and come back after
 * (the Berkeley report's section 6.1.2 example: a chain tree through a busy node).
 *
 * A loop of MPI_Bcast from root 0 through the layer (this program is linked with the layer,
 * so it reads the algorithm of every call from the layer's state) in three phases: normal
 * (--calls calls), one non-root rank slowed (--calls), normal again (four times --calls: a
 * strategy that measures a left algorithm again at doubling intervals, as both do, comes back
 * within about as many calls as the slowness lasted, and within twice that where one recheck
 * met a burst of the machine's noise and doubled the interval once more: the late half of the
 * phase starts after both). The slowing is done by the test-only preload
 * tests/support/slow_sends.c (AUTOCOLL_TEST_SLOW_RANK, AUTOCOLL_TEST_SLOW_SECONDS, and an
 * emulated latency AUTOCOLL_TEST_LATENCY_SECONDS so that costs follow the algorithms' critical
 * paths), switched on and off here at the same iteration on every rank.
 *
 * Which algorithms route data through the slow rank is an argument, so that new trees (e.g. a
 * chain) need no change here: --through NAME[,NAME...], a trailing '*' matching a prefix
 * (default: THROUGH_DEFAULT below; flat trees, where only the root sends, are not in it). Checks, in the late half of each phase:
 *   normal:  at least --min-through (0.6) of the calls ran an algorithm through the slow rank
 *            or one that ties with the best of them when no rank is slow (--ties, default
 *            TIES_DEFAULT: with the emulated latency those are the fast ones);
 *   slow:    at most --max-through (0.2) ran one through the slow rank;
 *   normal:  at least --min-through did again (the strategy came back);
 * The ties exist because at 4 ranks the binary tree (0 -> 1 -> 2, 0 -> 3) has the binomial
 * tree's critical path (two latencies) without routing through rank 2: a strategy may settle on
 * either in a normal phase, and which it takes is noise. Counting them keeps the check of the
 * set-up and of the return honest: a strategy must still leave rank 2 while it is slow, and
 * must not stay on a slower algorithm afterwards.
 * and every rank ran the same algorithm at every call (invariant 1), and the data arrived.
 *
 *   slow_rank [--calls N] [--through LIST] [--ties LIST] [--bytes N] [--min-through X]
 *             [--max-through X]
 * Prints "slow_rank: ok" and a per-phase summary on rank 0; exit status 1 on a failed check.
 */
#include "coll/coll.h"
#include "core/state.h"
#include "select/select.h"

#include <dlfcn.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PHASES 3

/* The bcast algorithms in which rank 2 of 4 sends, root 0: the library's own (charged as a
 * binomial tree by the preload), binomial trees (0 -> 2 -> 3), chains (0 -> 1 -> 2 -> 3), the
 * scatter + allgather ones and the 2 x 2 meshes (the root's column 0 -> 2, then the rows
 * 0 -> 1 and 2 -> 3, whatever the phase algorithm), and shm (through the node's shared memory:
 * every chunk waits for a barrier of every rank, which the preload charges as the library's
 * dissemination barrier, rank 2 sending in each round). Flat and 4-nomial trees (only the root
 * sends) and binary trees (pre-order: rank 2 is a leaf under rank 1) do not route through it. */
#define THROUGH_DEFAULT "native,binomial_tree*,chain_tree*,scatter_*,orthogonal_2xn_*,shm"
/* Not through rank 2 but as fast as the fastest that are when no rank is slow (see above). */
#define TIES_DEFAULT "binary_tree*"

/* `name` is in the comma-separated `list`; an entry ending in '*' matches every name that
 * starts with the rest of it. */
static int in_list(const char *name, const char *list)
{
    size_t n = strlen(name);
    for (const char *p = list; *p;) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len == n && strncmp(p, name, n) == 0) return 1;
        if (len > 0 && p[len - 1] == '*' && n >= len - 1 && strncmp(p, name, len - 1) == 0)
            return 1;
        if (!end) break;
        p = end + 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    long calls = 1000, bytes = 8;
    const char *through = THROUGH_DEFAULT, *ties = TIES_DEFAULT;
    double min_through = 0.6, max_through = 0.2;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--calls"))
            calls = atol(argv[i + 1]);
        else if (!strcmp(argv[i], "--through"))
            through = argv[i + 1];
        else if (!strcmp(argv[i], "--ties"))
            ties = argv[i + 1];
        else if (!strcmp(argv[i], "--bytes"))
            bytes = atol(argv[i + 1]);
        else if (!strcmp(argv[i], "--min-through"))
            min_through = atof(argv[i + 1]);
        else if (!strcmp(argv[i], "--max-through"))
            max_through = atof(argv[i + 1]);
    }
    MPI_Init(&argc, &argv);
    int rank, size, failed = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    void (*slow)(int) = (void (*)(int))dlsym(RTLD_DEFAULT, "autocoll_test_slow_sends");
    if (!slow || calls < 10 || bytes < 1) {
        if (rank == 0)
            fprintf(stderr, "slow_rank: %s\n",
                    !slow ? "run with the slow_sends preload (AUTOCOLL_TEST_PRELOAD)"
                          : "bad arguments");
        MPI_Finalize();
        return 1;
    }
    ac_algorithm_list reg = ac_registry_for_size(AC_BCAST, size);
    long start[PHASES + 1] = {0, calls, 2 * calls, 6 * calls}, total = start[PHASES];
    double seconds[PHASES] = {0};
    int *algs = malloc(sizeof(int) * 2 * (size_t)total);
    unsigned char *buf = malloc((size_t)bytes);
    long bad_data = 0;
    const char *slow_name = getenv("AUTOCOLL_TEST_SLOW_RANK");
    for (int phase = 0; phase < PHASES; phase++) {
        slow(phase == 1);
        PMPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        for (long k = start[phase]; k < start[phase + 1]; k++) {
            for (long b = 0; b < bytes; b++)
                buf[b] = rank == 0 ? (unsigned char)(k * 7 + b) : 0;
            ac_select_clear_last_algorithm();
            MPI_Bcast(buf, (int)bytes, MPI_BYTE, 0, MPI_COMM_WORLD);
            for (long b = 0; b < bytes; b++)
                bad_data += buf[b] != (unsigned char)(k * 7 + b);
            algs[k] = ac_select_last_algorithm()
                          ? ac_algorithm_list_index(reg, ac_select_last_algorithm())
                          : -1;
        }
        seconds[phase] = MPI_Wtime() - t0;
    }
    slow(0);

    /* Invariant 1: the maximum and the minimum over the ranks of every call's algorithm. */
    for (long k = 0; k < total; k++)
        algs[total + k] = -algs[k];
    PMPI_Allreduce(MPI_IN_PLACE, algs, (int)(2 * total), MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    PMPI_Allreduce(MPI_IN_PLACE, &bad_data, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) {
        long differ = 0;
        for (long k = 0; k < total; k++)
            differ += algs[k] != -algs[total + k] || algs[k] < 0;
        if (differ) {
            printf("slow_rank: FAILED: ranks ran different algorithms (or none) at %ld calls\n",
                   differ);
            failed = 1;
        }
        if (bad_data) {
            printf("slow_rank: FAILED: %ld wrong bytes received\n", bad_data);
            failed = 1;
        }
        static const char *const names[PHASES] = {"normal", "slow", "normal again"};
        for (int phase = 0; phase < PHASES; phase++) {
            long from = (start[phase] + start[phase + 1]) / 2, to = start[phase + 1], hits = 0,
                 tied = 0;
            long *counts = calloc((size_t)reg.count, sizeof *counts);
            if (!counts) MPI_Abort(MPI_COMM_WORLD, 1);
            for (long k = from; k < to; k++) {
                if (algs[k] >= 0 && algs[k] < reg.count) counts[algs[k]]++;
                hits += algs[k] >= 0 && in_list(reg.algorithms[algs[k]]->name, through);
                tied += algs[k] >= 0 && in_list(reg.algorithms[algs[k]]->name, ties);
            }
            double share = (double)hits / (double)(to - from),
                   fast = (double)(hits + tied) / (double)(to - from);
            printf("slow_rank: %-12s %5ld calls, %6.3f ms a call; late half: %5.1f %% through "
                   "rank %s, %5.1f %% with the ties (",
                   names[phase], start[phase + 1] - start[phase],
                   1e3 * seconds[phase] / (double)(start[phase + 1] - start[phase]), 100.0 * share,
                   slow_name ? slow_name : "(none)", 100.0 * fast);
            for (int a = 0, first = 1; a < reg.count; a++)
                if (counts[a]) {
                    printf("%s%s %ld", first ? "" : ", ", reg.algorithms[a]->name, counts[a]);
                    first = 0;
                }
            printf(")\n");
            free(counts);
            int ok = phase == 1 ? share <= max_through : fast >= min_through;
            if (!ok) {
                printf("slow_rank: FAILED: phase '%s' wants %s %.0f %% through the slow rank%s\n",
                       names[phase], phase == 1 ? "at most" : "at least",
                       100.0 * (phase == 1 ? max_through : min_through),
                       phase == 1 ? "" : " (or its ties)");
                failed = 1;
            }
        }
        if (!failed) printf("slow_rank: ok (%ld calls per phase, %d ranks)\n", calls, size);
    }
    PMPI_Bcast(&failed, 1, MPI_INT, 0, MPI_COMM_WORLD);
    free(algs);
    free(buf);
    MPI_Finalize();
    return failed;
}

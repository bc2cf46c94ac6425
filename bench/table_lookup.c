/*
 * table_lookup.c - the cost of one configuration-table lookup (ac_table_choice, table.h), the
 * work the `table` strategy does when a call opens a tuning context. No MPI job: the table is
 * parsed from text made here (format version 2), the size of a full `autocoll tune` sweep by
 * default (24 message sizes, 1 B to 8 MiB, x 4 process-count bands, every rule a different
 * interval, so nothing is merged), and looked up for random (process count, message size)
 * pairs. Every rule lists three algorithms, as a generalising table does: a mesh layout first
 * (orthogonal_4xn_recursive_doubling: applicable where 4 divides the size into lines of at
 * least 2, its phase checked on every line), then recursive_doubling or ring, then native. The
 * first applicable one is the answer, so the time includes the applicability checks
 * (ac_applicable) of those before it.
 *
 *   table_lookup [sizes] [bands] [lookups]   (default 24 4 10000000)
 *
 * Prints the nanoseconds per lookup of 5 repetitions (median, min, max), in wall time and in
 * this thread's CPU time (on a loaded machine the wall time also counts the time the core ran
 * other processes).
 */
#include "coll/coll.h"
#include "select/table.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Seconds on `clock`: CLOCK_MONOTONIC (wall) or CLOCK_THREAD_CPUTIME_ID (this thread's CPU
 * time, which leaves out the time other processes of a loaded machine took the core). */
static double now(clockid_t clock)
{
    struct timespec t;
    clock_gettime(clock, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Rules of one collective: bands x sizes intervals, each a mesh layout, then ring or
 * recursive_doubling, then native. */
static char *make_table(int sizes, int bands)
{
    size_t cap = 256 + (size_t)sizes * (size_t)bands * 240, len = 0;
    char *text = malloc(cap);
    if (!text) return NULL;
    len += (size_t)snprintf(text + len, cap - len,
                            "{\"schema\": \"autocoll-table\", \"version\": 2, "
                            "\"registry_fingerprint\": \"%016lx\", \"rules\": [",
                            ac_registry_fingerprint());
    for (int b = 0; b < bands; b++)
        for (int s = 0; s < sizes; s++) {
            char rhi[24] = "null", bhi[24] = "null"; /* the last band and size: no limit */
            if (b < bands - 1) snprintf(rhi, sizeof rhi, "%ld", (2L << (b + 1)) - 1);
            if (s < sizes - 1) snprintf(bhi, sizeof bhi, "%ld", (1L << s) - 1);
            len += (size_t)snprintf(
                text + len, cap - len,
                "%s{\"collective\": \"allreduce\", \"ranks\": [%ld, %s], \"bytes\": [%ld, %s], "
                "\"algorithms\": [\"orthogonal_4xn_recursive_doubling\", \"%s\", "
                "\"native\"]}",
                b || s ? ", " : "", 2L << b, rhi, s ? 1L << (s - 1) : 0L, bhi,
                (b + s) % 2 ? "ring" : "recursive_doubling");
        }
    snprintf(text + len, cap - len, "]}");
    return text;
}

int main(int argc, char **argv)
{
    int sizes = argc > 1 ? atoi(argv[1]) : 24, bands = argc > 2 ? atoi(argv[2]) : 4;
    long lookups = argc > 3 ? atol(argv[3]) : 10000000L;
    if (sizes < 1 || sizes > 40 || bands < 1 || bands > 20 || lookups < 1) {
        fprintf(stderr, "usage: table_lookup [sizes 1-40] [bands 1-20] [lookups]\n");
        return 2;
    }
    char *text = make_table(sizes, bands), why[256] = "";
    ac_table *t = text ? ac_table_parse(text, ac_registry_fingerprint(), NULL, why, sizeof why) : NULL;
    free(text);
    if (!t) {
        fprintf(stderr, "table_lookup: %s\n", why);
        return 1;
    }
    /* the queries, made before timing: a process count in the bands, a size in the sizes (an
     * allreduce of doubles, a built-in commutative op) */
    enum { QUERIES = 4096 };
    static ac_call calls[QUERIES];
    unsigned long long z = 88172645463325252ull;
    for (int i = 0; i < QUERIES; i++) {
        z ^= z << 13, z ^= z >> 7, z ^= z << 17;
        unsigned long long b = (z >> 20) % (1ull << (sizes - 1));
        calls[i] = (ac_call){.collective = AC_ALLREDUCE,
                             .size = 2 + (int)(z % (unsigned long long)((2 << bands) - 2)),
                             .count = (int)(b / 8), .op_builtin = 1, .op_commutative = 1,
                             .bytes = b};
    }
    double ns[5], cpu[5];
    long hits = 0, meshes = 0;
    const ac_algorithm *mesh = ac_registry_find(AC_ALLREDUCE, "orthogonal_4xn_recursive_doubling");
    for (int r = 0; r < 5; r++) {
        double t0 = now(CLOCK_MONOTONIC), c0 = now(CLOCK_THREAD_CPUTIME_ID);
        for (long i = 0; i < lookups; i++) {
            const ac_call *call = &calls[i % QUERIES];
            const ac_algorithm *a = ac_table_choice(t, call, call->bytes);
            hits += a != NULL;
            meshes += a == mesh;
        }
        ns[r] = (now(CLOCK_MONOTONIC) - t0) * 1e9 / (double)lookups;
        cpu[r] = (now(CLOCK_THREAD_CPUTIME_ID) - c0) * 1e9 / (double)lookups;
    }
    qsort(ns, 5, sizeof ns[0], cmp_double);
    qsort(cpu, 5, sizeof cpu[0], cmp_double);
    printf("table_lookup: %d rules (%d sizes x %d bands, 3 algorithms each), %ld lookups x 5: "
           "%.1f ns per lookup (min %.1f, max %.1f), CPU time %.1f ns (min %.1f, max %.1f); "
           "%ld found an algorithm, %ld of them the mesh layout\n",
           sizes * bands, sizes, bands, lookups, ns[2], ns[0], ns[4], cpu[2], cpu[0], cpu[4], hits,
           meshes);
    ac_table_free(t);
    return hits == 5 * lookups ? 0 : 1;
}

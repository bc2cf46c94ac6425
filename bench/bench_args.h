/*
 * bench_args.h - what the plain-MPI micro-benchmarks of bench/ (pingpong.c, msgrate.c,
 * osu_collective.c) share: reading sizes, counts and their loop options from the command line,
 * and the median.
 * They link no autocoll code, so these are static inline functions of each program.
 */
#ifndef AUTOCOLL_BENCH_ARGS_H
#define AUTOCOLL_BENCH_ARGS_H

#include <limits.h>
#include <stdlib.h>
#include <string.h>

static inline int bench_compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* "4M" -> 4194304; -1 on anything but a non-negative integer with an optional K or M, or on a
 * size that is not an int count of MPI_BYTE. */
static inline long bench_parse_size(const char *text)
{
    char *end;
    long value = strtol(text, &end, 10);
    long unit = 1;
    if (end == text || value < 0) return -1;
    if (*end == 'K' || *end == 'k') unit = 1024, end++;
    else if (*end == 'M' || *end == 'm') unit = 1024 * 1024, end++;
    if (*end != '\0' || value > INT_MAX / unit) return -1;
    return value * unit;
}

/* A non-negative count; -1 otherwise. */
static inline long bench_parse_count(const char *text)
{
    char *end;
    long value = strtol(text, &end, 10);
    return end == text || *end != '\0' || value < 0 ? -1 : value;
}

/* The options every program here takes: `--iterations N` (N > 0) and `--warmup N`. At
 * argv[*i]: 1 when it was one of them (its value read into *iterations or *warmup, *i moved
 * past it), 0 when it is something else, -1 on a missing or bad value. */
static inline int bench_loop_option(int argc, char **argv, int *i, long *iterations,
                                    long *warmup)
{
    long *count = strcmp(argv[*i], "--iterations") == 0 ? iterations
                  : strcmp(argv[*i], "--warmup") == 0   ? warmup
                                                        : NULL;
    if (!count) return 0;
    *count = *i + 1 < argc ? bench_parse_count(argv[++*i]) : -1;
    return *count < 0 || (count == iterations && *count == 0) ? -1 : 1;
}

/* The median of n > 0 values (sorted in place). */
static inline double bench_median(double *values, long n)
{
    qsort(values, (size_t)n, sizeof *values, bench_compare_doubles);
    return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

#endif

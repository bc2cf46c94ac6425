/*
 * test_adcl_search.c - ADCL's selection (src/adcl/search.c) on one rank with synthetic times:
 * the outlier filter, brute force (every applicable function, never an inapplicable one, the
 * fastest wins), the attribute-based search (the fastest of separable costs with fewer
 * functions measured), forcing, an outlier that must not decide, and the warm start.
 * The agreement's MPI_Allreduce is replaced below (one rank: the maximum is the value itself).
 */
#include "adcl/search.h"
#include "check.h"

#include <math.h>
#include <mpi.h>

int PMPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op,
                   MPI_Comm comm)
{
    (void)sendbuf, (void)recvbuf, (void)count, (void)type, (void)op, (void)comm;
    return MPI_SUCCESS; /* in place on one rank */
}

#define SAMPLES 5

/* Runs the search to its decision with cost(f, k) for the k-th measurement of f; returns the
 * calls it took, or -1 when it ran an inapplicable function or did not decide. */
static int run(ac_adcl_search *s, const int *applicable, double (*cost)(int, int))
{
    int seen[32] = {0};
    for (int call = 0; call < 1000; call++) {
        if (s->decided) return call;
        int f = s->current;
        if (!applicable[f]) return -1;
        ac_adcl_search_record(s, cost(f, seen[f]++), MPI_COMM_SELF);
    }
    return -1;
}

static double brute_cost(int f, int k)
{
    static const double c[5] = {5, 3, 4, 1, 2};
    (void)k;
    return c[f];
}

/* Separable costs of 2 x 3 functions: attribute 0 (2 values) + attribute 1 (3 values). */
static const int grid_values[6][2] = {{0, 0}, {0, 1}, {0, 2}, {1, 0}, {1, 1}, {1, 2}};
static double grid_cost(int f, int k)
{
    static const double a[2] = {2, 1}, b[3] = {3, 1, 2};
    (void)k;
    return a[grid_values[f][0]] + b[grid_values[f][1]];
}

/* Function 0 is the fastest but one of its measurements is an outlier. */
static double spike_cost(int f, int k)
{
    if (f == 0) return k == 2 ? 100.0 : 1.0;
    return 1.5;
}

int main(void)
{
    ac_adcl_search s;
    const int all[6] = {1, 1, 1, 1, 1, 1};

    /* The filter: one outlier in five (20 %) is dropped, three in five are real. */
    CHECK(ac_adcl_statistic((const double[]){1, 1, 1, 1, 10}, 5) == 1.0);
    CHECK(fabs(ac_adcl_statistic((const double[]){1, 1, 10, 10, 10}, 5) - 6.4) < 1e-12);
    CHECK(ac_adcl_statistic((const double[]){2, 2, 2}, 3) == 2.0);

    /* Brute force: function 3 (the cheapest) is inapplicable; 4 must win after 4 x SAMPLES. */
    const int applicable[5] = {1, 1, 1, 0, 1};
    CHECK(ac_adcl_search_init(&s, AC_ADCL_BRUTE_FORCE, 5, 0, NULL, applicable, -1, SAMPLES, 1, 0.0,
                              MPI_COMM_SELF) == MPI_SUCCESS);
    CHECK(run(&s, applicable, brute_cost) == 4 * SAMPLES);
    CHECK(s.current == 4 && s.measured == 4 && s.selection_calls == 4 * SAMPLES);
    ac_adcl_search_free(&s);

    /* Attribute search: the cheapest of separable costs, {1, 1} (index 4), with fewer
     * functions measured than the 6 of brute force. */
    const int *values[6];
    for (int f = 0; f < 6; f++) values[f] = grid_values[f];
    CHECK(ac_adcl_search_init(&s, AC_ADCL_ATTRIBUTE, 6, 2, values, all, -1, SAMPLES, 1, 0.0,
                              MPI_COMM_SELF) == MPI_SUCCESS);
    CHECK(run(&s, all, grid_cost) > 0);
    CHECK(s.current == 4);
    CHECK(s.measured < 6);
    ac_adcl_search_free(&s);

    /* Factorial: the 2 x 2 design of the first two levels (4 runs) keeps level 1 of both
     * attributes, then the attribute search compares what remains of the second: {1, 1} after
     * 5 functions measured. */
    CHECK(ac_adcl_search_init(&s, AC_ADCL_FACTORIAL, 6, 2, values, all, -1, SAMPLES, 1, 0.0,
                              MPI_COMM_SELF) == MPI_SUCCESS);
    CHECK(run(&s, all, grid_cost) == 5 * SAMPLES);
    CHECK(s.current == 4 && s.measured == 5);
    ac_adcl_search_free(&s);

    /* Brute force on the same functions measures all six and agrees. */
    CHECK(ac_adcl_search_init(&s, AC_ADCL_BRUTE_FORCE, 6, 2, values, all, -1, SAMPLES, 1, 0.0,
                              MPI_COMM_SELF) == MPI_SUCCESS);
    CHECK(run(&s, all, grid_cost) == 6 * SAMPLES && s.current == 4 && s.measured == 6);
    ac_adcl_search_free(&s);

    /* Race: 2 calls a round; round 1 drops what is slower than 1.5 x the best (2), round 2
     * what is slower than 1.25 x: {1, 1} is left after 6 x 2 + 3 x 2 calls. */
    CHECK(ac_adcl_search_init(&s, AC_ADCL_RACE, 6, 2, values, all, -1, 2, 4, 0.5,
                              MPI_COMM_SELF) == MPI_SUCCESS);
    CHECK(run(&s, all, grid_cost) == 18);
    CHECK(s.current == 4 && s.measured == 6);
    ac_adcl_search_free(&s);

    /* Forced: decided from the start, nothing measured. */
    CHECK(ac_adcl_search_init(&s, AC_ADCL_FORCED, 6, 2, values, all, 2, SAMPLES, 1, 0.0,
                              MPI_COMM_SELF) == MPI_SUCCESS);
    CHECK(s.decided && s.current == 2 && run(&s, all, grid_cost) == 0);
    ac_adcl_search_free(&s);

    /* One outlier does not make the fastest function lose. */
    CHECK(ac_adcl_search_init(&s, AC_ADCL_BRUTE_FORCE, 2, 0, NULL, all, -1, SAMPLES, 1, 0.0,
                              MPI_COMM_SELF) == MPI_SUCCESS);
    CHECK(run(&s, all, spike_cost) == 2 * SAMPLES && s.current == 0);
    ac_adcl_search_free(&s);

    /* Warm start (history): the best known applicable function from the first call, nothing
     * measured; an inapplicable function known as faster is not chosen; nothing known, a
     * forced function or a search already under way: no warm start. */
    const double known[5] = {4, -1, 2, 1, 3}; /* 3 is inapplicable */
    const double unknown[6] = {-1, -1, -1, -1, -1, -1};
    CHECK(ac_adcl_search_init(&s, AC_ADCL_BRUTE_FORCE, 5, 0, NULL, applicable, -1, SAMPLES, 1,
                              0.0, MPI_COMM_SELF) == MPI_SUCCESS);
    CHECK(ac_adcl_search_warm(&s, known) == 1);
    CHECK(s.warm && s.decided && s.current == 2 && run(&s, applicable, brute_cost) == 0);
    CHECK(s.measured == 0 && s.selection_calls == 0);
    ac_adcl_search_free(&s);
    CHECK(ac_adcl_search_init(&s, AC_ADCL_ATTRIBUTE, 6, 2, values, all, -1, SAMPLES, 1, 0.0,
                              MPI_COMM_SELF) == MPI_SUCCESS);
    CHECK(ac_adcl_search_warm(&s, unknown) == 0 && !s.warm && !s.decided);
    CHECK(run(&s, all, grid_cost) > 0 && s.current == 4);
    ac_adcl_search_free(&s);
    CHECK(ac_adcl_search_init(&s, AC_ADCL_FORCED, 5, 0, NULL, all, 0, SAMPLES, 1, 0.0,
                              MPI_COMM_SELF) == MPI_SUCCESS);
    CHECK(ac_adcl_search_warm(&s, known) == 0 && s.current == 0 && !s.warm);
    ac_adcl_search_free(&s);
    CHECK(ac_adcl_search_init(&s, AC_ADCL_BRUTE_FORCE, 5, 0, NULL, applicable, -1, SAMPLES, 1,
                              0.0, MPI_COMM_SELF) == MPI_SUCCESS);
    ac_adcl_search_record(&s, 1.0, MPI_COMM_SELF);
    CHECK(ac_adcl_search_warm(&s, known) == 0 && !s.decided);
    ac_adcl_search_free(&s);

    if (failures == 0) printf("test_adcl_search: ok\n");
    return failures != 0;
}
